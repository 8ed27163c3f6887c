import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

let h: Harness;
const clock = manualClock(Date.UTC(2025, 9, 1, 12));

beforeAll(async () => {
  h = await startHarness({ rateLimits: false, clock });
});
afterAll(async () => h.close());

async function make(n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    clock.advance(1000);
    const r = await h.call('POST', '/sessions', { body: { flow: MINIMAL_FLOW, ...extra(i) } });
    expect(r.status).toBe(200);
    ids.push(r.body.session.id);
  }
  return ids;
}

async function walk(query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor = '';
  for (let guard = 0; guard < 1000; guard++) {
    const r = await h.call(
      'GET',
      `/sessions?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(r.status).toBe(200);
    seen.push(...r.body.sessions.map((s: { id: string }) => s.id));
    if (!r.body.hasMore) {
      expect(r.body.nextCursor).toBe('');
      return seen;
    }
    expect(r.body.nextCursor).not.toBe('');
    cursor = r.body.nextCursor;
  }
  throw new Error('pagination did not end');
}

describe('GET /sessions', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = await make(23, (i) => ({
      clientReferenceId: `ref-${i % 3}`,
      metadata: { team: i % 2 ? 'Blue Whales' : 'red foxes' },
      ...(i % 5 === 0 ? { flowId: 'special' } : {}),
    }));
  });

  it('pages newest first by default, 25 by default, with totalCount only on request', async () => {
    const r = await h.call('GET', '/sessions');
    expect(r.body.sessions).toHaveLength(23);
    expect(r.body.sessions.map((s: { id: string }) => s.id)).toEqual([...ids].reverse());
    expect(r.body.hasMore).toBe(false);
    expect('totalCount' in r.body).toBe(false);
    const t = await h.call('GET', '/sessions?includeTotal=true&limit=5');
    expect(t.body.totalCount).toBe(23);
    expect(t.body.sessions).toHaveLength(5);
    expect(t.body.hasMore).toBe(true);
  });

  it('walks every session exactly once in both orders and every sort', async () => {
    for (const q of ['', '&sortOrder=asc', '&sortBy=status', '&sortBy=finishedAt&sortOrder=asc']) {
      const seen = await walk(q, 4);
      expect(new Set(seen).size).toBe(seen.length);
      expect(new Set(seen)).toEqual(new Set(ids));
    }
    expect(await walk('&sortOrder=asc', 7)).toEqual(ids);
  });

  it('filters by clientReferenceId, flowId, status (one, list, repeated, legacy alias), dates and search', async () => {
    const ref = await walk('&clientReferenceId=ref-1', 3);
    expect(ref).toEqual(ids.filter((_, i) => i % 3 === 1).reverse());
    const special = await walk('&flowId=special', 2);
    expect(special).toHaveLength(5);
    const first = (await h.call('GET', `/sessions/${ids[0]}`)).body.session;
    const fromDate = first.createdAt + 5000;
    const dated = await walk(`&fromDate=${fromDate}&toDate=${fromDate + 3000}`, 10);
    expect(dated).toEqual([ids[7], ids[6], ids[5]]);
    expect(await walk('&status=created', 50)).toHaveLength(23);
    expect(await walk('&status=created,complete', 50)).toHaveLength(23);
    expect(await walk('&status=complete&status=requiresInput', 50)).toHaveLength(23);
    expect(await walk('&status=incomplete', 50)).toHaveLength(0);
    expect(await walk('&search=WHALE', 50)).toHaveLength(11);
    expect(await walk(`&search=${ids[4]!.slice(-10).toUpperCase()}`, 50)).toEqual([ids[4]]);
    expect(await walk('&search=ref-2', 50)).toHaveLength(7);
  });

  it('reports bad query parameters, all at once', async () => {
    const r = await h.call(
      'GET',
      '/sessions?limit=101&sortBy=name&sortOrder=up&status=done&includeTotal=maybe&fromDate=yesterday&cursor=zzz&extra=1',
    );
    expect(r.status).toBe(400);
    const paths = r.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual([
      'cursor',
      'extra',
      'fromDate',
      'includeTotal',
      'limit',
      'sortBy',
      'sortOrder',
      'status',
    ]);
    const two = await h.call('GET', '/sessions?limit=1&limit=2');
    expect(two.body.error.details).toEqual([
      { path: 'limit', message: 'limit may be given only once' },
    ]);
  });

  it('ties a cursor to its sort', async () => {
    const p = await h.call('GET', '/sessions?limit=2&sortBy=status');
    const mismatch = await h.call(
      'GET',
      `/sessions?limit=2&sortBy=createdAt&cursor=${p.body.nextCursor}`,
    );
    expect(mismatch.status).toBe(400);
    const same = await h.call('GET', `/sessions?limit=2&cursor=${p.body.nextCursor}`);
    expect(same.status).toBe(200);
  });

  it('limit=0 answers no sessions but says whether there are some', async () => {
    const r = await h.call('GET', '/sessions?limit=0');
    expect(r.body.sessions).toEqual([]);
    expect(r.body.hasMore).toBe(true);
    const next = await h.call('GET', `/sessions?limit=3&cursor=${r.body.nextCursor}`);
    expect(next.body.sessions.map((s: { id: string }) => s.id)).toEqual(ids.slice(-3).reverse());
  });
});

describe('pagination under concurrent creation', () => {
  it('returns every session that existed exactly once while others are being created', async () => {
    const before = await walk('', 100);
    const writers = (async () => {
      const made: string[] = [];
      for (let i = 0; i < 60; i++) {
        // Same millisecond as the pages being read: ties are broken by id.
        const r = await h.call('POST', '/sessions', {
          body: { flow: MINIMAL_FLOW, clientReferenceId: 'concurrent' },
        });
        made.push(r.body.session.id);
        if (i % 3 === 0) clock.advance(1);
      }
      return made;
    })();
    for (const order of ['desc', 'asc']) {
      const seen: string[] = [];
      let cursor = '';
      for (;;) {
        const r = await h.call(
          'GET',
          `/sessions?limit=3&sortOrder=${order}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...r.body.sessions.map((s: { id: string }) => s.id));
        if (!r.body.hasMore) break;
        cursor = r.body.nextCursor;
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
    }
    const made = await writers;
    expect(made).toHaveLength(60);
  });
});
