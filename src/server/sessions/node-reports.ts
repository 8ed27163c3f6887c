/**
 * Node reports as the API shows them (compat.md §4.4): each kind gets the original product's
 * members, made from what the server recorded. Those go beside the server's own members in
 * `report`, except where they cannot: recognition's `report` holds strings only, and a code
 * node's names the address the code went to; there the measurements are in `details`.
 */
import type { NodeReport, StoredNodeReport } from '../../core/api';
import { documentScanReport } from './document-report';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function twoFactorReport(d: Json | undefined): Json | undefined {
  const to = d?.['sentTo'];
  if (typeof to !== 'string') return undefined;
  return d?.['channel'] === 'sms' ? { phoneNumber: to } : { email: to };
}

function livenessMembers(r: StoredNodeReport, d: Json | undefined): Partial<NodeReport> {
  if (!d || typeof d['frames'] !== 'number') {
    return d?.['cameraUnavailable'] ? { captureStatus: 'unavailable' } : {};
  }
  const errored = r.inconclusiveReason === 'provider_error';
  return {
    captureStatus:
      d['cameraUnavailable'] || d['frames'] === 0
        ? 'unavailable'
        : d['scores'] === null
          ? 'capturedUnscored'
          : 'captured',
    ...(errored ? { errored, errorCode: r.inconclusiveReason } : {}),
  };
}

function faceScanReport(r: StoredNodeReport, d: Json | undefined): Json | undefined {
  if (!d) return undefined;
  const out: Json = {};
  const challenges = d['challenges'];
  const liveness = d['liveness'];
  if (Array.isArray(challenges) && challenges.length > 0 && isObject(liveness)) {
    out['livenessChallengePassed'] = liveness['outcome'] === 'livenessDetected';
  }
  if (typeof d['similarity'] === 'number') {
    out['compareFacesReport'] = {
      isMatch: r.outcome === 'passed',
      similarity: d['similarity'],
      sourceImageFaceFound: true,
      targetImageFaceFound: true,
    };
  } else if (d['reason'] === 'noFaceInReference' || d['reason'] === 'noReference') {
    out['compareFacesReport'] = {
      isMatch: false,
      sourceImageFaceFound: true,
      targetImageFaceFound: false,
      error: d['reason'],
    };
  }
  return Object.keys(out).length ? out : undefined;
}

function faceCompareReport(r: StoredNodeReport, d: Json | undefined): Json {
  const found = (s: unknown) => r.outcome !== 'imageUnavailable' || (isObject(s) && !s['reason']);
  return {
    isMatch: r.outcome === 'match',
    ...(typeof d?.['similarity'] === 'number' ? { similarity: d['similarity'] } : {}),
    sourceAImageFound: found(d?.['sourceA']),
    sourceBImageFound: found(d?.['sourceB']),
  };
}

/** The recognised person as strings only: the match's providedData, reference and session. */
function recognitionReport(r: StoredNodeReport, d: Json | undefined): Json | undefined {
  if (r.outcome !== 'recognized' || !d) return undefined;
  const out: Record<string, string> = {};
  const provided = d['providedData'];
  if (isObject(provided)) {
    for (const [k, v] of Object.entries(provided)) {
      if (v !== null && typeof v !== 'object') out[k] = String(v);
    }
  }
  if (typeof d['clientReferenceId'] === 'string') out['clientReferenceId'] = d['clientReferenceId'];
  if (typeof d['sessionId'] === 'string') out['sessionId'] = d['sessionId'];
  return out;
}

/**
 * A stored node report as the API shows it.
 *
 * @example
 * presentNodeReport({ nodeId: 'email', type: 'enter_email', outcome: 'emailEntered', createdAt: 1, report: { email: 'a@b.co' } });
 * // { nodeId: 'email', type: 'enter_email', outcome: 'emailEntered', createdAt: 1, report: { email: 'a@b.co' }, email: 'a@b.co' }
 */
export function presentNodeReport(r: StoredNodeReport): NodeReport {
  const d = r.report;
  const base: NodeReport = { ...r };
  const merged = (sdk: Json | undefined): NodeReport =>
    sdk ? { ...base, report: { ...(d ?? {}), ...sdk } } : base;
  switch (r.type) {
    case 'enter_email':
      return typeof d?.['email'] === 'string' ? { ...base, email: d['email'] } : base;
    case 'liveness_detection':
      return { ...base, ...livenessMembers(r, d) };
    case 'two_factor_email':
    case 'two_factor_sms': {
      // The SDK's report names the address; without one the measurements go to details.
      const sdk = twoFactorReport(d);
      if (sdk || !d) return merged(sdk);
      const { report: _measured, ...rest } = base;
      return { ...rest, details: d };
    }
    case 'face_scan':
      return merged(faceScanReport(r, d));
    case 'face_compare':
      return merged(faceCompareReport(r, d));
    case 'document_scan':
      // Nothing read (a cancelled scan): the minimal valid report.
      return merged(
        r.outcome === 'scanSuccess'
          ? documentScanReport(d)
          : d
            ? documentScanReport({})
            : undefined,
      );
    case 'recognition': {
      const { report: _measured, ...rest } = base;
      const sdk = recognitionReport(r, d);
      return { ...rest, ...(sdk ? { report: sdk } : {}), ...(d ? { details: d } : {}) };
    }
    default:
      return base;
  }
}
