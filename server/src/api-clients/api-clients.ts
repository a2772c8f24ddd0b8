/**
 * An account's API clients (issue 27): created, listed and revoked by the account's Super Admin or
 * the lab's admin. The secrets are answered once; the client secret is kept only as its SHA-256,
 * the webhook secret as it is (every delivery is signed with it). Revoking ends the client's
 * tokens at once: every bearer check joins the client and reads its revocation.
 */
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { ApiClientView, CreateApiClientBody, CreatedApiClient } from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { badRequest, notFound } from '../errors';
import { hashToken } from '../auth/tokens';
import { toIso } from '../answer-values';

type Ctx = Pick<ServerContext, 'db' | 'config'>;

/** Public client ids read as what they are in logs and support mail: `pc_` and 24 hex digits. */
const newClientId = () => `pc_${randomBytes(12).toString('hex')}`;
/** 256 random bits: a guess is hopeless, so SHA-256 of it is a safe record. */
const newClientSecret = () => randomBytes(32).toString('base64url');
/** Standard Webhooks' secret form: `whsec_` and the base64 of 24 to 64 random bytes. */
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

interface ClientRow {
  client_id: string;
  name: string;
  webhook_url: string | null;
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const viewOf = (r: ClientRow): ApiClientView => ({
  clientId: r.client_id, name: r.name, webhookUrl: r.webhook_url, createdAt: toIso(r.created_at)!, createdBy: r.created_by,
  lastUsedAt: toIso(r.last_used_at), revokedAt: toIso(r.revoked_at),
});

const CLIENT_COLUMNS = `c.client_id, c.name, c.webhook_url, c.created_at, c.last_used_at, c.revoked_at,
  NULLIF(concat_ws(' ', u.first_name, u.last_name), '') AS created_by`;

/** An account id the admin typed that names no account: the 404 of any other missing thing. */
async function assertAccount(ctx: Ctx, accountId: number): Promise<void> {
  const [row] = await ctx.db.sequelize.query('SELECT 1 FROM accounts WHERE id = :accountId', { replacements: { accountId }, type: QueryTypes.SELECT });
  if (!row) throw notFound('Account not found');
}

/** Whether a string can be a client id at all (anything else is answered as a client that does not exist). */
export const isClientId = (value: unknown): value is string => typeof value === 'string' && /^pc_[0-9a-f]{24}$/.test(value);

/** The account's clients, newest first, revoked ones too (so the page shows what was revoked and when). */
export async function listApiClients(ctx: Ctx, accountId: number): Promise<ApiClientView[]> {
  await assertAccount(ctx, accountId);
  const rows = await ctx.db.sequelize.query<ClientRow>(
    `SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by_user_id
     WHERE c.account_id = :accountId ORDER BY c.created_at DESC, c.id DESC`,
    { replacements: { accountId }, type: QueryTypes.SELECT },
  );
  return rows.map(viewOf);
}

/** A webhook leaves the lab with results' identifiers: outside development it goes over TLS only. */
function assertWebhookUrl(ctx: Ctx, url: string | null): void {
  if (url && ctx.config.env === 'production' && !url.toLowerCase().startsWith('https://')) {
    throw badRequest('Webhook URL must be an https:// address', [{ field: 'webhookUrl', message: 'Webhook URL must be an https:// address' }]);
  }
}

/** POST …/api-clients: a new client of the account, its secrets answered this once. */
export async function createApiClient(ctx: Ctx, caller: Caller, accountId: number, body: CreateApiClientBody): Promise<CreatedApiClient> {
  assertWebhookUrl(ctx, body.webhookUrl);
  await assertAccount(ctx, accountId);
  const clientId = newClientId();
  const clientSecret = newClientSecret();
  const webhookSecret = body.webhookUrl ? newWebhookSecret() : null;
  return ctx.db.sequelize.transaction(async (transaction) => {
    await ctx.db.sequelize.query(
      `INSERT INTO api_clients (client_id, account_id, name, secret_hash, webhook_url, webhook_secret, created_by_user_id)
       VALUES (:clientId, :accountId, :name, :secretHash, :webhookUrl, :webhookSecret, :userId)`,
      {
        replacements: { clientId, accountId, name: body.name, secretHash: hashToken(clientSecret), webhookUrl: body.webhookUrl, webhookSecret, userId: caller.userId },
        type: QueryTypes.INSERT, transaction,
      },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'api_client.create', entityKind: 'account', entityId: accountId,
      details: { clientId, name: body.name, webhook: Boolean(body.webhookUrl) },
    }, transaction);
    const [row] = await ctx.db.sequelize.query<ClientRow>(
      `SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by_user_id WHERE c.client_id = :clientId`,
      { replacements: { clientId }, type: QueryTypes.SELECT, transaction },
    );
    return { clientId, clientSecret, webhookSecret, client: viewOf(row) };
  });
}

/** DELETE …/api-clients/{clientId}: revoked at once (its tokens stop answering); another account's id is a 404. */
export async function revokeApiClient(ctx: Ctx, caller: Caller, accountId: number, clientId: string): Promise<ApiClientView> {
  if (!isClientId(clientId)) throw notFound('API client not found');
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [rows] = await ctx.db.sequelize.query(
      `UPDATE api_clients SET revoked_at = COALESCE(revoked_at, now()), revoked_by_user_id = COALESCE(revoked_by_user_id, :userId), updated_at = now()
       WHERE client_id = :clientId AND account_id = :accountId RETURNING id`,
      { replacements: { clientId, accountId, userId: caller.userId }, transaction },
    );
    if (!(rows as unknown[]).length) throw notFound('API client not found');
    await ctx.db.sequelize.query('DELETE FROM api_access_tokens WHERE api_client_id = :id', { replacements: { id: (rows as { id: string }[])[0].id }, transaction });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'api_client.revoke', entityKind: 'account', entityId: accountId, details: { clientId } }, transaction);
    const [row] = await ctx.db.sequelize.query<ClientRow>(
      `SELECT ${CLIENT_COLUMNS} FROM api_clients c LEFT JOIN users u ON u.id = c.created_by_user_id WHERE c.client_id = :clientId`,
      { replacements: { clientId }, type: QueryTypes.SELECT, transaction },
    );
    return viewOf(row);
  });
}
