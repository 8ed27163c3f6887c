// Whether the session's video is being recorded, for the notice the page shows, and how to let
// its camera go. No camera code here: the first screen (App) reads it, while the recorder comes
// with the camera screens' chunk and reports to it.

type Listener = () => void;

let release: (() => Promise<void>) | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

/**
 * The recorder started; `releaseCamera` stops it (what was recorded is still uploaded at the end).
 *
 * @example
 * recordingStarted(() => recorder.stopCapture());
 */
export function recordingStarted(releaseCamera: () => Promise<void>): void {
  release = releaseCamera;
  emit();
}

/**
 * The recorder stopped and its camera is let go (by a release, a camera switch or the session's
 * end).
 *
 * @example
 * recordingStopped();
 */
export function recordingStopped(): void {
  if (release === null) return;
  release = null;
  emit();
}

/**
 * Whether video is being recorded now.
 *
 * @example
 * useSyncExternalStore(subscribeRecording, isRecording);
 */
export function isRecording(): boolean {
  return release !== null;
}

/**
 * Calls `listener` whenever recording starts or stops; returns the unsubscribe.
 *
 * @example
 * const stop = subscribeRecording(() => render());
 */
export function subscribeRecording(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Stops the recording and lets its camera go when no camera node remains; nothing when none runs.
 *
 * @example
 * if (!cameraAhead(flow, node.id)) void releaseSessionCamera();
 */
export function releaseSessionCamera(): Promise<void> {
  return release ? release() : Promise.resolve();
}
