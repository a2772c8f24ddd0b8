/** The Research Portal chunk (/provider-research/{accountId}/…). */
export { ResearchHomePage } from './ResearchHomePage';
