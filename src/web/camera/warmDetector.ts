import { loadFaceDetector, type LiveFaceDetector } from './detector';
import { prefetchFaceDetector } from './prefetchDetector';

/** Something that holds a resource until it is closed (a face detector). */
interface Closable {
  close(): void;
}

/**
 * One instance made ahead of time and handed to the first taker. Starting MediaPipe (compiling its
 * 11 MB wasm, building the graph) is most of the camera step's wait on a slow phone; made while
 * the user reads the step before, it is ready or nearly so when the camera starts. The taker owns
 * what it takes (and closes it); a later taker gets a fresh load. A warm load that failed is
 * loaded again by the taker, since a network error while reading should not end the step.
 *
 * @example
 * const detectors = warmer(() => loadFaceDetector());
 * detectors.warm(); // on the screen before
 * const detector = await detectors.take(); // on the camera screen
 */
export function warmer<T extends Closable>(load: () => Promise<T>) {
  let pending: Promise<T> | null = null;
  return {
    warm(): void {
      if (pending) return;
      const started = load();
      pending = started;
      started.catch(() => {
        if (pending === started) pending = null;
      });
    },
    take(): Promise<T> {
      const started = pending;
      pending = null;
      return started ? started.catch(() => load()) : load();
    },
  };
}

// The prefetch first keeps the download at low priority while the current screen still loads.
const faceDetectors = warmer<LiveFaceDetector>(async () => {
  await prefetchFaceDetector();
  return loadFaceDetector();
});

/**
 * Starts making the page's face detector while the user is on the node before a camera node.
 *
 * @example
 * warmFaceDetector();
 */
export const warmFaceDetector = faceDetectors.warm;

/**
 * The face detector warmed before, or a fresh one; the caller closes it.
 *
 * @example
 * const detector = await takeFaceDetector();
 */
export const takeFaceDetector = faceDetectors.take;
