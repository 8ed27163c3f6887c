import { startFlow, type Flow } from '../../core/flow';
import type { ClientSecretRecord, SessionRecord, StoredSettings } from './types';

/** The smallest valid flow: start, permissions, end. */
export const PERMISSIONS_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'end' } },
  { id: 'end', type: 'end' },
] as Flow;

export interface SessionRecordInput extends Partial<Omit<SessionRecord, 'settings'>> {
  id: string;
  accountId: string;
  settings?: Partial<StoredSettings>;
}

/**
 * A session as the store keeps it, `created` at its start node unless told otherwise: for tests,
 * benchmarks and seeding, where building one through `POST /sessions` would be beside the point.
 *
 * @example
 * await store.createSession(sessionRecord({ id: 'sess_1', accountId }), secretRecord('sess_1'));
 */
export function sessionRecord(input: SessionRecordInput): SessionRecord {
  const { settings, ...rest } = input;
  const flow = settings?.flow ?? PERMISSIONS_FLOW;
  const createdAt = input.createdAt ?? 1000;
  return {
    mode: 'live',
    status: 'created',
    createdAt,
    startedAt: null,
    finishedAt: null,
    lastActivityAt: createdAt,
    flowId: 'flow_test',
    clientReferenceId: null,
    version: '2025-09-01',
    report: { transcript: [], nodeReports: [], isVerified: false },
    position: startFlow(flow),
    rev: 0,
    ...rest,
    settings: {
      metadata: {},
      providedData: {},
      langs: ['en'],
      defaultLang: 'en',
      zone: 'us',
      videoAIAnalysisEnabled: false,
      embedOrigins: [],
      ...settings,
      flow,
    },
  };
}

/**
 * A fresh, unused client secret of a session, valid for an hour from `createdAt`.
 *
 * @example
 * secretRecord('sess_1', 'cs_1', 1000).expireAt; // 3_601_000
 */
export function secretRecord(sessionId: string, secret = `cs_${sessionId}`, createdAt = 1000) {
  const record: ClientSecretRecord = {
    secret,
    sessionId,
    createdAt,
    expireAt: createdAt + 3_600_000,
    usedAt: null,
    revokedAt: null,
  };
  return record;
}
