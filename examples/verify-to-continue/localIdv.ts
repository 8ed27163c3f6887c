import { execFile, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IDV = join(ROOT, 'bin', 'idv.mjs');

/** A verification service this process started, and what the example needs from it. */
export interface LocalIdv {
  url: string;
  apiKey: string;
  webhookSecret: string;
  stop(): void;
}

async function waitUntilUp(url: string, exited: () => boolean): Promise<void> {
  // The first start may build the hosted page (a minute or two).
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('idv serve exited; its output is above');
    const answer = await fetch(`${url}/langs`).catch(() => null);
    if (answer) return; // any answer (401 without a key) means it listens
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`idv serve did not answer at ${url}`);
}

/**
 * Starts `idv serve` of this package over a fresh data folder, then, with the `idv` command line
 * as an operator would, makes a test key (`idv keys create --mode test`) and registers the site's
 * webhook endpoint (`idv webhooks add`, which prints the signing secret).
 *
 * @example
 * const local = await startLocalIdv({ port: 3000, webhookUrl: 'http://127.0.0.1:3001/webhooks' });
 * // local.url, local.apiKey (sk_test_…), local.webhookSecret (whsec_…); local.stop() at the end
 */
export async function startLocalIdv(opts: {
  port: number;
  webhookUrl: string;
  dataDir?: string;
}): Promise<LocalIdv> {
  const dataDir = resolve(ROOT, opts.dataDir ?? '.tmp/example-data');
  rmSync(dataDir, { recursive: true, force: true });
  const url = `http://127.0.0.1:${opts.port}`;
  const env = {
    ...process.env,
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
  };
  const child = spawn(process.execPath, [IDV, 'serve'], { cwd: ROOT, env, stdio: 'inherit' });
  const stop = () => void child.kill('SIGTERM');
  try {
    await waitUntilUp(url, () => child.exitCode !== null);
    const idv = async (...args: string[]) =>
      (await run(process.execPath, [IDV, ...args], { cwd: ROOT, env })).stdout.trim();
    const apiKey = await idv('keys', 'create', '--mode', 'test', '--account', 'example');
    const webhookSecret = await idv(
      'webhooks',
      'add',
      opts.webhookUrl,
      '--mode',
      'test',
      '--account',
      'example',
      '--events',
      'session.status',
    );
    return { url, apiKey, webhookSecret, stop };
  } catch (err) {
    stop();
    throw err;
  }
}
