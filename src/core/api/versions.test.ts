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
      status: 'succeeded',
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
    expect(parseVersion(undefined)).toBe('2025-09-01');
    expect(parseVersion(' 2025-01-01 ')).toBe('2025-01-01');
    expect(parseVersion('2025-02-01')).toBeNull();
  });

  it('leaves latest-version bodies untouched', () => {
    const body = { session, clientSecret: secret };
    expect(responseFor('2025-09-01', 'sessions.get', body)).toEqual(body);
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
    expect(VERSION_CHANGES).toHaveLength(5);
  });
});
