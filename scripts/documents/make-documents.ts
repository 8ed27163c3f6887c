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
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMrz } from '../../src/core/mrz';
import { photograph } from './photo';
import { startRenderer, type Renderer } from './render';
import { specimen, testSet, type Specimen } from './specimens';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DOCUMENTS_DIR = join(ROOT, '.tmp/documents');
export const FACE_PNG = join(ROOT, '.tmp/fixtures/astronaut.png');
/** The day expiry is judged against in the manifest (the renderer's dates are far from it). */
const TODAY = Date.UTC(2026, 0, 1);

export interface ManifestEntry {
  id: string;
  file: string;
  front?: string;
  kind: Specimen['kind'];
  variant: Specimen['variant'];
  level: Specimen['level'];
  lines: string[];
  /** `extractedData` a correct read gives (the check digits may still fail: `broken_check`). */
  expected: Record<string, string>;
}

/**
 * Renders `set` into `dir`; returns the manifest.
 *
 * @example
 * await makeDocuments(testSet(2), '/tmp/docs');
 */
export async function makeDocuments(set: Specimen[], dir: string): Promise<ManifestEntry[]> {
  mkdirSync(dir, { recursive: true });
  const renderer = await startRenderer(FACE_PNG);
  const manifest: ManifestEntry[] = [];
  try {
    for (const s of set) {
      const side = s.kind === 'passport' ? 'front' : 'back';
      const flat = await renderer.render(s, side);
      const file = `${s.id}.jpg`;
      writeFileSync(join(dir, file), photograph(flat, s.level, s.seed).jpeg);
      let front: string | undefined;
      if (s.kind === 'id') {
        front = `${s.id}-front.jpg`;
        const f = await renderer.render(s, 'front');
        writeFileSync(join(dir, front), photograph(f, s.level, s.seed + 1000).jpeg);
      }
      const parsed = parseMrz(s.lines, TODAY);
      manifest.push({
        id: s.id,
        file,
        ...(front ? { front } : {}),
        kind: s.kind,
        variant: s.variant,
        level: s.level,
        lines: s.lines,
        expected: parsed ? { ...parsed.data } : {},
      });
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

/** `<file>.json` beside a piece of test material: its zone and the fields a correct read gives. */
function writeExpected(file: string, s: Specimen): void {
  writeFileSync(
    `${file}.json`,
    `${JSON.stringify({ lines: s.lines, expected: parseMrz(s.lines, TODAY)?.data }, null, 1)}\n`,
  );
}

/** The valid passport of the fake camera (mild photograph); the same in both modes. */
const CAMERA_PASSPORT = specimen(4242, 'passport', 'valid', 'mild');

async function renderY4m(renderer: Renderer, s: Specimen, out: string): Promise<string> {
  const jpg = photograph(await renderer.render(s, 'front'), s.level, s.seed).jpeg;
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

/** What `--e2e` writes (file names inside its folder). */
export const E2E_FILES = {
  valid: 'passport-valid.y4m',
  broken: 'passport-broken-check.y4m',
  upload: 'passport-upload.jpg',
} as const;

/**
 * The hosted page's end-to-end material (e2e/documents.spec.ts) and nothing else: the valid
 * passport y4m of the default mode, the same kind of video of a passport whose zone has one wrong
 * check digit, and a photograph for the upload fallback (another valid passport, so the spec
 * cannot pass on the camera's document). Each has `<file>.json` with its lines and `expected`
 * fields. One Chromium for the three renders: a few seconds.
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
    return [valid, broken, upload];
  } finally {
    await renderer.close();
  }
}

export const DOCUMENTS_E2E_DIR = join(ROOT, '.tmp/documents-e2e');

/**
 * The files of `makeE2eMaterial` missing from `dir` (each with its `.json`), as
 * e2e/documents.spec.ts looks for them. Empty when the material is there.
 *
 * @example
 * missingE2eMaterial(DOCUMENTS_E2E_DIR); // [] after `npm run documents -- --e2e`
 */
export function missingE2eMaterial(dir = DOCUMENTS_E2E_DIR): string[] {
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
  const i = process.argv.indexOf('--per-level');
  const perLevel = i > 0 ? Number(process.argv[i + 1]) : 12;
  const j = process.argv.indexOf('--extra');
  const extra = j > 0 ? Number(process.argv[j + 1]) : 4;
  const t0 = Date.now();
  const m = await makeDocuments(testSet(perLevel, extra), DOCUMENTS_DIR);
  await makePassportY4m(join(DOCUMENTS_DIR, 'passport.y4m'));
  console.log(
    `documents: ${m.length} photographs and passport.y4m in ${DOCUMENTS_DIR} (${Date.now() - t0} ms)`,
  );
}
