import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSecrets } from './folder';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-platform-secrets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('platform secrets in a data folder', () => {
  it('keeps the first candidate of a name and gives it back for later ones', async () => {
    const secrets = folderSecrets(dir);
    const first = await secrets.keep('media-signing', Buffer.from('first'));
    expect(first.toString()).toBe('first');
    const again = await folderSecrets(dir).keep('media-signing', Buffer.from('second'));
    expect(again.toString()).toBe('first');
    expect((await secrets.keep('other', Buffer.from('o'))).toString()).toBe('o');
    // No temporary file is left behind.
    expect(readdirSync(dir).sort()).toEqual(['media-signing.key', 'other.key']);
    expect(secrets.whereIs('other')).toBe(join(dir, 'other.key'));
  });

  it('refuses a name that is not [a-z0-9-], and writes nothing', async () => {
    const secrets = folderSecrets(dir);
    for (const name of ['../escape', 'Media', '', 'a/b', '.hidden']) {
      await expect(secrets.keep(name, Buffer.from('x'))).rejects.toThrow(/name is \[a-z0-9-\]/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
