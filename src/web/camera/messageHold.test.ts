import { describe, expect, it } from 'vitest';
import { holdMessage, NO_MESSAGE, type HeldMessage } from './messageHold';

const feed = (steps: [string, number][], opts?: { holdMs?: number }) => {
  let held: HeldMessage = NO_MESSAGE;
  const shown: (string | null)[] = [];
  for (const [wanted, now] of steps) {
    held = holdMessage(held, wanted, now, opts);
    shown.push(held.shown);
  }
  return shown;
};

describe('holdMessage', () => {
  it('shows the first message at once', () => {
    expect(feed([['a', 0]])).toEqual(['a']);
  });

  it('keeps the shown message while the detector wavers', () => {
    // Two readings alternating every 300 ms never last 600 ms: the first stays.
    const steps: [string, number][] = Array.from({ length: 10 }, (_, i) => [
      i % 2 ? 'centre' : 'noFace',
      i * 300,
    ]);
    expect(new Set(feed(steps))).toEqual(new Set(['noFace']));
  });

  it('changes once the new message has lasted the hold time', () => {
    expect(
      feed([
        ['a', 0],
        ['b', 100],
        ['b', 500],
        ['b', 700],
      ]),
    ).toEqual(['a', 'a', 'a', 'b']);
  });

  it('restarts the wait when the message asked for changes', () => {
    expect(
      feed([
        ['a', 0],
        ['b', 100],
        ['c', 600],
        ['c', 1000],
        ['c', 1200],
      ]),
    ).toEqual(['a', 'a', 'a', 'a', 'c']);
  });

  it('forgets a waiting message when the shown one is asked for again', () => {
    expect(
      feed([
        ['a', 0],
        ['b', 100],
        ['a', 200],
        ['b', 650],
        ['b', 800],
      ]),
    ).toEqual(['a', 'a', 'a', 'a', 'a']);
  });

  it('shows a new step at once', () => {
    const held = holdMessage({ shown: 'a', waiting: 'b', since: 0 }, 'turn left', 10, {
      immediate: true,
    });
    expect(held).toEqual({ shown: 'turn left', waiting: null, since: 10 });
  });

  it('takes another hold time', () => {
    expect(
      feed(
        [
          ['a', 0],
          ['b', 10],
          ['b', 60],
        ],
        { holdMs: 50 },
      ),
    ).toEqual(['a', 'a', 'b']);
  });
});
