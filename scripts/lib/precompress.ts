/**
 * The build's last step: a brotli (`.br`) and a gzip (`.gz`) copy beside every file of the built
 * page that compresses, so the server sends them by `Accept-Encoding` without compressing per
 * request (`src/server/routes/page.ts`, `preCompressed`).
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text, wasm and the face model compress; images, fonts and source maps (never served) do not. */
export const COMPRESSIBLE = /\.(?:m?js|css|html|svg|json|txt|xml|webmanifest|wasm|tflite)$/i;

/**
 * Brotli's best quality costs about 90 s on the 11 MB MediaPipe wasm for 12% fewer bytes than
 * quality 9 (10 s): files above this size get quality 9.
 */
export const BEST_QUALITY_MAX_BYTES = 1024 * 1024;

export interface Precompressed {
  /** Path relative to the directory, with `/`. */
  file: string;
  raw: number;
  /** Bytes of the `.br` copy; null when brotli did not make the file smaller (no copy). */
  br: number | null;
  gz: number | null;
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file under `dir`, keeping only a
 * copy that is smaller than the file. The files are compressed concurrently (zlib's thread pool).
 *
 * @example
 * const done = await precompressDir('dist/web');
 * done.find((f) => f.file === 'index.html'); // { file: 'index.html', raw: 781, br: 402, gz: 455 }
 */
export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  return Promise.all(
    files.map(async (file): Promise<Precompressed> => {
      const path = join(dir, file);
      const raw = await readFile(path);
      const size = (await stat(path)).size;
      const quality = size <= BEST_QUALITY_MAX_BYTES ? 11 : 9;
      const [br, gzipped] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: quality,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        }),
        gz(raw, { level: 9 }),
      ]);
      const keep = async (data: Buffer, ext: string) => {
        if (data.length >= size) return null;
        await writeFile(`${path}${ext}`, data);
        return data.length;
      };
      return { file, raw: size, br: await keep(br, '.br'), gz: await keep(gzipped, '.gz') };
    }),
  );
}
