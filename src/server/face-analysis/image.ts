import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** The bytes are not a JPEG or PNG image this server can read. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

export interface RgbImage {
  width: number;
  height: number;
  /** Packed RGB, 3 bytes a pixel, row by row. */
  rgb: Uint8Array;
}

/** Frames larger than this are refused before decoding: a camera frame is far smaller. */
export const MAX_PIXELS = 4096 * 4096;

const isPng = (b: Uint8Array) =>
  b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/**
 * Decodes a JPEG or PNG into packed RGB, dropping alpha.
 *
 * @example
 * const { width, height, rgb } = decodeImage(readFileSync('face.png'));
 */
export function decodeImage(bytes: Uint8Array): RgbImage {
  let width: number;
  let height: number;
  let rgba: Uint8Array;
  try {
    if (isPng(bytes)) {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      ({ width, height } = png);
      rgba = png.data;
    } else if (isJpeg(bytes)) {
      const img = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_PIXELS / 1e6,
        maxMemoryUsageInMB: 256,
      });
      ({ width, height } = img);
      rgba = img.data;
    } else {
      throw new ImageDecodeError('the frame is neither a JPEG nor a PNG image');
    }
  } catch (e) {
    if (e instanceof ImageDecodeError) throw e;
    throw new ImageDecodeError(`the frame could not be decoded: ${(e as Error).message}`);
  }
  if (width * height > MAX_PIXELS) throw new ImageDecodeError('the frame is too large');
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; j < rgb.length; i += 4) {
    rgb[j++] = rgba[i]!;
    rgb[j++] = rgba[i + 1]!;
    rgb[j++] = rgba[i + 2]!;
  }
  return { width, height, rgb };
}

/**
 * Mean luma (BT.601) of packed RGB, sampling every `step`th pixel.
 *
 * @example
 * rgbBrightness(decodeImage(bytes).rgb, 7); // 0–255
 */
export function rgbBrightness(rgb: Uint8Array, step = 1): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i + 2 < rgb.length; i += 3 * Math.max(1, step)) {
    sum += 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}
