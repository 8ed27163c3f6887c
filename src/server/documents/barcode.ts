/**
 * PDF417 reading with zxing-wasm (ZXing-C++ compiled to WebAssembly): the barcode on the back of
 * North American driving licences. zxing-wasm fetches its wasm from a CDN by default; here the
 * module is given the bytes of `zxing_reader.wasm` from node_modules before its first use, so
 * nothing is downloaded. The JPEG is decoded inside the module.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);

/**
 * Where zxing-wasm's reader wasm is in node_modules.
 *
 * @example
 * zxingWasmPath(); // '…/node_modules/zxing-wasm/dist/reader/zxing_reader.wasm'
 */
export function zxingWasmPath(): string {
  // The package exports no package.json: from its reader's CommonJS entry (dist/cjs/reader/).
  return join(dirname(require.resolve('zxing-wasm/reader')), '../../reader/zxing_reader.wasm');
}

let prepared = false;

/** Gives the module its wasm from node_modules, once per process. */
function prepare(): void {
  if (prepared) return;
  const bytes = readFileSync(zxingWasmPath());
  prepareZXingModule({
    overrides: {
      wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      // Never a URL: the binary above is all the module may load.
      locateFile: (path: string) => path,
    },
    fireImmediately: true,
  });
  prepared = true;
}

const OPTIONS: ReaderOptions = {
  formats: ['PDF417'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 1,
  textMode: 'Plain',
};

/** An RGBA pixmap, as zxing-wasm takes one (it converts it to grey inside). */
export interface Pixmap {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The text of the first PDF417 in an image (JPEG or PNG bytes, or an RGBA pixmap), or null.
 *
 * @example
 * const text = await readPdf417(jpegBytes); // '@\n\x1e\rANSI 636014…'
 */
export async function readPdf417(image: Uint8Array | Pixmap): Promise<string | null> {
  prepare();
  // zxing-wasm reads any object with data, width and height as a pixmap (Node has no ImageData).
  const results = await readBarcodes(image as Uint8Array, OPTIONS);
  const hit = results.find((r) => r.isValid && r.format === 'PDF417');
  return hit ? hit.text : null;
}
