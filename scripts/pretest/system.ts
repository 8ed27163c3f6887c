/**
 * What `npm test` needs of the machine, and the exact commands that install what is missing.
 * Pure: the probing is in probe.ts, the making of material in ../pretest.ts.
 */

import { OCRB_FONT } from '../documents/font';

/** What is on the machine. */
export interface SystemProbe {
  /** Debian's `/usr/bin/chromium`, or Playwright's own Chromium (the config takes either). */
  chromium: boolean;
  ffmpeg: boolean;
  /** The OCR-B font at `OCRB_FONT`. */
  ocrbFont: boolean;
  /** PostgreSQL's server binaries (`initdb`, `pg_ctl`): the store tests start a throwaway cluster. */
  postgres: boolean;
  /** `apt-get` and `dpkg`: a Debian-like machine. */
  apt: boolean;
  /** The package lists know `python3-skimage` (`apt-cache show`): installs and downloads work. */
  aptLists: boolean;
  /** Running as root: no `sudo` in the commands. */
  root: boolean;
}

/** What test material has to be made before the tests run. */
export interface MaterialNeeds {
  /** Any liveness fixture (`npm run fixtures`): made with ffmpeg. */
  fixtures: boolean;
  /** The face images themselves, fetched with `apt-get download python3-skimage`. */
  skimage: boolean;
  /** The document specs' material (`npm run documents -- --e2e`): Chromium, OCR-B, ffmpeg. */
  documents: boolean;
}

/** What is missing, in words, and the commands that install it (empty when nothing is). */
export interface SystemVerdict {
  missing: string[];
  commands: string[];
}

/**
 * Checks the machine against what `npm test` needs: Chromium, the OCR-B font and PostgreSQL
 * always (the browser specs, the document tests that draw their specimens, the store tests),
 * ffmpeg and the skimage
 * package only when material has to be made. On Debian one `apt-get` line installs it all.
 *
 * @example
 * systemVerdict({ ...probe, ffmpeg: false }, { fixtures: true, skimage: false, documents: false });
 * // { missing: ['ffmpeg (…)'],
 * //   commands: ['sudo apt-get install -y --no-install-recommends ffmpeg'] }
 */
export function systemVerdict(p: SystemProbe, needs: MaterialNeeds): SystemVerdict {
  const missing: string[] = [];
  const debian: string[] = [];
  const commands: string[] = [];
  if (!p.chromium) {
    missing.push("Chromium (Debian's /usr/bin/chromium, or Playwright's own browser)");
    debian.push('chromium');
  }
  if (!p.ffmpeg && (needs.fixtures || needs.documents)) {
    missing.push('ffmpeg (makes the camera videos of the test material)');
    debian.push('ffmpeg');
  }
  if (!p.ocrbFont) {
    missing.push(`the OCR-B font ${OCRB_FONT} (the document tests draw the MRZ with it)`);
    debian.push('fonts-ocr-b');
  }
  if (!p.postgres) {
    missing.push('PostgreSQL (initdb, pg_ctl: the store tests run a throwaway cluster)');
    debian.push('postgresql');
  }
  const download = needs.skimage && (!p.apt || !p.aptLists);
  if (download) {
    missing.push(
      p.apt
        ? 'package lists that know python3-skimage (its images are the face fixtures)'
        : "Debian's apt-get and dpkg, to fetch python3-skimage (its images are the face fixtures)",
    );
  }
  if (p.apt) {
    const sudo = p.root ? '' : 'sudo ';
    if (!p.aptLists && (debian.length > 0 || download)) commands.push(`${sudo}apt-get update`);
    if (debian.length > 0) {
      commands.push(`${sudo}apt-get install -y --no-install-recommends ${debian.join(' ')}`);
    }
  } else if (!p.chromium) {
    commands.push('npx playwright install chromium');
  }
  return { missing, commands };
}

/**
 * The message `npm test` stops with when the machine lacks something.
 *
 * @example
 * console.error(verdictMessage(systemVerdict(probe, needs)));
 */
export function verdictMessage(v: SystemVerdict): string {
  const lines = ['npm test cannot run here yet: missing', ...v.missing.map((m) => `  - ${m}`)];
  if (v.commands.length > 0) lines.push('Install with:', ...v.commands.map((c) => `  ${c}`));
  else lines.push('Install them with your system’s packages, then run npm test again.');
  return lines.join('\n');
}
