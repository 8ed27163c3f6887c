import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  codeMatches,
  codeMessage,
  generateCode,
  hashCode,
  maskDestination,
  normalizePhone,
} from './codes';
import { fileMailer } from './mailer';
import { httpSmsSender, logSmsSender } from './sms';

describe('codes', () => {
  it('generates digits of the asked length and checks them against their hash', () => {
    const code = generateCode(8);
    expect(code).toMatch(/^\d{8}$/);
    const h = hashCode('s', 'n', code);
    expect(codeMatches('s', 'n', code, h)).toBe(true);
    expect(codeMatches('s', 'other', code, h)).toBe(false);
    expect(codeMatches('s', 'n', `${code}1`, h)).toBe(false);
  });
  it('writes messages from templates or the language default, and masks destinations', () => {
    expect(codeMessage({ code: '42', lang: 'de', expirySeconds: 120 }).text).toBe(
      'Ihr Bestätigungscode lautet 42. Er läuft in 2 Minuten ab.',
    );
    expect(
      codeMessage({ code: '42', lang: 'xx', expirySeconds: 60, template: 'Code: {{code}}' }),
    ).toEqual({ subject: 'Your verification code', text: 'Code: 42' });
    expect(maskDestination('jane@example.com')).toBe('j•••@example.com');
    expect(normalizePhone('+33 6 12 34 56 78')).toBe('+33612345678');
    expect(normalizePhone('06 12')).toBeNull();
  });
});

describe('senders', () => {
  it('the file mailer and the SMS log write into the data folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idv-mail-'));
    try {
      await fileMailer(join(dir, 'mail')).send({ to: 'a@b.co', subject: 'S', text: 'Code 123456' });
      const files = readdirSync(join(dir, 'mail')).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      expect(readFileSync(join(dir, 'mail', files[0]!), 'utf8')).toContain('Code 123456');
      await logSmsSender(join(dir, 'sms.log')).send({ to: '+33612345678', text: 'Code 1' });
      expect(readFileSync(join(dir, 'sms.log'), 'utf8')).toContain('+33612345678 "Code 1"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the HTTP SMS sender posts to the carrier and fails on non-2xx', async () => {
    const got: string[] = [];
    let status = 200;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push(`${req.headers.authorization} ${body}`);
        res.statusCode = status;
        res.end();
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    try {
      const sms = httpSmsSender({ url: `http://127.0.0.1:${port}/send`, token: 't0k' });
      await sms.send({ to: '+4712345678', text: 'hi' });
      expect(got).toEqual(['Bearer t0k {"to":"+4712345678","text":"hi"}']);
      status = 503;
      await expect(sms.send({ to: '+4712345678', text: 'hi' })).rejects.toThrow(/503/);
    } finally {
      server.close();
    }
  });
});
