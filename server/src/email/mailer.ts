import nodemailer from 'nodemailer';
import type { Config } from '../config';

/**
 * The SMTP transport every email leaves by (the local catcher in development and tests): pooled,
 * so a bulk campaign's emails reuse a few open connections instead of opening one each.
 */
/** Open SMTP connections per process (the worker sends WORKER_CONCURRENCY emails at once at most). */
const SMTP_POOL_CONNECTIONS = 5;

export function createMailer(config: Pick<Config, 'smtp'>) {
  return nodemailer.createTransport({
    host: config.smtp.host,
    port: config.smtp.port,
    secure: config.smtp.secure,
    auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.pass } : undefined,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
  });
}

export type Mailer = ReturnType<typeof createMailer>;
