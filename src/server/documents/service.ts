/**
 * The server side of a `document_scan` node: each uploaded photo is read at once; a read whose
 * check digits hold ends the node `scanSuccess` with `extractedData` and the document photo, any
 * other answer is a retry recorded among the node's attempts. The page cannot report
 * `scanSuccess` itself; it may cancel (`userCancelled`) or end on time (`scanTimeout`).
 */
import type { FlowPosition } from '../../core/flow';
import { documentScanWithDefaults } from '../../core/flow';
import type { MrzResult } from '../../core/mrz';
import type { Clock } from '../clock';
import { isFinished, requireCurrentOf, type StepGateway } from '../flow/gateway';
import { ApiError, invalid } from '../http/errors';
import { orderedId } from '../ids';
import { frameBytesWithin } from './image-body';
import { mediaEvent } from '../media/event';
import type { MediaService } from '../media/types';
import type { SessionRecord, SessionStore } from '../store/types';
import type { DocumentReader, ReadOutcome } from './reader';
import {
  DOCUMENT_LIMITS,
  type DocumentRetryReason,
  type DocumentUploadBody,
} from '../../core/api/documents';

export type DocumentAnswer =
  | { status: 'read'; position: FlowPosition }
  | { status: 'retry'; reason: DocumentRetryReason; attempts: number }
  | { status: 'timeout'; position: FlowPosition };

export interface DocumentAttempt {
  at: number;
  side: 'front' | 'back';
  result: 'read' | 'unreadable' | 'checks_failed' | 'expired' | 'front_saved';
  format?: string;
  checks?: MrzResult['checks'];
  problems?: string[];
  ms: number;
}

export interface Documents {
  upload(s: SessionRecord, nodeId: string, body: DocumentUploadBody): Promise<DocumentAnswer>;
  cancel(s: SessionRecord, nodeId: string): Promise<{ position: FlowPosition }>;
  timeout(s: SessionRecord, nodeId: string): Promise<{ position: FlowPosition }>;
  close(): Promise<void>;
}

export interface DocumentsDeps {
  store: SessionStore;
  /** How a read, a cancel or a timeout moves the session. */
  gateway: StepGateway;
  media: MediaService;
  clock: Clock;
  reader: () => DocumentReader;
}

/** Grace for the page's clock before the server agrees that the time is up. */
const TIMEOUT_SLACK_MS = 2000;

/** When the session arrived on its current node: the last node report, else the start. */
function enteredAt(s: SessionRecord): number {
  const last = s.report.nodeReports[s.report.nodeReports.length - 1];
  return last?.createdAt ?? s.startedAt ?? s.createdAt;
}

/**
 * The document runtime of an app. Attempts live in memory until the node ends (a restart forgets
 * unfinished attempts; the node then starts its attempt count again).
 *
 * @example
 * const docs = createDocuments({ store, gateway, media, clock, reader: () => reader });
 * await docs.upload(session, 'doc', { side: 'front', image: base64 });
 */
export function createDocuments(deps: DocumentsDeps): Documents {
  const { store, media, clock, gateway } = deps;
  const attempts = new Map<string, DocumentAttempt[]>();
  const fronts = new Map<string, Uint8Array>();
  const key = (s: SessionRecord, nodeId: string) => `${s.id}/${nodeId}`;

  function documentNode(s: SessionRecord, nodeId: string) {
    const node = requireCurrentOf(
      s,
      nodeId,
      ['document_scan'],
      (n) => `node '${nodeId}' is a ${n.type} node; document routes go to document_scan nodes`,
    );
    return documentScanWithDefaults(node);
  }

  async function end(
    s: SessionRecord,
    nodeId: string,
    outcome: string,
    report: Record<string, unknown>,
    extra?: (cur: SessionRecord) => SessionRecord,
  ) {
    const saved = await gateway.move(
      s.id,
      nodeId,
      (cur) => ({ session: extra ? extra(cur) : cur, outcome, report }),
      { what: 'a document scan' },
    );
    attempts.delete(key(s, nodeId));
    fronts.delete(key(s, nodeId));
    return saved;
  }

  const record = (s: SessionRecord, nodeId: string, a: DocumentAttempt) => {
    const list = attempts.get(key(s, nodeId)) ?? [];
    list.push(a);
    attempts.set(key(s, nodeId), list);
    return list.length;
  };
  const reportOf = (s: SessionRecord, nodeId: string) => {
    const list = attempts.get(key(s, nodeId)) ?? [];
    return {
      attempts: list.slice(-DOCUMENT_LIMITS.maxAttemptsReported),
      attemptCount: list.length,
    };
  };

  return {
    async upload(s, nodeId, body) {
      const node = documentNode(s, nodeId);
      const image = frameBytesWithin(body.image, DOCUMENT_LIMITS.maxImageBytes);
      if (!image.ok) throw invalid(image.problems);
      const now = clock.now();
      if (now > enteredAt(s) + node.timeoutSeconds * 1000) {
        const saved = await end(s, nodeId, 'scanTimeout', {
          ...reportOf(s, nodeId),
          ended: 'timeout',
        });
        return { status: 'timeout', position: saved.position };
      }
      const reader = deps.reader();
      const r: ReadOutcome = await reader.read(image.bytes, now);
      const attempt: DocumentAttempt = {
        at: now,
        side: body.side,
        result: r.status,
        ...(r.mrz ? { format: r.mrz.format, checks: r.mrz.checks, problems: r.mrz.problems } : {}),
        ms: Math.round(r.ms),
      };
      const allowed = node.allowedDocumentTypes;
      const type = r.mrz?.data.documentType;
      if (
        r.status === 'read' &&
        type &&
        type !== 'other' &&
        !allowed.includes(type as 'passport' | 'id')
      ) {
        attempt.result = 'unreadable';
        attempt.problems = [...(attempt.problems ?? []), `document_type_not_allowed:${type}`];
      }
      if (attempt.result !== 'read' || !r.mrz) {
        // A front without a zone (an ID card's photo side) is kept for its face.
        if (r.status === 'unreadable' && !r.mrz && body.side === 'front' && r.document) {
          fronts.set(key(s, nodeId), r.document.jpeg);
          attempt.result = 'front_saved';
        }
        const n = record(s, nodeId, attempt);
        await gateway.mutate(
          s.id,
          (cur, at) => (isFinished(cur) ? cur : { ...cur, lastActivityAt: at }),
          { what: 'a document scan' },
        );
        const reason = attempt.result === 'read' ? 'unreadable' : attempt.result;
        return { status: 'retry', reason, attempts: n };
      }
      record(s, nodeId, attempt);
      const pageJpeg =
        r.mrz.format === 'TD1'
          ? (fronts.get(key(s, nodeId)) ?? r.document?.jpeg)
          : r.document?.jpeg;
      let face: Uint8Array | null = null;
      try {
        face = pageJpeg ? await reader.face(pageJpeg) : null;
      } catch {
        face = null;
      }
      const photo = face
        ? await media.save({
            sessionId: s.id,
            accountId: s.accountId,
            mode: s.mode,
            kind: 'document_photo',
            contentType: 'image/jpeg',
            bytes: face,
          })
        : null;
      const data = r.mrz.data;
      const report = {
        ...reportOf(s, nodeId),
        format: r.mrz.format,
        fields: data,
        checks: r.mrz.checks,
        expired: r.mrz.expired,
        documentPhoto: photo?.id ?? null,
      };
      const saved = await end(s, nodeId, 'scanSuccess', report, (cur) => ({
        ...cur,
        report: { ...cur.report, extractedData: { ...(cur.report.extractedData ?? {}), ...data } },
      }));
      if (photo) {
        await store.appendEvent(
          mediaEvent(photo, media.signedUrl(photo.id), orderedId('evt', 8), clock.now()),
        );
      }
      return { status: 'read', position: saved.position };
    },

    async cancel(s, nodeId) {
      documentNode(s, nodeId);
      const saved = await end(s, nodeId, 'userCancelled', reportOf(s, nodeId));
      return { position: saved.position };
    },

    async timeout(s, nodeId) {
      const node = documentNode(s, nodeId);
      const left = enteredAt(s) + node.timeoutSeconds * 1000 - TIMEOUT_SLACK_MS - clock.now();
      if (left > 0) {
        throw new ApiError(
          'validation_error',
          `The scan has ${Math.ceil(left / 1000)} s left; it has not timed out`,
          { code: 'scan_not_timed_out' },
        );
      }
      const saved = await end(s, nodeId, 'scanTimeout', {
        ...reportOf(s, nodeId),
        ended: 'timeout',
      });
      return { position: saved.position };
    },

    async close() {
      attempts.clear();
      fronts.clear();
    },
  };
}
