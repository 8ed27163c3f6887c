// The pure rules of the session recording (docs/hosted-page.md, "Session recording").

import type { VideoUploadType } from '../api/client';

export type { VideoUploadType };

/** The body limit of `POST /client/video`. */
export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
/** Enough for about 13 minutes within the limit at the camera's 640×480. */
export const VIDEO_BITS_PER_SECOND = 500_000;
/** MediaRecorder hands over a piece this often, so a recording cut at the limit stays playable. */
export const CHUNK_MS = 1000;
/** A frame for the server's video analysis this often while recording… */
export const FRAME_EVERY_MS = 2000;
/** …and no more than the route takes per session. */
export const MAX_VIDEO_FRAMES = 30;

// WebM first (Chromium, Firefox), MP4 for Safari; the first the browser can record wins. VP8
// before VP9: it costs the phone less to encode while the face detector runs beside it.
const CANDIDATES: readonly [string, VideoUploadType][] = [
  ['video/webm;codecs=vp8', 'video/webm'],
  ['video/webm;codecs=vp9', 'video/webm'],
  ['video/webm', 'video/webm'],
  ['video/mp4;codecs=avc1', 'video/mp4'],
  ['video/mp4', 'video/mp4'],
];

/**
 * The recording's type: the first candidate `MediaRecorder.isTypeSupported` accepts, with the
 * bare media type the upload is sent as; null when the browser can record none of them.
 *
 * @example
 * pickRecordingType((t) => t.startsWith('video/mp4'));
 * // { mimeType: 'video/mp4;codecs=avc1', uploadType: 'video/mp4' }
 */
export function pickRecordingType(
  isTypeSupported: (type: string) => boolean,
): { mimeType: string; uploadType: VideoUploadType } | null {
  for (const [mimeType, uploadType] of CANDIDATES) {
    try {
      if (isTypeSupported(mimeType)) return { mimeType, uploadType };
    } catch {
      // A browser that throws on a type it does not know: try the next one.
    }
  }
  return null;
}

/**
 * Whether a piece the recorder handed over still fits the upload limit (`keep`), or the
 * recording is full: the piece is left out and the recording stops there (`full`).
 *
 * @example
 * takeChunk(MAX_VIDEO_BYTES - 10, 20); // 'full'
 */
export function takeChunk(
  totalBytes: number,
  chunkBytes: number,
  limit = MAX_VIDEO_BYTES,
): 'keep' | 'full' {
  return totalBytes + chunkBytes <= limit ? 'keep' : 'full';
}

/** A timer that fires a little early still counts: checked on a 2 s timer, frames stay 2 s apart. */
export const FRAME_SLACK_MS = 250;

/**
 * Whether to sample a frame now: every `FRAME_EVERY_MS` from the first (a timer firing up to
 * `FRAME_SLACK_MS` early counts), at most `MAX_VIDEO_FRAMES`.
 *
 * @example
 * frameDue(3, 1000, 2999); // true: a timer 1 ms early
 * frameDue(3, 1000, 2500); // false: 1500 ms since the last
 * frameDue(30, 0, 99999); // false: the route takes no more
 */
export function frameDue(sampled: number, lastAt: number | null, now: number): boolean {
  if (sampled >= MAX_VIDEO_FRAMES) return false;
  return lastAt === null || now - lastAt >= FRAME_EVERY_MS - FRAME_SLACK_MS;
}
