import { describe, expect, it } from 'vitest';
import { syntheticFace, type SyntheticHead } from '../../core/liveness/synthetic';
import type { FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';
import type { FaceScanDecision } from '../faces/faces';
import {
  attemptEntry,
  attemptVerdict,
  captureProblem,
  qualityProblem,
  sharpnessSample,
  type VerdictInput,
} from './attempt-verdict';
import { decideLiveness, type EvidenceFrame, type LivenessDecision } from './decide-liveness';

function face(h: SyntheticHead & { score?: number } = {}) {
  return {
    ...syntheticFace({ eyeDistance: 80, ...h }),
    score: h.score ?? 0.95,
    embedding: [1, 0.2, 0.1, 0.3],
    rotation: { yaw: 0, pitch: 0, roll: 0 },
    real: 0.9,
    live: 0.9,
    age: 30,
    gender: 'female' as const,
    genderScore: 0.9,
  };
}

const frame = (faces: ReturnType<typeof face>[], brightness = 120): FrameAnalysis => ({
  width: 640,
  height: 480,
  brightness,
  ms: 1,
  faces,
});

/** The server's decision on these analyses, labelled as the page labels an attempt. */
function decide(results: (FrameAnalysis | FrameFailure)[], challenges = ['turnLeft' as const]) {
  const frames: EvidenceFrame[] = results.map((_, i) =>
    i === 0
      ? { t: 0, role: 'baseline' }
      : i === results.length - 1
        ? { t: i * 500, role: 'challenge', challengeIndex: 0 }
        : { t: i * 500, role: 'between' },
  );
  return decideLiveness(
    { challenges, issuedAt: 0, receivedAt: 5000, timeoutSeconds: 60, frames },
    results,
  );
}

describe('captureProblem: the reason another attempt may fix', () => {
  it('names the challenge not met, several faces, a pass and an attack for what they are', () => {
    const still = [frame([face()]), frame([face()]), frame([face()])];
    expect(captureProblem(decide(still), still)).toBe('challengeFailed');
    const two = still.map(() => frame([face({ cx: 200 }), face({ cx: 440, eyeDistance: 70 })]));
    expect(captureProblem(decide(two), two)).toBe('multipleFaces');
    const turned = [frame([face()]), frame([face({ yawDeg: 8 })]), frame([face({ yawDeg: 35 })])];
    expect(decide(turned).outcome).toBe('livenessDetected');
    expect(captureProblem(decide(turned), turned)).toBeNull();
    const spoof = decide(still);
    expect(captureProblem({ ...spoof, outcome: 'deepfakeDetected' }, still)).toBeNull();
  });

  it('tells why poor frames failed: too dark, too small, off-centre, blurred, no face', () => {
    const dark = [frame([face()], 20), frame([face()], 25), frame([face()], 22)];
    expect(decide(dark).inconclusiveReason).toBe('poorQuality');
    expect(captureProblem(decide(dark), dark)).toBe('tooDark');

    const far = [frame([face({ eyeDistance: 20 })]), frame([face({ eyeDistance: 20 })])];
    expect(decide(far).inconclusiveReason).toBe('poorQuality');
    expect(captureProblem(decide(far), far)).toBe('faceTooSmall');

    // The face went out at the edge: a frame without it, the others cut by the frame's side.
    const edge = [frame([face({ cx: 60 })]), frame([face({ cx: 50 })]), frame([])];
    expect(decide(edge).inconclusiveReason).toBe('poorQuality');
    expect(captureProblem(decide(edge), edge)).toBe('faceOffCentre');

    const lost = [frame([face()]), frame([]), frame([face()])];
    expect(captureProblem(decide(lost), lost)).toBe('noFace');
    expect(captureProblem(decide(lost), lost, [12, 15, 9])).toBe('blur');
    expect(captureProblem(decide(lost), lost, [300, 280, 310])).toBe('noFace');

    const empty = [frame([]), frame([]), frame([])];
    expect(decide(empty).outcome).toBe('noFace');
    expect(captureProblem(decide(empty), empty)).toBe('noFace');
    expect(captureProblem(decide(empty), empty, [10, 11, 12])).toBe('blur');

    const unreadable: (FrameAnalysis | FrameFailure)[] = [
      { error: 'x' },
      { error: 'y' },
      frame([]),
    ];
    expect(captureProblem(decide(unreadable), unreadable)).toBe('poorQuality');
  });

  it('a far face the detector scores low is still too small, not missing', () => {
    const faint = [frame([face({ eyeDistance: 22, score: 0.4 })]), frame([])];
    expect(qualityProblem(faint, 120)).toBe('faceTooSmall');
  });
});

const base = (over: Partial<VerdictInput> = {}): VerdictInput => {
  const still = [frame([face()]), frame([face()]), frame([face()])];
  const decision = decide(still);
  return {
    decision,
    faceScan: null,
    ended: 'done',
    problem: captureProblem(decision, still),
    attempt: 1,
    maxAttempts: 3,
    ...over,
  };
};
const scan = (outcome: FaceScanDecision['outcome'], reason?: string): FaceScanDecision => ({
  outcome,
  classification:
    reason === 'presentationAttack' ? 'attack' : outcome === 'passed' ? 'pass' : 'failure',
  report: reason ? { reason } : { similarity: 0.9 },
});

describe('attemptVerdict: what one attempt means for its node', () => {
  it('a retryable failure offers another attempt while some are left, naming the challenge', () => {
    expect(attemptVerdict(base())).toEqual({
      final: false,
      reason: 'challengeFailed',
      attemptsLeft: 2,
      challenge: 'turnLeft',
    });
    expect(attemptVerdict(base({ attempt: 2 }))).toMatchObject({ final: false, attemptsLeft: 1 });
  });

  it('the last attempt decides the node with its reason', () => {
    expect(attemptVerdict(base({ attempt: 3 }))).toEqual({
      final: true,
      reason: 'challengeFailed',
    });
    expect(attemptVerdict(base({ maxAttempts: 1 }))).toEqual({
      final: true,
      reason: 'challengeFailed',
    });
  });

  it('a pass decides at once', () => {
    const turned = [frame([face()]), frame([face({ yawDeg: 35 })])];
    expect(attemptVerdict(base({ decision: decide(turned), problem: null }))).toEqual({
      final: true,
      reason: null,
    });
  });

  it('a presentation attack is never retried, whatever attempts are left or the page says', () => {
    const attack: LivenessDecision = {
      ...base().decision,
      outcome: 'deepfakeDetected',
      classification: 'attack',
    };
    delete attack.inconclusiveReason;
    for (const ended of ['done', 'cameraLost', 'timeout']) {
      // Even with a lesser failure found in the same frames (a movement not seen, too small).
      for (const problem of [null, 'challengeFailed', 'faceTooSmall'] as const) {
        expect(attemptVerdict(base({ decision: attack, ended, problem }))).toEqual({
          final: true,
          reason: 'presentationAttack',
        });
      }
    }
    // face_scan: the comparison may pass, the attack still ends the node.
    expect(
      attemptVerdict(base({ decision: attack, faceScan: scan('notPassed', 'presentationAttack') })),
    ).toMatchObject({ final: true, reason: 'presentationAttack' });
  });

  it('a camera lost during the capture is retried; no camera at all is not', () => {
    expect(attemptVerdict(base({ ended: 'cameraLost' }))).toMatchObject({
      final: false,
      reason: 'cameraLost',
    });
    const none: LivenessDecision = {
      ...base().decision,
      outcome: 'inconclusive',
      inconclusiveReason: 'cameraUnavailable',
    };
    expect(attemptVerdict(base({ decision: none, problem: null }))).toEqual({
      final: true,
      reason: 'cameraUnavailable',
    });
  });

  it('face_scan: a capture problem is retried; a mismatch or a reference problem is not', () => {
    const empty = [frame([]), frame([])];
    const noFace = decide(empty, []);
    expect(
      attemptVerdict(
        base({
          decision: noFace,
          faceScan: scan('error', 'noFace'),
          problem: captureProblem(noFace, empty),
        }),
      ),
    ).toMatchObject({ final: false, reason: 'noFace' });
    const fine = decide([frame([face()]), frame([face({ yawDeg: 35 })])]);
    expect(fine.outcome).toBe('livenessDetected');
    expect(
      attemptVerdict(
        base({ decision: fine, faceScan: scan('notPassed', 'belowThreshold'), problem: null }),
      ),
    ).toEqual({ final: true, reason: 'belowThreshold' });
    expect(
      attemptVerdict(
        base({ decision: noFace, faceScan: scan('error', 'noReference'), problem: 'noFace' }),
      ),
    ).toEqual({ final: true, reason: 'noReference' });
    expect(
      attemptVerdict(base({ decision: fine, faceScan: scan('passed'), problem: null })),
    ).toEqual({ final: true, reason: null });
  });
});

describe('attemptVerdict: a face_scan the page never fitted', () => {
  it('is retried as a timeout, and is final on the last attempt, never a pass', () => {
    // Only the aligning `between` frames: the page never fitted the face in the oval.
    const results = [frame([face()]), frame([face({ cx: 340 })]), frame([face({ cx: 350 })])];
    const frames: EvidenceFrame[] = [0, 800, 1600].map((t) => ({ t, role: 'between' }));
    const decision = decideLiveness(
      { challenges: [], issuedAt: 0, receivedAt: 62_000, timeoutSeconds: 60, frames },
      results,
    );
    expect(decision).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'timeout' });
    const problem = captureProblem(decision, results);
    const input = { decision, faceScan: scan('error', 'timeout'), problem };
    expect(attemptVerdict(base(input))).toMatchObject({ final: false, reason: 'timeout' });
    expect(attemptVerdict(base({ ...input, attempt: 3 }))).toEqual({
      final: true,
      reason: 'timeout',
    });
  });
});

describe('attemptVerdict: a face_scan without a blink', () => {
  it('is retried with the reason noBlink, final on the last attempt, and listed with its readings', () => {
    // The baseline and the frames the page watched: the eyes never closed.
    const results = [0, 1, 2, 3].map(() => frame([face()]));
    const frames: EvidenceFrame[] = [0, 200, 400, 600].map((t, k) => ({
      t,
      role: k === 0 ? 'baseline' : 'between',
    }));
    const decision = decideLiveness(
      { challenges: [], issuedAt: 0, receivedAt: 5000, timeoutSeconds: 60, frames },
      results,
    );
    expect(decision).toMatchObject({ outcome: 'inconclusive', inconclusiveReason: 'noBlink' });
    const problem = captureProblem(decision, results);
    expect(problem).toBe('noBlink');
    const input = { decision, faceScan: scan('notPassed', 'noBlink'), problem };
    const verdict = attemptVerdict(base(input));
    expect(verdict).toEqual({ final: false, reason: 'noBlink', attemptsLeft: 2 });
    expect(attemptVerdict(base({ ...input, attempt: 3 }))).toEqual({
      final: true,
      reason: 'noBlink',
    });
    const entry = attemptEntry(
      { id: 'att_1', ended: 'done' },
      1,
      decision,
      input.faceScan,
      verdict,
    );
    expect(entry).toMatchObject({ outcome: 'notPassed', reason: 'noBlink', retried: true });
    // These faces carry no mesh: no eye reading, so no blink seen.
    expect(entry.blink).toEqual({ readings: 0, median: null, ratio: null, blink: null });
  });
});

describe('attemptEntry', () => {
  it('lists the attempt with its outcome, reason, retry and scores', () => {
    const input = base();
    const verdict = attemptVerdict(input);
    const entry = attemptEntry({ id: 'att_1', ended: 'done' }, 1, input.decision, null, verdict);
    expect(entry).toMatchObject({
      attempt: 1,
      attemptId: 'att_1',
      ended: 'done',
      outcome: 'inconclusive',
      inconclusiveReason: 'challengeFailed',
      reason: 'challengeFailed',
      retried: true,
      challenges: [{ challenge: 'turnLeft', met: false, needed: 20 }],
      scores: { realMedian: 0.9, liveMedian: 0.9 },
      frames: 3,
      durationMs: 1000,
    });
    const passed = attemptEntry({ id: 'att_2', ended: 'done' }, 2, input.decision, scan('passed'), {
      final: true,
      reason: null,
    });
    expect(passed).toMatchObject({ outcome: 'passed', reason: null, retried: false, match: 0.9 });
    expect(passed).not.toHaveProperty('inconclusiveReason');
  });
});

describe('sharpnessSample', () => {
  it('spreads up to n readable frames over the attempt', () => {
    const f = frame([]);
    expect(sharpnessSample([f, null, f, { error: 'x' }, f, f], 3)).toEqual([0, 4, 5]);
    expect(sharpnessSample([f, null], 3)).toEqual([0]);
  });
});
