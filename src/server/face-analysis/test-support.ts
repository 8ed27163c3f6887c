/**
 * The real analyzer with one way to die, for the thread's tests: a crash of tfjs or of the wasm
 * module cannot be caused on demand, so the bytes `CRASH` end the thread as such a crash would.
 */
import type { FaceAnalyzer } from './analyzer';
import { createHumanAnalyzer as createReal, type HumanAnalyzerOptions } from './human-analyzer';

/** The bytes that end the thread. */
export const CRASH = new TextEncoder().encode('CRASH');

const isCrash = (b: Uint8Array) => b.length === CRASH.length && b.every((v, i) => v === CRASH[i]);

/**
 * `createHumanAnalyzer`, except that analysing `CRASH` exits the thread (code 70).
 *
 * @example
 * createThreadedAnalyzer({ module: new URL('./test-support.ts', import.meta.url).href });
 */
export function createHumanAnalyzer(opts: HumanAnalyzerOptions = {}): FaceAnalyzer {
  const real = createReal(opts);
  return {
    load: () => real.load(),
    analyze: (image, call) => (isCrash(image) ? process.exit(70) : real.analyze(image, call)),
    close: () => real.close(),
  };
}
