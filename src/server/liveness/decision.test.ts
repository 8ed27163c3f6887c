import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../core/liveness';
import { syntheticFace, type SyntheticHead } from '../../core/liveness/synthetic';
import type { FrameAnalysis } from '../face-analysis/analyzer';
import type { AttemptRecord, FrameRecord } from './attempt-types';
import { decideAttempt, evidenceOf, screenshotIndexes } from './decision';

const challenges: Challenge[] = ['turnLeft', 'comeCloser'];

function analysis(h: SyntheticHead): FrameAnalysis {
  return {
    width: 640,
    height: 480,
    brightness: 120,
    ms: 1,
    faces: [
      {
        ...syntheticFace({ eyeDistance: 80, ...h }),
        score: 0.95,
        embedding: [1, 0.2, 0.1, 0.3],
        rotation: { yaw: 0, pitch: 0, roll: 0 },
        real: 0.9,
        live: 0.9,
        age: 30,
        gender: 'female',
        genderScore: 0.9,
      },
    ],
  };
}

function frames(plan: [FrameRecord['role'], number | null, SyntheticHead][]): FrameRecord[] {
  return plan.map(([role, challengeIndex, head], seq) => ({
    attemptId: 'att_1',
    seq,
    role,
    challengeIndex,
    t: seq * 1000,
    receivedAt: 1_000_000 + seq * 1000,
    mediaId: `med_${seq}`,
    analysis: analysis(head),
  }));
}

/** Baseline, the turn, a frontal frame between, coming closer. */
const honest = frames([
  ['baseline', null, {}],
  ['challenge', 0, { yawDeg: 30 }],
  ['between', null, { yawDeg: 1 }],
  ['challenge', 1, { eyeDistance: 110 }],
]);

function attempt(over: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    id: 'att_1',
    sessionId: 'sess_1',
    nodeId: 'live',
    accountId: 'acc_1',
    mode: 'live',
    challenges,
    timeoutSeconds: 60,
    maxFrames: 24,
    issuedAt: 1_000_000,
    expiresAt: 1_075_000,
    status: 'analysing',
    frameCount: 4,
    ended: 'done',
    cameraUnavailable: false,
    finishedAt: 1_005_000,
    decisionMedia: null,
    outcome: null,
    inconclusiveReason: null,
    position: null,
    decidedAt: null,
    summary: null,
    retry: null,
    ...over,
  };
}

describe('decideAttempt', () => {
  it('passes challenges done in order, with the server’s times as evidence', () => {
    const d = decideAttempt(attempt(), honest, 2_000_000);
    expect(d.outcome).toBe('livenessDetected');
    expect(d.report.challenges.map((c) => [c.challenge, c.met, c.frameIndex])).toEqual([
      ['turnLeft', true, 1],
      ['comeCloser', true, 3],
    ]);
    // receivedAt is when the capture ended on the server, not when the decision runs.
    expect(evidenceOf(attempt(), honest, 2_000_000).receivedAt).toBe(1_005_000);
    expect(evidenceOf(attempt({ finishedAt: null }), honest, 2_000_000).receivedAt).toBe(2_000_000);
  });

  it('an attempt never finished is a timeout whatever its frames show', () => {
    const d = decideAttempt(
      attempt({ ended: 'expired', finishedAt: 1_075_000 }),
      honest,
      1_075_000,
    );
    expect([d.outcome, d.inconclusiveReason]).toEqual(['inconclusive', 'timeout']);
  });

  it('an attempt never finished whose frames show an attack is an attack, never a timeout', () => {
    const inFrame = honest.map((f) => ({
      ...f,
      analysis: {
        ...(f.analysis as FrameAnalysis),
        cues: {
          scale: 0.3,
          border: {
            sides: {
              top: { support: 0.9, distance: 0.4, angle: 0 },
              bottom: { support: 0.95, distance: 1, angle: 0 },
              left: { support: 0.9, distance: 0.3, angle: 0 },
              right: null,
            },
            found: 3,
            enclosed: true,
          },
          text: { lines: 0, where: null },
          spectrum: { size: 64, peakRatio: 8, peak: null },
          ms: 10,
        },
      },
    }));
    const d = decideAttempt(
      attempt({ ended: 'expired', finishedAt: 1_075_000 }),
      inFrame,
      1_075_000,
    );
    expect([d.outcome, d.classification]).toEqual(['deepfakeDetected', 'attack']);
  });

  it('a finish after the time allowed is a timeout', () => {
    const d = decideAttempt(attempt({ finishedAt: 1_000_000 + 75_001 }), honest, 1_080_000);
    expect([d.outcome, d.inconclusiveReason]).toEqual(['inconclusive', 'timeout']);
  });

  it('the page running out of time turns an undone challenge into timeout, and nothing else', () => {
    const undone = honest.slice(0, 3);
    const failed = decideAttempt(attempt(), undone, 2_000_000);
    expect([failed.outcome, failed.inconclusiveReason]).toEqual([
      'inconclusive',
      'challengeFailed',
    ]);
    const late = decideAttempt(attempt({ ended: 'timeout' }), undone, 2_000_000);
    expect([late.outcome, late.inconclusiveReason]).toEqual(['inconclusive', 'timeout']);
    expect(decideAttempt(attempt({ ended: 'timeout' }), honest, 2_000_000).outcome).toBe(
      'livenessDetected',
    );
  });

  it('no camera: inconclusive (cameraUnavailable), frames unread', () => {
    const unread = honest.map((f) => ({ ...f, analysis: null }));
    const d = decideAttempt(attempt({ cameraUnavailable: true }), unread, 2_000_000);
    expect([d.outcome, d.inconclusiveReason]).toEqual(['inconclusive', 'cameraUnavailable']);
  });

  it('a frame never analysed counts as unreadable', () => {
    const half = honest.map((f, i) => (i < 3 ? { ...f, analysis: null } : f));
    const d = decideAttempt(attempt(), half, 2_000_000);
    expect([d.outcome, d.inconclusiveReason]).toEqual(['inconclusive', 'poorQuality']);
    expect(d.report.unreadableFrames).toBe(3);
  });
});

describe('screenshotIndexes', () => {
  it('keeps the baseline, the frame of each challenge and the best frame, in order', () => {
    const d = decideAttempt(attempt(), honest, 2_000_000);
    expect(screenshotIndexes(d.report, honest)).toEqual(
      [...new Set([0, 1, 3, d.report.bestFrameIndex!])].sort((a, b) => a - b),
    );
  });

  it('falls back to the first frame, and to nothing without frames', () => {
    const report = decideAttempt(attempt(), honest, 2_000_000).report;
    const none = { ...report, challenges: [], bestFrameIndex: null };
    expect(screenshotIndexes(none, [{ role: 'between' }, { role: 'between' }])).toEqual([0]);
    expect(screenshotIndexes(none, [])).toEqual([]);
  });
});
