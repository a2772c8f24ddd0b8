/** Where each admin page lives (SPEC §2 routes; the job monitor is ours). */
import { ADMIN_HOME_PATH } from '../../portals';

const PROVIDER = `${ADMIN_HOME_PATH}/provider`;

export const ADMIN_PATHS = {
  approve: `${PROVIDER}/approve`,
  register: `${PROVIDER}/register`,
  newAccount: `${PROVIDER}/account/new`,
  accounts: `${PROVIDER}/accounts`,
  users: `${PROVIDER}/users`,
  labToolbox: `${PROVIDER}/lab-toolbox`,
  insurance: `${PROVIDER}/insurance`,
  financialAid: `${PROVIDER}/financial-aid`,
  emails: `${PROVIDER}/emails`,
  jobs: `${PROVIDER}/jobs`,
  apiClients: `${PROVIDER}/api-clients`,
  hl7: `${PROVIDER}/hl7`,
  publicHealth: `${PROVIDER}/public-health`,
  auditTrail: `${PROVIDER}/audit-trail`,
  patientRelease: `${PROVIDER}/patient-release`,
  turnaroundTargets: `${PROVIDER}/turnaround-targets`,
  researchProjects: `${PROVIDER}/research-projects`,
} as const;

/** A research project's page: its fields, questionnaire builder and versions. */
export const adminResearchProjectPath = (id: number) => `${ADMIN_PATHS.researchProjects}/${id}`;
/** A provider user's page: the users page with that user open. */
export const adminUserPath = (contactId: number) => `${ADMIN_PATHS.users}?contact=${contactId}`;

/** An account's page: everything the admin edits about it. */
export const adminAccountPath = (accountId: number) => `${ADMIN_PATHS.accounts}/${accountId}`;
