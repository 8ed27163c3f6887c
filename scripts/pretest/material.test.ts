import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DOWNLOADED_FILES,
  fixturesVersion,
  STILL_FIXTURES,
  VIDEO_FIXTURES,
} from '../fixtures/make-fixtures';
import { DRIFT_THEN_FOLLOW } from '../fixtures/retry-fixture';
import { fixturesToMake, needsSkimage } from './material';

const FIXTURES = [...STILL_FIXTURES, ...VIDEO_FIXTURES]
  .map((f) => f.file)
  .concat(DRIFT_THEN_FOLLOW);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pretest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const touch = (files: readonly string[]) => files.forEach((f) => writeFileSync(join(dir, f), ''));

describe('fixturesToMake', () => {
  it('is everything in an empty folder', () => {
    expect(fixturesToMake(dir)).toEqual([...DOWNLOADED_FILES, ...FIXTURES]);
    expect(needsSkimage(fixturesToMake(dir))).toBe(true);
  });

  it('is nothing once every file is there at the current version', () => {
    touch([...DOWNLOADED_FILES, ...FIXTURES]);
    writeFileSync(join(dir, '.version'), `${fixturesVersion()}\n`);
    expect(fixturesToMake(dir)).toEqual([]);
  });

  it('is the missing files at the current version, without the images when they are there', () => {
    touch([...DOWNLOADED_FILES, ...FIXTURES.slice(1)]);
    writeFileSync(join(dir, '.version'), `${fixturesVersion()}\n`);
    expect(fixturesToMake(dir)).toEqual([FIXTURES[0]]);
    expect(needsSkimage(fixturesToMake(dir))).toBe(false);
  });

  it('includes a fixture made from others (the retry video) when it alone is missing', () => {
    touch([...DOWNLOADED_FILES, ...FIXTURES.filter((f) => f !== DRIFT_THEN_FOLLOW)]);
    writeFileSync(join(dir, '.version'), `${fixturesVersion()}\n`);
    expect(fixturesToMake(dir)).toEqual([DRIFT_THEN_FOLLOW]);
  });

  it('is every fixture, as makeFixtures remakes them, when the generators changed', () => {
    touch([...DOWNLOADED_FILES, ...FIXTURES]);
    writeFileSync(join(dir, '.version'), `not-${fixturesVersion()}\n`);
    expect(fixturesToMake(dir)).toEqual(FIXTURES);
  });
});
