import { describe, expect, it } from 'vitest';
import { createClientApi } from './client';
import { ClientApiError } from './errors';
import { fixedTokens, recordingFetch as recorder } from './test-support';

const tokens = fixedTokens('ct_test');
const position = { nodeId: 'next', nodeType: 'end', status: 'complete', path: [] };

describe('the face and video calls of the client API', () => {
  it('run posts {} to the node and returns the position', async () => {
    const r = recorder({ 'POST /client/nodes/cmp%201/run': [200, { position }] });
    const api = createClientApi({ baseUrl: 'http://idv.test', tokens, fetch: r.fetch });
    expect(await api.run('cmp 1')).toEqual({ position });
    expect(r.seen).toEqual([
      {
        method: 'POST',
        url: '/client/nodes/cmp%201/run',
        auth: 'Bearer ct_test',
        type: 'application/json',
        body: {},
      },
    ]);
  });

  it('run refused for another node type carries the code', async () => {
    const r = recorder({
      'POST /client/nodes/n/run': [
        400,
        {
          error: {
            type: 'invalid_request_error',
            message: 'no',
            code: 'outcome_not_allowed',
          },
        },
      ],
    });
    const api = createClientApi({ tokens, fetch: r.fetch, baseUrl: 'http://idv.test' });
    const error = await api.run('n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientApiError);
    expect((error as ClientApiError).code).toBe('outcome_not_allowed');
  });

  it('video sends the raw bytes with their media type, not JSON', async () => {
    const r = recorder({ 'POST /client/video': [201, { ok: true }] });
    const api = createClientApi({ tokens, fetch: r.fetch, baseUrl: 'http://idv.test' });
    await api.video(new Blob(['webm-bytes'], { type: 'video/webm;codecs=vp8' }), 'video/webm');
    expect(r.seen).toEqual([
      {
        method: 'POST',
        url: '/client/video',
        auth: 'Bearer ct_test',
        type: 'video/webm',
        body: { blob: 'webm-bytes', blobType: 'video/webm;codecs=vp8' },
      },
    ]);
  });

  it('videoFrame posts { t, image } as JSON; an empty 204 answer is fine', async () => {
    const r = recorder({ 'POST /client/video/frames': [204, null] });
    const api = createClientApi({ tokens, fetch: r.fetch, baseUrl: 'http://idv.test' });
    expect(await api.videoFrame({ t: 2000, image: '/9j/4A==' })).toEqual({});
    expect(r.seen[0]).toEqual({
      method: 'POST',
      url: '/client/video/frames',
      auth: 'Bearer ct_test',
      type: 'application/json',
      body: { t: 2000, image: '/9j/4A==' },
    });
  });
});
