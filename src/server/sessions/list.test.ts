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
        fromDate: '5',
        toDate: '9',
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
        fromDate: 5,
        toDate: 9,
        search: 'abc',
      },
    });
  });

  it('reads dates as seconds in the legacy version', () => {
    const r = parseListQuery({ fromDate: '5' }, '2025-01-01');
    expect(r.ok && r.query.fromDate).toBe(5000);
  });
});
