/** The server's limit on a document photo (DOCUMENT_LIMITS.maxImageBytes). */
export const MAX_PHOTO_BYTES = 3 * 1024 * 1024;
/** The longest side a chosen picture keeps: the zone stays sharp, the file small. */
export const MAX_UPLOAD_SIDE = 2400;
/** The file types the upload accepts (the input's `accept`). */
export const UPLOAD_ACCEPT = 'image/jpeg,image/png';

/**
 * Whether a chosen file can be sent as it is (a JPEG within the size limit) or must be drawn
 * and encoded again as JPEG (a PNG, or a JPEG too large); `refuse` for anything else.
 *
 * @example
 * uploadPlan({ type: 'image/png', size: 10_000 }); // 'reencode'
 */
export function uploadPlan(file: { type: string; size: number }): 'asIs' | 'reencode' | 'refuse' {
  if (file.type === 'image/jpeg') return file.size <= MAX_PHOTO_BYTES ? 'asIs' : 'reencode';
  if (file.type === 'image/png') return 'reencode';
  return 'refuse';
}

/**
 * The size to draw a picture at so its longest side is at most `maxSide` (never enlarged).
 *
 * @example
 * fitWithin(4000, 3000, 2400); // { width: 2400, height: 1800 }
 */
export function fitWithin(
  width: number,
  height: number,
  maxSide = MAX_UPLOAD_SIDE,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** JPEG qualities tried in turn until the photo fits `MAX_PHOTO_BYTES`. */
export const JPEG_QUALITIES = [0.92, 0.85, 0.75, 0.6] as const;

async function encode(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('the picture could not be encoded'))),
      'image/jpeg',
      quality,
    ),
  );
}

/**
 * The canvas as a JPEG within `MAX_PHOTO_BYTES`, at the best quality of `JPEG_QUALITIES` that fits.
 *
 * @example
 * const blob = await jpegWithinLimit(canvas);
 */
export async function jpegWithinLimit(canvas: HTMLCanvasElement): Promise<Blob> {
  let blob: Blob | null = null;
  for (const q of JPEG_QUALITIES) {
    blob = await encode(canvas, q);
    if (blob.size <= MAX_PHOTO_BYTES) return blob;
  }
  if (!blob) throw new Error('the picture could not be encoded');
  return blob;
}

/**
 * A chosen file as a JPEG the document route takes: a JPEG within the limit as it is; a PNG or a
 * large picture drawn on a canvas (turned as its EXIF says, longest side at most
 * `MAX_UPLOAD_SIDE`) and encoded again. Rejects a file that is not a picture.
 *
 * @example
 * const jpeg = await fileToJpeg(input.files[0]);
 */
export async function fileToJpeg(file: File): Promise<Blob> {
  const plan = uploadPlan(file);
  if (plan === 'refuse') throw new Error('not a JPEG or PNG picture');
  if (plan === 'asIs') return file;
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    // A transparent PNG on white, as on paper, rather than on black.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    return await jpegWithinLimit(canvas);
  } finally {
    bitmap.close();
  }
}
