import { describe, expect, it } from 'vitest';
import { ClientApiError, errorFromResponse } from '../api/errors';
import type { Position } from '../api/types';
import { decidedEvent, frameBody, mayRetry } from './useLivenessFlow';

describe('mayRetry', () => {
  it('retries a lost connection, server errors and rate limits, not refusals', () => {
    expect(mayRetry(new ClientApiError(0, 'network_error', 'offline'))).toBe(true);
    expect(mayRetry(errorFromResponse(502, null))).toBe(true);
    expect(mayRetry(errorFromResponse(429, null))).toBe(true);
    for (const code of ['too_many_frames', 'attempt_finished', 'liveness_attempts_exhausted']) {
      expect(
        mayRetry(
          errorFromResponse(400, { error: { type: 'invalid_request_error', message: 'x', code } }),
        ),
      ).toBe(false);
    }
    expect(mayRetry(errorFromResponse(401, null))).toBe(false);
    expect(mayRetry(new Error('not from the API'))).toBe(false);
  });
});

describe('frameBody', () => {
  const blob = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xdb])], { type: 'image/jpeg' });

  it('sends a challenge frame with its index, page time and base64 JPEG', async () => {
    expect(await frameBody({ role: 'challenge', challengeIndex: 2, t: 4100, blob })).toEqual({
      role: 'challenge',
      challengeIndex: 2,
      t: 4100,
      image: '/9j/2w==',
    });
  });

  it('leaves challengeIndex out of other frames (the route takes no undefined)', async () => {
    const body = await frameBody({ role: 'between', t: 800, blob });
    expect(body).toEqual({ role: 'between', t: 800, image: '/9j/2w==' });
    expect('challengeIndex' in body).toBe(false);
  });
});

describe('decidedEvent', () => {
  const position: Position = {
    nodeId: 'live',
    nodeType: 'liveness_detection',
    status: 'active',
    path: [],
  };

  it('offers another attempt when the server leaves the node current with a reason', () => {
    const retry = { reason: 'tooDark' as const, attemptsLeft: 2 };
    expect(decidedEvent('att_1', { status: 'decided', position, retry })).toEqual({
      type: 'RETRY_OFFERED',
      attemptId: 'att_1',
      retry,
    });
  });

  it('follows the position of a decided node, and waits while the server analyses', () => {
    expect(decidedEvent('att_1', { status: 'decided', position })).toEqual({
      type: 'DECIDED',
      position,
    });
    expect(decidedEvent('att_1', { status: 'analysing' })).toBeNull();
  });
});
