import { meanBrightness } from '../../core/liveness';

/**
 * Draws the video's current frame, unmirrored and at the camera's own size, and encodes it as
 * JPEG. The evidence is always the camera's own pixels (see docs/liveness.md).
 *
 * @example
 * const blob = await grabJpeg(video, canvas);
 */
export function grabJpeg(
  video: HTMLVideoElement,
  canvas: HTMLCanvasElement,
  quality = 0.85,
): Promise<Blob> {
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no 2D canvas'));
  ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the frame could not be encoded'))),
      'image/jpeg',
      quality,
    ),
  );
}

/**
 * The mean brightness of the video's current frame, from an 80×60 copy: cheap enough to run
 * several times a second.
 *
 * @example
 * brightnessOf(video, smallCanvas); // 0–255
 */
export function brightnessOf(video: HTMLVideoElement, canvas: HTMLCanvasElement): number {
  canvas.width = 80;
  canvas.height = 60;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return 255;
  ctx.drawImage(video, 0, 0, 80, 60);
  return meanBrightness(ctx.getImageData(0, 0, 80, 60).data);
}
