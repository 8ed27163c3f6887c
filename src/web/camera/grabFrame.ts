import { meanBrightness } from '../../core/liveness';

/**
 * Draws the video's current frame, unmirrored and at the camera's own size, into the canvas. The
 * evidence is always the camera's own pixels (see docs/liveness.md).
 *
 * @example
 * copyFrame(video, canvas); // canvas now holds the frame the detector will read
 */
export function copyFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): void {
  if (canvas.width !== video.videoWidth) canvas.width = video.videoWidth;
  if (canvas.height !== video.videoHeight) canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
}

/**
 * The canvas as JPEG. The browser copies the pixels when called, so the canvas may be drawn on
 * again before the encoding is done.
 *
 * @example
 * const blob = await encodeJpeg(canvas);
 */
export function encodeJpeg(canvas: HTMLCanvasElement, quality = 0.85): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the frame could not be encoded'))),
      'image/jpeg',
      quality,
    ),
  );
}

/**
 * JPEG of the video's current frame (unmirrored, camera size).
 *
 * @example
 * const blob = await grabJpeg(video, canvas);
 */
export function grabJpeg(
  video: HTMLVideoElement,
  canvas: HTMLCanvasElement,
  quality = 0.85,
): Promise<Blob> {
  try {
    copyFrame(video, canvas);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return encodeJpeg(canvas, quality);
}

/**
 * The mean brightness of a frame (the video, or a canvas holding it), from an 80×60 copy: cheap
 * enough to run several times a second.
 *
 * @example
 * brightnessOf(video, smallCanvas); // 0–255
 */
export function brightnessOf(
  source: HTMLVideoElement | HTMLCanvasElement,
  canvas: HTMLCanvasElement,
): number {
  canvas.width = 80;
  canvas.height = 60;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return 255;
  ctx.drawImage(source, 0, 0, 80, 60);
  return meanBrightness(ctx.getImageData(0, 0, 80, 60).data);
}
