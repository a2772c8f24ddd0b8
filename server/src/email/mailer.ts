import nodemailer from 'nodemailer';
import type { Config } from '../config';

/** The SMTP transport every email leaves by (the local catcher in development and tests). */
export function createMailer(config: Pick<Config, 'smtp'>) {
  return nodemailer.createTransport({
    host: config.smtp.host,
    port: config.smtp.port,
    secure: config.smtp.secure,
    auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.pass } : undefined,
  });
}

export type Mailer = ReturnType<typeof createMailer>;
