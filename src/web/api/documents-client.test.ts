import { describe, expect, it } from 'vitest';
import { createClientApi } from './client';
import { ClientApiError } from './errors';
import { fixedTokens, recordingFetch as recorder } from './test-support';

const tokens = fixedTokens('ct_doc');
const position = { nodeId: 'end', nodeType: 'end', status: 'complete', path: [] };
const api = (fetch: typeof globalThis.fetch) =>
  createClientApi({ baseUrl: 'http://idv.test', tokens, fetch });

describe('the document calls of the client API', () => {
  it('documentUpload posts { side, image } to the node and returns a read', async () => {
    const r = recorder({
      'POST /client/nodes/doc%201/document': [200, { status: 'read', position }],
    });
    const answer = await api(r.fetch).documentUpload('doc 1', { side: 'back', image: '/9j/4A==' });
    expect(answer).toEqual({ status: 'read', position });
    expect(r.seen).toEqual([
      {
        method: 'POST',
        url: '/client/nodes/doc%201/document',
        auth: 'Bearer ct_doc',
        type: 'application/json',
        body: { side: 'back', image: '/9j/4A==' },
      },
    ]);
  });

  it('documentUpload hands back a retry with its reason and count', async () => {
    const retry = { status: 'retry', reason: 'checks_failed', attempts: 2 };
    const r = recorder({ 'POST /client/nodes/d/document': [200, retry] });
    expect(await api(r.fetch).documentUpload('d', { side: 'front', image: 'abcd' })).toEqual(retry);
    expect((r.seen[0]?.body as { side: string }).side).toBe('front');
  });

  it('documentCancel and documentTimeout post {} to their routes', async () => {
    const r = recorder({
      'POST /client/nodes/d/document/cancel': [200, { position }],
      'POST /client/nodes/d/document/timeout': [200, { position: { ...position, nodeId: 'x' } }],
    });
    expect(await api(r.fetch).documentCancel('d')).toEqual({ position });
    expect((await api(r.fetch).documentTimeout('d')).position.nodeId).toBe('x');
    expect(r.seen.map((s) => [s.url, s.body])).toEqual([
      ['/client/nodes/d/document/cancel', {}],
      ['/client/nodes/d/document/timeout', {}],
    ]);
  });

  it('an early timeout is refused with its code', async () => {
    const r = recorder({
      'POST /client/nodes/d/document/timeout': [
        400,
        { error: { type: 'validation_error', message: 'not yet', code: 'scan_not_timed_out' } },
      ],
    });
    const error = await api(r.fetch)
      .documentTimeout('d')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientApiError);
    expect((error as ClientApiError).code).toBe('scan_not_timed_out');
    expect((error as ClientApiError).status).toBe(400);
  });
});
