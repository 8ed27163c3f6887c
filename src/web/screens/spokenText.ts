/**
 * The words of a node's text field as the page shows and speaks them itself (`captureInstructions`
 * is not rendered by the server): trimmed, without the `Say:` marker a flow author may have put in
 * front; null when nothing is left.
 *
 * @example
 * spokenText('Say: Look straight ahead.'); // 'Look straight ahead.'
 * spokenText('   '); // null
 */
export function spokenText(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw
    .trim()
    .replace(/^say:\s*/i, '')
    .trim();
  return text === '' ? null : text;
}
