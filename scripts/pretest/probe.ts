/** Looks at the machine for what `npm test` needs (judged by system.ts). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { pgBinDir } from '../../src/server/test/pgBin';
import { OCRB_FONT } from '../documents/font';
import { chromiumExecutable } from '../lib/chromium';
import type { SystemProbe } from './system';

/** Whether a command runs at all (found on PATH and exits 0). */
function runs(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** Playwright's own Chromium, which the config falls back to where Debian's is absent. */
function playwrightChromium(): boolean {
  try {
    return existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

/**
 * Probes the machine. `apt-cache show` runs only on a machine with `apt-get`.
 *
 * @example
 * probeSystem(); // { chromium: true, ffmpeg: true, ocrbFont: true, apt: true, … }
 */
export function probeSystem(): SystemProbe {
  const apt = runs('apt-get', ['--version']) && runs('dpkg', ['--version']);
  return {
    chromium: chromiumExecutable() !== undefined || playwrightChromium(),
    ffmpeg: runs('ffmpeg', ['-version']),
    ocrbFont: existsSync(OCRB_FONT),
    postgres: pgBinDir() !== null,
    apt,
    aptLists: apt && runs('apt-cache', ['show', 'python3-skimage']),
    root: process.getuid?.() === 0,
  };
}
