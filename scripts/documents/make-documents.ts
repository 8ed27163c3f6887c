/**
 * `npm run documents`: renders the synthetic document test set into `.tmp/documents/` (git-ignored):
 * one JPEG photograph per specimen (`<id>.jpg`; ID cards also `<id>-front.jpg`), `manifest.json`
 * with what each must read as, and `passport.y4m` for Chromium's fake camera. Deterministic: the
 * same seeds give the same files. `--per-level N` sets the size (default 12 valid documents per
 * kind and level), `--extra N` the broken and expired ones per kind and level (default 4). Faces: `.tmp/fixtures/astronaut.png` (`npm run fixtures`).
 * `--e2e` renders only the hosted page's end-to-end material into `.tmp/documents-e2e/` (seconds):
 * see `makeE2eMaterial`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAamva } from '../../src/core/aamva';
import { composeMrz, parseMrz } from '../../src/core/mrz';
import { onScreen, photocopy, photograph, type Rgba } from './photo';
import { startRenderer, type Renderer } from './render';
import {
  DEFAULT_SET,
  TWO_SIDED,
  specimen,
  testSet,
  type Kind,
  type Print,
  type Specimen,
} from './specimens';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DOCUMENTS_DIR = join(ROOT, '.tmp/documents');
export const FACE_PNG = join(ROOT, '.tmp/fixtures/astronaut.png');
/** The day expiry is judged against in the manifest (the renderer's dates are far from it). */
const TODAY = Date.UTC(2026, 0, 1);

export interface ManifestEntry {
  id: string;
  /** The side with the zone or the barcode. */
  file: string;
  /** Two-sided documents: the side with the portrait. */
  front?: string;
  kind: Kind;
  variant: Specimen['variant'];
  level: Specimen['level'];
  print: Print;
  /** The zone's lines (MRZ kinds). */
  lines: string[];
  /** The barcode's text (licences). */
  barcode?: string;
  /** `extractedData` a correct read gives (the check digits may still fail: `broken_check`). */
  expected: Record<string, string>;
}

/**
 * The fields a correct read of the specimen gives: the zone's, or the barcode's for a licence.
 * A residence permit is reported as one (the page says which document it asked for).
 *
 * @example
 * expectedFields(specimen(1, 'dl', 'valid', 'clean')).licenceClass; // 'C'
 */
export function expectedFields(s: Specimen): Record<string, string> {
  if (s.barcode) return { ...(parseAamva(s.barcode, TODAY)?.data ?? {}) };
  const data = parseMrz(s.lines, TODAY)?.data;
  if (!data) return {};
  return s.kind === 'permit' ? { ...data, documentType: 'residence-permit' } : { ...data };
}

/** What a forger puts before the camera: the document, a photocopy of it or a screen showing it. */
function medium(s: Specimen, flat: Rgba, seed: number): Rgba {
  if (s.variant === 'photocopy') return photocopy(flat, seed);
  if (s.variant === 'screen') return onScreen(flat);
  return flat;
}

/** The side a specimen's data is read from: a passport page's, a card's back. */
export function dataSide(kind: Kind): 'front' | 'back' {
  return TWO_SIDED.has(kind) ? 'back' : 'front';
}

/**
 * Renders `set` into `dir`; returns the manifest.
 *
 * @example
 * await makeDocuments(testSet({ ...DEFAULT_SET, perLevel: 2 }), '/tmp/docs');
 */
export async function makeDocuments(
  set: Specimen[],
  dir: string,
  log: (line: string) => void = () => undefined,
): Promise<ManifestEntry[]> {
  mkdirSync(dir, { recursive: true });
  const renderer = await startRenderer(FACE_PNG);
  const manifest: ManifestEntry[] = [];
  try {
    for (const [n, s] of set.entries()) {
      const flat = await renderer.render(s, dataSide(s.kind));
      const file = `${s.id}.jpg`;
      writeFileSync(join(dir, file), photograph(medium(s, flat, s.seed), s.level, s.seed).jpeg);
      let front: string | undefined;
      if (TWO_SIDED.has(s.kind)) {
        front = `${s.id}-front.jpg`;
        const f = await renderer.render(s, 'front');
        const seed = s.seed + 1000;
        writeFileSync(join(dir, front), photograph(medium(s, f, seed), s.level, seed).jpeg);
      }
      manifest.push({
        id: s.id,
        file,
        ...(front ? { front } : {}),
        kind: s.kind,
        variant: s.variant,
        level: s.level,
        print: s.print,
        lines: s.lines,
        ...(s.barcode ? { barcode: s.barcode } : {}),
        expected: expectedFields(s),
      });
      if ((n + 1) % 50 === 0) log(`documents: ${n + 1} of ${set.length}`);
    }
  } finally {
    await renderer.close();
  }
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/** A still photograph played for 2 s at 10 fps, 960×720, as Chromium's fake camera wants it. */
function stillToY4m(still: string, out: string): void {
  rmSync(out, { force: true });
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-loop',
    '1',
    '-i',
    still,
    '-t',
    '2',
    '-r',
    '10',
    '-vf',
    'scale=960:720',
    '-pix_fmt',
    'yuv420p',
    out,
  ]);
}

/** `<file>.json` beside a piece of test material: its zone or barcode and the fields a correct read gives. */
function writeExpected(file: string, s: Specimen): void {
  const what = s.barcode ? { barcode: s.barcode } : { lines: s.lines };
  writeFileSync(
    `${file}.json`,
    `${JSON.stringify({ ...what, printed: s.printed, expected: expectedFields(s) }, null, 1)}\n`,
  );
}

/** The valid passport of the fake camera (mild photograph); the same in both modes. */
const CAMERA_PASSPORT = specimen(4242, 'passport', 'valid', 'mild');

async function renderY4m(renderer: Renderer, s: Specimen, out: string): Promise<string> {
  const flat = await renderer.render(s, dataSide(s.kind));
  const jpg = photograph(medium(s, flat, s.seed), s.level, s.seed).jpeg;
  const still = `${out}.jpg`;
  writeFileSync(still, jpg);
  stillToY4m(still, out);
  writeExpected(out, s);
  return out;
}

/**
 * A y4m of a passport held still in front of the camera (2 s at 10 fps, 960×720), for the
 * Playwright spec's fake camera.
 *
 * @example
 * await makePassportY4m('.tmp/documents/passport.y4m');
 */
export async function makePassportY4m(out: string): Promise<string> {
  const renderer = await startRenderer(FACE_PNG);
  try {
    return await renderY4m(renderer, CAMERA_PASSPORT, out);
  } finally {
    await renderer.close();
  }
}

/**
 * A forged passport: a zone whose check digits all hold, issued by `UTO` (the ICAO specimen
 * state: refused outside test mode), with printed fields that are another person's.
 *
 * @example
 * forgedPassport(4545).lines[0]!.slice(2, 5); // 'UTO'
 */
export function forgedPassport(seed: number): Specimen {
  const base = specimen(seed, 'passport', 'valid', 'mild');
  const mrz = { ...base.mrz!, issuingCountry: 'UTO', nationality: 'UTO' };
  const other = specimen(seed, 'passport', 'viz_mismatch', 'mild');
  return {
    ...base,
    id: `passport-forged-${seed}`,
    variant: 'invented_state',
    mrz,
    lines: composeMrz(mrz),
    printed: { ...other.printed, issuingCountry: 'UTO', nationality: 'UTO' },
  };
}

/** What `--e2e` writes (file names inside its folder). */
export const E2E_FILES = {
  valid: 'passport-valid.y4m',
  broken: 'passport-broken-check.y4m',
  upload: 'passport-upload.jpg',
  licence: 'licence-back.y4m',
  forged: 'passport-forged.y4m',
} as const;

/** The generators whose output the e2e material is: when one changes, the material is made again. */
const GENERATORS = [
  'make-documents.ts',
  'specimens.ts',
  'card-html.ts',
  'render.ts',
  'photo.ts',
  'font.ts',
].map((f) => join(ROOT, 'scripts/documents', f));

/**
 * A hash of the generators' sources, written to `.version` beside the e2e material.
 *
 * @example
 * documentsVersion(); // e.g. '9c1d…' (16 hex digits)
 */
export function documentsVersion(): string {
  const h = createHash('sha256');
  for (const f of GENERATORS) h.update(readFileSync(f));
  return h.digest('hex').slice(0, 16);
}

/**
 * The hosted page's end-to-end material (e2e/documents.spec.ts) and nothing else: the valid
 * passport y4m of the default mode, the same kind of video of a passport whose zone has one wrong
 * check digit, a photograph for the upload fallback (another valid passport, so the spec cannot
 * pass on the camera's document), the back of a driving licence (its AAMVA barcode) and a forged
 * passport (`forgedPassport`). Each has `<file>.json` with its lines or barcode, its printed
 * fields and the `expected` fields; `.version` says which generators made them. One Chromium for
 * the renders: a few seconds.
 *
 * @example
 * await makeE2eMaterial('.tmp/documents-e2e');
 */
export async function makeE2eMaterial(dir: string, facePng = FACE_PNG): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const renderer = await startRenderer(facePng);
  try {
    const valid = await renderY4m(renderer, CAMERA_PASSPORT, join(dir, E2E_FILES.valid));
    const broken = await renderY4m(
      renderer,
      specimen(4242, 'passport', 'broken_check', 'mild'),
      join(dir, E2E_FILES.broken),
    );
    const s = specimen(4343, 'passport', 'valid', 'mild');
    const upload = join(dir, E2E_FILES.upload);
    writeFileSync(upload, photograph(await renderer.render(s, 'front'), s.level, s.seed).jpeg);
    writeExpected(upload, s);
    const licence = await renderY4m(
      renderer,
      specimen(4444, 'dl', 'valid', 'mild'),
      join(dir, E2E_FILES.licence),
    );
    const forged = await renderY4m(renderer, forgedPassport(4545), join(dir, E2E_FILES.forged));
    writeFileSync(join(dir, '.version'), `${documentsVersion()}\n`);
    return [valid, broken, upload, licence, forged];
  } finally {
    await renderer.close();
  }
}

export const DOCUMENTS_E2E_DIR = join(ROOT, '.tmp/documents-e2e');

/**
 * The files of `makeE2eMaterial` missing from `dir` (each with its `.json`), as
 * e2e/documents.spec.ts looks for them; all of them when `.version` is not the generators' hash
 * (the material is stale). Empty when the material is there and current.
 *
 * @example
 * missingE2eMaterial(DOCUMENTS_E2E_DIR); // [] after `npm run documents -- --e2e`
 */
export function missingE2eMaterial(dir = DOCUMENTS_E2E_DIR): string[] {
  const versionFile = join(dir, '.version');
  const made = existsSync(versionFile) ? readFileSync(versionFile, 'utf8').trim() : '';
  if (made !== documentsVersion()) return Object.values(E2E_FILES);
  return Object.values(E2E_FILES).filter(
    (f) => !existsSync(join(dir, f)) || !existsSync(join(dir, `${f}.json`)),
  );
}

if (
  process.argv[1] &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv.includes('--e2e')
) {
  const t0 = Date.now();
  const files = await makeE2eMaterial(DOCUMENTS_E2E_DIR);
  console.log(
    `documents --e2e: ${files.length} files in ${DOCUMENTS_E2E_DIR} (${Date.now() - t0} ms)`,
  );
} else if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const size = {
    perLevel: arg('per-level', DEFAULT_SET.perLevel),
    perLevelOther: arg('per-level-other', DEFAULT_SET.perLevelOther),
    extra: arg('extra', DEFAULT_SET.extra),
    second: arg('second', DEFAULT_SET.second),
    forged: arg('forged', DEFAULT_SET.forged),
  };
  const t0 = Date.now();
  // A set made before keeps nothing: its manifest would name files of another size.
  if (existsSync(DOCUMENTS_DIR))
    for (const f of readdirSync(DOCUMENTS_DIR)) rmSync(join(DOCUMENTS_DIR, f), { force: true });
  const m = await makeDocuments(testSet(size), DOCUMENTS_DIR, console.log);
  await makePassportY4m(join(DOCUMENTS_DIR, 'passport.y4m'));
  console.log(
    `documents: ${m.length} photographs and passport.y4m in ${DOCUMENTS_DIR} (${Date.now() - t0} ms)`,
  );
}
