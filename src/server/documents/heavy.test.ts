/**
 * The reader on heavy photographs (blur 1.8 px, noise 14, JPEG 65, a 45% light fall-off, 7%
 * perspective: docs/documents.md), each seed one that the first read alone refused: Chromium
 * renders them with Debian's OCR-B font (needs `npm run fixtures` for the face), tesseract is
 * the real one. No face models: the face check is not what is tested here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocuments, type ManifestEntry } from '../../../scripts/documents/make-documents';
import { specimen } from '../../../scripts/documents/specimens';
import {
  createDocumentReader,
  createTextOcr,
  planFor,
  scanSide,
  type DocumentReader,
  type MrzOcr,
} from '.';

const TODAY = Date.UTC(2026, 0, 1);
const PLAN = planFor('passport', 'front');

let dir: string;
let docs: ManifestEntry[];
let reader: DocumentReader;
let textOcr: MrzOcr;
const photo = (i: number) => readFileSync(join(dir, docs[i]!.file));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idv-heavy-'));
  docs = await makeDocuments(
    [
      // The page's bottom-right corner lost in the light's fall-off at Otsu's cut.
      specimen(7030, 'passport', 'valid', 'heavy'),
      // `NAKAMURA<<GRACE` read right, with near ties the first templates leave open.
      specimen(7015, 'passport', 'valid', 'heavy'),
      // `ERIKSSON` against `ERIXSSON`: a near tie the heavy templates leave open too.
      specimen(7026, 'passport', 'valid', 'heavy'),
      // The same zone with another person's printed fields.
      specimen(7026, 'passport', 'viz_mismatch', 'heavy'),
    ],
    dir,
  );
  reader = createDocumentReader();
  textOcr = createTextOcr();
}, 120_000);

afterAll(async () => {
  await reader?.close();
  await textOcr?.close();
  rmSync(dir, { recursive: true, force: true });
});

const scan = (i: number) =>
  scanSide(reader, textOcr, {
    image: photo(i),
    side: 'front',
    kind: 'passport',
    allowed: ['passport'],
    mode: 'live',
    today: TODAY,
    front: null,
  });

describe('heavy passports', () => {
  it('reads a page whose corner the light darkened, from its outline at the low cut', async () => {
    const r = await reader.read(photo(0), TODAY, PLAN);
    expect(r.status).toBe('read');
    expect(r.mrz?.data).toEqual(docs[0]!.expected);
  });

  it('reads with the heavy templates what the first templates leave a near tie', async () => {
    const r = await reader.read(photo(1), TODAY, PLAN);
    expect(r.status).toBe('read');
    expect(r.mrz?.data).toEqual(docs[1]!.expected);
  });

  it('offers the names that fit and lets the printed fields pick the one printed', async () => {
    const r = await reader.read(photo(2), TODAY, PLAN);
    expect(r.status).toBe('unreadable');
    expect(r.nameOptions?.map((o) => o.data.lastName)).toContain('ERIKSSON');
    expect(r.nameOptions!.length).toBeGreaterThan(1);
    const s = await scan(2);
    expect(s.read.status).toBe('read');
    expect(s.read.mrz?.data).toEqual(docs[2]!.expected);
    expect(s.result).not.toBe('unreadable');
  }, 30_000);

  it("settles no name from another person's printed fields", async () => {
    const s = await scan(3);
    expect(s.read.status).toBe('unreadable');
    expect(s.result).toBe('unreadable');
  }, 30_000);
});
