/**
 * The report of a stored session in the latest version's shapes (compat.md §4): the stored
 * records (the service's own) become the members the original product's SDK reads.
 */
import {
  DEVICE_FLAGS,
  type Device,
  type DeviceFlag,
  type Location,
  type Report,
} from '../../core/api';
import { geoip2Record } from '../client/geoip2-record';
import type { SessionRecord } from '../store/types';
import { presentNodeReport } from './node-reports';
import { presentDeepfake, presentDeepfakeStatus, presentVideoAnalysis } from './report-analyses';

type Json = Record<string, unknown>;

/**
 * A device stored before 2026-11-27 (`{ browser, browserVersion, os, osVersion, platform,
 * isMobile }`, no User-Agent kept) in the latest shape, as far as it tells.
 */
function deviceOf(d: Json): Device {
  if (!('browserVersion' in d)) return d as Device;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : 'unknown');
  const os = [d['os'], d['osVersion']].filter((x) => typeof x === 'string' && x).join(' ');
  const flags = Object.fromEntries(DEVICE_FLAGS.map((f) => [f, false])) as Record<
    DeviceFlag,
    boolean
  >;
  return {
    ...flags,
    isMobile: d['isMobile'] === true,
    isTablet: d['platform'] === 'tablet',
    isDesktop: d['platform'] === 'desktop',
    isSmartTV: d['platform'] === 'smarttv',
    browser: str(d['browser']),
    version: str(d['browserVersion']),
    os: str(os),
    platform: str(d['platform']),
    source: '',
    geoIp: {},
  };
}

/** A location stored before 2026-11-27 (flat) in the latest shape. */
function locationOf(l: Json): Location {
  if (typeof l['city'] !== 'string' && typeof l['country'] !== 'string' && !('latitude' in l)) {
    return l as Location;
  }
  return geoip2Record({
    ...(typeof l['city'] === 'string' ? { city: l['city'] } : {}),
    ...(typeof l['country'] === 'string' ? { country_code: l['country'] } : {}),
    ...(typeof l['latitude'] === 'number' ? { latitude: l['latitude'] } : {}),
    ...(typeof l['longitude'] === 'number' ? { longitude: l['longitude'] } : {}),
    ...(typeof l['timezone'] === 'string' ? { timezone: l['timezone'] } : {}),
  });
}

/**
 * The latest-version report of `s`, from `stored` (its report, media ids possibly signed).
 *
 * @example
 * presentReport(session, session.report).deepfakeDetectionStatus; // { state: 'pending', startedAt: … }
 */
export function presentReport(s: SessionRecord, stored: SessionRecord['report']): Report {
  const {
    nodeReports,
    device,
    location,
    videoAIAnalysis,
    videoAIAnalysisError,
    deepfakeDetection,
    deepfakeDetectionStatus,
    // Shown on the session itself (presentSession).
    erasedAt: _erasedAt,
    ...same
  } = stored;
  const report: Report = { ...same, nodeReports: nodeReports.map(presentNodeReport) };
  if (device) report.device = deviceOf(device as unknown as Json);
  if (location) report.location = locationOf(location as Json);
  if (videoAIAnalysis) report.videoAIAnalysis = presentVideoAnalysis(videoAIAnalysis);
  if (s.settings.videoAIAnalysisEnabled) {
    report.videoAIAnalysisStatus = videoAIAnalysis
      ? 'succeeded'
      : videoAIAnalysisError
        ? 'failed'
        : 'pending';
  }
  if (deepfakeDetectionStatus) {
    report.deepfakeDetectionStatus = presentDeepfakeStatus(deepfakeDetectionStatus);
  }
  if (deepfakeDetection) {
    report.deepfakeDetection = presentDeepfake(deepfakeDetection, deepfakeDetectionStatus);
  }
  return report;
}
