/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for an account's API clients: the client's secret
 * checked against its SHA-256, an opaque bearer token of ACCESS_TOKEN_SECONDS kept only hashed,
 * and the check of a bearer token on each FHIR call (revoked client, inactive account or expired
 * token: no access, at once).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { ACCESS_TOKEN_SECONDS, ALL_SYSTEM_SCOPES, AuditActorKind, parseSystemScopes, type ScopeGrant } from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { hashToken } from '../auth/tokens';

type Ctx = Pick<ServerContext, 'db'>;

/** A client that proved its secret (or holds a live token). */
export interface AuthenticatedClient {
  /** The row's id (internal). */
  id: number;
  clientId: string;
  accountId: number;
}

/** A live bearer token's client and what its scopes grant. */
export interface BearerClient extends AuthenticatedClient {
  scope: string;
  grants: ScopeGrant[];
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The client whose id and secret these are, or null (unknown id, wrong secret, revoked, inactive account: one answer). */
export async function authenticateClient(ctx: Ctx, clientId: string, secret: string): Promise<AuthenticatedClient | null> {
  const [row] = await ctx.db.sequelize.query<{ id: string; account_id: string; secret_hash: string }>(
    `SELECT c.id, c.account_id, c.secret_hash FROM api_clients c JOIN accounts a ON a.id = c.account_id
     WHERE c.client_id = :clientId AND c.revoked_at IS NULL AND a.is_active`,
    { replacements: { clientId }, type: QueryTypes.SELECT },
  );
  // The hash is computed whether or not the id exists, so timing tells nothing about which ids do.
  const offered = hashToken(secret);
  if (!row || !sameHash(offered, row.secret_hash)) return null;
  return { id: Number(row.id), clientId, accountId: Number(row.account_id) };
}

/** The caller of an API client's request: audited as the client, inside its account. */
export const apiClientCaller = (client: AuthenticatedClient, ip: string | null, requestId: string | null): Caller => ({
  userId: null, kind: AuditActorKind.ApiClient, accountId: client.accountId, ip, requestId, apiClientId: client.clientId,
});

export type TokenAnswer = { accessToken: string; expiresIn: number; scope: string } | { invalidScope: string };

/** A new bearer token for the scopes asked (all read and search when none are named), audited. */
export async function issueAccessToken(ctx: Ctx, client: AuthenticatedClient, caller: Caller, requestedScope: string | undefined): Promise<TokenAnswer> {
  const parsed = parseSystemScopes(requestedScope?.trim() || ALL_SYSTEM_SCOPES);
  if ('invalid' in parsed) return { invalidScope: parsed.invalid };
  if (!parsed.grants.length) return { invalidScope: '' };
  const scope = parsed.scopes.join(' ');
  const accessToken = randomBytes(32).toString('base64url');
  await ctx.db.sequelize.transaction(async (transaction) => {
    // Expired tokens of this client go as new ones come: the table holds minutes of tokens, not years.
    await ctx.db.sequelize.query('DELETE FROM api_access_tokens WHERE api_client_id = :id AND expires_at < now()', { replacements: { id: client.id }, transaction });
    await ctx.db.sequelize.query(
      `INSERT INTO api_access_tokens (token_hash, api_client_id, scope, expires_at) VALUES (:hash, :id, :scope, now() + make_interval(secs => :seconds))`,
      { replacements: { hash: hashToken(accessToken), id: client.id, scope, seconds: ACCESS_TOKEN_SECONDS }, transaction },
    );
    await ctx.db.sequelize.query('UPDATE api_clients SET last_used_at = now() WHERE id = :id', { replacements: { id: client.id }, transaction });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'api_client.token', entityKind: 'account', entityId: client.accountId, details: { scope } }, transaction);
  });
  return { accessToken, expiresIn: ACCESS_TOKEN_SECONDS, scope };
}

/** The client of a live bearer token, or null. Marks the client used (at most once a minute: a search is not a write). */
export async function clientOfBearer(ctx: Ctx, token: string): Promise<BearerClient | null> {
  const [row] = await ctx.db.sequelize.query<{ id: string; client_id: string; account_id: string; scope: string; used_long_ago: boolean }>(
    `SELECT c.id, c.client_id, c.account_id, t.scope, (c.last_used_at IS NULL OR c.last_used_at < now() - interval '1 minute') AS used_long_ago
     FROM api_access_tokens t JOIN api_clients c ON c.id = t.api_client_id JOIN accounts a ON a.id = c.account_id
     WHERE t.token_hash = :hash AND t.expires_at > now() AND c.revoked_at IS NULL AND a.is_active`,
    { replacements: { hash: hashToken(token) }, type: QueryTypes.SELECT },
  );
  if (!row) return null;
  if (row.used_long_ago) await ctx.db.sequelize.query('UPDATE api_clients SET last_used_at = now() WHERE id = :id', { replacements: { id: row.id } });
  const parsed = parseSystemScopes(row.scope);
  return { id: Number(row.id), clientId: row.client_id, accountId: Number(row.account_id), scope: row.scope, grants: 'invalid' in parsed ? [] : parsed.grants };
}
