import { describe, expect, it } from 'vitest';
import { bestKnownMatch, compareEmbeddings, faceScanGate } from './verdicts';

const gate = (o: Partial<Parameters<typeof faceScanGate>[0]>) =>
  faceScanGate({
    challenges: 0,
    liveness: { outcome: 'livenessDetected' },
    attack: false,
    cameraUnavailable: false,
    expired: false,
    hasFace: true,
    ...o,
  });

describe('faceScanGate', () => {
  it('lets a capture with a face through', () => {
    expect(gate({})).toEqual({ go: true });
  });
  it('needs livenessDetected, with challenges or without', () => {
    const refused = { go: false, outcome: 'notPassed', reason: 'livenessNotDetected' };
    expect(gate({ challenges: 3, liveness: { outcome: 'inconclusive' } })).toEqual(refused);
    // Without challenges the blink is what the capture's liveness decision needs last: a capture
    // failing before it (a frame without the face, a second face) is no more compared than one
    // that did not blink, or a still picture would pass by a frame taken away from it.
    for (const reason of ['poorQuality', 'multipleFaces', 'personChanged']) {
      expect(gate({ liveness: { outcome: 'inconclusive', inconclusiveReason: reason } })).toEqual(
        refused,
      );
    }
    expect(gate({ liveness: { outcome: 'noFace' } })).toEqual(refused);
    expect(gate({ liveness: { outcome: 'inconclusive', inconclusiveReason: 'noBlink' } })).toEqual({
      go: false,
      outcome: 'notPassed',
      reason: 'noBlink',
    });
  });
  it('needs livenessDetected without challenges when the AI liveness check is required', () => {
    for (const outcome of ['inconclusive', 'noFace', 'deepfakeDetected'])
      expect(gate({ aiLivenessCheck: true, liveness: { outcome } })).toEqual({
        go: false,
        outcome: 'notPassed',
        reason: 'aiLivenessCheckFailed',
      });
    expect(gate({ aiLivenessCheck: true })).toEqual({ go: true });
  });
  it('refuses a presentation attack with or without challenges, an expired one too', () => {
    for (const challenges of [0, 3]) {
      expect(gate({ challenges, attack: true, liveness: { outcome: 'deepfakeDetected' } })).toEqual(
        {
          go: false,
          outcome: 'notPassed',
          reason: 'presentationAttack',
        },
      );
    }
    expect(gate({ attack: true, expired: true, hasFace: false })).toMatchObject({
      outcome: 'notPassed',
      reason: 'presentationAttack',
    });
  });
  it('ends in error without a camera, a finished capture or a face', () => {
    expect(gate({ cameraUnavailable: true })).toMatchObject({
      outcome: 'error',
      reason: 'cameraUnavailable',
    });
    expect(gate({ expired: true })).toMatchObject({ outcome: 'error', reason: 'timeout' });
    // Without challenges, a capture the page never fitted (liveness `timeout`) is not compared.
    const notFitted = { outcome: 'inconclusive', inconclusiveReason: 'timeout' };
    expect(gate({ liveness: notFitted })).toMatchObject({ outcome: 'error', reason: 'timeout' });
    expect(gate({ challenges: 3, liveness: notFitted })).toMatchObject({
      outcome: 'notPassed',
      reason: 'livenessNotDetected',
    });
    expect(gate({ hasFace: false })).toMatchObject({ outcome: 'error', reason: 'noFace' });
  });
});

describe('compareEmbeddings', () => {
  it('is the same person at or above the threshold', () => {
    expect(compareEmbeddings([1, 0], [1, 0], 0.55)).toEqual({
      similarity: 1,
      threshold: 0.55,
      same: true,
    });
    const c = compareEmbeddings([1, 0], [1, 1], 0.8);
    expect(c.similarity).toBeCloseTo(0.7071, 4);
    expect(c.same).toBe(false);
  });
});

describe('bestKnownMatch', () => {
  const known = [
    { sessionId: 's1', clientReferenceId: 'a', embedding: [1, 0, 0] },
    { sessionId: 's2', clientReferenceId: 'b', embedding: [0.9, 0.1, 0] },
    { sessionId: 'self', clientReferenceId: 'me', embedding: [0, 1, 0] },
  ];
  it('finds the most similar known face over the threshold', () => {
    const m = bestKnownMatch([1, 0.05, 0], known, 0.5);
    expect(m.best?.clientReferenceId).toBe('a');
    expect(m.compared).toBe(3);
  });
  it('never matches the session itself', () => {
    const m = bestKnownMatch([0, 1, 0], known, 0.9, 'self');
    expect(m.best).toBeNull();
    expect(m.compared).toBe(2);
    expect(m.bestSimilarity).toBeCloseTo(0.1104, 3);
  });
  it('reports no match under the threshold, and nothing to compare with none known', () => {
    expect(bestKnownMatch([0, 0, 1], known, 0.5).best).toBeNull();
    expect(bestKnownMatch([0, 0, 1], [], 0.5)).toEqual({
      best: null,
      bestSimilarity: null,
      compared: 0,
    });
  });
});
