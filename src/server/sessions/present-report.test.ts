/**
 * The report members in the latest version's shapes, from what is stored: the analyses' records,
 * and a device and location stored before 2026-11-27 in their first shapes.
 */
import { describe, expect, it } from 'vitest';
import type { Device, Location } from '../../core/api';
import { conformanceProblems } from '../conformance/shape';
import { sessionRecord } from '../store/records';
import { presentReport } from './present-report';

const stored = (report: Record<string, unknown>, videoAIAnalysisEnabled = false) =>
  sessionRecord({
    id: 'sess_1',
    accountId: 'acct_1',
    settings: { videoAIAnalysisEnabled },
    report: { transcript: [], nodeReports: [], isVerified: false, ...report },
  });

describe('presentReport', () => {
  it('shows a device and location stored in their first shapes in the SDK shapes', () => {
    const s = stored({
      device: {
        browser: 'Mobile Safari',
        browserVersion: '17.4',
        os: 'iOS',
        osVersion: '17.4',
        platform: 'mobile',
        isMobile: true,
      } as unknown as Device,
      location: {
        city: 'Bracknell',
        country: 'GB',
        latitude: 51.4,
        longitude: -0.76,
        timezone: 'Europe/London',
      } as unknown as Location,
    });
    const r = presentReport(s, s.report);
    expect(conformanceProblems(r, 'report')).toEqual([]);
    expect(r.device).toMatchObject({
      browser: 'Mobile Safari',
      version: '17.4',
      os: 'iOS 17.4',
      platform: 'mobile',
      isMobile: true,
      isDesktop: false,
      source: '',
    });
    expect(r.location).toMatchObject({
      city: { names: { en: 'Bracknell' } },
      country: { isoCode: 'GB' },
      location: { latitude: 51.4, longitude: -0.76, timeZone: 'Europe/London' },
    });
  });

  it('makes the analyses records the SDK members, and the video status from the setting', () => {
    const s = stored(
      {
        deepfakeDetectionStatus: { status: 'succeeded', startedAt: 1, finishedAt: 9 },
        deepfakeDetection: { verdict: 'manipulated', manipulationScore: 0.7 },
        videoAIAnalysis: {
          overallScore: 0.5,
          framesAnalysed: 6,
          criteria: [
            { name: 'onePersonThroughout', score: 0.4, confidence: 0.6 },
            { name: 'liveness', score: 0.9, confidence: 0.6 },
          ],
        },
      },
      true,
    );
    const r = presentReport(s, s.report);
    expect(conformanceProblems(r, 'report')).toEqual([]);
    expect(r.deepfakeDetectionStatus).toEqual({ state: 'succeeded', startedAt: 1, finishedAt: 9 });
    expect(r.deepfakeDetection).toEqual({ verdict: 'manipulated', score: 0.7, analyzedAt: 9 });
    expect(r.videoAIAnalysisStatus).toBe('succeeded');
    expect(r.videoAIAnalysis?.presenceOfSuspiciousObjectsOrPeople).toMatchObject({
      evaluation: 'highFraudRisk',
      score: 0.4,
    });
    expect(r.videoAIAnalysis?.riskyIndicators).toEqual(['presenceOfSuspiciousObjectsOrPeople']);
    const pending = stored({}, true);
    expect(presentReport(pending, pending.report).videoAIAnalysisStatus).toBe('pending');
    const off = stored({});
    expect(presentReport(off, off.report)).not.toHaveProperty('videoAIAnalysisStatus');
  });
});
