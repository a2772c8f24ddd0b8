/**
 * The PostgreSQL NOTIFY channel on which triggers announce changes to sessions, users, contacts,
 * memberships and accounts (migration 20261123180000-auth-cache-notify): the API's per-process
 * auth cache listens on it and drops what changed.
 */
export const AUTH_CACHE_CHANNEL = 'auth_cache';
