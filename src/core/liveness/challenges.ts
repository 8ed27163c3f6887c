import type { FaceObservation } from './face';
import { headPose } from './pose';

/**
 * What the user is asked to do. Directions are the user's own: `turnLeft` means the user turns
 * their head to their left, which in the mirrored preview looks like turning left on screen too.
 */
export const CHALLENGES = ['turnLeft', 'turnRight', 'lookUp', 'comeCloser'] as const;
export type Challenge = (typeof CHALLENGES)[number];

/** The turns may repeat when more challenges are asked than there are kinds. */
const REPEATABLE: readonly Challenge[] = ['turnLeft', 'turnRight'];

export interface ChallengeThresholds {
  /** Yaw change from the baseline, in degrees, that counts as a turn. */
  turnDegrees: number;
  /** Drop of the pitch figure (nose between eyes and mouth) that counts as looking up. */
  lookUpPitch: number;
  /** Growth of the face scale, as a factor of the baseline's, that counts as coming closer. */
  closerFactor: number;
  /** Largest yaw, in degrees, still accepted while looking up or coming closer. */
  maxOffAxisDegrees: number;
  /**
   * During a turn the ears' midpoint must move against the nose by at least this fraction of the
   * nose's own move. An average head gives about 2 (ears 1–1.5 eye distances behind the eyes, the
   * nose tip 0.5 in front); a flat picture gives 0. Kept low because detected ears are noisy.
   */
  earParallax: number;
}

export const DEFAULT_THRESHOLDS: ChallengeThresholds = {
  turnDegrees: 20,
  lookUpPitch: 0.12,
  closerFactor: 1.25,
  maxOffAxisDegrees: 25,
  earParallax: 0.5,
};

/**
 * Picks `n` challenges for one attempt, on the server, with the given source of randomness in
 * [0, 1). Up to four they are all different; beyond, extra turns are added, never the same
 * challenge twice in a row. There is always at least one turn: only a turn shows depth (the ears
 * move against the nose), while a flat photo brought nearer passes `comeCloser` and a tilted one
 * comes close to `lookUp` (measured in docs/liveness-fixtures.md).
 *
 * @example
 * pickChallenges(3, Math.random); // e.g. ['lookUp', 'turnRight', 'comeCloser']
 * pickChallenges(1, Math.random); // ['turnLeft'] or ['turnRight']
 */
export function pickChallenges(n: number, random: () => number): Challenge[] {
  if (!Number.isInteger(n) || n < 1 || n > 5) {
    throw new RangeError(`challenges must be an integer from 1 to 5, got ${n}`);
  }
  const pick = <T>(items: readonly T[]): T => {
    const r = random();
    if (!(r >= 0 && r < 1))
      throw new RangeError(`random() must return a number in [0, 1), got ${r}`);
    return items[Math.floor(r * items.length)]!;
  };
  const pool = [...CHALLENGES];
  const out: Challenge[] = [];
  while (out.length < n && pool.length > 0) {
    const c = pick(pool);
    out.push(c);
    pool.splice(pool.indexOf(c), 1);
  }
  if (!out.some((c) => REPEATABLE.includes(c))) {
    out[Math.floor(random() * out.length)] = pick(REPEATABLE);
  }
  while (out.length < n) {
    const last = out[out.length - 1];
    out.push(pick(REPEATABLE.filter((c) => c !== last)));
  }
  return out;
}

/** How far a frame got towards a challenge: `value` reaches `needed` when it is met. */
export interface ChallengeMeasure {
  met: boolean;
  value: number;
  needed: number;
  /** Why a frame that reached the value still does not count, if it does not. */
  refused?: 'earsDisagree' | 'offAxis';
}

/**
 * Measures one frame against a challenge, relative to the user's own frontal baseline frame.
 *
 * @example
 * measureChallenge('turnLeft', baseline, current); // { met: true, value: 27.5, needed: 20 }
 */
export function measureChallenge(
  challenge: Challenge,
  baseline: FaceObservation,
  current: FaceObservation,
  thresholds: Partial<ChallengeThresholds> = {},
): ChallengeMeasure {
  const t = { ...DEFAULT_THRESHOLDS, ...thresholds };
  const b = headPose(baseline);
  const c = headPose(current);
  const dyaw = c.yawDegrees - b.yawDegrees;
  switch (challenge) {
    case 'turnLeft':
    case 'turnRight': {
      const value = challenge === 'turnLeft' ? dyaw : -dyaw;
      const reached = value >= t.turnDegrees;
      // Parallax: a real turn moves the ears against the nose; a photo moves them together.
      const dir = challenge === 'turnLeft' ? 1 : -1;
      const noseMoved = dir * (c.yawRatio - b.yawRatio);
      const earsMoved = dir * (c.earShift - b.earShift) >= t.earParallax * noseMoved;
      if (reached && !earsMoved)
        return { met: false, value, needed: t.turnDegrees, refused: 'earsDisagree' };
      return { met: reached, value, needed: t.turnDegrees };
    }
    case 'lookUp': {
      const value = b.pitch - c.pitch;
      const reached = value >= t.lookUpPitch;
      if (reached && Math.abs(dyaw) > t.maxOffAxisDegrees) {
        return { met: false, value, needed: t.lookUpPitch, refused: 'offAxis' };
      }
      return { met: reached, value, needed: t.lookUpPitch };
    }
    case 'comeCloser': {
      // Frames of one attempt come from one camera, so box widths compare directly.
      const value = current.box.width / baseline.box.width;
      const reached = value >= t.closerFactor;
      if (reached && Math.abs(dyaw) > t.maxOffAxisDegrees) {
        return { met: false, value, needed: t.closerFactor, refused: 'offAxis' };
      }
      return { met: reached, value, needed: t.closerFactor };
    }
  }
}

/**
 * Whether one frame shows the challenge done, relative to the baseline frame.
 *
 * @example
 * challengeMet('comeCloser', baseline, current); // true or false
 */
export function challengeMet(
  challenge: Challenge,
  baseline: FaceObservation,
  current: FaceObservation,
  thresholds: Partial<ChallengeThresholds> = {},
): boolean {
  return measureChallenge(challenge, baseline, current, thresholds).met;
}
