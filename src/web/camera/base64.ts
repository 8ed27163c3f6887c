// `String.fromCharCode(...bytes)` takes its bytes as arguments; this many stays well under every
// engine's argument limit while keeping the calls few.
const CHUNK = 0x8000;

/**
 * Base64 (standard alphabet, with padding) of raw bytes, as the liveness frame route expects its
 * `image`. Built on `btoa` in chunks, so a 500 KB JPEG neither overflows the call stack nor
 * builds one string per byte.
 *
 * @example
 * bytesToBase64(new Uint8Array([0xff, 0xd8, 0xff])); // '/9j/'
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/**
 * Base64 of a blob's bytes (a frame's JPEG), without a `data:` prefix.
 *
 * @example
 * await blobToBase64(new Blob([new Uint8Array([0xff, 0xd8, 0xff])])); // '/9j/'
 */
export async function blobToBase64(blob: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}
