/**
 * `npm run test:setup`, the first step of `npm test`: the README's two commands are the whole
 * set-up. Checks that the machine has what the tests need (Chromium, the OCR-B font, and ffmpeg
 * and Debian's python3-skimage when material has to be made) and, when something is missing,
 * stops at once with the exact command that installs it. Then makes the test material that is
 * missing or stale: the liveness fixtures (`npm run fixtures`, into `.tmp/fixtures/`) and the
 * document specs' material (`npm run documents -- --e2e`, into `.tmp/documents-e2e/`). Material
 * that is there and current is left untouched, so a second run does nothing.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCUMENTS_E2E_DIR, makeE2eMaterial, missingE2eMaterial } from './documents/make-documents';
import { FIXTURE_DIR, makeFixtures } from './fixtures/make-fixtures';
import { fixturesToMake, needsSkimage } from './pretest/material';
import { probeSystem } from './pretest/probe';
import { systemVerdict, verdictMessage, type SystemProbe } from './pretest/system';

export interface PrepareOptions {
  /** Where the liveness fixtures are (`.tmp/fixtures/`); the documents take their face there. */
  fixturesDir?: string;
  /** Where the document specs' material is (`.tmp/documents-e2e/`). */
  documentsDir?: string;
  probe?: () => SystemProbe;
  log?: (line: string) => void;
}

/**
 * Checks the machine, then makes what material is missing. False (after saying what to install)
 * when the machine lacks something; nothing is made then.
 *
 * @example
 * if (!(await prepareTests())) process.exitCode = 1;
 */
export async function prepareTests(opts: PrepareOptions = {}): Promise<boolean> {
  const fixturesDir = opts.fixturesDir ?? FIXTURE_DIR;
  const documentsDir = opts.documentsDir ?? DOCUMENTS_E2E_DIR;
  const log = opts.log ?? ((line: string) => console.log(line));
  const fixtures = fixturesToMake(fixturesDir);
  const documents = missingE2eMaterial(documentsDir);
  const verdict = systemVerdict((opts.probe ?? probeSystem)(), {
    fixtures: fixtures.length > 0,
    skimage: needsSkimage(fixtures),
    documents: documents.length > 0,
  });
  if (verdict.missing.length > 0) {
    console.error(verdictMessage(verdict));
    return false;
  }
  if (fixtures.length > 0) {
    log(`test material: making ${fixtures.join(', ')} in ${fixturesDir}`);
    await makeFixtures({ dir: fixturesDir, log });
  }
  if (documents.length > 0) {
    log(`test material: making ${documents.join(', ')} in ${documentsDir}`);
    await makeE2eMaterial(documentsDir, join(fixturesDir, 'astronaut.png'));
  }
  log(`test material: ready in ${fixturesDir} and ${documentsDir}`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!(await prepareTests())) process.exitCode = 1;
}
