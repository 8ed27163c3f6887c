/**
 * The report members whose shape changed in 2026-11-27, when they took the shapes of the original
 * product's SDK (compat.md §4): how a latest-version report reads in 2025-09-01. Every latest
 * shape carries what the older one needs, so the older body is made from it alone.
 */
import type { VideoCriterionKey } from './analyses';

type Json = Record<string, unknown>;

/**
 * Which SDK criterion reports each of this service's video measurements (docs/analyses.md), in
 * the order the service measures them.
 */
export const MEASURED_VIDEO_CRITERIA: readonly (readonly [string, VideoCriterionKey])[] = [
  ['onePersonThroughout', 'presenceOfSuspiciousObjectsOrPeople'],
  ['sameAsCaptures', 'behavioralAnomalies'],
  ['liveness', 'faceAuthenticity'],
  ['faceVisibility', 'interactionConfidence'],
];

/** Members of a latest node report that the 2025-09-01 one does not have. */
const SDK_NODE_MEMBERS = ['email', 'screenshotCount', 'captureStatus', 'errored', 'errorCode'];

/** Members the latest version adds to a node kind's `report` (compat.md §4.5). */
const SDK_REPORT_MEMBERS: Record<string, readonly string[]> = {
  two_factor_email: ['email', 'phoneNumber'],
  two_factor_sms: ['email', 'phoneNumber'],
  face_scan: ['livenessChallengePassed', 'aiLivenessCheckPassed', 'compareFacesReport'],
  face_compare: ['isMatch', 'sourceAImageFound', 'sourceBImageFound'],
  document_scan: [
    'mode',
    'documentClassInfo',
    'subResults',
    'firstName',
    'lastName',
    'fullName',
    'documentNumber',
    'nationality',
    'sex',
    'address',
    'dateOfBirth',
    'dateOfExpiry',
  ],
};

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function deviceBefore(d: Json): Json {
  const os = typeof d['os'] === 'string' && d['os'] !== 'unknown' ? d['os'] : null;
  const platform = d['isTablet']
    ? 'tablet'
    : d['isMobile']
      ? 'mobile'
      : d['isSmartTV']
        ? 'smarttv'
        : 'desktop';
  const text = (v: unknown) => (typeof v === 'string' && v !== 'unknown' ? v : null);
  return {
    browser: text(d['browser']),
    browserVersion: text(d['version']),
    os,
    osVersion: null,
    platform,
    isMobile: d['isMobile'] === true || d['isTablet'] === true,
  };
}

function locationBefore(l: Json): Json {
  const out: Json = {};
  const city = l['city'] as { names?: { en?: string } } | undefined;
  const country = l['country'] as { isoCode?: string } | undefined;
  const at = l['location'] as
    { latitude?: number; longitude?: number; timeZone?: string } | undefined;
  if (city?.names?.en) out['city'] = city.names.en;
  if (country?.isoCode) out['country'] = country.isoCode;
  if (at?.latitude !== undefined) out['latitude'] = at.latitude;
  if (at?.longitude !== undefined) out['longitude'] = at.longitude;
  if (at?.timeZone) out['timezone'] = at.timeZone;
  return out;
}

function videoBefore(v: Json): Json {
  const criteria = MEASURED_VIDEO_CRITERIA.flatMap(([name, key]) => {
    const c = v[key] as { score?: number; confidence?: number } | undefined;
    return c && typeof c.score === 'number'
      ? [{ name, score: c.score, confidence: c.confidence ?? 0 }]
      : [];
  });
  return {
    overallScore: v['overallScore'],
    criteria,
    framesAnalysed: v['framesAnalysed'],
  };
}

function nodeReportBefore(n: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(n)) {
    if (k !== 'details' && !SDK_NODE_MEMBERS.includes(k)) out[k] = v;
  }
  // Where the SDK's report could not hold the measurements, they are in details.
  if (n['type'] === 'recognition' || isObject(n['details'])) {
    delete out['report'];
    if (isObject(n['details'])) out['report'] = n['details'];
    return out;
  }
  const added = SDK_REPORT_MEMBERS[String(n['type'])];
  const report = n['report'];
  if (added && isObject(report)) {
    const kept = Object.fromEntries(Object.entries(report).filter(([k]) => !added.includes(k)));
    if (Object.keys(kept).length) out['report'] = kept;
    else delete out['report'];
  }
  return out;
}

/**
 * A latest-version report as version 2025-09-01 shows it: `device`, `location`, the deepfake
 * members, `videoAIAnalysis` and node reports in the service's first shapes, and no `media` or
 * `videoAIAnalysisStatus`.
 *
 * @example
 * reportBeforeSdkShapes({ transcript: [], nodeReports: [], isVerified: false,
 *   deepfakeDetectionStatus: { state: 'pending', startedAt: 1 } });
 * // { transcript: [], nodeReports: [], isVerified: false, deepfakeDetectionStatus: { status: 'pending', startedAt: 1 } }
 */
export function reportBeforeSdkShapes(report: Json): Json {
  const r: Json = { ...report };
  delete r['media'];
  delete r['videoAIAnalysisStatus'];
  if (isObject(r['device'])) r['device'] = deviceBefore(r['device']);
  if (isObject(r['location'])) r['location'] = locationBefore(r['location']);
  if (isObject(r['videoAIAnalysis'])) r['videoAIAnalysis'] = videoBefore(r['videoAIAnalysis']);
  const dd = r['deepfakeDetection'];
  if (isObject(dd)) {
    r['deepfakeDetection'] = { verdict: dd['verdict'], manipulationScore: dd['score'] ?? null };
  }
  const ds = r['deepfakeDetectionStatus'];
  if (isObject(ds)) {
    const { state, ...rest } = ds;
    r['deepfakeDetectionStatus'] = { status: state, ...rest };
  }
  if (Array.isArray(r['nodeReports'])) {
    r['nodeReports'] = r['nodeReports'].map((n) => (isObject(n) ? nodeReportBefore(n) : n));
  }
  return r;
}
