import pg from 'pg';

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

/** Waits until the catcher holds at least `count` messages for an address. */
export async function waitForMail(address: string, count = 1, timeoutMs = 15_000): Promise<CaughtMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailTo(address);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`expected ${count} email(s) to ${address}, found ${mails.length}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
