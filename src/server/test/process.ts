import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const BIN = fileURLToPath(new URL('../../../bin/idv.mjs', import.meta.url));
const run = promisify(execFile);

/**
 * Runs `idv …` as a separate process.
 *
 * @example
 * const { stdout } = await idv(['keys', 'list'], { DATA_DIR: dir });
 */
export async function idv(
  args: string[],
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    return { stdout: r.stdout, stderr: r.stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return {
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
      code: typeof e.code === 'number' ? e.code : 1,
    };
  }
}

/**
 * Starts `idv serve --no-build` (with `flags`, e.g. `--no-worker`) and resolves once it listens.
 *
 * @example
 * const server = await serve({ DATA_DIR: dir, PORT: '0' });
 */
export async function serve(
  env: Record<string, string>,
  flags: string[] = [],
): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--no-build', ...flags], {
    env: { ...process.env, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${log}`)), 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
      const m = /service on (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        ok(m[1] as string);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  return { child, url, log: () => log };
}

/**
 * Starts `idv worker` and resolves once it runs.
 *
 * @example
 * const w = await worker({ DATA_DIR: dir });
 */
export async function worker(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`worker did not start:\n${log}`)), 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('verification worker')) {
        clearTimeout(timer);
        ok();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited with ${code}:\n${log}`));
    });
  });
  return { child, log: () => log };
}

/**
 * Resolves when the process has exited, also when it already has.
 *
 * @example
 * child.kill('SIGKILL');
 * await exited(child);
 */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => child.once('exit', () => ok()));
}
