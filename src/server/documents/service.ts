/**
 * The server side of a `document_scan` node: each uploaded photo is scanned at once
 * (`scan.ts`); a read that passes every check ends the node `scanSuccess` with `extractedData`
 * and the document photo, any other answer is a retry recorded among the node's attempts. The
 * front of a two-sided card is kept until its back comes. The page cannot report `scanSuccess`
 * itself; it may cancel (`userCancelled`) or end on time (`scanTimeout`).
 */
import type { FlowPosition } from '../../core/flow';
import { documentScanWithDefaults, kindsOf } from '../../core/flow';
import type { MrzResult } from '../../core/mrz';
import type { DocumentCheck } from './checks';
import type { SideEvidence } from './evidence';
import type { MrzOcr } from './ocr';
import { scanSide, type ScanResultKind } from './scan';
import type { Clock } from '../clock';
import { isFinished, requireCurrentOf, type StepGateway } from '../flow/gateway';
import { ApiError, invalid } from '../http/errors';
import { orderedId } from '../ids';
import { frameBytesWithin } from './image-body';
import { mediaEvent } from '../media/event';
import type { MediaService } from '../media/types';
import type { SessionRecord, SessionStore } from '../store/types';
import type { DocumentReader } from './reader';
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
  /** The document the page asked for, when it said. */
  documentType?: string;
  result: ScanResultKind;
  format?: string;
  checks?: MrzResult['checks'];
  documentChecks?: DocumentCheck[];
  problems?: string[];
  /** Milliseconds from the photo to the answer. */
  ms: number;
  /** Of which: reading the zone or barcode, reading the printed text, finding the face. */
  steps: { read: number; text: number; face: number };
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
  /** The OCR of printed fields (its own tesseract worker, started on first use). */
  textOcr: () => MrzOcr;
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
  const fronts = new Map<string, SideEvidence>();
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
      const allowed = kindsOf(node.allowedDocumentTypes);
      if (body.documentType && !allowed.includes(body.documentType)) {
        throw invalid([
          {
            path: 'documentType',
            message: `node '${nodeId}' does not allow ${body.documentType}; it allows ${allowed.join(', ')}`,
          },
        ]);
      }
      const reader = deps.reader();
      const t0 = performance.now();
      const r = await scanSide(reader, deps.textOcr(), {
        image: image.bytes,
        side: body.side,
        kind: body.documentType ?? null,
        allowed,
        mode: s.mode,
        today: now,
        front: fronts.get(key(s, nodeId)) ?? null,
      });
      const attempt: DocumentAttempt = {
        at: now,
        side: body.side,
        ...(body.documentType ? { documentType: body.documentType } : {}),
        result: r.result,
        ...(r.format ? { format: r.format } : {}),
        ...(r.checks ? { checks: r.checks } : {}),
        ...(r.documentChecks ? { documentChecks: r.documentChecks } : {}),
        ...(r.problems ? { problems: r.problems } : {}),
        ms: Math.round(performance.now() - t0),
        steps: { read: r.evidence.ms.read, text: r.evidence.ms.text, face: r.evidence.ms.face },
      };
      const n = record(s, nodeId, attempt);
      if (r.result !== 'read' || !r.fields) {
        // A front without a zone (an ID card's or licence's portrait side) is kept for the checks.
        if (r.result === 'front_saved') fronts.set(key(s, nodeId), r.evidence);
        await gateway.mutate(
          s.id,
          (cur, at) => (isFinished(cur) ? cur : { ...cur, lastActivityAt: at }),
          { what: 'a document scan' },
        );
        const reason = r.result === 'read' ? 'unreadable' : r.result;
        return { status: 'retry', reason, attempts: n };
      }
      // The document photo: the portrait side's face (this side's, or the kept front's).
      const portrait = r.evidence.face !== undefined ? r.evidence : fronts.get(key(s, nodeId));
      const face = portrait?.face?.jpeg ?? null;
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
      const data = r.fields;
      const report = {
        ...reportOf(s, nodeId),
        format: r.format,
        fields: data,
        ...(r.checks ? { checks: r.checks } : {}),
        documentChecks: r.documentChecks,
        expired: false,
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
