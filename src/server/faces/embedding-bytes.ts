/**
 * An embedding as both face stores keep it: its Float32 values' bytes, in the machine's byte
 * order (a BLOB on SQLite, a `bytea` on PostgreSQL).
 */

/**
 * The bytes of an embedding.
 *
 * @example
 * toBlob([1, 0.5]).length; // 8
 */
export function toBlob(v: readonly number[]): Buffer {
  return Buffer.from(Float32Array.from(v).buffer);
}

/**
 * The embedding of `toBlob`'s bytes (copied: the buffer may be a view of a larger one).
 *
 * @example
 * Array.from(fromBlob(toBlob([1, 0.5]))); // [1, 0.5]
 */
export function fromBlob(b: Buffer): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
