/**
 * Which frames get the description model (light-frames.ts): the rule itself, and an attempt
 * through the routes (`app.inject`, a real SQLite file) analysed by the real analyzer on frames of
 * head-loop.y4m, whose calls are recorded on the way. Skipped without `npm run fixtures`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../core/liveness';
import type { AnalyzeOptions, FaceAnalyzer } from '../face-analysis/analyzer';
import { createHumanAnalyzer } from '../face-analysis/human-analyzer';
import type { LivenessDecision } from './decide-liveness';
import {
  analysisFor,
  describedAnalysisFor,
  lightOf,
  undescribedEvidence,
  type StoredFrame,
} from './light-frames';
import {
  blinkingAstronaut,
  fixtureFrameJpeg,
  livenessFlow,
  missingFixtures,
  openLivenessApp,
  type LivenessApp,
} from './test-support';

const face = (embedding: number[]): StoredFrame['faces'][number] => ({
  box: { x: 10, y: 10, width: 50, height: 60 },
  score: 0.9,
  keypoints: [],
  embedding,
  rotation: { yaw: 0, pitch: 0, roll: 0 },
  real: 0.4,
  live: 1,
  age: 30,
  gender: 'female',
  genderScore: 0.8,
});
const frame = (light: boolean): StoredFrame => ({
  width: 100,
  height: 100,
  brightness: 120,
  ms: 1,
  faces: [face(light ? [] : [1, 0])],
  ...(light ? { light: true } : {}),
});
const resting = (
  best: number | null,
  challenges: (number | null)[],
  met = true,
  blinkAt: number | null = null,
) =>
  ({
    outcome: met ? 'livenessDetected' : 'inconclusive',
    report: {
      bestFrameIndex: best,
      challenges: challenges.map((frameIndex) => ({ frameIndex, met })),
      blink: blinkAt === null ? null : { frameIndex: blinkAt, blink: met },
    },
  }) as unknown as LivenessDecision;

describe('which frames get the description model', () => {
  it('leaves it out of the between frames; without challenges reads every frame’s eyes', () => {
    expect(analysisFor(['turnLeft'], 'between')).toEqual({ withoutDescription: true });
    expect(analysisFor(['turnLeft'], 'baseline')).toEqual({});
    expect(analysisFor(['turnLeft', 'lookUp'], 'challenge')).toEqual({});
    // Without challenges (a face_scan) the decision needs a blink: the iris model on every frame,
    // the watch frames light as the between frames of a capture with challenges.
    expect(analysisFor([], 'between')).toEqual({ eyes: true, withoutDescription: true });
    expect(analysisFor([], 'baseline')).toEqual({ eyes: true });
    // A light frame described later keeps the same eyes.
    expect(describedAnalysisFor([])).toEqual({ eyes: true });
    expect(describedAnalysisFor(['turnLeft'])).toEqual({});
  });

  it('asks for the light frames a pass rests on (the best frame, the frames that met a challenge), and all of them for a failure', () => {
    const frames = [frame(false), frame(true), frame(true), frame(true), { error: 'x' }, null];
    expect(undescribedEvidence(resting(1, [3, 0]), frames)).toEqual([1, 3]);
    // A light frame nothing rests on stays light; described, unreadable and missing ones are skipped.
    expect(undescribedEvidence(resting(0, [null, 4, 5]), frames)).toEqual([]);
    expect(undescribedEvidence(resting(null, []), frames)).toEqual([]);
    expect(undescribedEvidence(resting(2, [2]), frames)).toEqual([2]);
    // A failure: every light frame, so that a person who changed among them is the reason given.
    expect(undescribedEvidence(resting(0, [3], false), frames)).toEqual([1, 2, 3]);
    expect(undescribedEvidence(resting(null, [], false), frames)).toEqual([1, 2, 3]);
  });

  it('without challenges, asks for the best frame and the frame that blinked', () => {
    const frames = [frame(false), frame(true), frame(true), frame(true), frame(true)];
    expect(undescribedEvidence(resting(2, [], true, 4), frames)).toEqual([2, 4]);
    expect(undescribedEvidence(resting(0, [], true, 3), frames)).toEqual([3]);
    // Described already: nothing more for a pass.
    expect(undescribedEvidence(resting(0, [], true, 0), frames)).toEqual([]);
    // A failure to blink, the best frame described: every light frame (its reason must be true).
    expect(undescribedEvidence(resting(0, [], false, 0), frames)).toEqual([1, 2, 3, 4]);
  });

  it('clears what the description gives in a simulated light frame, nothing else', () => {
    const full = frame(false);
    const light = lightOf(full);
    expect(light.light).toBe(true);
    expect(light.faces[0]).toEqual({
      ...full.faces[0],
      embedding: [],
      age: 0,
      gender: 'unknown',
      genderScore: 0,
    });
    expect(full.faces[0]!.embedding).toEqual([1, 0]);
  });
});

const missing = missingFixtures(['head-loop.y4m', 'bona-second-person.y4m']);
if (missing.length > 0) console.warn('light-frames.test: attempt skipped, run npm run fixtures');

/**
 * Frames of head-loop.y4m: frontal (yaw −0.6° as the server reads it), the same frontal hold
 * later, nearly frontal (2.9°: the page's baseline), each turn at its peak.
 */
const LOOP = { frontal: 6, frontalLater: 10, nearly: 14, turnLeft: 27, turnRight: 62 } as const;

describe.skipIf(missing.length > 0)('an attempt whose between frames carry the decision', () => {
  let real: FaceAnalyzer;
  let t: LivenessApp;
  const img: Record<string, string> = {};
  const calls: { image: string; opts: AnalyzeOptions }[] = [];

  beforeAll(async () => {
    real = createHumanAnalyzer();
    await real.load();
    for (const [k, n] of Object.entries(LOOP)) img[k] = fixtureFrameJpeg('head-loop.y4m', n);
    img['other'] = fixtureFrameJpeg('bona-second-person.y4m', LOOP.frontal);
    const [open, , shut] = blinkingAstronaut();
    img['open'] = open!;
    img['shut'] = shut!;
    const named = (bytes: Uint8Array) => {
      const b64 = Buffer.from(bytes).toString('base64');
      return Object.keys(img).find((k) => img[k] === b64) ?? '?';
    };
    const recording: FaceAnalyzer = {
      load: () => real.load(),
      close: async () => undefined,
      analyze: (bytes, opts = {}) => {
        calls.push({ image: named(bytes), opts });
        return real.analyze(bytes, opts);
      },
    };
    t = await openLivenessApp({ analyzer: recording, livenessWorker: 'manual' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await real?.close();
  });

  /** A session of one challenge and one attempt, its attempt started. */
  async function started() {
    const s = await t.open(livenessFlow({ challenges: 1 }));
    const start = await t.client(s.token, 'POST', '/nodes/live/liveness/start', {});
    expect(start.status, start.raw).toBe(200);
    return { s, start };
  }

  /** Uploads the named frames 500 ms apart, then lets their analyses run. */
  async function send(token: string, base: string, frames: { image: string }[]) {
    let ms = 0;
    for (const f of frames) {
      const r = await t.client(token, 'POST', `${base}/frames`, {
        ...f,
        image: img[f.image],
        t: (ms += 500),
      });
      expect(r.status, r.raw).toBe(202);
    }
    await t.app.liveness.drain();
  }

  it('analyses between frames light, describes the best frame and the one that met the challenge, and passes', async () => {
    const { s, start } = await started();
    const [challenge] = start.body.challenges as [Challenge];
    // One challenge is always a turn (pickChallenges).
    expect(['turnLeft', 'turnRight']).toContain(challenge);
    const base = `/nodes/live/liveness/${start.body.attemptId}`;
    // The page's own challenge frame missed the turn (taken nearly frontal); the server sees it in
    // a between frame. The most frontal frame is a between frame too.
    const frames = [
      { role: 'baseline', image: 'nearly' },
      { role: 'between', image: 'frontal' },
      { role: 'between', image: 'frontalLater' },
      { role: 'between', image: challenge },
      { role: 'challenge', challengeIndex: 0, image: 'nearly' },
    ];
    await send(s.token, base, frames);
    const light = { withoutDescription: true };
    expect(calls).toEqual([
      { image: 'nearly', opts: {} },
      { image: 'frontal', opts: light },
      { image: 'frontalLater', opts: light },
      { image: challenge, opts: light },
      { image: 'nearly', opts: {} },
    ]);
    calls.length = 0;

    const fin = await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' });
    expect(fin.status, fin.raw).toBe(202);
    await t.app.liveness.drain();
    // Only the frames the decision rests on are analysed again, in full.
    expect(calls).toEqual([
      { image: 'frontal', opts: {} },
      { image: challenge, opts: {} },
    ]);
    const polled = await t.client(s.token, 'GET', base);
    expect(polled.body.position).toMatchObject({ status: 'complete' });
    const report = (await t.store.getSessionById(s.sessionId))?.report.nodeReports.find(
      (r) => r.nodeId === 'live',
    );
    expect(report?.outcome).toBe('livenessDetected');
    const r = report!.report as {
      bestFrameIndex: number;
      challenges: { frameIndex: number; met: boolean }[];
      similarity: { min: number } | null;
      estimates: { age: number } | null;
    };
    expect(r.bestFrameIndex).toBe(1);
    expect(r.challenges).toMatchObject([{ frameIndex: 3, met: true }]);
    // The best frame's description is there: the same-person check and the estimates read it.
    expect(r.similarity?.min).toBeGreaterThan(0.6);
    expect(r.estimates?.age).toBeGreaterThan(0);
    const stored = await t.app.liveness.attempts.frames(start.body.attemptId);
    const described = stored.map((f) => {
      const a = f.analysis as StoredFrame;
      return [a.light === true, a.faces[0]!.embedding.length];
    });
    expect(described).toEqual([
      [false, 1024],
      [false, 1024],
      [true, 0],
      [false, 1024],
      [false, 1024],
    ]);
  });

  it('describes every light frame of a failure, so that a person who changed is the reason given', async () => {
    const { s, start } = await started();
    const id = start.body.attemptId as string;
    // Another person steps in between the baseline and the (missed) challenge.
    const frames = [
      { role: 'baseline', image: 'frontal' },
      { role: 'between', image: 'other' },
      { role: 'between', image: 'frontalLater' },
      { role: 'challenge', challengeIndex: 0, image: 'nearly' },
    ];
    await send(s.token, `/nodes/live/liveness/${id}`, frames);
    calls.length = 0;
    const fin = await t.client(s.token, 'POST', `/nodes/live/liveness/${id}/finish`, {
      ended: 'done',
    });
    expect(fin.status, fin.raw).toBe(202);
    await t.app.liveness.drain();
    expect(calls).toEqual([
      { image: 'other', opts: {} },
      { image: 'frontalLater', opts: {} },
    ]);
    expect(await t.app.liveness.attempts.get(id)).toMatchObject({
      outcome: 'inconclusive',
      inconclusiveReason: 'personChanged',
    });
  });

  it('without challenges (a face_scan), reads every frame’s eyes, the watch frames light, and describes the frame that blinked', async () => {
    // No reference: the node ends in error after the liveness decision, which is what is read here.
    const flow = [
      { id: 'start', type: 'start', outcome: 'scan' },
      {
        id: 'scan',
        type: 'face_scan',
        outcomes: { passed: 'end', notPassed: 'end', error: 'end' },
      },
      { id: 'end', type: 'end' },
    ];
    const s = await t.open(flow);
    const start = await t.client(s.token, 'POST', '/nodes/scan/liveness/start', {});
    expect(start.status, start.raw).toBe(200);
    expect(start.body.challenges).toEqual([]);
    const base = `/nodes/scan/liveness/${start.body.attemptId}`;
    calls.length = 0;
    const names = ['open', 'open', 'shut', 'open'];
    await send(
      s.token,
      base,
      names.map((image, k) => ({ role: k === 0 ? 'baseline' : 'between', image })),
    );
    const eyes = { eyes: true };
    const light = { eyes: true, withoutDescription: true };
    expect(calls).toEqual(names.map((image, k) => ({ image, opts: k === 0 ? eyes : light })));
    calls.length = 0;
    const fin = await t.client(s.token, 'POST', `${base}/finish`, { ended: 'done' });
    expect(fin.status, fin.raw).toBe(202);
    await t.app.liveness.drain();
    // The frame that blinked is described, with the same eyes, and so is the best frame if light.
    expect(calls).toContainEqual({ image: 'shut', opts: eyes });
    expect(calls.every((c) => c.image !== '?' && c.opts.eyes === true)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(2);
    const attempt = await t.app.liveness.attempts.get(start.body.attemptId);
    expect(attempt?.summary?.blink).toMatchObject({ readings: 4, blink: true });
    expect(attempt?.outcome).toBe('error');
  });
});
