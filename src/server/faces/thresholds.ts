/**
 * The cosine similarity (of human's 1024-value face embeddings) at or above which two faces count
 * as the same person, when a node sets no `similarityThreshold`. Chosen by
 * `scripts/faces/measure-similarity.ts` from its measured set; the table is in docs/faces.md.
 */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.55;

/**
 * The threshold a node asks for, else the measured default.
 *
 * @example
 * thresholdOf({ similarityThreshold: 0.8 }); // 0.8
 * thresholdOf({}); // DEFAULT_SIMILARITY_THRESHOLD
 */
export function thresholdOf(node: { similarityThreshold?: number }): number {
  return node.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD;
}
