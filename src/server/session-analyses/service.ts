/**
 * The post-session analyses (docs/analyses.md): when a session ends, jobs in the shared jobs
 * table write `aiAnalysis`, the deepfake status and verdict, and `videoAIAnalysis` into its
 * report, each followed by its `analysis.*` event, once. Also the session video and the frames the
 * page samples while recording.
 */
import type { Database } from 'better-sqlite3';
import type { FaceAnalyzer, FrameAnalysis, FrameFailure } from '../face-analysis/analyzer';
import { ImageDecodeError } from '../face-analysis/image';
import type { Clock } from '../clock';
import { isFinished, type StepGateway } from '../flow/gateway';
import { ApiError, invalid } from '../http/errors';
import { orderedId } from '../ids';
import { sqliteAttemptStore } from '../liveness/attempt-store';
import type { AttemptStore } from '../liveness/attempt-types';
import { frameBytes } from '../liveness/frame-image';
import { JOB_MIGRATIONS, type Job } from '../jobs/queue';
import { createJobWorker, type JobWorker, type JobWorkerOptions } from '../jobs/worker';
import { mediaEvent } from '../media/event';
import { sqliteMediaForget } from '../media/forget';
import { MEDIA_MIGRATIONS } from '../media/migrations';
import type { MediaService } from '../media/types';
import { isErased } from '../store/erase';
import { runMigrations } from '../store/migrations';
import type { EventRecord, SessionRecord, SessionStore } from '../store/types';
import { sqliteAccountSettings, type AccountSettings } from './account-settings';
import { aiAnalysisOf } from './ai-analysis';
import { DeepfakeError, modelDeepfakeDetector, type DeepfakeDetector } from './deepfake';
import { ANY_FACE, mainFace } from '../face-analysis/main-face';
import { readable } from './frames';
import { ANALYSES_MIGRATIONS } from './migrations';
import { sqliteAnalysesStore } from './sqlite-store';
import type { AnalysesQueue, AnalysesStore, QueuedJob } from './store';
import {
  VIDEO_LIMITS,
  type DeepfakeStatus,
  type VideoAiAnalysis,
  type VideoFrameBody,
} from './schema';
import { videoAnalysisOf } from './video-analysis';

export const SESSION_JOB = 'analyses.session';
export const VIDEO_JOB = 'analyses.video';
export const VIDEO_FRAME_JOB = 'analyses.video_frame';
const TRIES = 3;

/** Default wait after the end before the video analysis runs: the last frames are in flight. */
export const DEFAULT_VIDEO_SETTLE_MS = 3_000;
/** Default time limit of one deepfake detection. */
export const DEFAULT_DEEPFAKE_TIMEOUT_MS = 60_000;

export interface AnalysesDeps {
  store: SessionStore;
  /** How the analyses write into a session's report. */
  gateway: StepGateway;
  /** The SQLite file of the defaults below. */
  /** Needed only where one of the stores below is not given. */
  db?: Database;
  /** The analyses' tables; default: SQLite's, over `db`. */
  analysesStore?: AnalysesStore;
  /** Default: SQLite's, over `db`. */
  settings?: AccountSettings;
  /** The liveness attempts whose frames the AI analysis reads; default: SQLite's, over `db`. */
  attempts?: AttemptStore;
  media: MediaService;
  clock: Clock;
  analyzer: FaceAnalyzer;
  /** `auto`: jobs run in the background; `manual`: only `drain()` runs them (tests). */
  worker?: 'auto' | 'manual';
  detector?: DeepfakeDetector;
  videoSettleMs?: number;
  deepfakeTimeoutMs?: number;
  pollMs?: number;
  leaseMs?: number;
  log?: (message: string, err?: unknown) => void;
  trace?: JobWorkerOptions['trace'];
}

export interface Analyses {
  /** Stores the session video (`user_video`), links it in the report, fires `media.user_video`. */
  saveVideo(s: SessionRecord, contentType: string, bytes: Buffer): Promise<{ mediaId: string }>;
  /** Stores one frame sampled while recording; returns how many the session has. */
  addVideoFrame(s: SessionRecord, body: VideoFrameBody): Promise<{ received: number }>;
  /** Queues the jobs of the sessions that ended since the last look; returns how many. */
  scan(): Promise<number>;
  /** Looks for ended sessions and runs every job due now (tests, the bench). */
  drain(): Promise<number>;
  run(): void;
  close(): Promise<void>;
  readonly settings: AccountSettings;
  readonly queue: AnalysesQueue;
}

interface SessionJobPayload {
  sessionId: string;
  screenshotEvent: string;
  deepfakeEvent: string;
}
interface VideoJobPayload {
  sessionId: string;
  videoEvent: string;
}

const analysisEvent = (s: SessionRecord, type: string, id: string, now: number): EventRecord => ({
  id,
  accountId: s.accountId,
  mode: s.mode,
  type,
  sessionId: s.id,
  createdAt: now,
  payload: JSON.stringify({ id, type, createdAt: now, sessionId: s.id }),
});

class DeepfakeTimeout extends Error {}

/**
 * The analyses runtime of an app: a scanner that notices ended sessions, a worker for its jobs,
 * and the video routes' methods.
 *
 * @example
 * const analyses = createAnalyses({ store, gateway, db: store.db, media, clock, analyzer });
 * // or, on PostgreSQL: { …, analysesStore: pgAnalysesStore(pg), settings: pgAccountSettings(pg) }
 * analyses.run();
 */
export function createAnalyses(deps: AnalysesDeps): Analyses {
  const { store, media, clock, analyzer } = deps;
  const sqlite = (): Database => {
    if (!deps.db) throw new Error('analyses need their stores, or the SQLite `db`');
    return deps.db;
  };
  if (!deps.analysesStore || !deps.settings) {
    runMigrations(sqlite(), [...JOB_MIGRATIONS, ...ANALYSES_MIGRATIONS]);
  }
  const st = deps.analysesStore ?? sqliteAnalysesStore(sqlite());
  const queue = st.queue;
  const settings = deps.settings ?? sqliteAccountSettings(sqlite());
  const attempts: AttemptStore = deps.attempts ?? sqliteAttemptStore(sqlite());
  // Video frames' bytes go once analysed, from the SQLite file's media records (docs/lifecycle.md);
  // with the analyses on PostgreSQL they stay to the frames' retention for now.
  if (!deps.analysesStore) runMigrations(sqlite(), [...MEDIA_MIGRATIONS]);
  const mediaRows = deps.analysesStore ? null : sqliteMediaForget(sqlite());
  const detector = deps.detector ?? modelDeepfakeDetector();
  const settleMs = deps.videoSettleMs ?? DEFAULT_VIDEO_SETTLE_MS;
  const deepfakeTimeoutMs = deps.deepfakeTimeoutMs ?? DEFAULT_DEEPFAKE_TIMEOUT_MS;
  const auto = (deps.worker ?? 'auto') === 'auto';

  async function mutate(
    sessionId: string,
    change: (s: SessionRecord, now: number) => SessionRecord,
  ): Promise<SessionRecord> {
    // An erased session stays a tombstone: nothing is written into it any more.
    const guarded = (s: SessionRecord, now: number) => (isErased(s) ? s : change(s, now));
    return deps.gateway.mutate(sessionId, guarded, {
      what: 'an analysis',
      tries: 8,
      missing: () => new Error(`session ${sessionId} is gone`),
    });
  }

  /** Appends the event unless an earlier run did (ids are fixed when the jobs are queued). */
  async function fireOnce(s: SessionRecord, type: string, id: string): Promise<void> {
    const known = await store.listEvents({ sessionId: s.id });
    if (known.some((e) => e.id === id)) return;
    await store.appendEvent(analysisEvent(s, type, id, clock.now()));
  }

  async function analyse(bytes: Uint8Array): Promise<FrameAnalysis | FrameFailure> {
    try {
      return await analyzer.analyze(bytes);
    } catch (err) {
      if (!(err instanceof ImageDecodeError)) throw err;
      return { error: err.message };
    }
  }

  /** What the captures of the session showed: liveness/face-scan frames, else its stills. */
  async function captureFrames(s: SessionRecord): Promise<FrameAnalysis[]> {
    const out: FrameAnalysis[] = [];
    for (const node of s.settings.flow) {
      for (const a of await attempts.attemptsOf(s.id, node.id)) {
        out.push(...readable((await attempts.frames(a.id)).map((f) => f.analysis)));
      }
    }
    if (out.length > 0) return out;
    for (const id of await st.stills(s.id)) {
      const found = await media.read(id);
      if (found) out.push(...readable([await analyse(found.bytes)]));
    }
    return out;
  }

  async function runDeepfake(
    frames: readonly FrameAnalysis[],
    job: Job,
  ): Promise<Pick<SessionRecord['report'], 'deepfakeDetection'> & { status: DeepfakeStatus }> {
    const startedAt = clock.now();
    const ctl = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        ctl.abort();
        reject(new DeepfakeTimeout());
      }, deepfakeTimeoutMs);
    });
    const ended = (status: DeepfakeStatus['status'], errorCode?: string): DeepfakeStatus => ({
      status,
      startedAt,
      finishedAt: clock.now(),
      ...(errorCode ? { errorCode } : {}),
    });
    try {
      const verdict = await Promise.race([detector.detect(frames, ctl.signal), limit]);
      return { status: ended('succeeded'), deepfakeDetection: verdict };
    } catch (err) {
      if (err instanceof DeepfakeTimeout) return { status: ended('timed_out', 'timeout') };
      if (err instanceof DeepfakeError) return { status: ended('failed', err.code) };
      if (job.tries < TRIES) throw err;
      return { status: ended('failed', 'analysis_error') };
    } finally {
      clearTimeout(timer);
    }
  }

  async function sessionJob(payload: unknown, job: Job): Promise<void> {
    const p = payload as SessionJobPayload;
    let s = await store.getSessionById(p.sessionId);
    if (!s || isErased(s)) return;
    const needsAi = !s.report.aiAnalysis;
    const pending = s.report.deepfakeDetectionStatus?.['status'] === 'pending';
    const frames = needsAi || pending ? await captureFrames(s) : [];
    if (needsAi) {
      const ai = aiAnalysisOf(frames);
      if (ai) {
        s = await mutate(s.id, (cur) =>
          cur.report.aiAnalysis ? cur : { ...cur, report: { ...cur.report, aiAnalysis: ai } },
        );
      }
    }
    if (s.report.aiAnalysis) await fireOnce(s, 'analysis.screenshot', p.screenshotEvent);

    if (pending) {
      const result = await runDeepfake(frames, job);
      s = await mutate(s.id, (cur) => {
        const st = cur.report.deepfakeDetectionStatus;
        if (st?.['status'] !== 'pending') return cur;
        return {
          ...cur,
          report: {
            ...cur.report,
            // The status keeps the time the analysis was asked for: when the session ended.
            deepfakeDetectionStatus: { ...result.status, startedAt: st['startedAt'] as number },
            ...(result.deepfakeDetection ? { deepfakeDetection: result.deepfakeDetection } : {}),
          },
        };
      });
    }
    const st = s.report.deepfakeDetectionStatus?.['status'];
    if (st && st !== 'pending') await fireOnce(s, 'analysis.deepfake', p.deepfakeEvent);
  }

  async function analyseVideoFrame(sessionId: string, seq: number): Promise<void> {
    const row = await st.frame(sessionId, seq);
    if (!row || row.analysis !== null) return;
    const found = await media.read(row.mediaId);
    const analysis = found ? await analyse(found.bytes) : { error: 'the frame bytes are gone' };
    await st.setFrameAnalysis(sessionId, seq, JSON.stringify(analysis));
    // Analysed, the frame is read no more (docs/lifecycle.md): its bytes go.
    const now = clock.now();
    if (mediaRows && sqlite().transaction(() => mediaRows.forget([row.mediaId], now))() > 0) {
      await media.purgeDeleted();
    }
  }

  async function videoAnalysisFor(s: SessionRecord): Promise<VideoAiAnalysis> {
    for (const r of await st.frames(s.id)) await analyseVideoFrame(s.id, r.seq);
    const analysed = (await st.frames(s.id)).map(
      (r) => (r.analysis ? JSON.parse(r.analysis) : null) as FrameAnalysis | FrameFailure | null,
    );
    const captures = (await captureFrames(s))
      .map((f) => mainFace(f, ANY_FACE)?.embedding)
      .filter((e): e is number[] => Array.isArray(e) && e.length > 0);
    return videoAnalysisOf(readable(analysed), captures);
  }

  async function videoJob(payload: unknown, job: Job): Promise<void> {
    const p = payload as VideoJobPayload;
    // Frames that arrive from now on would not be counted: refuse them.
    await st.closeVideo(p.sessionId);
    let s = await store.getSessionById(p.sessionId);
    if (!s || isErased(s)) return;
    if (!s.report.videoAIAnalysis && !s.report.videoAIAnalysisError) {
      let result: VideoAiAnalysis;
      try {
        result = await videoAnalysisFor(s);
      } catch (err) {
        if (job.tries < TRIES) throw err;
        // The last try: the report says the analysis failed (`videoAIAnalysisStatus`), and the
        // event still rings, as the deepfake one does on any final state.
        s = await mutate(s.id, (cur) =>
          cur.report.videoAIAnalysis || cur.report.videoAIAnalysisError
            ? cur
            : { ...cur, report: { ...cur.report, videoAIAnalysisError: 'analysis_error' } },
        );
        await fireOnce(s, 'analysis.video', p.videoEvent);
        return;
      }
      s = await mutate(s.id, (cur) =>
        cur.report.videoAIAnalysis
          ? cur
          : { ...cur, report: { ...cur.report, videoAIAnalysis: result } },
      );
    }
    await fireOnce(s, 'analysis.video', p.videoEvent);
  }

  const worker: JobWorker = createJobWorker({
    queue,
    clock,
    mode: deps.worker ?? 'auto',
    maxTries: TRIES,
    ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
    ...(deps.leaseMs !== undefined ? { leaseMs: deps.leaseMs } : {}),
    handlers: {
      [SESSION_JOB]: sessionJob,
      [VIDEO_JOB]: videoJob,
      [VIDEO_FRAME_JOB]: async (payload) => {
        const { sessionId, seq } = payload as { sessionId: string; seq: number };
        await analyseVideoFrame(sessionId, seq);
      },
    },
    onTick: async () => {
      await scan();
    },
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.trace ? { trace: deps.trace } : {}),
  });

  async function scan(): Promise<number> {
    let n = 0;
    for (const row of await st.ended(100)) {
      if (row.status === 'incomplete' && !(await st.hasCaptures(row.sessionId))) {
        await st.skip(row.sessionId);
        continue;
      }
      const s = await store.getSessionById(row.sessionId);
      if (!s || isErased(s)) {
        await st.skip(row.sessionId);
        continue;
      }
      if (!s.report.deepfakeDetectionStatus && (await settings.deepfakeEnabled(s.accountId))) {
        await mutate(s.id, (cur) =>
          cur.report.deepfakeDetectionStatus
            ? cur
            : {
                ...cur,
                report: {
                  ...cur.report,
                  deepfakeDetectionStatus: { status: 'pending', startedAt: row.endedAt },
                },
              },
        );
      }
      const now = clock.now();
      const jobs: QueuedJob[] = [
        {
          kind: SESSION_JOB,
          payload: {
            sessionId: s.id,
            screenshotEvent: orderedId('evt', 8),
            deepfakeEvent: orderedId('evt', 8),
          } satisfies SessionJobPayload,
          runAfter: now,
        },
      ];
      if (s.settings.videoAIAnalysisEnabled) {
        jobs.push({
          kind: VIDEO_JOB,
          payload: { sessionId: s.id, videoEvent: orderedId('evt', 8) } satisfies VideoJobPayload,
          runAfter: Math.max(now, row.endedAt + settleMs),
        });
      }
      await st.queueJobs(s.id, jobs);
      n++;
    }
    if (n > 0) worker.kick();
    return n;
  }

  // Look right after a session ends rather than at the next poll.
  let waking = false;
  const wakeUp = () => {
    if (waking) return;
    waking = true;
    setImmediate(() => {
      waking = false;
      scan().catch((err) => deps.log?.('analyses scan failed', err));
    });
  };
  const watching = auto
    ? st.watchEnded(wakeUp).then(
        (stop) => {
          // Sessions that ended before the watch began rang no one: look once now.
          wakeUp();
          return stop;
        },
        (err: unknown) => {
          deps.log?.('analyses: no wake-up when sessions end, polling only', err);
          return null;
        },
      )
    : Promise.resolve(null);

  const windowOpen = (s: SessionRecord) =>
    !isFinished(s) ||
    s.finishedAt === null ||
    clock.now() - s.finishedAt <= VIDEO_LIMITS.videoWindowMs;

  return {
    settings,
    queue,

    async saveVideo(s, contentType, bytes) {
      if (!windowOpen(s)) {
        throw new ApiError(
          'validation_error',
          `The session video is taken up to ${VIDEO_LIMITS.videoWindowMs / 60_000} minutes after the session ended`,
          { code: 'video_window_closed' },
        );
      }
      if (s.report.videos?.userVideoUrl || (await st.hasVideo(s.id))) {
        throw new ApiError('validation_error', 'This session already has its video', {
          code: 'video_exists',
        });
      }
      if (bytes.length === 0) throw invalid([{ path: 'body', message: 'the video is empty' }]);
      const rec = await media.save({
        sessionId: s.id,
        accountId: s.accountId,
        mode: s.mode,
        kind: 'user_video',
        contentType,
        bytes,
      });
      const saved = await mutate(s.id, (cur) =>
        cur.report.videos?.userVideoUrl
          ? cur
          : {
              ...cur,
              report: { ...cur.report, videos: { ...cur.report.videos, userVideoUrl: rec.id } },
            },
      );
      if (saved.report.videos?.userVideoUrl !== rec.id) {
        // Two uploads raced; the other one is the session's video.
        throw new ApiError('validation_error', 'This session already has its video', {
          code: 'video_exists',
        });
      }
      const now = clock.now();
      await store.appendEvent(mediaEvent(rec, media.signedUrl(rec.id), orderedId('evt', 8), now));
      return { mediaId: rec.id };
    },

    async addVideoFrame(s, body) {
      if (!s.settings.videoAIAnalysisEnabled) {
        throw new ApiError(
          'validation_error',
          'Video analysis is not enabled for this session (videoAIAnalysisEnabled)',
          { code: 'video_analysis_disabled' },
        );
      }
      const image = frameBytes(body.image);
      if (!image.ok) throw invalid(image.problems);
      if (!windowOpen(s) || (await st.videoClosed(s.id))) {
        throw new ApiError('validation_error', 'The video of this session is already analysed', {
          code: 'video_window_closed',
        });
      }
      const tooMany = () =>
        new ApiError(
          'validation_error',
          `A session takes at most ${VIDEO_LIMITS.maxFrames} video frames`,
          { code: 'too_many_frames' },
        );
      if ((await st.frameCount(s.id)) >= VIDEO_LIMITS.maxFrames) throw tooMany();
      const rec = await media.save({
        sessionId: s.id,
        accountId: s.accountId,
        mode: s.mode,
        kind: 'frame',
        contentType: 'image/jpeg',
        bytes: image.bytes,
      });
      const now = clock.now();
      const received = await st.addFrame(
        { sessionId: s.id, t: body.t, mediaId: rec.id, receivedAt: now },
        VIDEO_LIMITS.maxFrames,
        (seq) => ({ kind: VIDEO_FRAME_JOB, payload: { sessionId: s.id, seq }, runAfter: now }),
      );
      if (received === null) throw tooMany();
      worker.kick();
      return { received };
    },

    scan,
    async drain() {
      await scan();
      return worker.drain();
    },
    run: () => worker.start(),
    async close() {
      await worker.stop();
      const stop = await watching;
      await stop?.();
    },
  };
}
