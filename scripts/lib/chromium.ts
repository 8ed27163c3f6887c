/** Which Chromium the specs, benches and generators launch: one answer for all of them. */
import { existsSync } from 'node:fs';

/** Where Debian's `chromium` package puts the browser (CI and this machine have it). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium where it is installed, otherwise `undefined`, which Playwright reads as "my
 * own browser": so the tests run both here (where `playwright install` cannot download) and on
 * machines that have only Playwright's Chromium.
 *
 * @example
 * chromium.launch({ executablePath: chromiumExecutable() });
 */
export function chromiumExecutable(): string | undefined {
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}
