import nodemailer from 'nodemailer';
import type { Config } from '../config';

/**
 * The SMTP transport every email leaves by (the local catcher in development and tests): pooled,
 * so a bulk campaign's emails reuse a few open connections instead of opening one each.
 */
/**
 * Open SMTP connections per process. The worker sends up to WORKER_CONCURRENCY emails at once; a
 * send waits mostly on the server's answer to DATA, so a campaign goes out about as fast as this many
 * connections allow (5 held the bench's campaign to ~120 emails/s).
 */
const SMTP_POOL_CONNECTIONS = 10;

export function createMailer(config: Pick<Config, 'smtp'>) {
  return nodemailer.createTransport({
    host: config.smtp.host,
    port: config.smtp.port,
    secure: config.smtp.secure,
    auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.pass } : undefined,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
    maxMessages: Infinity, // a connection is reused until the server or an error closes it (the default reopens every 100)
  });
}

export type Mailer = ReturnType<typeof createMailer>;
