import { describe, expect, it } from 'vitest';
import { systemVerdict, verdictMessage, type MaterialNeeds, type SystemProbe } from './system';

const ALL: SystemProbe = {
  chromium: true,
  ffmpeg: true,
  ocrbFont: true,
  postgres: true,
  apt: true,
  aptLists: true,
  root: false,
};
const NOTHING_TO_MAKE: MaterialNeeds = { fixtures: false, skimage: false, documents: false };
const EVERYTHING_TO_MAKE: MaterialNeeds = { fixtures: true, skimage: true, documents: true };

describe('systemVerdict', () => {
  it('asks for nothing on a machine that has it all, whatever is to be made', () => {
    expect(systemVerdict(ALL, EVERYTHING_TO_MAKE)).toEqual({ missing: [], commands: [] });
  });

  it('names the one apt-get line that installs every missing package', () => {
    const bare = { ...ALL, chromium: false, ffmpeg: false, ocrbFont: false, postgres: false };
    const v = systemVerdict(bare, EVERYTHING_TO_MAKE);
    expect(v.missing).toHaveLength(4);
    expect(v.commands).toEqual([
      'sudo apt-get install -y --no-install-recommends chromium ffmpeg fonts-ocr-b postgresql',
    ]);
    expect(systemVerdict({ ...bare, root: true }, EVERYTHING_TO_MAKE).commands).toEqual([
      'apt-get install -y --no-install-recommends chromium ffmpeg fonts-ocr-b postgresql',
    ]);
  });

  it('asks for ffmpeg only when material has to be made', () => {
    const noFfmpeg = { ...ALL, ffmpeg: false };
    expect(systemVerdict(noFfmpeg, NOTHING_TO_MAKE).missing).toEqual([]);
    for (const needs of [
      { ...NOTHING_TO_MAKE, fixtures: true },
      { ...NOTHING_TO_MAKE, documents: true },
    ]) {
      expect(systemVerdict(noFfmpeg, needs).commands).toEqual([
        'sudo apt-get install -y --no-install-recommends ffmpeg',
      ]);
    }
  });

  it('always asks for Chromium, the OCR-B font and PostgreSQL: the tests themselves use them', () => {
    expect(systemVerdict({ ...ALL, postgres: false }, NOTHING_TO_MAKE).commands).toEqual([
      'sudo apt-get install -y --no-install-recommends postgresql',
    ]);
    expect(systemVerdict({ ...ALL, ocrbFont: false }, NOTHING_TO_MAKE).commands).toEqual([
      'sudo apt-get install -y --no-install-recommends fonts-ocr-b',
    ]);
    expect(systemVerdict({ ...ALL, chromium: false }, NOTHING_TO_MAKE).commands).toEqual([
      'sudo apt-get install -y --no-install-recommends chromium',
    ]);
  });

  it('updates empty package lists first, and for the skimage download alone', () => {
    const fresh = { ...ALL, aptLists: false, ffmpeg: false, root: true };
    expect(systemVerdict(fresh, EVERYTHING_TO_MAKE).commands).toEqual([
      'apt-get update',
      'apt-get install -y --no-install-recommends ffmpeg',
    ]);
    const lists = systemVerdict({ ...ALL, aptLists: false }, { ...NOTHING_TO_MAKE, skimage: true });
    expect(lists.missing).toEqual([expect.stringMatching(/python3-skimage/)]);
    expect(lists.commands).toEqual(['sudo apt-get update']);
    // Lists that are not needed are not asked for.
    expect(systemVerdict({ ...ALL, aptLists: false }, NOTHING_TO_MAKE)).toEqual({
      missing: [],
      commands: [],
    });
  });

  it("outside Debian: Playwright's browser, and words where no command is known", () => {
    const other = { ...ALL, apt: false, aptLists: false, chromium: false, ocrbFont: false };
    const v = systemVerdict(other, EVERYTHING_TO_MAKE);
    expect(v.commands).toEqual(['npx playwright install chromium']);
    expect(v.missing).toEqual([
      expect.stringMatching(/^Chromium/),
      expect.stringMatching(/OCR-B/),
      expect.stringMatching(/apt-get and dpkg.*python3-skimage/),
    ]);
    expect(systemVerdict({ ...other, chromium: true }, NOTHING_TO_MAKE).commands).toEqual([]);
  });
});

describe('verdictMessage', () => {
  it('lists what is missing, then the commands to paste', () => {
    const v = systemVerdict({ ...ALL, ocrbFont: false }, NOTHING_TO_MAKE);
    expect(verdictMessage(v).split('\n')).toEqual([
      'npm test cannot run here yet: missing',
      '  - the OCR-B font /usr/share/fonts/opentype/ocr-b/OCRB.otf (the document tests draw the MRZ with it)',
      'Install with:',
      '  sudo apt-get install -y --no-install-recommends fonts-ocr-b',
    ]);
  });
});
