import { describe, expect, it } from 'vitest';
import type { Position } from '../api/types';
import {
  firstSide,
  initialScan,
  NO_BARCODE_OFFER,
  offerAfter,
  REPEAT_OFFER,
  readyToCapture,
  RETRY_PAUSE_MS,
  scanHint,
  scanStep,
  STEADY_MS,
  TURN_PAUSE_MS,
  type FrameReading,
  type ScanEvent,
  type ScanState,
} from './scanState';
import { SHARP_MIN } from './sharpness';

const position: Position = { nodeId: 'end', nodeType: 'end', status: 'complete', path: [] };
const run = (s: ScanState, ...events: ScanEvent[]) => events.reduce(scanStep, s);
const live = (
  type: 'passport' | 'id' | 'residence-permit' | 'visa' | 'dl' = 'passport',
  mode: 'single' | 'automatic' = 'single',
) => run(initialScan(type, mode), { type: 'camera', status: 'live' });
const good = (now: number): FrameReading => ({
  sides: 4,
  sharpness: SHARP_MIN * 4,
  steadySince: now - STEADY_MS,
});

describe('firstSide', () => {
  it('passport and visa: front; cards and licences: back alone, or front first in automatic mode', () => {
    expect(firstSide('passport', 'single')).toBe('front');
    expect(firstSide('passport', 'automatic')).toBe('front');
    expect(firstSide('visa', 'automatic')).toBe('front');
    for (const card of ['id', 'residence-permit', 'dl'] as const) {
      expect(firstSide(card, 'single')).toBe('back');
      expect(firstSide(card, 'automatic')).toBe('front');
    }
  });
});

describe('scanStep', () => {
  it('sends one photo at a time', () => {
    const s = run(live(), { type: 'send', source: 'auto' });
    expect(s.busy).toBe('reading');
    expect(scanStep(s, { type: 'send', source: 'manual' })).toBe(s);
  });

  it('a read or a timeout answer ends the screen', () => {
    for (const answer of [
      { status: 'read', position },
      { status: 'timeout', position },
    ] as const) {
      const s = run(live(), { type: 'send', source: 'auto' }, { type: 'answer', answer, now: 5 });
      expect(s.ended).toBe(true);
      expect(scanStep(s, { type: 'send', source: 'manual' })).toBe(s);
    }
  });

  it('a retry keeps going after a pause, with its reason and count', () => {
    const s = run(
      live(),
      { type: 'send', source: 'auto' },
      {
        type: 'answer',
        answer: { status: 'retry', reason: 'checks_failed', attempts: 3 },
        now: 1000,
      },
    );
    expect(s).toMatchObject({
      busy: null,
      ended: false,
      attempts: 3,
      lastRetry: 'checks_failed',
      pausedUntil: 1000 + RETRY_PAUSE_MS,
      side: 'front',
    });
  });

  it('an ID card in automatic mode turns to the back after front_saved', () => {
    const s = run(
      live('id', 'automatic'),
      { type: 'send', source: 'auto' },
      { type: 'answer', answer: { status: 'retry', reason: 'front_saved', attempts: 1 }, now: 0 },
    );
    expect(s.side).toBe('back');
    expect(s.lastRetry).toBe('front_saved');
    expect(s.pausedUntil).toBe(TURN_PAUSE_MS);
  });

  it('a licence in automatic mode turns to its barcode after front_saved', () => {
    const s = run(
      live('dl', 'automatic'),
      { type: 'send', source: 'auto' },
      { type: 'answer', answer: { status: 'retry', reason: 'front_saved', attempts: 1 }, now: 0 },
    );
    expect(s.side).toBe('back');
    expect(scanHint(s, null, s.retryShownUntil)).toBe('placeBack');
  });

  it('licence backs without a barcode: the hint, then which documents work, the camera held', () => {
    const noBarcode = (attempts: number, now: number): ScanEvent => ({
      type: 'answer',
      answer: { status: 'retry', reason: 'no_barcode', attempts },
      now,
    });
    let s = run(live('dl'), { type: 'send', source: 'auto' }, noBarcode(1, 0));
    expect([s.lastRetry, s.offer]).toEqual(['no_barcode', null]);
    expect(readyToCapture(s, good(s.pausedUntil), s.pausedUntil)).toBe(true);
    for (let n = 2; n <= NO_BARCODE_OFFER; n++)
      s = run(s, { type: 'send', source: 'auto' }, noBarcode(n, 0));
    expect(s.offer).toBe('no_barcode');
    // No photo is taken, however long the document is held, until the user acts.
    expect(readyToCapture(s, good(1e9), 1e9)).toBe(false);
    const again = scanStep(s, { type: 'retryOffer' });
    expect([again.offer, again.refusals]).toEqual([null, {}]);
    expect(readyToCapture(again, good(1e9), 1e9)).toBe(true);
    const passport = scanStep(s, { type: 'choose', documentType: 'passport' });
    expect([passport.offer, passport.side]).toEqual([null, 'front']);
    // Another answer in between starts the count again.
    const other = run(
      live('dl'),
      { type: 'send', source: 'auto' },
      noBarcode(1, 0),
      { type: 'send', source: 'auto' },
      { type: 'answer', answer: { status: 'retry', reason: 'unreadable', attempts: 2 }, now: 0 },
      { type: 'send', source: 'auto' },
      noBarcode(3, 0),
    );
    expect(other.offer).toBe(NO_BARCODE_OFFER <= 1 ? 'no_barcode' : null);
  });

  it('a passport whose check digits fail every time: after REPEAT_OFFER reads, the reason and another way, the camera held', () => {
    const checksFailed = (attempts: number): ScanEvent => ({
      type: 'answer',
      answer: { status: 'retry', reason: 'checks_failed', attempts },
      now: 0,
    });
    let s = live('passport');
    for (let n = 1; n < REPEAT_OFFER; n++) {
      s = run(s, { type: 'send', source: 'auto' }, checksFailed(n));
      expect(s.offer).toBeNull();
      expect(readyToCapture(s, good(s.pausedUntil), s.pausedUntil)).toBe(true);
    }
    s = run(s, { type: 'send', source: 'auto' }, checksFailed(REPEAT_OFFER));
    expect(s.offer).toBe('checks_failed');
    expect(readyToCapture(s, good(1e9), 1e9)).toBe(false);
    // An upload is still taken (the screen's offer), and trying again restarts the count.
    expect(scanStep(s, { type: 'send', source: 'upload' }).busy).toBe('reading');
    const again = scanStep(s, { type: 'retryOffer' });
    expect([again.offer, again.refusals, readyToCapture(again, good(1e9), 1e9)]).toEqual([
      null,
      {},
      true,
    ]);
  });

  it('any reason repeated REPEAT_OFFER times makes the offer, in a row or not', () => {
    const answer = (reason: 'unreadable' | 'checks_failed', attempts: number): ScanEvent => ({
      type: 'answer',
      answer: { status: 'retry', reason, attempts },
      now: 0,
    });
    const send: ScanEvent = { type: 'send', source: 'auto' };
    const mixed = run(
      live('passport'),
      send,
      answer('unreadable', 1),
      send,
      answer('checks_failed', 2),
      send,
      answer('unreadable', 3),
      send,
      answer('checks_failed', 4),
    );
    expect(mixed.offer).toBeNull();
    // Not in a row: an unreadable photo between check-digit failures does not restart the count.
    expect(run(mixed, send, answer('checks_failed', 5)).offer).toBe('checks_failed');
    const same = run(
      live('passport'),
      send,
      answer('unreadable', 1),
      send,
      answer('unreadable', 2),
      send,
      answer('unreadable', 3),
    );
    expect(same.offer).toBe('unreadable');
    expect(offerAfter('front_saved')).toBe(Infinity);
  });

  it('front_saved for a passport means its zone was not found: unreadable', () => {
    const s = run(
      live('passport'),
      { type: 'send', source: 'manual' },
      { type: 'answer', answer: { status: 'retry', reason: 'front_saved', attempts: 1 }, now: 0 },
    );
    expect(s.side).toBe('front');
    expect(s.lastRetry).toBe('unreadable');
  });

  it('ignores an answer that no photo asked for', () => {
    const s = live();
    expect(scanStep(s, { type: 'answer', answer: { status: 'read', position }, now: 0 })).toBe(s);
  });

  it('a failed upload leaves the camera going and says why', () => {
    const s = run(
      live(),
      { type: 'send', source: 'upload' },
      { type: 'failed', problem: 'network', now: 10 },
    );
    expect(s).toMatchObject({ busy: null, problem: 'network', pausedUntil: 10 + RETRY_PAUSE_MS });
    expect(scanStep(s, { type: 'send', source: 'manual' }).problem).toBeNull();
  });

  it('time up during a read waits for its answer, then ends the node', () => {
    let s = run(live(), { type: 'send', source: 'auto' }, { type: 'timeUp' });
    expect(s).toMatchObject({ busy: 'reading', timeUp: true });
    expect(readyToCapture(s, good(10_000), 10_000)).toBe(false);
    s = scanStep(s, {
      type: 'answer',
      answer: { status: 'retry', reason: 'unreadable', attempts: 1 },
      now: 9,
    });
    expect(s).toMatchObject({ busy: null, timeUp: true });
    s = scanStep(s, { type: 'timeUp' });
    expect(s.busy).toBe('timingOut');
    s = scanStep(s, { type: 'tooEarly' });
    expect(s.busy).toBeNull();
    s = run(s, { type: 'timeUp' }, { type: 'left' });
    expect(s.ended).toBe(true);
  });

  it('cancel is refused while a photo is read, then goes', () => {
    const reading = run(live(), { type: 'send', source: 'auto' });
    expect(scanStep(reading, { type: 'cancel' })).toBe(reading);
    const s = run(live(), { type: 'cancel' });
    expect(s.busy).toBe('cancelling');
    expect(scanStep(s, { type: 'left' }).ended).toBe(true);
  });

  it('choosing another type starts on its first side and forgets the last refusal', () => {
    let s = run(
      live('passport', 'single'),
      { type: 'send', source: 'auto' },
      { type: 'answer', answer: { status: 'retry', reason: 'expired', attempts: 1 }, now: 0 },
    );
    s = scanStep(s, { type: 'choose', documentType: 'id' });
    expect(s).toMatchObject({ type: 'id', side: 'back', lastRetry: null, attempts: 1 });
  });

  it('a camera error is kept by kind', () => {
    expect(
      scanStep(initialScan('passport', 'single'), { type: 'cameraError', kind: 'denied' }).camera,
    ).toBe('denied');
  });
});

describe('readyToCapture', () => {
  const now = 50_000;
  it('when the document fills the guide, sharp and steady for long enough', () => {
    expect(readyToCapture(live(), good(now), now)).toBe(true);
  });

  it('not before the camera is live, while reading, during the pause or when ended', () => {
    expect(readyToCapture(initialScan('passport', 'single'), good(now), now)).toBe(false);
    expect(readyToCapture(run(live(), { type: 'send', source: 'auto' }), good(now), now)).toBe(
      false,
    );
    const paused = { ...live(), pausedUntil: now + 1 };
    expect(readyToCapture(paused, good(now), now)).toBe(false);
    expect(readyToCapture({ ...live(), ended: true }, good(now), now)).toBe(false);
    expect(readyToCapture(live(), null, now)).toBe(false);
  });

  it('not when the frame falls short on any check', () => {
    const s = live();
    expect(readyToCapture(s, { ...good(now), sides: 2 }, now)).toBe(false);
    expect(readyToCapture(s, { ...good(now), sharpness: SHARP_MIN - 1 }, now)).toBe(false);
    expect(readyToCapture(s, { ...good(now), steadySince: null }, now)).toBe(false);
    expect(readyToCapture(s, { ...good(now), steadySince: now - STEADY_MS + 1 }, now)).toBe(false);
    expect(readyToCapture(s, { ...good(now), sides: 3 }, now)).toBe(true);
  });
});

describe('scanHint', () => {
  const now = 10_000;
  it('guides from the frame: place, focus, hold still', () => {
    const s = live();
    expect(scanHint(s, null, now)).toBe('place');
    expect(scanHint(s, { ...good(now), sides: 1 }, now)).toBe('place');
    expect(scanHint(s, { ...good(now), sharpness: 1 }, now)).toBe('focus');
    expect(scanHint(s, good(now), now)).toBe('holdStill');
  });

  it('names the side of an ID card, a residence permit or a licence', () => {
    for (const card of ['id', 'residence-permit', 'dl'] as const) {
      expect(scanHint(live(card, 'single'), null, now)).toBe('placeBack');
      expect(scanHint(live(card, 'automatic'), null, now)).toBe('placeFront');
    }
    expect(scanHint(live('visa'), null, now)).toBe('place');
  });

  it('reading, then the refusal for a while, then guidance again', () => {
    let s = run(live(), { type: 'send', source: 'auto' });
    expect(scanHint(s, good(now), now)).toBe('reading');
    s = scanStep(s, {
      type: 'answer',
      answer: { status: 'retry', reason: 'checks_failed', attempts: 1 },
      now,
    });
    expect(scanHint(s, good(now), now + 100)).toBe('checks_failed');
    expect(scanHint(s, good(now), s.retryShownUntil)).toBe('holdStill');
  });
});
