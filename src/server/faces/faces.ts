/**
 * The server side of the face nodes (docs/faces.md): face_scan decisions (called by the liveness
 * decision job), face_compare and recognition decided at once by `run`, and the known users of
 * recognition, added when a session completes verified.
 */
import { isErased } from '../store/erase';
import type { Database } from 'better-sqlite3';
import { nodeDefaults, type FlowPosition } from '../../core/flow';
import type { FaceCompareNode, FaceScanNode, FaceSource, RecognitionNode } from '../../core/flow';
import type { AnalyzedFace, FaceAnalyzer, FrameAnalysis } from '../face-analysis/analyzer';
import { ImageDecodeError } from '../face-analysis/image';
import type { Clock } from '../clock';
import { requireCurrentOf, type StepGateway } from '../flow/gateway';
import type { MediaService } from '../media/types';
import { runMigrations } from '../store/migrations';
import type { SessionRecord, SessionStore } from '../store/types';
import { parseImageDataUrl } from './data-url';
import { FACE_MIGRATIONS, sqliteFaceStore, type FaceStore } from './face-store';
import { mainFace } from '../face-analysis/main-face';
import {
  fetchReference,
  REFERENCE_FETCH_DEFAULTS,
  type ReferenceFetchOptions,
} from './reference-fetch';
import { thresholdOf } from './thresholds';
import {
  bestKnownMatch,
  compareEmbeddings,
  faceScanGate,
  type FaceScanErrorReason,
} from './verdicts';

export interface FacesDeps {
  store: SessionStore;
  /** How the decisions of face_compare and recognition nodes move the session. */
  gateway: StepGateway;
  /** The SQLite file of the default face store. */
  /** Needed only without `faceStore`. */
  db?: Database;
  /** The face tables; default: SQLite's, over `db`. */
  faceStore?: FaceStore;
  media: MediaService;
  clock: Clock;
  /** The app's analyzer, shared with liveness and the analyses (one wasm backend per process). */
  analyzer: FaceAnalyzer;
  /** Limits and address policy of reference URLs; tests relax the policy to reach loopback. */
  fetch?: ReferenceFetchOptions;
  log?: (message: string, err?: unknown) => void;
}

/** A face found in an image, or why there is none. */
export type FaceImage =
  | { ok: true; embedding: ArrayLike<number>; mediaId?: string }
  | { ok: false; reason: FaceScanErrorReason | 'noImage'; message: string };

export interface FaceScanInput {
  session: SessionRecord;
  node: FaceScanNode;
  challenges: number;
  liveness: { outcome: string; inconclusiveReason?: string };
  /** The capture's presentation-attack checks said attack. */
  attack: boolean;
  cameraUnavailable: boolean;
  expired: boolean;
  /** The face of the capture's best frame. */
  bestFace: AnalyzedFace | null;
}

export interface FaceScanDecision {
  outcome: 'passed' | 'notPassed' | 'error';
  /** As a liveness decision's: `attack` is never to be retried into a pass. */
  classification: 'pass' | 'attack' | 'failure';
  report: Record<string, unknown>;
}

export interface Faces {
  readonly table: FaceStore;
  /**
   * Notes the embedding of a stored image the server has already analysed. Written in the
   * background: until it is, the image would only be analysed again.
   */
  rememberMedia(mediaId: string, face: AnalyzedFace | null): void;
  /** The main face of a stored image, analysed once and cached. */
  mediaFace(mediaId: string): Promise<FaceImage>;
  /** The main face of image bytes. */
  imageFace(bytes: Uint8Array): Promise<FaceImage>;
  /** A `providedData` value (data URL or https URL) as a face. */
  providedFace(value: string | undefined, key: string): Promise<FaceImage>;
  decideFaceScan(input: FaceScanInput): Promise<FaceScanDecision>;
  /** Decides a current face_compare or recognition node now. */
  run(s: SessionRecord, nodeId: string): Promise<{ position: FlowPosition }>;
  /** Adds the sessions that completed verified to the known users; returns how many were added. */
  enrollPending(): Promise<number>;
}

const MAX_REFERENCE_BYTES = REFERENCE_FETCH_DEFAULTS.maxBytes;

const unavailable = (reason: FaceScanErrorReason | 'noImage', message: string): FaceImage => ({
  ok: false,
  reason,
  message,
});

/** SQLite's face tables over `db`, made if missing. */
function sqliteFaces(db: Database | undefined): FaceStore {
  if (!db) throw new Error('faces need their store (`faceStore`), or the SQLite `db`');
  runMigrations(db, [...FACE_MIGRATIONS]);
  return sqliteFaceStore(db);
}

/**
 * The face runtime of an app.
 *
 * @example
 * const faces = createFaces({ store, gateway, db: store.db, media, clock, analyzer });
 * await faces.run(session, 'compare'); // { position }
 */
export function createFaces(deps: FacesDeps): Faces {
  const { store, media, clock } = deps;
  const table = deps.faceStore ?? sqliteFaces(deps.db);
  const fetchOptions = deps.fetch ?? {};

  async function imageFace(bytes: Uint8Array): Promise<FaceImage> {
    let frame: FrameAnalysis;
    try {
      frame = await deps.analyzer.analyze(bytes);
    } catch (err) {
      if (err instanceof ImageDecodeError) return unavailable('referenceUnreadable', err.message);
      throw err;
    }
    const face = mainFace(frame);
    return face
      ? { ok: true, embedding: face.embedding }
      : unavailable('noFaceInReference', 'no face was found in the image');
  }

  async function mediaFace(mediaId: string): Promise<FaceImage> {
    const cached = await table.mediaEmbedding(mediaId);
    if (cached === null) return unavailable('noFace', `no face was found in ${mediaId}`);
    if (cached) return { ok: true, embedding: cached, mediaId };
    const found = await media.read(mediaId);
    if (!found) return unavailable('noImage', `the bytes of ${mediaId} are gone`);
    const r = await imageFace(found.bytes);
    await table.setMediaEmbedding(mediaId, r.ok ? Array.from(r.embedding) : null, clock.now());
    return r.ok ? { ...r, mediaId } : unavailable('noFace', `no face was found in ${mediaId}`);
  }

  async function providedFace(value: string | undefined, key: string): Promise<FaceImage> {
    if (!value) return unavailable('noReference', `providedData has no '${key}'`);
    if (value.startsWith('data:')) {
      const parsed = parseImageDataUrl(value, MAX_REFERENCE_BYTES);
      if (!parsed.ok)
        return unavailable('referenceUnreadable', `providedData.${key}: ${parsed.reason}`);
      return imageFace(parsed.bytes);
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
      const fetched = await fetchReference(value, fetchOptions);
      if (!fetched.ok) {
        return unavailable('referenceRefused', `providedData.${key}: ${fetched.message}`);
      }
      return imageFace(fetched.bytes);
    }
    return unavailable(
      'referenceUnreadable',
      `providedData.${key} is neither a data URL nor an https URL`,
    );
  }

  /** The latest media of a kind in a session as a face. */
  async function latestFace(sessionId: string, kind: string, what: string): Promise<FaceImage> {
    const id = await table.latestMedia(sessionId, kind);
    if (!id) return unavailable('noImage', `the session has no ${what}`);
    return mediaFace(id);
  }

  /** The most recent sampled frame of the session's recording that shows a face. */
  async function videoFace(sessionId: string): Promise<FaceImage> {
    const frames = await table.videoFrames(sessionId);
    if (frames.length === 0) return unavailable('noImage', 'the session has no video frames');
    for (const f of frames) {
      if (f.analysis) {
        // Already analysed by the video analysis: no need to run the models again.
        const a = JSON.parse(f.analysis) as FrameAnalysis | { error: string };
        if ('error' in a) continue;
        const face = mainFace(a);
        if (face) return { ok: true, embedding: face.embedding, mediaId: f.mediaId };
        continue;
      }
      const r = await mediaFace(f.mediaId);
      if (r.ok) return r;
    }
    return unavailable('noFace', 'no video frame of the session shows a face');
  }

  function sourceFace(s: SessionRecord, source: FaceSource): Promise<FaceImage> {
    switch (source.source) {
      case 'faceScan':
        return latestFace(s.id, 'user_photo', 'face capture (user photo)');
      case 'documentPhoto':
        return latestFace(s.id, 'document_photo', 'document photo');
      case 'sessionVideo':
        return videoFace(s.id);
      case 'providedData': {
        const key = source.providedDataKey ?? '';
        return providedFace(textOf(s.settings.providedData?.[key]), key);
      }
    }
  }

  const describeSource = (source: FaceSource, r: FaceImage) => ({
    source: source.source,
    ...(source.providedDataKey ? { providedDataKey: source.providedDataKey } : {}),
    ...(r.ok
      ? r.mediaId
        ? { mediaId: r.mediaId }
        : {}
      : { reason: r.reason, message: r.message }),
  });

  async function decideCompare(
    s: SessionRecord,
    node: FaceCompareNode,
  ): Promise<{ outcome: string; report: Record<string, unknown> }> {
    const n = nodeDefaults(node);
    const threshold = thresholdOf(n);
    const a = await sourceFace(s, n.sourceA);
    const b = await sourceFace(s, n.sourceB);
    const sources = {
      sourceA: describeSource(n.sourceA, a),
      sourceB: describeSource(n.sourceB, b),
    };
    if (!a.ok || !b.ok) return { outcome: 'imageUnavailable', report: { ...sources, threshold } };
    const c = compareEmbeddings(a.embedding, b.embedding, threshold);
    return {
      outcome: c.same ? 'match' : 'noMatch',
      report: { ...sources, similarity: c.similarity, threshold },
    };
  }

  let enrolling: Promise<number> | null = null;
  async function enrollNow(): Promise<number> {
    let added = 0;
    for (;;) {
      const ids = await table.pending(50);
      if (ids.length === 0) return added;
      for (const id of ids) {
        const s = await store.getSessionById(id);
        const photo = s ? await table.latestMedia(s.id, 'user_photo') : null;
        if (s && s.status === 'complete' && s.report.isVerified && s.clientReferenceId && photo) {
          const face = await mediaFace(photo);
          if (face.ok) {
            await table.addKnown(
              {
                sessionId: s.id,
                accountId: s.accountId,
                mode: s.mode,
                clientReferenceId: s.clientReferenceId,
              },
              photo,
              Array.from(face.embedding),
              clock.now(),
            );
            // Erased while its face was being read: the erasure's removal must win.
            const after = await store.getSessionById(s.id);
            if (!after || isErased(after)) await table.forgetSession(s.id);
            else added++;
          }
        }
        await table.donePending(id);
      }
    }
  }
  function enrollPending(): Promise<number> {
    enrolling ??= enrollNow().finally(() => {
      enrolling = null;
    });
    return enrolling;
  }

  async function decideRecognition(
    s: SessionRecord,
    node: RecognitionNode,
  ): Promise<{ outcome: string; report: Record<string, unknown> }> {
    const threshold = thresholdOf(node);
    const probe = await latestFace(s.id, 'user_photo', 'face capture (user photo)');
    if (!probe.ok) {
      return {
        outcome: 'noFace',
        report: { reason: probe.reason, message: probe.message, threshold },
      };
    }
    // Sessions that completed a moment ago are known before anyone is compared with them.
    await enrollPending();
    const known = await table.known(s.accountId, s.mode);
    const m = bestKnownMatch(probe.embedding, known, threshold, s.id);
    const base = { threshold, compared: m.compared, mediaId: probe.mediaId };
    if (!m.best) {
      return { outcome: 'newUser', report: { ...base, bestSimilarity: m.bestSimilarity } };
    }
    // Read in the session's own scope: never another account's or mode's data.
    const matched = await store.getSession(
      { accountId: s.accountId, mode: s.mode },
      m.best.sessionId,
    );
    return {
      outcome: 'recognized',
      report: {
        ...base,
        similarity: m.best.similarity,
        clientReferenceId: m.best.clientReferenceId,
        sessionId: m.best.sessionId,
        providedData: matched?.settings.providedData ?? {},
      },
    };
  }

  return {
    table,
    rememberMedia(mediaId, face) {
      table
        .setMediaEmbedding(
          mediaId,
          face && face.embedding.length ? face.embedding : null,
          clock.now(),
        )
        .catch((err: unknown) => deps.log?.(`the face of ${mediaId} was not noted`, err));
    },
    mediaFace,
    imageFace,
    providedFace,

    async decideFaceScan(i) {
      const threshold = thresholdOf(i.node);
      const liveness = {
        outcome: i.liveness.outcome,
        ...(i.liveness.inconclusiveReason
          ? { inconclusiveReason: i.liveness.inconclusiveReason }
          : {}),
      };
      const aiLivenessCheck = nodeDefaults(i.node).requireAILivenessCheck;
      const base = {
        challenges: i.challenges,
        liveness,
        ...(aiLivenessCheck
          ? { aiLivenessCheckPassed: i.liveness.outcome === 'livenessDetected' }
          : {}),
        threshold,
      };
      const gate = faceScanGate({
        challenges: i.challenges,
        liveness: i.liveness,
        aiLivenessCheck,
        attack: i.attack,
        cameraUnavailable: i.cameraUnavailable,
        expired: i.expired,
        hasFace: i.bestFace !== null && i.bestFace.embedding.length > 0,
      });
      if (!gate.go) {
        const classification = gate.reason === 'presentationAttack' ? 'attack' : 'failure';
        return { outcome: gate.outcome, classification, report: { ...base, reason: gate.reason } };
      }
      const key = i.node.referenceImageKey;
      let reference: FaceImage;
      let referenceInfo: Record<string, unknown>;
      if (key) {
        reference = await providedFace(textOf(i.session.settings.providedData?.[key]), key);
        referenceInfo = { source: 'providedData', providedDataKey: key };
      } else {
        const id = await table.latestMedia(i.session.id, 'document_photo');
        reference = id
          ? await mediaFace(id)
          : unavailable(
              'noReference',
              'no referenceImageKey and the session has no document photo',
            );
        if (reference.ok === false && reference.reason === 'noFace') {
          reference = unavailable('noFaceInReference', reference.message);
        }
        referenceInfo = { source: 'documentPhoto', ...(id ? { mediaId: id } : {}) };
      }
      if (!reference.ok) {
        const reason = reference.reason === 'noImage' ? 'noReference' : reference.reason;
        return {
          outcome: 'error',
          classification: 'failure',
          report: { ...base, reference: referenceInfo, reason, message: reference.message },
        };
      }
      const c = compareEmbeddings(i.bestFace!.embedding, reference.embedding, threshold);
      return {
        outcome: c.same ? 'passed' : 'notPassed',
        classification: c.same ? 'pass' : 'failure',
        report: {
          ...base,
          reference: referenceInfo,
          similarity: c.similarity,
          ...(c.same ? {} : { reason: 'belowThreshold' }),
        },
      };
    },

    async run(s, nodeId) {
      const node = requireCurrentOf(
        s,
        nodeId,
        ['face_compare', 'recognition'],
        (n) =>
          `node '${nodeId}' is a ${n.type} node; run decides face_compare and recognition nodes`,
      );
      const decision =
        node.type === 'face_compare'
          ? await decideCompare(s, node)
          : await decideRecognition(s, node);
      // Decided meanwhile (a second run, the test panel): the first decision stands.
      const saved = await deps.gateway.move(s.id, nodeId, () => decision, {
        what: 'a face decision',
        movedOn: 'ignore',
      });
      return { position: saved.position };
    },

    enrollPending,
  };
}

/** A providedData value as the text of an image reference; a number or boolean is no image. */
function textOf(value: string | number | boolean | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}
