/**
 * The step gateway on the real SQLite store: the current-node check, the refusals each with its
 * own code (a refused step is no longer reported as `node_not_current` whatever the cause), the
 * two ways a moved-on session is met, the optimistic write, and the automatic moves it runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Flow } from '../../core/flow';
import { manualClock } from '../clock';
import { ApiError } from '../http/errors';
import { automaticMoves } from '../nodes';
import { secretRecord, sessionRecord } from '../store/records';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import type { SessionRecord } from '../store/types';
import {
  createGateway,
  refusalError,
  requireCurrent,
  requireCurrentOf,
  type StepGateway,
} from './gateway';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    // permissionsDenied leads nowhere: the session ends incomplete.
    outcomes: { permissionsGranted: 'check' },
  },
  {
    id: 'check',
    type: 'data_validation',
    validation: { field: 'providedData.email', action: 'exists' },
    // No outcome takes `failed`: the flow cannot go on.
    outcomes: [{ id: 'known', condition: 'passed', targetNodeId: 'email' }],
  },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'done' } },
  { id: 'done', type: 'end' },
] as Flow;

const clock = manualClock(10_000);
let dir: string;
let store: SqliteSessionStore;
let gateway: StepGateway;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-gateway-'));
  store = openSqliteStore({ path: join(dir, 'idv.sqlite'), backgroundCheckpoints: false });
  gateway = createGateway({ store, clock, automatic: automaticMoves });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function opened(providedData: Record<string, string> = {}): Promise<SessionRecord> {
  const account = await store.ensureAccount('acme', 1);
  const id = `sess_${String(++n).padStart(4, '0')}`;
  const s = sessionRecord({ id, accountId: account.id, settings: { flow: FLOW, providedData } });
  await store.createSession(s, secretRecord(id));
  return gateway.mutate(id, (cur, now) => gateway.open(cur, now, {}));
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? { code: err.code, message: err.message } : err;
  }
  return null;
};
const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) =>
      err instanceof ApiError ? { code: err.code, message: err.message } : String(err),
  );

describe('refusals', () => {
  it('each keeps its own code', () => {
    const codes = (
      ['finished', 'not_current_node', 'unknown_outcome', 'outcome_not_allowed'] as const
    )
      .map((reason) => refusalError({ reason, message: 'm' }))
      .map((e) => [e.type, e.code]);
    expect(codes).toEqual([
      ['validation_error', 'session_finished'],
      ['validation_error', 'node_not_current'],
      ['validation_error', 'outcome_unknown'],
      ['validation_error', 'outcome_not_allowed'],
    ]);
  });

  it('name the current node, the ended session and the kind that does not take the request', async () => {
    const s = await opened();
    expect(requireCurrent(s, 'perm').type).toBe('permissions');
    expect(codeOf(() => requireCurrent(s, 'email'))).toEqual({
      code: 'node_not_current',
      message: "node 'email' is not the current node; the current node is 'perm'",
    });
    expect(
      codeOf(() => requireCurrentOf(s, 'perm', ['enter_email'], (node) => `no ${node.type}`)),
    ).toEqual({ code: 'outcome_not_allowed', message: 'no permissions' });
    const ended = await gateway.move(s.id, 'perm', () => ({ outcome: 'permissionsDenied' }));
    expect(ended.status).toBe('incomplete');
    expect(codeOf(() => requireCurrent(ended, 'perm'))).toEqual({
      code: 'session_finished',
      message: 'The session has already ended',
    });
  });
});

describe('a move', () => {
  it('refused by the machine says why: an unknown outcome is outcome_unknown', async () => {
    const s = await opened();
    expect(await rejection(gateway.move(s.id, 'perm', () => ({ outcome: 'maybe' })))).toEqual({
      code: 'outcome_unknown',
      message:
        "'maybe' is not an outcome of the permissions node 'perm'; its outcomes are permissionsGranted, permissionsDenied",
    });
    expect((await store.getSessionById(s.id))?.position.nodeId).toBe('perm');
  });

  it('on a node no longer current is refused, or left alone for a background decision', async () => {
    const s = await opened();
    await gateway.move(s.id, 'perm', () => ({ outcome: 'permissionsDenied' }));
    expect(await rejection(gateway.move(s.id, 'perm', () => ({ outcome: 'x' })))).toMatchObject({
      code: 'session_finished',
    });
    const before = await store.getSessionById(s.id);
    const after = await gateway.move(s.id, 'perm', () => ({ outcome: 'permissionsGranted' }), {
      what: 'an analysis',
      movedOn: 'ignore',
    });
    expect(after).toEqual(before);
  });

  it('runs the automatic moves that follow (data_validation) and ends where a user acts', async () => {
    const known = await opened({ email: 'jane@example.com' });
    const a = await gateway.move(known.id, 'perm', () => ({ outcome: 'permissionsGranted' }));
    expect(a.position.nodeId).toBe('email');
    expect(a.report.nodeReports.map((r) => [r.nodeId, r.outcome])).toEqual([
      ['perm', 'permissionsGranted'],
      ['check', 'known'],
    ]);
    const unknown = await opened();
    const b = await gateway.move(unknown.id, 'perm', () => ({ outcome: 'permissionsGranted' }));
    expect([b.status, b.position.path]).toEqual([
      'incomplete',
      [
        { nodeId: 'perm', type: 'permissions', outcome: 'permissionsGranted' },
        { nodeId: 'check', type: 'data_validation', outcome: 'failed', result: 'failed' },
      ],
    ]);
  });

  it('is written on the freshest copy: a write in between is read again, not lost', async () => {
    const s = await opened();
    // A store whose first read hands out a copy that another writer changes right after.
    let raced = false;
    const racing = Object.assign(Object.create(store) as SqliteSessionStore, {
      async getSessionById(id: string) {
        const cur = await store.getSessionById(id);
        if (cur && !raced) {
          raced = true;
          await store.updateSession(cur, { ...cur, lastActivityAt: 1 }, 10_000);
        }
        return cur;
      },
    });
    const seen: number[] = [];
    const saved = await createGateway({ store: racing, clock, automatic: automaticMoves }).move(
      s.id,
      'perm',
      (cur) => {
        seen.push(cur.lastActivityAt);
        return { outcome: 'permissionsGranted', report: { seen: cur.lastActivityAt } };
      },
    );
    expect(seen).toEqual([s.lastActivityAt, 1]);
    expect(saved.report.nodeReports[0]?.report).toEqual({ seen: 1 });
  });
});
