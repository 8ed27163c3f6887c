import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { chromiumExecutable } from '../../scripts/lib/chromium';
import { freePort } from '../../src/server/test/freePort';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IDV = join(ROOT, 'bin', 'idv.mjs');

/** A mail the in-process SMTP server received. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A real service started for a spec: its own data folder, port, keys and SMTP inbox. */
export interface IdvServer {
  url: string;
  keys: { test: string; live: string };
  inbox: ReceivedMail[];
  /** `POST /sessions`; returns the body (`session`, `clientSecret`). */
  createSession(
    body: Record<string, unknown>,
    key?: string,
  ): Promise<{ session: { id: string }; clientSecret: { url: string; secret: string } }>;
  /** `GET /sessions/{id}`: the whole session as the integrator sees it. */
  getSession(id: string, key?: string): Promise<SessionView>;
  /**
   * Makes a client secret expired, as an hour would, by moving its expiry into the past in the
   * server's SQLite file (the server reads it per request).
   */
  expireSecret(secret: string): void;
  /** Runs the `idv` command line on this server's data folder; resolves with its stdout. */
  cli(...args: string[]): Promise<string>;
  /** Waits for a mail to an address and returns it (60 s unless told). */
  waitForMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** The parts of a session the specs read. */
export interface SessionView {
  id: string;
  status: string;
  report: {
    isVerified?: boolean;
    lang?: string;
    transcript: { text: string; isAvatar: boolean }[];
    nodeReports: { nodeId: string; outcome: string }[];
    consent?: { choice: string; textVersion: string; at: number };
    extractedData?: Record<string, string>;
  };
}

export { freePort };

async function startSmtp(inbox: ReceivedMail[]): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((mail) => {
            inbox.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', () => ok()));
  return { port, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

/** How long `idv serve` may take to answer on a loaded machine before a spec gives up. */
const START_TIMEOUT_MS = 120_000;

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`idv serve exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/langs`);
      if (res.status === 401 || res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`idv serve did not answer within ${START_TIMEOUT_MS / 1000} s:\n${log()}`);
}

/**
 * Starts `idv serve` (the real server, serving the built page from dist/web) on a free loopback
 * port over a fresh data folder, with a real SMTP server in this process as its mail relay, and
 * makes a test and a live key with the `idv keys create` command.
 *
 * @example
 * const idv = await startIdv();
 * const { clientSecret } = await idv.createSession({ flow });
 * await page.goto(clientSecret.url);
 */
export async function startIdv(env: Record<string, string> = {}): Promise<IdvServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
  const inbox: ReceivedMail[] = [];
  const smtp = await startSmtp(inbox);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    LOG_LEVEL: 'warn',
    ...env,
  };
  let output = '';
  const child = spawn(process.execPath, [IDV, 'serve', '--no-build'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await waitUntilUp(url, child, () => output);

  const cli = async (...args: string[]) =>
    (await run(process.execPath, [IDV, ...args], { cwd: ROOT, env: childEnv })).stdout.trim();
  const makeKey = (mode: 'test' | 'live') =>
    cli('keys', 'create', '--mode', mode, '--account', 'e2e');
  const keys = { test: await makeKey('test'), live: await makeKey('live') };

  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  return {
    url,
    keys,
    inbox,
    cli,
    createSession: async (body, key = keys.live) =>
      (await api('POST', '/sessions', key, body)) as Awaited<
        ReturnType<IdvServer['createSession']>
      >,
    getSession: async (id, key = keys.live) =>
      ((await api('GET', `/sessions/${id}`, key)) as { session: SessionView }).session,
    expireSecret(secret) {
      const db = new Database(join(dataDir, 'idv.sqlite'));
      try {
        // The current client secret lives on its session row (src/server/store/migrations.ts).
        db.prepare('UPDATE sessions SET secret_expire_at = ? WHERE secret = ?').run(
          Date.now() - 1000,
          secret,
        );
      } finally {
        db.close();
      }
    },
    async waitForMail(to, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = [...inbox].reverse().find((m) => m.to.includes(to));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await smtp.close();
      // KEEP_E2E_DATA=1 keeps the server's data folder (its path is printed) to look into a run.
      if (process.env.KEEP_E2E_DATA) console.log(`e2e data kept in ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Chromium flags for the hosted-page specs: a fake camera and microphone so `getUserMedia` has
 * devices; whether access is allowed is left to each context (`grantPermissions`), and headless
 * Chromium refuses what was not granted.
 */
export const FAKE_MEDIA_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
];

/** Launch options for the hosted-page specs (Debian's Chromium where installed, as the config). */
export const FAKE_MEDIA_LAUNCH = {
  executablePath: chromiumExecutable(),
  args: FAKE_MEDIA_ARGS,
};
