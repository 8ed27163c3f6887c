import type { TranscriptItem } from '../../core/api';
import type { Turn } from './types';
import { newId } from '../ids';
import type { SessionRecord } from '../store/types';

/**
 * The session with one more line of its conversation: what the avatar said (`isAvatar`) or the
 * user's reply, at a node.
 *
 * @example
 * withLine(session, { text: 'Hello', isAvatar: true, nodeId: 'greet' }, Date.now());
 */
export function withLine(
  s: SessionRecord,
  line: { text: string; isAvatar: boolean; nodeId: string },
  now: number,
): SessionRecord {
  const item: TranscriptItem = { id: newId('tr', 8), createdAt: now, ...line };
  return { ...s, report: { ...s.report, transcript: [...s.report.transcript, item] } };
}

/**
 * The user's replies in order, each with what the guide said since the previous reply (the
 * question it answers), for the extraction of an `extractionSchema`.
 *
 * @example
 * turnsOf([{ text: 'Your email?', isAvatar: true }, { text: 'a@b.io', isAvatar: false }]);
 * // [{ question: 'Your email?', reply: 'a@b.io' }]
 */
export function turnsOf(transcript: readonly Pick<TranscriptItem, 'text' | 'isAvatar'>[]): Turn[] {
  const turns: Turn[] = [];
  let said: string[] = [];
  for (const line of transcript) {
    if (line.isAvatar) said.push(line.text);
    else {
      turns.push({ question: said.join(' '), reply: line.text });
      said = [];
    }
  }
  return turns;
}
