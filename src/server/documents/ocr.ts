/**
 * tesseract.js kept warm: one worker, created on first use, with the `eng` traineddata of
 * `@tesseract.js-data/eng` and the core wasm from node_modules. Nothing is downloaded or cached.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * The folder of the gzip `eng.traineddata` shipped in npm. (In Node, tesseract.js `require`s its
 * core wasm from `tesseract.js-core` in node_modules; only the traineddata needs a path.)
 *
 * @example
 * tesseractLangPath(); // '…/node_modules/@tesseract.js-data/eng/4.0.0'
 */
export function tesseractLangPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

export interface OcrLine {
  text: string;
  confidence: number;
}

export interface MrzOcr {
  /** Reads the lines of a PNG holding the machine-readable zone. */
  read(png: Uint8Array): Promise<OcrLine[]>;
  close(): Promise<void>;
}

/** Characters the printed fields use: letters, digits and the punctuation of dates. */
const TEXT_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./-<';

function createWorkerQueue(parameters: Record<string, string>): MrzOcr {
  let worker: Promise<Worker> | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const start = async () => {
    const w = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: tesseractLangPath(),
      gzip: true,
      cacheMethod: 'none',
    });
    await w.setParameters(parameters);
    return w;
  };
  return {
    read(png) {
      const run = chain.then(async () => {
        worker ??= start();
        const w = await worker;
        const { data } = await w.recognize(Buffer.from(png), {}, { text: true, blocks: true });
        const lines: OcrLine[] = [];
        for (const b of data.blocks ?? []) {
          for (const p of b.paragraphs) {
            for (const l of p.lines) lines.push({ text: l.text.trim(), confidence: l.confidence });
          }
        }
        if (lines.length === 0) {
          for (const t of data.text.split('\n'))
            if (t.trim()) lines.push({ text: t.trim(), confidence: data.confidence });
        }
        return lines;
      });
      chain = run.catch(() => undefined);
      return run;
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await (await w).terminate();
    },
  };
}

/**
 * A warm tesseract worker restricted to the MRZ alphabet. Calls queue on the one worker.
 *
 * @example
 * const ocr = createMrzOcr();
 * const lines = await ocr.read(png);
 */
export function createMrzOcr(): MrzOcr {
  return createWorkerQueue({
    tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
    user_defined_dpi: '254',
  });
}

/**
 * A warm tesseract worker for the printed fields of the visual zone: sparse text (labels and
 * values scattered over the page), letters, digits and the punctuation of dates.
 *
 * @example
 * const viz = createTextOcr();
 * const lines = await viz.read(png);
 */
export function createTextOcr(): MrzOcr {
  return createWorkerQueue({
    tessedit_char_whitelist: TEXT_CHARS,
    tessedit_pageseg_mode: PSM.SPARSE_TEXT,
    user_defined_dpi: '254',
  });
}
