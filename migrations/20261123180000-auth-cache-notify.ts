/**
 * Immediate invalidation of the API's per-process cache of sessions, users and memberships
 * (api/src/auth/auth-cache.ts): every change to a session row, a user, a contact, a membership or
 * an account notifies the channel `auth_cache` at commit, and every API process listening drops
 * what it held. Payloads: `s:<sid>` (a session written, touched or deleted), `u:<id>` (a user
 * changed: deactivation, role, password), `a` (a contact, membership or account changed: every
 * process drops every cached membership list), `*` (a table truncated: drop everything).
 */
import type { Migration } from '../db/src/migrator';
import { AUTH_CACHE_CHANNEL } from '../db/src/notify';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE FUNCTION auth_cache_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${AUTH_CACHE_CHANNEL}', 's:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.sid ELSE NEW.sid END);
      RETURN NULL;
    END $$;`);
  await sequelize.query(`
    CREATE FUNCTION auth_cache_notify_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${AUTH_CACHE_CHANNEL}', 'u:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
      RETURN NULL;
    END $$;`);
  await sequelize.query(`
    CREATE FUNCTION auth_cache_notify_statement() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${AUTH_CACHE_CHANNEL}', CASE WHEN TG_OP = 'TRUNCATE' THEN '*' ELSE 'a' END);
      RETURN NULL;
    END $$;`);
  await sequelize.query(`CREATE TRIGGER session_auth_cache AFTER INSERT OR UPDATE OR DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION auth_cache_notify_session();`);
  await sequelize.query(`CREATE TRIGGER users_auth_cache AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION auth_cache_notify_user();`);
  for (const table of ['contacts', 'account_memberships', 'accounts']) {
    await sequelize.query(`CREATE TRIGGER ${table}_auth_cache AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION auth_cache_notify_statement();`);
  }
  for (const table of ['"session"', 'users', 'contacts', 'account_memberships', 'accounts']) {
    await sequelize.query(`CREATE TRIGGER ${table.replaceAll('"', '')}_auth_cache_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION auth_cache_notify_statement();`);
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const table of ['session', 'users', 'contacts', 'account_memberships', 'accounts']) {
    await sequelize.query(`DROP TRIGGER IF EXISTS ${table}_auth_cache_truncate ON "${table}";`);
  }
  for (const table of ['contacts', 'account_memberships', 'accounts']) await sequelize.query(`DROP TRIGGER ${table}_auth_cache ON ${table};`);
  await sequelize.query('DROP TRIGGER users_auth_cache ON users;');
  await sequelize.query('DROP TRIGGER session_auth_cache ON "session";');
  await sequelize.query('DROP FUNCTION auth_cache_notify_statement();');
  await sequelize.query('DROP FUNCTION auth_cache_notify_user();');
  await sequelize.query('DROP FUNCTION auth_cache_notify_session();');
};
