/** Where each account portal's API routes start: the account of the URL is checked by requireAccountAccess. */
export const CLINIC_API_BASE = '/provider-clinic/:accountId';
