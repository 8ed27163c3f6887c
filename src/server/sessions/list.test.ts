import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, parseListQuery } from './list';

describe('cursor', () => {
  it('round-trips and refuses anything else', () => {
    const c = encodeCursor('status', 'asc', [2, 1700, 'sess_1']);
    expect(decodeCursor(c)).toEqual({ b: 'status', o: 'asc', a: [2, 1700, 'sess_1'] });
    expect(decodeCursor('not a cursor')).toBeNull();
    expect(
      decodeCursor(Buffer.from('{"b":"createdAt","o":"desc","a":[1,2,3]}').toString('base64url')),
    ).toBeNull();
    expect(
      decodeCursor(Buffer.from('{"b":"createdAt","o":"desc","a":["x","y"]}').toString('base64url')),
    ).toBeNull();
    expect(
      decodeCursor(Buffer.from('{"b":"id","o":"desc","a":null}').toString('base64url')),
    ).toBeNull();
  });
});

describe('parseListQuery', () => {
  it('reads defaults and every filter', () => {
    const r = parseListQuery({}, '2025-09-01');
    expect(r).toEqual({
      ok: true,
      query: {
        limit: 25,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        after: null,
        includeTotal: false,
      },
    });
    const full = parseListQuery(
      {
        limit: '7',
        status: ['created,processing', 'canceled'],
        fromDate: '1700000000005',
        toDate: '1700000000009',
        search: 'AbC',
        includeTotal: '1',
        flowId: 'f',
        clientReferenceId: 'c',
        sortBy: 'finishedAt',
        sortOrder: 'asc',
      },
      '2025-09-01',
    );
    expect(full).toEqual({
      ok: true,
      query: {
        limit: 7,
        sortBy: 'finishedAt',
        sortOrder: 'asc',
        after: null,
        includeTotal: true,
        flowId: 'f',
        clientReferenceId: 'c',
        statuses: ['created', 'inProgress', 'incomplete'],
        fromDate: 1700000000005,
        toDate: 1700000000009,
        search: 'abc',
      },
    });
  });

  it('reads dates as seconds in the legacy version', () => {
    const r = parseListQuery({ fromDate: '5' }, '2025-01-01');
    expect(r.ok && r.query.fromDate).toBe(5000);
  });

  it('refuses a date in the other unit than the version reads, saying which to send', () => {
    const seconds = parseListQuery({ fromDate: '1700000000', toDate: '0' }, '2025-09-01');
    expect(seconds.ok).toBe(false);
    expect(!seconds.ok && seconds.problems).toEqual([
      {
        path: 'fromDate',
        message: expect.stringContaining('looks like Unix seconds') as unknown,
      },
    ]);
    expect(!seconds.ok && seconds.problems[0]?.message).toContain('send 1700000000000');
    const ms = parseListQuery({ toDate: '1700000000000' }, '2025-01-01');
    expect(!ms.ok && ms.problems[0]).toMatchObject({
      path: 'toDate',
      message: expect.stringContaining('send 1700000000') as unknown,
    });
    expect(parseListQuery({ fromDate: '1700000000000' }, '2025-09-01').ok).toBe(true);
  });
});
