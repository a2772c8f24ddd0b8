/** What the run's SMTP catcher (scripts/mail-catcher.ts) holds: every email the product sent. */
import pg from 'pg';
import { until } from './wait';

export interface CaughtMail {
  id: number;
  messageId: string | null;
  to: string[];
  subject: string;
  text: string;
}

async function query(sql: string, params: unknown[]): Promise<CaughtMail[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(sql, params);
    return rows.map((r) => ({ id: Number(r.id), messageId: r.message_id, to: r.to_addresses, subject: r.subject, text: r.text_body }));
  } finally {
    await client.end();
  }
}

/** Every message the catcher holds for an address, oldest first. */
export function mailTo(address: string): Promise<CaughtMail[]> {
  return query('SELECT * FROM caught_mail WHERE $1 = ANY(to_addresses) ORDER BY id', [address]);
}

export interface WaitForMailOptions {
  /** Only the messages this accepts count (and are answered), e.g. those naming one barcode. */
  matching?: (mail: CaughtMail) => boolean;
  timeoutMs?: number;
}

/**
 * Waits until the catcher holds at least `count` messages for an address (of those `matching`
 * accepts) and answers them, oldest first. It proves that mail arrived, never that no more will:
 * for that, wait for the sending jobs (emailsSettled in ./jobs) and then read mailTo.
 */
export function waitForMail(address: string, count = 1, options: WaitForMailOptions = {}): Promise<CaughtMail[]> {
  const { matching = () => true, timeoutMs = 15_000 } = options;
  let found = 0;
  return until(
    async () => {
      const mails = (await mailTo(address)).filter(matching);
      found = mails.length;
      return mails.length >= count ? mails : null;
    },
    { what: () => `${count} email(s) to ${address} (found ${found})`, timeoutMs, intervalMs: 150 },
  );
}
