/** The Research Portal chunk (/provider-research/{accountId}/…). */
export { ResearchHomePage } from './ResearchHomePage';
export { ResearchOrderPage } from './ResearchOrderPage';
export { ResearchTestsPage } from './ResearchTestsPage';
export { ParticipantPage } from './ParticipantPage';
