import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../machine/pageMachine';
import { wordsInView } from './wordsInView';

let id = 0;
const guide = (text: string, at: string | null, stays = false): TranscriptLine => ({
  id: ++id,
  who: 'guide',
  text,
  at,
  ...(stays ? { stays } : {}),
});
const user = (text: string, at: string): TranscriptLine => ({ id: ++id, who: 'user', text, at });
const texts = (lines: TranscriptLine[]) => lines.map((l) => l.text);

describe('wordsInView', () => {
  it("shows the greeting and the first node's prompt together", () => {
    const t = [guide('Welcome', 'perm'), guide('Allow the camera', 'perm')];
    expect(texts(wordsInView(t, 'perm'))).toEqual(['Welcome', 'Allow the camera']);
  });

  it("drops the previous step's words on a new step", () => {
    const t = [guide('Allow the camera', 'perm'), guide('Ready?', 'ask')];
    expect(texts(wordsInView(t, 'ask'))).toEqual(['Ready?']);
    expect(texts(wordsInView(t, 'mail'))).toEqual([]);
  });

  it('keeps the prompt in view after the user answered on the same step', () => {
    const t = [guide('Ready?', 'ask'), user('hmm', 'ask')];
    expect(texts(wordsInView(t, 'ask'))).toEqual(['Ready?']);
  });

  it('carries a closing message that moved on by itself onto the next screen', () => {
    const t = [guide('Thanks, that is all', 'bye', true), guide('Goodbye', null)];
    expect(texts(wordsInView(t, null))).toEqual(['Thanks, that is all', 'Goodbye']);
    // …but only onto the very next one.
    const later = [...t, guide('Next prompt', 'n2')];
    expect(texts(wordsInView(later, 'n3'))).toEqual([]);
  });

  it('shows two lines at most', () => {
    const t = [guide('a', 'x'), guide('b', 'x'), guide('c', 'x')];
    expect(texts(wordsInView(t, 'x'))).toEqual(['b', 'c']);
  });
});
