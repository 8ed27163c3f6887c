import type { FaceAnalyzer } from './analyzer';

/**
 * One `human` analyzer for the whole app (liveness and the post-session analyses), loaded on first
 * use: most processes never analyse a face, and two copies of the models would double the memory.
 *
 * @example
 * const analyzer = lazyHumanAnalyzer();
 * await analyzer.analyze(jpegBytes); // loads the models now
 * await analyzer.close();
 */
export function lazyHumanAnalyzer(): FaceAnalyzer {
  let inner: Promise<FaceAnalyzer> | null = null;
  const get = () => (inner ??= import('./human-analyzer').then((m) => m.createHumanAnalyzer()));
  return {
    load: async () => (await get()).load(),
    analyze: async (image, opts) => (await get()).analyze(image, opts),
    async close() {
      if (inner) await (await inner).close();
    },
  };
}
