import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives (tests read OTP codes from it).
 *
 * @example
 * const smtp = await startSmtp();
 * const mailer = smtpMailer(smtp.url, 'idv@test');
 */
export async function startSmtp(): Promise<{
  url: string;
  inbox: ReceivedMail[];
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}> {
  const inbox: ReceivedMail[] = [];
  const waiters: ((m: ReceivedMail) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            const mail = {
              to: (email.to ?? []).map((a) => a.address ?? ''),
              subject: email.subject ?? '',
              text: email.text ?? '',
            };
            inbox.push(mail);
            waiters.shift()?.(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  let read = 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    next() {
      if (inbox.length > read) return Promise.resolve(inbox[read++] as ReceivedMail);
      return new Promise((ok) =>
        waiters.push((m) => {
          read++;
          ok(m);
        }),
      );
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
