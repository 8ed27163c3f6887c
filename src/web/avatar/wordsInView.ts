import type { TranscriptLine } from '../machine/pageMachine';

/**
 * What the guide's speech bubble shows: the lines said on the current step (the greeting and the
 * first prompt, say), after the closing message of a step that moved on by itself, the latest
 * two at most. The transcript panel holds everything.
 *
 * @example
 * wordsInView([{ id: 1, who: 'guide', text: 'Hi', at: 'mail' }], 'mail'); // [the "Hi" line]
 */
export function wordsInView(
  transcript: readonly TranscriptLine[],
  nodeId: string | null,
): TranscriptLine[] {
  const guide = transcript.filter((l) => l.who === 'guide');
  const carried = guide.findLast((l) => l.at !== nodeId);
  return [...(carried?.stays ? [carried] : []), ...guide.filter((l) => l.at === nodeId)].slice(-2);
}
