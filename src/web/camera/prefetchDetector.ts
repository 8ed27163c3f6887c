import { FACE_MODEL_PATH, MEDIAPIPE_WASM_PATH } from './detector';

/** Fetches a file to the end, so that the browser's HTTP cache keeps it. */
export type FileFetcher = (url: string) => Promise<unknown>;

const lowPriority: FileFetcher = (url) =>
  fetch(url, { priority: 'low' }).then((response) => response.arrayBuffer());

let started: Promise<void> | null = null;

/**
 * Starts fetching what the face detector needs (MediaPipe's code, the wasm loader and binary this
 * browser will pick, the model) at low priority, once per page, so the camera step finds them in
 * the HTTP cache. Called when a camera node's screen is fetched, which the page does while the
 * user is still on the node before it. Never rejects: a failed prefetch is fetched again when the
 * detector loads.
 *
 * @example
 * void prefetchFaceDetector();
 */
export function prefetchFaceDetector(fetchFile: FileFetcher = lowPriority): Promise<void> {
  started ??= (async () => {
    const { FilesetResolver } = await import('@mediapipe/tasks-vision');
    // The same choice (SIMD or not) `loadFaceDetector` will make, so the same URLs.
    const fileset = await FilesetResolver.forVisionTasks(MEDIAPIPE_WASM_PATH);
    await Promise.all(
      [fileset.wasmLoaderPath, fileset.wasmBinaryPath, FACE_MODEL_PATH].map(fetchFile),
    );
  })().catch(() => {
    started = null;
  });
  return started;
}
