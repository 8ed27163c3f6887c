import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes .br and .gz copies that decompress to the file, for compressible files only', async () => {
    dir = mkdtempSync(join(tmpdir(), 'idv-precompress-'));
    mkdirSync(join(dir, 'assets'));
    const js = 'export const greeting = "hello";\n'.repeat(200);
    writeFileSync(join(dir, 'assets', 'app.js'), js);
    writeFileSync(join(dir, 'assets', 'app.js.map'), '{"sources":[]}'.repeat(100));
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>hi</p>'.repeat(100)}`);
    writeFileSync(join(dir, 'photo.png'), Buffer.alloc(4000, 7));

    const done = await precompressDir(dir);

    expect(done.map((d) => d.file).sort()).toEqual(['assets/app.js', 'index.html']);
    const br = readFileSync(join(dir, 'assets', 'app.js.br'));
    const gz = readFileSync(join(dir, 'assets', 'app.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(js);
    expect(gunzipSync(gz).toString()).toBe(js);
    expect(br.length).toBeLessThan(js.length);
    expect(existsSync(join(dir, 'assets', 'app.js.map.br'))).toBe(false);
    expect(existsSync(join(dir, 'photo.png.br'))).toBe(false);
  });

  it('keeps no copy that is not smaller than the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'idv-precompress-'));
    writeFileSync(join(dir, 'a.js'), 'x');
    const [a] = await precompressDir(dir);
    expect(a).toEqual({ file: 'a.js', raw: 1, br: null, gz: null });
    expect(existsSync(join(dir, 'a.js.gz'))).toBe(false);
    expect(existsSync(join(dir, 'a.js.br'))).toBe(false);
  });
});
