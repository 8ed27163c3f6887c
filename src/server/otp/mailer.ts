import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { newId } from '../ids';
import type { Mailer, OutgoingMail } from './types';

/**
 * Email over SMTP with nodemailer, e.g. `SMTP_URL=smtp://user:pass@mail.example:587`.
 *
 * @example
 * const mailer = smtpMailer('smtp://127.0.0.1:2525', 'no-reply@idv.local');
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail: OutgoingMail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/**
 * The default without SMTP: each message becomes a `.eml` file in `dir` (the data folder's
 * `mail/`) and a line in the log, so a developer can read the code.
 *
 * @example
 * const mailer = fileMailer('data/mail', (line) => console.log(line));
 */
export function fileMailer(dir: string, log: (line: string) => void = () => {}): Mailer {
  return {
    async send(mail: OutgoingMail) {
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId('mail', 4)}.eml`;
      const text = `To: ${mail.to}\r\nSubject: ${mail.subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${mail.text}\r\n`;
      await writeFile(join(dir, name), text);
      await appendFile(
        join(dir, 'mail.log'),
        `${new Date().toISOString()} ${mail.to} ${JSON.stringify(mail.subject)} ${name}\n`,
      );
      log(`mail to ${mail.to}: ${mail.subject} (${join(dir, name)})`);
    },
  };
}
