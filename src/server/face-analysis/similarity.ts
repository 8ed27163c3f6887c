/**
 * Cosine similarity of two face embeddings, −1 … 1 (1 for the same vector), over plain or typed
 * arrays alike (stored embeddings are Float32Array). Throws on vectors of different lengths or of
 * zero length, which would mean two different models. The one similarity of the service: the
 * liveness decision, the face nodes and the video analysis all use it.
 *
 * @example
 * cosineSimilarity([1, 0], [1, 0]); // 1
 */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) {
    throw new Error(`embeddings of lengths ${a.length} and ${b.length} cannot be compared`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The median of a list, NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
