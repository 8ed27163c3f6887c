import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OutgoingSms, SmsSender } from './types';

/**
 * The default SMS sender: appends each message to a log file (and the server log).
 *
 * @example
 * const sms = logSmsSender('data/sms.log');
 */
export function logSmsSender(file: string, log: (line: string) => void = () => {}): SmsSender {
  return {
    async send(sms: OutgoingSms) {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${new Date().toISOString()} ${sms.to} ${JSON.stringify(sms.text)}\n`);
      log(`sms to ${sms.to}: ${sms.text}`);
    },
  };
}

export interface HttpSmsOptions {
  /** The carrier's endpoint; it receives `POST {"to", "text"}` as JSON. */
  url: string;
  token?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * SMS through a carrier's HTTP API (`SMS_HTTP_URL`, `SMS_HTTP_TOKEN`). A non-2xx answer or a
 * timeout is a failed delivery.
 *
 * @example
 * const sms = httpSmsSender({ url: 'https://sms.example/send', token: 'secret' });
 */
export function httpSmsSender(options: HttpSmsOptions): SmsSender {
  const doFetch = options.fetch ?? fetch;
  return {
    async send(sms: OutgoingSms) {
      const res = await doFetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({ to: sms.to, text: sms.text }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!res.ok) throw new Error(`SMS carrier answered HTTP ${res.status}`);
    },
  };
}
