/** The administration chunk (/admin/…). */
export { AdminHomePage } from './AdminHomePage';
