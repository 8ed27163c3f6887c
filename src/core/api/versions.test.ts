/* eslint-disable @typescript-eslint/no-explicit-any -- transformed bodies are read as plain JSON */
import { describe, expect, it } from 'vitest';
import {
  VERSION_CHANGES,
  createProblemsFor,
  listQueryFor,
  parseVersion,
  responseFor,
} from './versions';

const session = {
  id: 's1',
  createdAt: 1_700_000_000_123,
  startedAt: 1_700_000_100_999,
  status: 'incomplete',
  settings: { zone: 'us', flow: [] },
  report: {
    transcript: [{ id: 't', createdAt: 1_700_000_200_500, text: 'hi', isAvatar: true }],
    nodeReports: [
      {
        nodeId: 'n',
        type: 'permissions',
        outcome: 'permissionsGranted',
        createdAt: 1_700_000_300_001,
      },
    ],
    isVerified: false,
    deepfakeDetectionStatus: {
      state: 'succeeded',
      startedAt: 1_700_000_400_000,
      finishedAt: 1_700_000_401_999,
    },
  },
};
const secret = {
  secret: 'cs_x',
  createdAt: 1_700_000_000_000,
  expireAt: 1_700_003_600_000,
  url: 'u',
};

describe('versions', () => {
  it('reads the header: absent is the latest, unknown is null', () => {
    expect(parseVersion(undefined)).toBe('2026-11-27');
    expect(parseVersion('2025-09-01')).toBe('2025-09-01');
    expect(parseVersion(' 2025-01-01 ')).toBe('2025-01-01');
    expect(parseVersion('2025-02-01')).toBeNull();
  });

  it('leaves latest-version bodies untouched', () => {
    const body = { session, clientSecret: secret };
    expect(responseFor('2026-11-27', 'sessions.get', body)).toEqual(body);
  });

  it("gives 2025-09-01 the report's first shapes (before the SDK's, compat.md §4)", () => {
    const v = (score: number | undefined, evaluation = 'normal') => ({
      observation: 'o',
      confidence: 1,
      evaluation,
      ...(score !== undefined ? { score } : {}),
    });
    const report = {
      transcript: [],
      isVerified: true,
      nodeReports: [
        {
          nodeId: 'e',
          type: 'enter_email',
          outcome: 'emailEntered',
          createdAt: 1,
          email: 'a@b.co',
          report: { email: 'a@b.co' },
        },
        {
          nodeId: 'l',
          type: 'liveness_detection',
          outcome: 'livenessDetected',
          createdAt: 1,
          captureStatus: 'captured',
          report: { frames: 4 },
        },
        {
          nodeId: 'o',
          type: 'two_factor_sms',
          outcome: 'verified',
          createdAt: 1,
          report: { channel: 'sms', sentTo: '•••12', attempts: 1, phoneNumber: '•••12' },
        },
        {
          nodeId: 'r',
          type: 'recognition',
          outcome: 'recognized',
          createdAt: 1,
          report: { name: 'Ann', sessionId: 's0' },
          details: { similarity: 0.9, sessionId: 's0', providedData: { name: 'Ann' } },
        },
      ],
      device: {
        browser: 'Chrome',
        version: '126.0',
        os: 'Linux 64',
        platform: 'Linux',
        isMobile: false,
        isTablet: false,
        isSmartTV: false,
        source: 'ua',
        geoIp: {},
      },
      location: {
        city: { geonameId: 0, names: { en: 'Bracknell' } },
        country: { geonameId: 0, isoCode: 'GB', isInEuropeanUnion: false, names: { en: 'UK' } },
        location: { accuracyRadius: 0, latitude: 51.4, longitude: -0.7, timeZone: 'Europe/London' },
      },
      deepfakeDetection: { verdict: 'authentic', score: 0.1, analyzedAt: 5 },
      deepfakeDetectionStatus: { state: 'succeeded', startedAt: 4, finishedAt: 5 },
      videoAIAnalysis: {
        presenceOfSuspiciousObjectsOrPeople: v(1),
        behavioralAnomalies: v(0.4, 'highFraudRisk'),
        faceAuthenticity: v(0.9),
        interactionConfidence: v(1),
        lipSyncAccuracy: v(undefined),
        riskyIndicators: ['behavioralAnomalies'],
        overallScore: 0.8,
        framesAnalysed: 10,
      },
      videoAIAnalysisStatus: 'succeeded',
      media: { screenshots: [{ id: 'med_1', createdAt: 1, url: 'u' }] },
    };
    const out = (
      responseFor('2025-09-01', 'sessions.get', { session: { ...session, report } }) as any
    ).session.report;
    expect(out.device).toEqual({
      browser: 'Chrome',
      browserVersion: '126.0',
      os: 'Linux 64',
      osVersion: null,
      platform: 'desktop',
      isMobile: false,
    });
    expect(out.location).toEqual({
      city: 'Bracknell',
      country: 'GB',
      latitude: 51.4,
      longitude: -0.7,
      timezone: 'Europe/London',
    });
    expect(out.deepfakeDetection).toEqual({ verdict: 'authentic', manipulationScore: 0.1 });
    expect(out.deepfakeDetectionStatus).toEqual({
      status: 'succeeded',
      startedAt: 4,
      finishedAt: 5,
    });
    expect(out.videoAIAnalysis).toEqual({
      overallScore: 0.8,
      framesAnalysed: 10,
      criteria: [
        { name: 'onePersonThroughout', score: 1, confidence: 1 },
        { name: 'sameAsCaptures', score: 0.4, confidence: 1 },
        { name: 'liveness', score: 0.9, confidence: 1 },
        { name: 'faceVisibility', score: 1, confidence: 1 },
      ],
    });
    expect(out.videoAIAnalysisStatus).toBeUndefined();
    expect(out.media).toBeUndefined();
    expect(out.nodeReports).toEqual([
      {
        nodeId: 'e',
        type: 'enter_email',
        outcome: 'emailEntered',
        createdAt: 1,
        report: { email: 'a@b.co' },
      },
      {
        nodeId: 'l',
        type: 'liveness_detection',
        outcome: 'livenessDetected',
        createdAt: 1,
        report: { frames: 4 },
      },
      {
        nodeId: 'o',
        type: 'two_factor_sms',
        outcome: 'verified',
        createdAt: 1,
        report: { channel: 'sms', sentTo: '•••12', attempts: 1 },
      },
      {
        nodeId: 'r',
        type: 'recognition',
        outcome: 'recognized',
        createdAt: 1,
        report: { similarity: 0.9, sessionId: 's0', providedData: { name: 'Ann' } },
      },
    ]);
  });

  it('turns a session into the legacy shape: seconds everywhere, old status, es zone', () => {
    const out = responseFor('2025-01-01', 'sessions.get', { session, clientSecret: secret }) as any;
    expect(out.session.createdAt).toBe(1_700_000_000);
    expect(out.session.startedAt).toBe(1_700_000_100);
    expect(out.session.status).toBe('canceled');
    expect(out.session.settings.zone).toBe('es');
    expect(out.session.report.transcript[0].createdAt).toBe(1_700_000_200);
    expect(out.session.report.nodeReports[0].createdAt).toBe(1_700_000_300);
    expect(out.session.report.deepfakeDetectionStatus).toEqual({
      status: 'succeeded',
      startedAt: 1_700_000_400,
      finishedAt: 1_700_000_401,
    });
    expect(out.clientSecret).toEqual({
      secret: 'cs_x',
      createdAt: 1_700_000_000,
      expireAt: 1_700_003_600,
      url: 'u',
    });
    expect(session.createdAt).toBe(1_700_000_000_123);
  });

  it('maps every status name and wraps the refresh answer', () => {
    const names = ['created', 'inProgress', 'complete', 'incomplete'].map(
      (status) =>
        (responseFor('2025-01-01', 'sessions.list', { sessions: [{ ...session, status }] }) as any)
          .sessions[0].status,
    );
    expect(names).toEqual(['requiresInput', 'processing', 'complete', 'canceled']);
    expect(responseFor('2025-01-01', 'sessions.refresh', secret)).toEqual({
      clientSecret: { ...secret, createdAt: 1_700_000_000, expireAt: 1_700_003_600 },
    });
    expect(
      (
        responseFor('2025-01-01', 'avatars.list', {
          avatars: [{ id: 'a', createdAt: 5_000 }],
        }) as any
      ).avatars[0].createdAt,
    ).toBe(5);
  });

  it('applies the older request rules', () => {
    expect(createProblemsFor('2025-01-01', { flow: [] })).toHaveLength(1);
    expect(createProblemsFor('2025-01-01', { clientReferenceId: 'u' })).toEqual([]);
    expect(createProblemsFor('2025-09-01', {})).toEqual([]);
    expect(listQueryFor('2025-01-01', { fromDate: 10, toDate: 20 })).toEqual({
      fromDate: 10_000,
      toDate: 20_000,
    });
    expect(listQueryFor('2025-09-01', { fromDate: 10 })).toEqual({ fromDate: 10 });
  });

  it('has one change per difference of the decisions table', () => {
    expect(VERSION_CHANGES).toHaveLength(6);
  });
});
