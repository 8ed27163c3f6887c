/** Which test material is missing or stale, by the rules of the scripts that make it. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesVersion, DOWNLOADED_FILES, FIXTURE_FILES } from '../fixtures/make-fixtures';

/**
 * The files `makeFixtures` would make in `dir` now, by its rule: the skimage images that are
 * missing, and every fixture when `.version` is not the generator sources' hash, else the missing
 * ones. Empty when the fixtures are there and current, and then nothing in `dir` is touched.
 *
 * @example
 * fixturesToMake('.tmp/fixtures'); // [] after `npm run fixtures`
 */
export function fixturesToMake(dir: string): string[] {
  const images = DOWNLOADED_FILES.filter((f) => !existsSync(join(dir, f)));
  const files = FIXTURE_FILES;
  const versionFile = join(dir, '.version');
  const made = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim() : '';
  const stale = made !== fixturesVersion();
  return [...images, ...(stale ? files : files.filter((f) => !existsSync(join(dir, f))))];
}

/**
 * Whether the skimage images are among `toMake` (they need `apt-get download`).
 *
 * @example
 * needsSkimage(['astronaut.png']); // true
 */
export function needsSkimage(toMake: readonly string[]): boolean {
  return toMake.some((f) => (DOWNLOADED_FILES as readonly string[]).includes(f));
}
