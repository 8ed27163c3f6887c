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
import { frameBytes } from '../liveness/frame-image';
import { JOB_MIGRATIONS, sqliteJobQueue, type Job, type JobQueue } from '../jobs/queue';
import { createJobWorker, type JobWorker } from '../jobs/worker';
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
  db: Database;
  media: MediaService;
  clock: Clock;
  analyzer: FaceAnalyzer;
  /** `auto`: jobs run in the background; `manual`: only `drain()` runs them (tests). */
  worker?: 'auto' | 'manual';
  detector?: DeepfakeDetector;
  videoSettleMs?: number;
  deepfakeTimeoutMs?: number;
  pollMs?: number;
  log?: (message: string, err?: unknown) => void;
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
  readonly queue: JobQueue;
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
interface EndedRow {
  session_id: string;
  account_id: string;
  status: string;
  ended_at: number;
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
 * analyses.run();
 */
export function createAnalyses(deps: AnalysesDeps): Analyses {
  const { store, db, media, clock, analyzer } = deps;
  runMigrations(db, [...MEDIA_MIGRATIONS, ...JOB_MIGRATIONS, ...ANALYSES_MIGRATIONS]);
  const queue = sqliteJobQueue(db);
  const settings = sqliteAccountSettings(db);
  const attempts = sqliteAttemptStore(db);
  const mediaRows = sqliteMediaForget(db);
  const detector = deps.detector ?? modelDeepfakeDetector();
  const settleMs = deps.videoSettleMs ?? DEFAULT_VIDEO_SETTLE_MS;
  const deepfakeTimeoutMs = deps.deepfakeTimeoutMs ?? DEFAULT_DEEPFAKE_TIMEOUT_MS;
  const q = {
    ended: db.prepare(
      'SELECT session_id, account_id, status, ended_at FROM session_analyses WHERE queued = 0 LIMIT 100',
    ),
    mark: db.prepare('UPDATE session_analyses SET queued = ? WHERE session_id = ? AND queued = 0'),
    analysisOf: db.prepare(
      'SELECT queued, video_done, ended_at FROM session_analyses WHERE session_id = ?',
    ),
    videoDone: db.prepare('UPDATE session_analyses SET video_done = 1 WHERE session_id = ?'),
    // Frames' bytes go once they are analysed or decided; their rows (and analyses) stay.
    captured: db
      .prepare(
        `SELECT 1 FROM media WHERE session_id = @id AND kind IN ('screenshot', 'user_photo')
         UNION ALL SELECT 1 FROM liveness_attempts a JOIN liveness_frames f ON f.attempt_id = a.id
           WHERE a.session_id = @id
         UNION ALL SELECT 1 FROM video_frames WHERE session_id = @id
         LIMIT 1`,
      )
      .pluck(),
    stills: db
      .prepare(
        `SELECT id FROM media WHERE session_id = ? AND kind IN ('user_photo', 'screenshot')
         ORDER BY created_at`,
      )
      .pluck(),
    hasVideo: db
      .prepare(`SELECT 1 FROM media WHERE session_id = ? AND kind = 'user_video' LIMIT 1`)
      .pluck(),
    frameCount: db.prepare('SELECT count(*) FROM video_frames WHERE session_id = ?').pluck(),
    addFrame: db.prepare(`INSERT INTO video_frames (session_id, seq, t, media_id, received_at)
      VALUES (?, ?, ?, ?, ?)`),
    frames: db.prepare(
      'SELECT seq, media_id, analysis FROM video_frames WHERE session_id = ? ORDER BY seq',
    ),
    frame: db.prepare(
      'SELECT media_id, analysis FROM video_frames WHERE session_id = ? AND seq = ?',
    ),
    setFrame: db.prepare('UPDATE video_frames SET analysis = ? WHERE session_id = ? AND seq = ?'),
  };

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
      for (const a of attempts.attemptsOf(s.id, node.id)) {
        out.push(...readable(attempts.frames(a.id).map((f) => f.analysis)));
      }
    }
    if (out.length > 0) return out;
    for (const id of q.stills.all(s.id) as string[]) {
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
    const row = q.frame.get(sessionId, seq) as
      { media_id: string; analysis: string | null } | undefined;
    if (!row || row.analysis !== null) return;
    const found = await media.read(row.media_id);
    const analysis = found ? await analyse(found.bytes) : { error: 'the frame bytes are gone' };
    // Analysed, the frame is read no more (docs/lifecycle.md): its bytes go with the analysis.
    const forgotten = db.transaction(() => {
      q.setFrame.run(JSON.stringify(analysis), sessionId, seq);
      return mediaRows.forget([row.media_id], clock.now());
    })();
    if (forgotten > 0) await media.purgeDeleted();
  }

  async function videoAnalysisFor(s: SessionRecord): Promise<VideoAiAnalysis> {
    const rows = q.frames.all(s.id) as { seq: number }[];
    for (const r of rows) await analyseVideoFrame(s.id, r.seq);
    const analysed = (q.frames.all(s.id) as { analysis: string | null }[]).map(
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
    q.videoDone.run(p.sessionId);
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
  });

  async function scan(): Promise<number> {
    let n = 0;
    for (const row of q.ended.all() as EndedRow[]) {
      if (row.status === 'incomplete' && !q.captured.get({ id: row.session_id })) {
        q.mark.run(2, row.session_id);
        continue;
      }
      const s = await store.getSessionById(row.session_id);
      if (!s || isErased(s)) {
        q.mark.run(2, row.session_id);
        continue;
      }
      if (settings.deepfakeEnabled(s.accountId) && !s.report.deepfakeDetectionStatus) {
        await mutate(s.id, (cur) =>
          cur.report.deepfakeDetectionStatus
            ? cur
            : {
                ...cur,
                report: {
                  ...cur.report,
                  deepfakeDetectionStatus: { status: 'pending', startedAt: row.ended_at },
                },
              },
        );
      }
      const now = clock.now();
      db.transaction(() => {
        if (q.mark.run(1, row.session_id).changes !== 1) return;
        queue.enqueue(
          SESSION_JOB,
          {
            sessionId: s.id,
            screenshotEvent: orderedId('evt', 8),
            deepfakeEvent: orderedId('evt', 8),
          } satisfies SessionJobPayload,
          now,
        );
        if (s.settings.videoAIAnalysisEnabled) {
          queue.enqueue(
            VIDEO_JOB,
            { sessionId: s.id, videoEvent: orderedId('evt', 8) } satisfies VideoJobPayload,
            Math.max(now, row.ended_at + settleMs),
          );
        }
      })();
      n++;
    }
    if (n > 0) worker.kick();
    return n;
  }

  // Sessions end in the store's transactions; look right after any status event of this process.
  const wake = `analyses_wake_${orderedId('w', 4).replace(/[^a-z0-9_]/gi, '_')}`;
  let waking = false;
  db.function(wake, { deterministic: false }, () => {
    if (!waking && (deps.worker ?? 'auto') === 'auto') {
      waking = true;
      setImmediate(() => {
        waking = false;
        scan().catch((err) => deps.log?.('analyses scan failed', err));
      });
    }
    return null;
  });
  db.exec(`CREATE TEMP TRIGGER ${wake} AFTER INSERT ON main.session_analyses
    BEGIN SELECT ${wake}(); END`);

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
      if (q.hasVideo.get(s.id) || s.report.videos?.userVideoUrl) {
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
      const state = q.analysisOf.get(s.id) as { video_done: number } | undefined;
      if (!windowOpen(s) || state?.video_done === 1) {
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
      if ((q.frameCount.get(s.id) as number) >= VIDEO_LIMITS.maxFrames) throw tooMany();
      const rec = await media.save({
        sessionId: s.id,
        accountId: s.accountId,
        mode: s.mode,
        kind: 'frame',
        contentType: 'image/jpeg',
        bytes: image.bytes,
      });
      const now = clock.now();
      const received = db.transaction(() => {
        const n = q.frameCount.get(s.id) as number;
        if (n >= VIDEO_LIMITS.maxFrames) return null;
        q.addFrame.run(s.id, n, body.t, rec.id, now);
        queue.enqueue(VIDEO_FRAME_JOB, { sessionId: s.id, seq: n }, now);
        return n + 1;
      })();
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
      if (db.open) db.exec(`DROP TRIGGER IF EXISTS temp.${wake}`);
    },
  };
}
