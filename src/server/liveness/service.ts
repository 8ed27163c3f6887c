/**
 * The server side of a liveness node (docs/liveness.md): challenges issued per attempt, frames
 * stored and analysed as they arrive, the decision taken by the worker from the server's own
 * analysis and written as the node's outcome. The page never reports an outcome here.
 */
import { randomInt } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import {
  LIVENESS_LIMITS,
  type LivenessAttemptAnswer,
  type LivenessFinishBody,
  type LivenessFrameBody,
  type LivenessStartAnswer,
} from '../../core/api';
import {
  nodeDefaults,
  type FaceScanNode,
  type FlowPosition,
  type LivenessDetectionNode,
} from '../../core/flow';
import { pickChallenges } from '../../core/liveness';
import type { FaceAnalyzer } from '../face-analysis/analyzer';
import { decodeImage, ImageDecodeError } from '../face-analysis/image';
import { mainFace } from '../face-analysis/main-face';
import type { Faces, FaceScanDecision } from '../faces/faces';
import type { Clock } from '../clock';
import { nodeById, requireCurrentOf, type StepGateway } from '../flow/gateway';
import { ApiError, invalid } from '../http/errors';
import { orderedId } from '../ids';
import { mediaEvent } from '../media/event';
import { sqliteMediaForget } from '../media/forget';
import type { LifecycleStore } from '../lifecycle/lifecycle-store';
import { MEDIA_MIGRATIONS } from '../media/migrations';
import { runMigrations } from '../store/migrations';
import type { MediaService } from '../media/types';
import type { SessionRecord, SessionStore } from '../store/types';
import { sqliteAttemptStore } from './attempt-store';
import type {
  AttemptJob,
  AttemptJobQueue,
  AttemptRecord,
  AttemptRefusal,
  AttemptStore,
  DecisionMedia,
  FrameRecord,
} from './attempt-types';
import {
  attemptEntry,
  attemptVerdict,
  captureProblem,
  needsSharpness,
  sharpnessSample,
} from './attempt-verdict';
import { decideAttempt, screenshotIndexes } from './decision';
import { sharpness } from './sharpness';
import { frameBytes } from './frame-image';
import {
  analysisFor,
  describedAnalysisFor,
  DESCRIBE_ROUNDS,
  undescribedEvidence,
} from './light-frames';
import { frameCues } from './pad/cues';
import { createJobWorker, type JobWorker, type JobWorkerOptions } from '../jobs/worker';

export const FRAME_JOB = 'liveness.frame';
export const DECIDE_JOB = 'liveness.decide';
/** Claims of a job before it is given up; the decision's last one decides whatever happens. */
const DECIDE_TRIES = 3;
/** A face_scan node asks this many challenges when `requireLivenessChallenge` (docs/faces.md). */
const FACE_SCAN_CHALLENGES = 3;
/** A face_scan node has no `timeoutSeconds`: the liveness default applies. */
const FACE_SCAN_TIMEOUT_SECONDS = 60;

export interface LivenessDeps {
  store: SessionStore;
  /** How a decision moves the session. */
  gateway: StepGateway;
  /** face_scan decisions (a face_scan node's capture is a liveness attempt). */
  faces: Faces;
  /**
   * Where attempts, frames and their jobs live (`pgAttemptStore(pg)`); without it, the tables of
   * `db`, the better-sqlite3 handle of the store.
   */
  attempts?: AttemptStore;
  db?: Database;
  /**
   * Where decided frames' records are forgotten when they are not in `db` (PostgreSQL:
   * `pgLifecycle`); without it, the SQLite file's.
   */
  lifecycle?: Pick<LifecycleStore, 'forgetMedia'>;
  media: MediaService;
  clock: Clock;
  /** The app's analyzer (one wasm backend per process), closed by whoever made it. */
  analyzer: FaceAnalyzer;
  /** `auto` runs jobs in the background; `manual` leaves them to `drain()`. */
  worker?: 'auto' | 'manual';
  /** Random integer in [0, max), for the challenges; crypto by default. */
  randomInt?: (max: number) => number;
  leaseMs?: number;
  log?: (message: string, err?: unknown) => void;
  trace?: JobWorkerOptions['trace'];
}

export interface Liveness {
  start(s: SessionRecord, nodeId: string): Promise<LivenessStartAnswer>;
  frame(
    s: SessionRecord,
    nodeId: string,
    attemptId: string,
    body: LivenessFrameBody,
  ): Promise<{ received: number }>;
  finish(
    s: SessionRecord,
    nodeId: string,
    attemptId: string,
    body: LivenessFinishBody,
  ): Promise<{ status: 'analysing' } | { status: 'decided'; position: FlowPosition }>;
  status(s: SessionRecord, nodeId: string, attemptId: string): Promise<LivenessAttemptAnswer>;
  /** Queues the decision of every attempt whose time ran out unfinished; returns how many. */
  expireDue(): Promise<number>;
  /** Runs every queued job now (tests, the bench); returns how many ran. */
  drain(): Promise<number>;
  /** Starts the background worker (auto mode). */
  run(): void;
  /** Stops the worker and waits for the job in hand. */
  close(): Promise<void>;
  readonly attempts: AttemptStore;
  /** The attempts' job queue (`attempts.jobs`). */
  readonly queue: AttemptJobQueue;
}

function refusal(reason: AttemptRefusal, a: AttemptRecord | null): ApiError {
  switch (reason) {
    case 'unknown':
      return new ApiError('not_found_error', 'No such liveness attempt for this node', {
        code: 'attempt_unknown',
      });
    case 'finished':
      return new ApiError(
        'validation_error',
        a?.status === 'replaced'
          ? 'This attempt was replaced by a newer one'
          : 'This attempt is finished; poll it for the decision',
        { code: 'attempt_finished' },
      );
    case 'expired':
      return new ApiError(
        'validation_error',
        'This attempt ran out of time; it ends inconclusive (timeout)',
        { code: 'attempt_expired' },
      );
    case 'too_many_frames':
      return new ApiError(
        'validation_error',
        `An attempt takes at most ${a?.maxFrames ?? LIVENESS_LIMITS.maxFrames} frames`,
        { code: 'too_many_frames' },
      );
    case 'exhausted':
      return new ApiError(
        'validation_error',
        `This node's attempts are used up (at most ${LIVENESS_LIMITS.maxStartsPerNode} starts, the node's maxAttempts judged)`,
        { code: 'liveness_attempts_exhausted' },
      );
  }
}

/**
 * The decision job of an attempt, due from the attempt's start: the worker takes it before the
 * frames of attempts begun since (another page's capture), and it analyses its own pending frames
 * itself. Someone is waiting for this decision; the other captures are still going on.
 */
const decideJob = (a: Pick<AttemptRecord, 'id' | 'issuedAt'>): AttemptJob => ({
  kind: DECIDE_JOB,
  payload: { attemptId: a.id },
  runAfter: a.issuedAt,
});

/** The node report of a decision carries its attempt id: a re-run finds it and writes nothing. */
const decidedBy = (s: SessionRecord, attemptId: string) =>
  s.report.nodeReports.some((r) => r.report?.['attemptId'] === attemptId);

/**
 * The liveness runtime of an app: routes call its methods, its worker analyses frames and decides.
 *
 * @example
 * const liveness = createLiveness({ store, gateway, faces, db: store.db, media, clock, analyzer });
 * liveness.run();
 * const { attemptId, challenges } = await liveness.start(session, 'live');
 */
export function createLiveness(deps: LivenessDeps): Liveness {
  const { store, media, clock, faces, analyzer } = deps;
  if (!deps.attempts && !deps.db) {
    throw new Error('liveness needs its attempt store: `attempts`, or the SQLite `db`');
  }
  const attempts: AttemptStore = deps.attempts ?? sqliteAttemptStore(deps.db!);
  // Frames are forgotten in the SQLite file's media records, or by the lifecycle store given
  // (docs/lifecycle.md); attempts kept elsewhere without one keep their frames to the frames'
  // retention.
  if (!deps.attempts) runMigrations(deps.db!, [...MEDIA_MIGRATIONS]);
  const mediaRows = deps.attempts ? null : sqliteMediaForget(deps.db!);
  const forgetMedia: ((ids: string[], now: number) => Promise<number>) | null = deps.lifecycle
    ? (ids, now) => deps.lifecycle!.forgetMedia(ids, now)
    : mediaRows && (async (ids, now) => deps.db!.transaction(() => mediaRows.forget(ids, now))());
  const queue = attempts.jobs;
  const rand = deps.randomInt ?? ((max: number) => randomInt(max));
  const deciding = new Map<string, Promise<void>>();

  function livenessNode(s: SessionRecord, nodeId: string): LivenessDetectionNode | FaceScanNode {
    return requireCurrentOf(
      s,
      nodeId,
      ['liveness_detection', 'face_scan'],
      (n) =>
        `node '${nodeId}' is a ${n.type} node; liveness routes go to liveness_detection and face_scan nodes`,
    );
  }

  /** The attempt, if it belongs to this session's node. */
  async function attemptOf(
    s: SessionRecord,
    nodeId: string,
    attemptId: string,
  ): Promise<AttemptRecord> {
    const a = await attempts.get(attemptId);
    if (!a || a.sessionId !== s.id || a.nodeId !== nodeId) throw refusal('unknown', null);
    return a;
  }

  /** Analyses a frame as its role asks (light-frames.ts), or in full when `full`. */
  async function analyseFrame(
    attempt: AttemptRecord,
    frame: FrameRecord,
    full = false,
  ): Promise<void> {
    const found = await media.read(frame.mediaId);
    if (!found) {
      await attempts.setAnalysis(attempt.id, frame.seq, { error: 'the frame bytes are gone' });
      return;
    }
    try {
      const opts = full
        ? describedAnalysisFor(attempt.challenges)
        : analysisFor(attempt.challenges, frame.role);
      const result = await analyzer.analyze(found.bytes, opts);
      // The presentation-attack cues need the pixels: worked out now, stored with the analysis.
      const cues = frameCues(decodeImage(found.bytes), result.faces);
      const light = opts.withoutDescription ? { light: true } : {};
      await attempts.setAnalysis(attempt.id, frame.seq, { ...result, cues, ...light });
    } catch (err) {
      // An unreadable frame is evidence too (decideLiveness counts them); anything else retries.
      if (!(err instanceof ImageDecodeError)) throw err;
      await attempts.setAnalysis(attempt.id, frame.seq, { error: err.message });
    }
  }

  async function frameJob(payload: unknown): Promise<void> {
    const { attemptId, seq } = payload as { attemptId: string; seq: number };
    const attempt = await attempts.get(attemptId);
    // A replaced or decided attempt's frames are not worth the CPU.
    if (!attempt || attempt.status === 'replaced' || attempt.status === 'decided') return;
    const frame = await attempts.frame(attemptId, seq);
    if (!frame || frame.analysis !== null) return;
    await analyseFrame(attempt, frame);
  }

  async function saveDecisionMedia(
    attempt: AttemptRecord,
    frames: readonly FrameRecord[],
    indexes: readonly number[],
    best: number | null,
  ): Promise<DecisionMedia> {
    const copy = async (frame: FrameRecord, kind: 'screenshot' | 'user_photo') => {
      const found = await media.read(frame.mediaId);
      if (!found) return null;
      const rec = await media.save({
        sessionId: attempt.sessionId,
        accountId: attempt.accountId,
        mode: attempt.mode,
        kind,
        contentType: found.record.contentType,
        bytes: found.bytes,
      });
      return rec.id;
    };
    const screenshots: string[] = [];
    for (const i of indexes) {
      const id = await copy(frames[i]!, 'screenshot');
      if (id) screenshots.push(id);
    }
    const userPhoto = best !== null && frames[best] ? await copy(frames[best], 'user_photo') : null;
    return { screenshots, userPhoto, eventId: userPhoto ? orderedId('evt', 8) : null };
  }

  async function decideNow(attemptId: string, lastTry: boolean): Promise<void> {
    let attempt = await attempts.get(attemptId);
    if (!attempt || attempt.status !== 'analysing') return;
    if (!attempt.cameraUnavailable) {
      for (const f of await attempts.frames(attemptId)) {
        if (f.analysis !== null) continue;
        try {
          await analyseFrame(attempt, f);
        } catch (err) {
          // On the last try a frame the analyzer cannot take counts as unreadable, so the node
          // ends (`inconclusive`, no answer) instead of leaving the page waiting for ever.
          if (!lastTry) throw err;
          const message = err instanceof Error ? err.message : String(err);
          await attempts.setAnalysis(attemptId, f.seq, { error: `analysis failed: ${message}` });
        }
      }
    }
    let frames = await attempts.frames(attemptId);
    let decision = decideAttempt(attempt, frames, clock.now());
    // The light `between` frames the decision rests on are described, and the attempt decided
    // again on them (light-frames.ts).
    for (let round = 0; round < DESCRIBE_ROUNDS && !attempt.cameraUnavailable; round++) {
      const todo = undescribedEvidence(
        decision,
        frames.map((f) => f.analysis),
      );
      if (todo.length === 0) break;
      for (const i of todo) {
        try {
          await analyseFrame(attempt, frames[i]!, true);
        } catch (err) {
          // On the last try the frame stays light: the same-person check then cannot vouch for
          // it, so the attempt does not pass on it.
          if (!lastTry) throw err;
        }
      }
      frames = await attempts.frames(attemptId);
      decision = decideAttempt(attempt, frames, clock.now());
    }
    const faceScan = await faceScanOf(attempt, frames, decision);
    const current = await store.getSessionById(attempt.sessionId);
    const node = current ? nodeById(current.settings.flow, attempt.nodeId) : undefined;
    const maxAttempts =
      node?.type === 'liveness_detection' || node?.type === 'face_scan'
        ? nodeDefaults(node).maxAttempts
        : 1;
    const earlier = (await attempts.attemptsOf(attempt.sessionId, attempt.nodeId)).filter(
      (x) => x.status === 'decided' && x.id !== attempt!.id,
    );
    const number = earlier.length + 1;
    const analyses = frames.map((f) => f.analysis);
    const sharp = needsSharpness(decision) ? await sharpnessOf(frames) : [];
    const verdict = attemptVerdict({
      decision,
      faceScan,
      ended: attempt.ended,
      problem: captureProblem(decision, analyses, sharp),
      attempt: number,
      maxAttempts,
    });
    const entry = attemptEntry(attempt, number, decision, faceScan, verdict);
    if (!verdict.final) {
      // Another try: the node stays current, nothing is written to the session; the page is told
      // why through the attempt's status. The attempt's frames go (forgetFrames).
      const { final: _final, ...retry } = verdict;
      await attempts.decided(
        attemptId,
        {
          outcome: entry.outcome,
          inconclusiveReason: entry.inconclusiveReason ?? null,
          position: (current ?? (await requireSession(attempt.sessionId))).position,
          summary: entry,
          retry,
        },
        clock.now(),
      );
      await forgetFrames(attempt.sessionId, attempt.nodeId);
      return;
    }
    const listed = [...earlier.flatMap((x) => (x.summary ? [x.summary] : [])), entry];
    if (!attempt.decisionMedia) {
      const indexes = attempt.cameraUnavailable ? [] : screenshotIndexes(decision.report, frames);
      const best = attempt.cameraUnavailable ? null : decision.report.bestFrameIndex;
      const saved = await saveDecisionMedia(attempt, frames, indexes, best);
      // The user photo's face is known already: face_compare and recognition need not analyse it.
      if (saved.userPhoto && best !== null) {
        const a = frames[best]?.analysis;
        faces.rememberMedia(saved.userPhoto, a && !('error' in a) ? mainFace(a) : null);
      }
      await attempts.setDecisionMedia(attemptId, saved);
      attempt = (await attempts.get(attemptId))!;
    }
    const saved = attempt.decisionMedia!;
    const a = attempt;
    const session = await deps.gateway.move(
      a.sessionId,
      a.nodeId,
      (cur) => {
        if (decidedBy(cur, a.id)) return null;
        // A face_scan without challenges says nothing about liveness.
        const livenessAsked = !faceScan || a.challenges.length > 0;
        const next: SessionRecord = {
          ...cur,
          report: {
            ...cur.report,
            ...(livenessAsked ? { livenessDetected: decision.outcome === 'livenessDetected' } : {}),
            screenshots: [...(cur.report.screenshots ?? []), ...saved.screenshots],
          },
        };
        const ended = {
          attemptId: a.id,
          ended: a.ended,
          ...(a.cameraUnavailable ? { cameraUnavailable: true } : {}),
        };
        // An attack is never to be retried into a pass: the node report says so for both kinds.
        const classification = {
          classification: faceScan?.classification ?? decision.classification,
        };
        // Every judged attempt of the node, with its reason and scores (docs/liveness.md).
        const tried = { attempts: listed };
        return faceScan
          ? {
              session: next,
              outcome: faceScan.outcome,
              report: {
                ...ended,
                ...classification,
                ...faceScan.report,
                capture: decision.report,
                ...tried,
              },
            }
          : {
              session: next,
              outcome: decision.outcome,
              ...(decision.inconclusiveReason
                ? { inconclusiveReason: decision.inconclusiveReason }
                : {}),
              report: { ...ended, ...classification, ...decision.report, ...tried },
            };
      },
      {
        what: 'a liveness decision',
        // The session moved on (the test panel, an exit, a timeout): the decision is kept on the
        // attempt but changes nothing.
        movedOn: 'ignore',
        missing: () => new Error(`session ${a.sessionId} is gone`),
      },
    );
    if (decidedBy(session, a.id) && saved.userPhoto && saved.eventId) {
      const record = await media.get(saved.userPhoto);
      const known = await store.listEvents({ sessionId: a.sessionId });
      if (record && !known.some((e) => e.id === saved.eventId)) {
        const now = clock.now();
        await store.appendEvent(mediaEvent(record, media.signedUrl(record.id), saved.eventId, now));
      }
    }
    await attempts.decided(
      a.id,
      {
        outcome: faceScan?.outcome ?? decision.outcome,
        inconclusiveReason: faceScan ? null : (decision.inconclusiveReason ?? null),
        position: session.position,
        summary: entry,
        retry: null,
      },
      clock.now(),
    );
    await forgetFrames(a.sessionId, a.nodeId);
  }

  /**
   * Once an attempt is decided its frames are read no more: the decision copied what the report
   * keeps (screenshots, the user photo) and the frames' analyses stay in `liveness_frames` for
   * the post-session analyses. So their bytes and records go now, with those of the node's
   * replaced attempts (docs/lifecycle.md, "Liveness frames").
   */
  async function forgetFrames(sessionId: string, nodeId: string): Promise<void> {
    if (!forgetMedia) return;
    const ids: string[] = [];
    for (const x of await attempts.attemptsOf(sessionId, nodeId)) {
      if (x.status !== 'decided' && x.status !== 'replaced') continue;
      for (const f of await attempts.frames(x.id)) ids.push(f.mediaId);
    }
    const now = clock.now();
    const n = await forgetMedia(ids, now);
    if (n === 0) return;
    await faces.table.forgetMedia(ids);
    await media.purgeDeleted();
  }

  async function requireSession(id: string): Promise<SessionRecord> {
    const s = await store.getSessionById(id);
    if (!s) throw new Error(`session ${id} is gone`);
    return s;
  }

  /** The sharpness of a few of the attempt's frames (decoded again: only for failed attempts). */
  async function sharpnessOf(frames: readonly FrameRecord[]): Promise<number[]> {
    const out: number[] = [];
    for (const i of sharpnessSample(frames.map((f) => f.analysis))) {
      const found = await media.read(frames[i]!.mediaId);
      if (!found) continue;
      try {
        out.push(sharpness(decodeImage(found.bytes)));
      } catch (err) {
        if (!(err instanceof ImageDecodeError)) throw err;
      }
    }
    return out;
  }

  /** For an attempt of a face_scan node: its outcome from the capture and the reference. */
  async function faceScanOf(
    attempt: AttemptRecord,
    frames: readonly FrameRecord[],
    decision: ReturnType<typeof decideAttempt>,
  ): Promise<FaceScanDecision | null> {
    const session = await store.getSessionById(attempt.sessionId);
    const node = session ? nodeById(session.settings.flow, attempt.nodeId) : undefined;
    if (!session || node?.type !== 'face_scan') return null;
    const best = decision.report.bestFrameIndex;
    const analysis = best !== null ? frames[best]?.analysis : null;
    return faces.decideFaceScan({
      session,
      node,
      challenges: attempt.challenges.length,
      liveness: {
        outcome: decision.outcome,
        ...(decision.inconclusiveReason ? { inconclusiveReason: decision.inconclusiveReason } : {}),
      },
      attack: decision.classification === 'attack',
      cameraUnavailable: attempt.cameraUnavailable,
      expired: attempt.ended === 'expired',
      bestFace: analysis && !('error' in analysis) ? mainFace(analysis) : null,
    });
  }

  /** One decision per attempt at a time in this process. */
  function decide(attemptId: string, lastTry = false): Promise<void> {
    const running = deciding.get(attemptId);
    if (running) return running;
    const p = decideNow(attemptId, lastTry).finally(() => deciding.delete(attemptId));
    deciding.set(attemptId, p);
    return p;
  }

  const worker: JobWorker = createJobWorker({
    queue,
    clock,
    mode: deps.worker ?? 'auto',
    maxTries: DECIDE_TRIES,
    ...(deps.leaseMs !== undefined ? { leaseMs: deps.leaseMs } : {}),
    handlers: {
      [FRAME_JOB]: frameJob,
      [DECIDE_JOB]: (payload, job) =>
        decide((payload as { attemptId: string }).attemptId, job.tries >= DECIDE_TRIES),
    },
    onTick: async () => {
      await expireDue();
      // Verified sessions become known faces soon after they end, not only when recognition asks.
      await faces.enrollPending();
    },
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.trace ? { trace: deps.trace } : {}),
  });

  async function expire(a: AttemptRecord, now: number): Promise<boolean> {
    const r = await attempts.finish(
      a.id,
      { ended: 'expired', cameraUnavailable: false },
      now,
      decideJob(a),
    );
    return r.ok;
  }

  async function expireDue(): Promise<number> {
    const now = clock.now();
    let n = 0;
    for (const a of await attempts.listExpired(now, 100)) if (await expire(a, now)) n++;
    if (n > 0) worker.kick();
    return n;
  }

  return {
    attempts,
    queue,

    async start(s, nodeId) {
      const node = nodeDefaults(livenessNode(s, nodeId));
      const random = () => rand(1 << 30) / (1 << 30);
      const face = node.type === 'face_scan';
      const challenges = !face
        ? pickChallenges(node.challenges, random)
        : node.requireLivenessChallenge
          ? pickChallenges(FACE_SCAN_CHALLENGES, random)
          : [];
      const timeoutSeconds = face ? FACE_SCAN_TIMEOUT_SECONDS : node.timeoutSeconds;
      const issuedAt = clock.now();
      const attemptId = orderedId('att');
      const expiresAt = issuedAt + timeoutSeconds * 1000 + LIVENESS_LIMITS.graceMs;
      const r = await attempts.start(
        {
          id: attemptId,
          sessionId: s.id,
          nodeId,
          accountId: s.accountId,
          mode: s.mode,
          challenges,
          timeoutSeconds,
          maxFrames: LIVENESS_LIMITS.maxFrames,
          issuedAt,
          expiresAt,
        },
        { maxStarts: LIVENESS_LIMITS.maxStartsPerNode, maxAttempts: node.maxAttempts },
      );
      if (!r.ok) {
        if (r.reason === 'finished') {
          throw new ApiError(
            'validation_error',
            'An attempt of this node is being analysed; poll it for the decision',
            { code: 'attempt_finished' },
          );
        }
        throw refusal(r.reason, null);
      }
      return {
        attemptId,
        challenges,
        issuedAt,
        expiresAt,
        maxFrames: LIVENESS_LIMITS.maxFrames,
        attempt: r.attempt,
        maxAttempts: node.maxAttempts,
      };
    },

    async frame(s, nodeId, attemptId, body) {
      livenessNode(s, nodeId);
      const a = await attemptOf(s, nodeId, attemptId);
      const problems = [];
      if (body.role === 'challenge' && body.challengeIndex === undefined) {
        problems.push({ path: 'challengeIndex', message: 'is required for a challenge frame' });
      }
      if (body.challengeIndex !== undefined && body.challengeIndex >= a.challenges.length) {
        problems.push({
          path: 'challengeIndex',
          message: `must be less than ${a.challenges.length}, the number of challenges`,
        });
      }
      const image = frameBytes(body.image);
      if (!image.ok) problems.push(...image.problems);
      if (problems.length) throw invalid(problems);
      // Checked before the bytes are stored; checked again in the transaction that adds the frame.
      const now = clock.now();
      if (a.status !== 'capturing') throw refusal('finished', a);
      if (now >= a.expiresAt) {
        await expire(a, now);
        worker.kick();
        throw refusal('expired', a);
      }
      // The page re-sends a frame whose request timed out, which may have been stored meanwhile:
      // the copy is neither stored nor counted (again in the store's transaction, for a race).
      if ((await attempts.frames(attemptId)).some((f) => f.t === body.t)) {
        return { received: a.frameCount };
      }
      if (a.frameCount >= a.maxFrames) throw refusal('too_many_frames', a);
      if (!image.ok) throw new Error('unreachable');
      const rec = await media.save({
        sessionId: s.id,
        accountId: s.accountId,
        mode: s.mode,
        kind: 'frame',
        contentType: 'image/jpeg',
        bytes: image.bytes,
      });
      const receivedAt = clock.now();
      const r = await attempts.addFrame(
        {
          attemptId,
          role: body.role,
          challengeIndex: body.challengeIndex ?? null,
          t: body.t,
          receivedAt,
          mediaId: rec.id,
        },
        receivedAt,
        (seq) => ({ kind: FRAME_JOB, payload: { attemptId, seq } }),
      );
      if (!r.ok) throw refusal(r.reason, await attempts.get(attemptId));
      if (r.duplicate) {
        // The copy lost a race with its original: its bytes go the way decided frames' go.
        await forgetMedia?.([rec.id], receivedAt);
        return { received: r.received };
      }
      // Analysed now, while the user is still doing the challenges.
      worker.kick();
      return { received: r.received };
    },

    async finish(s, nodeId, attemptId, body) {
      livenessNode(s, nodeId);
      const a = await attemptOf(s, nodeId, attemptId);
      const now = clock.now();
      const cameraUnavailable = body.cameraUnavailable === true;
      // Finishing late is allowed: the attempt is then decided as a timeout.
      const late = a.status === 'capturing' && now >= a.expiresAt;
      const r = await attempts.finish(
        attemptId,
        {
          ended: late ? 'expired' : (body.ended ?? 'done'),
          cameraUnavailable: cameraUnavailable && !late,
        },
        now,
        decideJob(a),
      );
      if (!r.ok) throw refusal(r.reason, await attempts.get(attemptId));
      if (cameraUnavailable && !late) {
        // Nothing to analyse: decided in the request, so the page can move on at once.
        await decide(attemptId);
        const after = await store.getSessionById(s.id);
        return { status: 'decided', position: (after ?? s).position };
      }
      worker.kick();
      return { status: 'analysing' };
    },

    async status(s, nodeId, attemptId) {
      if (!nodeById(s.settings.flow, nodeId)) throw refusal('unknown', null);
      const a = await attemptOf(s, nodeId, attemptId);
      if (a.status === 'replaced') throw refusal('finished', a);
      if (a.status === 'decided') {
        return { status: 'decided', position: s.position, ...(a.retry ? { retry: a.retry } : {}) };
      }
      if (a.status === 'capturing' && clock.now() >= a.expiresAt) {
        await expire(a, clock.now());
        worker.kick();
        return { status: 'analysing' };
      }
      return { status: a.status };
    },

    expireDue,
    drain: () => worker.drain(),
    run: () => worker.start(),
    async close() {
      await worker.stop();
      await Promise.all([...deciding.values()].map((p) => p.catch(() => undefined)));
    },
  };
}
