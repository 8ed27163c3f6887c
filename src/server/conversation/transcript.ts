import type { TranscriptItem } from '../../core/api';
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
