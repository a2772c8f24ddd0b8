/**
 * The local SMTP catcher used in dev and tests: accepts every message on 127.0.0.1 and stores it
 * in the caught_mail table, where tests (and admins, in the app) read it back. It never relays.
 * `acceptDelayMs` holds the answer to DATA for a while: tests use it to kill a worker mid-send.
 */
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';

export interface MailCatcher {
  port: number;
  setAcceptDelay(ms: number): void;
  close(): Promise<void>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address ?? '')).filter(Boolean);

export async function startMailCatcher(options: { databaseUrl: string; port?: number; host?: string }): Promise<MailCatcher> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on('error', () => undefined); // an idle connection PostgreSQL closed: the next message reconnects
  let acceptDelayMs = 0;
  // A message counts as delivered only once we answer its DATA; a client gone before that delivered nothing.
  const closedSessions = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        try {
          if (acceptDelayMs) await new Promise((r) => setTimeout(r, acceptDelayMs));
          if (closedSessions.has(session.id)) return callback(new Error('client went away before delivery'));
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = await simpleParser(raw);
          await pool.query(
            `INSERT INTO caught_mail (message_id, from_address, to_addresses, subject, text_body, html_body, raw, received_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, now())
             ON CONFLICT (message_id) WHERE message_id IS NOT NULL DO NOTHING`,
            [mail.messageId ?? null, addresses(mail.from)[0] ?? null, addresses(mail.to), mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : null, raw],
          );
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port ?? 0,
    setAcceptDelay(ms) {
      acceptDelayMs = ms;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
