import { afterEach, describe, expect, it } from 'vitest';
import { isWebhookEvent } from '../../sdk/event';
import { orderedId } from '../ids';
import { webhookBodyBytes } from '../webhooks/event-types';
import { mediaEvent, mediaEventPayload, mediaEventType } from './event';
import { jpegBytes, openMediaFixture, partsOf, T0, type MediaFixture } from './test-support';
import { MEDIA_URL_TTL_MS } from './types';

let f: MediaFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

describe('media events', () => {
  it('carry the spec body with a signed URL that works, and go to the outbox as sent', async () => {
    f = openMediaFixture();
    const rec = await f.media.save({
      sessionId: 'sess_1',
      accountId: 'acct_1',
      mode: 'live',
      kind: 'user_photo',
      contentType: 'image/jpeg',
      bytes: jpegBytes(),
    });
    f.clock.advance(5);
    const signed = f.media.signedUrl(rec.id);
    const id = orderedId('evt', 8);
    const payload = mediaEventPayload(rec, signed, id, f.clock.now());
    const body: unknown = JSON.parse(payload);
    expect(body).toEqual({
      id,
      type: 'media.user_photo',
      createdAt: T0 + 5,
      sessionId: 'sess_1',
      media: {
        id: rec.id,
        createdAt: T0,
        url: signed.url,
        expires: T0 + 5 + MEDIA_URL_TTL_MS,
        contentType: 'image/jpeg',
      },
    });
    expect(isWebhookEvent(body)).toBe(true);
    const p = partsOf(signed.url);
    expect(f.media.verify(p.id, p.expires, p.sig)).toBe('ok');

    await f.db.appendEvent(mediaEvent(rec, signed, id, f.clock.now()));
    const [row] = await f.db.listEvents({ sessionId: 'sess_1' });
    expect(row).toMatchObject({ id, accountId: 'acct_1', mode: 'live', type: 'media.user_photo' });
    // The webhook dispatcher sends the stored payload byte for byte.
    const sent = webhookBodyBytes({ ...row!, sessionId: row!.sessionId }).toString();
    expect(sent).toBe(payload);
  });

  it('exist only for the kinds the spec names', async () => {
    expect(mediaEventType('document_photo')).toBe('media.document_photo');
    expect(mediaEventType('user_video')).toBe('media.user_video');
    expect(mediaEventType('screenshot')).toBeNull();
    f = openMediaFixture();
    const frame = await f.media.save({
      sessionId: 'sess_1',
      accountId: 'acct_1',
      mode: 'test',
      kind: 'frame',
      contentType: 'image/jpeg',
      bytes: jpegBytes(),
    });
    expect(() => mediaEventPayload(frame, f!.media.signedUrl(frame.id), 'evt_1', T0)).toThrow(
      /kind frame has no event/,
    );
  });
});
