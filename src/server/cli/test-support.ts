import { runCli } from './main';

/** What one `idv` run returned and printed: stdout lines, stderr as one text. */
export interface IdvRun {
  code: number;
  out: string[];
  err: string;
}

/**
 * Runs the `idv` command line in memory on a data folder, as `DATA_DIR=dataDir idv …` would,
 * capturing what it prints (tests).
 *
 * @example
 * const { code, out } = await runIdv(dir, 'keys', 'create', '--mode', 'test');
 * // code 0, out[0] is the new sk_test_… key
 */
export async function runIdv(dataDir: string, ...argv: string[]): Promise<IdvRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env: { DATA_DIR: dataDir },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}
