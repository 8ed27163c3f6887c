/** A greyscale image: one byte a pixel, rows top to bottom. */
export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Grey (Rec. 601 luma) of RGBA pixels, as `getImageData` gives them.
 *
 * @example
 * toGray(new Uint8ClampedArray([255, 0, 0, 255]), 1, 1).data[0]; // 76
 */
export function toGray(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): Gray {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += 4) {
    data[i] = Math.round(0.299 * rgba[j]! + 0.587 * rgba[j + 1]! + 0.114 * rgba[j + 2]!);
  }
  return { width, height, data };
}
