import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHALLENGES,
  challengeMet,
  measureChallenge,
  pickChallenges,
  type Challenge,
} from './challenges';
import { syntheticFace } from './synthetic';
import { seededRandom as seeded } from '../random';

describe('pickChallenges', () => {
  it('gives n challenges, all different up to four, never the same twice in a row', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer(), (n, seed) => {
        const picked = pickChallenges(n, seeded(seed));
        expect(picked).toHaveLength(n);
        for (const c of picked) expect(CHALLENGES).toContain(c);
        expect(new Set(picked.slice(0, 4)).size).toBe(Math.min(n, 4));
        for (let i = 1; i < picked.length; i++) expect(picked[i]).not.toBe(picked[i - 1]);
        expect(picked.some((c) => c === 'turnLeft' || c === 'turnRight')).toBe(true);
      }),
    );
  });

  it('follows the random source: each challenge comes first about a quarter of the time', () => {
    const random = seeded(42);
    const firsts = new Map<Challenge, number>();
    for (let i = 0; i < 4000; i++) {
      const c = pickChallenges(3, random)[0]!;
      firsts.set(c, (firsts.get(c) ?? 0) + 1);
    }
    for (const c of CHALLENGES) {
      expect(firsts.get(c)).toBeGreaterThan(800);
      expect(firsts.get(c)).toBeLessThan(1200);
    }
    // A single challenge is always a turn, either way about half the time.
    const singles = Array.from({ length: 2000 }, () => pickChallenges(1, random)[0]);
    const lefts = singles.filter((c) => c === 'turnLeft').length;
    expect(singles.filter((c) => c === 'turnRight').length).toBe(2000 - lefts);
    expect(lefts).toBeGreaterThan(900);
    expect(lefts).toBeLessThan(1100);
    expect(pickChallenges(3, () => 0)).toEqual(['turnLeft', 'turnRight', 'lookUp']);
    expect(pickChallenges(3, () => 0.999)).toEqual(['comeCloser', 'lookUp', 'turnRight']);
  });

  it('refuses a count outside 1–5 and a bad random source', () => {
    expect(() => pickChallenges(0, Math.random)).toThrow(/1 to 5/);
    expect(() => pickChallenges(6, Math.random)).toThrow(/1 to 5/);
    expect(() => pickChallenges(2.5, Math.random)).toThrow(/1 to 5/);
    expect(() => pickChallenges(2, () => 1)).toThrow(/\[0, 1\)/);
  });
});

describe('challengeMet', () => {
  const baseline = syntheticFace({ yawDeg: 3 });

  it('sees a turn to the user’s left and right, from the user’s point of view', () => {
    const left = syntheticFace({ yawDeg: 30 });
    const right = syntheticFace({ yawDeg: -30 });
    expect(challengeMet('turnLeft', baseline, left)).toBe(true);
    expect(challengeMet('turnRight', baseline, left)).toBe(false);
    expect(challengeMet('turnRight', baseline, right)).toBe(true);
    expect(challengeMet('turnLeft', baseline, right)).toBe(false);
    expect(challengeMet('turnLeft', baseline, syntheticFace({ yawDeg: 15 }))).toBe(false);
    expect(measureChallenge('turnLeft', baseline, left).value).toBeCloseTo(27, 1);
  });

  it('refuses a turn whose ears do not move with the nose', () => {
    const turned = syntheticFace({ yawDeg: 30 });
    const ears = baseline.keypoints.slice(4);
    const forged = { ...turned, keypoints: [...turned.keypoints.slice(0, 4), ...ears] };
    expect(measureChallenge('turnLeft', baseline, forged)).toMatchObject({
      met: false,
      refused: 'earsDisagree',
    });
  });

  it('sees looking up, but not while turned away', () => {
    expect(challengeMet('lookUp', baseline, syntheticFace({ pitchDeg: 20, yawDeg: 3 }))).toBe(true);
    expect(challengeMet('lookUp', baseline, syntheticFace({ pitchDeg: 5 }))).toBe(false);
    expect(
      measureChallenge('lookUp', baseline, syntheticFace({ pitchDeg: 25, yawDeg: 45 })).refused,
    ).toBe('offAxis');
  });

  it('sees coming closer from the growth of the face box', () => {
    const base = syntheticFace({ eyeDistance: 60 });
    expect(challengeMet('comeCloser', base, syntheticFace({ eyeDistance: 80 }))).toBe(true);
    expect(challengeMet('comeCloser', base, syntheticFace({ eyeDistance: 70 }))).toBe(false);
    expect(
      challengeMet('comeCloser', base, syntheticFace({ eyeDistance: 80 }), { closerFactor: 1.5 }),
    ).toBe(false);
  });

  it('a flat photo moved, scaled and rolled in 2D never turns or looks up', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 100, max: 540, noNaN: true }),
        fc.double({ min: 100, max: 380, noNaN: true }),
        fc.double({ min: 40, max: 150, noNaN: true }),
        fc.double({ min: -40, max: 40, noNaN: true }),
        (cx, cy, eyeDistance, rollDeg) => {
          const moved = syntheticFace({ yawDeg: 3, cx, cy, eyeDistance, rollDeg });
          for (const c of ['turnLeft', 'turnRight', 'lookUp'] as const) {
            expect(challengeMet(c, baseline, moved)).toBe(false);
          }
        },
      ),
    );
  });
});
