import { describe, expect, it } from 'vitest';
import {
  isPlatformEvent,
  parseEventTypes,
  subscribes,
  webhookBody,
  webhookBodyBytes,
  type OutboxEvent,
} from './event-types';

describe('parseEventTypes', () => {
  it('reads a list, wildcards and "all"', () => {
    expect(parseEventTypes(undefined)).toEqual({ types: null, problems: [] });
    expect(parseEventTypes('*')).toEqual({ types: null, problems: [] });
    expect(parseEventTypes('session.status, media.*,session.status')).toEqual({
      types: ['session.status', 'media.*'],
      problems: [],
    });
  });
  it('names every unknown type', () => {
    const r = parseEventTypes('session.completed,media.user_photo,nope.*');
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toContain('"session.completed"');
    expect(r.problems[1]).toContain('"nope.*"');
    expect(parseEventTypes(' , ').problems).toHaveLength(1);
  });
});

describe('subscribes', () => {
  it('matches exact types and groups; null is everything', () => {
    expect(subscribes(null, 'settings.langs')).toBe(true);
    expect(subscribes(['media.*'], 'media.user_video')).toBe(true);
    expect(subscribes(['media.*'], 'session.status')).toBe(false);
    expect(subscribes(['session.status'], 'session.status')).toBe(true);
    expect(subscribes(['session.*'], 'sessionx.status')).toBe(false);
  });
});

describe('isPlatformEvent', () => {
  it('is a settings event without an account', () => {
    expect(isPlatformEvent({ type: 'settings.avatars', accountId: '' })).toBe(true);
    expect(isPlatformEvent({ type: 'settings.avatars', accountId: 'acct_a' })).toBe(false);
    expect(isPlatformEvent({ type: 'session.status', accountId: '' })).toBe(false);
  });
});

describe('the body', () => {
  const base: OutboxEvent = {
    id: 'evt_1',
    accountId: 'acct_a',
    mode: 'test',
    type: 'session.status',
    sessionId: 'sess_1',
    createdAt: 5,
    payload: null,
  };
  const media = {
    id: 'med_1',
    createdAt: 5,
    url: 'https://x/m?sig=1',
    expires: 900_005,
    contentType: 'image/jpeg',
  };

  it('has exactly id, type, createdAt and sessionId, plus media on media events', () => {
    expect(webhookBody(base)).toEqual({
      id: 'evt_1',
      type: 'session.status',
      createdAt: 5,
      sessionId: 'sess_1',
    });
    const m = webhookBody({
      ...base,
      type: 'media.user_photo',
      payload: JSON.stringify({ media }),
    });
    expect(m).toEqual({
      id: 'evt_1',
      type: 'media.user_photo',
      createdAt: 5,
      sessionId: 'sess_1',
      media,
    });
    expect(webhookBody({ ...base, type: 'settings.avatars', sessionId: 'x' }).sessionId).toBe('');
  });

  it("sends the stored payload byte for byte when it is this event's body", () => {
    const payload = '{"id":"evt_1","type":"session.status","createdAt":5,"sessionId":"sess_1"}';
    expect(webhookBodyBytes({ ...base, payload }).toString()).toBe(payload);
    // Another event's body, or no JSON at all: rebuilt from the row.
    const other = payload.replace('evt_1', 'evt_2');
    expect(JSON.parse(webhookBodyBytes({ ...base, payload: other }).toString()).id).toBe('evt_1');
    expect(JSON.parse(webhookBodyBytes({ ...base, payload: '{' }).toString()).id).toBe('evt_1');
  });
});
