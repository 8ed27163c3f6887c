import type { ClientApi } from '../api/client';
import type { VideoFrameBody } from '../api/client';
import type { PublicSession } from '../api/types';
import {
  CHUNK_MS,
  FRAME_EVERY_MS,
  VIDEO_BITS_PER_SECOND,
  frameDue,
  pickRecordingType,
  takeChunk,
} from '../recording/recordingPlan';
import { recordingStarted, recordingStopped } from '../recording/recordingState';
import { setRecordingFinisher } from '../recording/sessionEnd';
import { blobToBase64 } from './base64';
import { grabJpeg } from './grabFrame';
import { createUploadQueue } from './uploadQueue';
import { mayRetry } from './useLivenessFlow';

/** The session's recording, from the first camera node to the end of the session. */
export interface SessionRecorder {
  /**
   * Stops recording and lets the camera go (a camera switch: phones open one camera at a time);
   * what was recorded is kept for the upload. Resolves once the recorder has handed over all.
   */
  stopCapture(): Promise<void>;
  /** Stops, then uploads the recording (after the sampled frames). Never rejects. */
  finish(): Promise<void>;
}

// Waiting longer than this for the frames' uploads would only delay the video's.
const FRAMES_DRAIN_MS = 10_000;

const log = (what: string, error?: unknown) =>
  console.warn(`Session recording: ${what}`, error ?? '');

/** What the session asks of its recording. */
export interface RecordingOptions {
  /**
   * Sample frames for the server's video analysis: the session's `videoAIAnalysisEnabled`. The
   * server refuses frames of a session without it (`video_analysis_disabled`), so none are sent.
   */
  sampleFrames: boolean;
  /** Called once the recording stopped and let its camera go. */
  onStopped?: () => void;
}

/**
 * Records a copy of the camera's video (cloned tracks, so the node's own camera may close when its
 * screen goes away) with MediaRecorder and, when the session has video analysis, samples a frame
 * every 2 s (30 at most) for it. Null when the browser cannot record. Failures are logged, never
 * shown.
 *
 * @example
 * const recorder = createSessionRecorder(stream, api, { sampleFrames: true });
 * // …at the end of the session:
 * await recorder?.finish();
 */
export function createSessionRecorder(
  stream: MediaStream,
  api: Pick<ClientApi, 'video' | 'videoFrame'>,
  options: RecordingOptions,
): SessionRecorder | null {
  if (typeof MediaRecorder === 'undefined') return null;
  const type = pickRecordingType((t) => MediaRecorder.isTypeSupported(t));
  const source = stream.getVideoTracks()[0];
  if (!type || !source || source.readyState !== 'live') return null;

  const own = new MediaStream([source.clone()]);
  const recorder = new MediaRecorder(own, {
    mimeType: type.mimeType,
    videoBitsPerSecond: VIDEO_BITS_PER_SECOND,
  });
  const chunks: Blob[] = [];
  let stopping: Promise<void> | null = null;
  let bytes = 0;
  let full = false;

  const stopped = new Promise<void>((resolve) => {
    recorder.addEventListener('stop', () => resolve(), { once: true });
  });
  recorder.addEventListener('dataavailable', (event: BlobEvent) => {
    if (full || event.data.size === 0) return;
    if (takeChunk(bytes, event.data.size) === 'keep') {
      chunks.push(event.data);
      bytes += event.data.size;
    } else {
      full = true;
      log('the upload limit is reached; the recording ends here');
      void stopCapture();
    }
  });
  recorder.addEventListener('error', (event) => {
    log('the recorder failed', (event as ErrorEvent).error ?? event);
    void stopCapture();
  });

  const frames = options.sampleFrames ? sampleFrames(own, api, () => stopping !== null) : null;

  function stopCapture(): Promise<void> {
    if (stopping) return stopping;
    frames?.stopSampling();
    const wasRecording = recorder.state !== 'inactive';
    // The last piece still comes (`dataavailable` before `stop`) after the tracks end; the
    // camera is let go at once, before a switch asks for another one.
    if (wasRecording) recorder.stop();
    own.getTracks().forEach((track) => track.stop());
    options.onStopped?.();
    stopping = wasRecording ? stopped : Promise.resolve();
    return stopping;
  }

  recorder.start(CHUNK_MS);

  return {
    stopCapture,
    async finish() {
      try {
        await stopCapture();
        if (frames) {
          await Promise.race([
            frames.queue.drained(),
            new Promise((resolve) => setTimeout(resolve, FRAMES_DRAIN_MS)),
          ]);
          frames.queue.stop();
        }
        if (bytes === 0) return;
        await api.video(new Blob(chunks, { type: type.mimeType }), type.uploadType);
      } catch (error) {
        log('the upload failed; the report will have no video', error);
      }
    },
  };
}

/**
 * Samples a frame of the recording's copy of the camera every 2 s (the first as soon as there is
 * a picture) and queues its upload for the video analysis.
 */
function sampleFrames(
  own: MediaStream,
  api: Pick<ClientApi, 'videoFrame'>,
  stopped: () => boolean,
) {
  const queue = createUploadQueue<VideoFrameBody>({
    send: (frame) => api.videoFrame(frame),
    retryable: mayRetry,
    retryDelaysMs: [500, 1000, 2000, 4000],
  });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.setAttribute('playsinline', '');
  video.srcObject = own;
  video.play().catch((error: unknown) => {
    // Stopped before the first picture came (a short session): nothing to say.
    if (!stopped()) log('no frames can be sampled', error);
  });
  const canvas = document.createElement('canvas');
  const startedAt = performance.now();
  let sampled = 0;
  let lastAt: number | null = null;
  const sample = () => {
    const now = performance.now();
    if (video.readyState < 2 || !frameDue(sampled, lastAt, now)) return;
    sampled++;
    lastAt = now;
    const t = Math.round(now - startedAt);
    grabJpeg(video, canvas, 0.8)
      .then(blobToBase64)
      .then((image) => queue.push({ t, image }))
      .catch((error: unknown) => log('a frame could not be encoded', error));
  };
  video.addEventListener('loadeddata', sample, { once: true });
  const timer = setInterval(sample, FRAME_EVERY_MS);
  return {
    queue,
    stopSampling() {
      clearInterval(timer);
      video.srcObject = null;
    },
  };
}

let current: SessionRecorder | null = null;
let began = false;

/**
 * Starts the session's recording with the first camera that goes live (later cameras change
 * nothing) and registers its end with `endSessionRecording`, which the page calls when the flow
 * ends. Frames for the video analysis are sampled only when the session has it on.
 *
 * @example
 * <LivenessCapture onStream={(stream) => recordSessionFrom(stream, api, session)} … />
 */
export function recordSessionFrom(
  stream: MediaStream,
  api: Pick<ClientApi, 'video' | 'videoFrame'>,
  session: Pick<PublicSession, 'settings'>,
): void {
  if (began) return;
  began = true;
  try {
    current = createSessionRecorder(stream, api, {
      sampleFrames: session.settings.videoAIAnalysisEnabled,
      onStopped: recordingStopped,
    });
  } catch (error) {
    log('the recorder could not start', error);
    current = null;
  }
  const recorder = current;
  if (recorder) {
    setRecordingFinisher(() => recorder.finish());
    // The page shows "Recording" until the recorder stops, and stops it when no camera node is left.
    recordingStarted(() => recorder.stopCapture());
  }
}

/**
 * Lets the recording's camera go before the user switches cameras (a phone opens one camera at a
 * time); the part recorded so far is still uploaded at the end.
 *
 * @example
 * <LivenessCapture onSwitchCamera={releaseRecordingCamera} … />
 */
export function releaseRecordingCamera(): void {
  void recordingCameraReleased();
}

/**
 * `releaseRecordingCamera`, settled once the recording's copy of the camera has stopped: before
 * opening another camera on a phone that holds one at a time.
 *
 * @example
 * await recordingCameraReleased();
 * await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
 */
export function recordingCameraReleased(): Promise<void> {
  return current?.stopCapture() ?? Promise.resolve();
}
