import { describe, expect, it } from 'vitest';
import { webhookConfigFromEnv } from './service';

describe('webhookConfigFromEnv', () => {
  it('has the documented defaults', () => {
    expect(webhookConfigFromEnv({})).toEqual({
      retryDelaysMs: [60_000, 300_000, 900_000, 3_600_000, 21_600_000],
      timeoutMs: 10_000,
      addressPolicy: 'local',
      concurrency: 64,
      perEndpointConcurrency: 8,
      pollIntervalMs: 1_000,
    });
  });

  it('reads every variable', () => {
    expect(
      webhookConfigFromEnv({
        WEBHOOK_RETRY_DELAYS: '10,20',
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_ALLOW_PRIVATE: 'none',
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_POLL_MS: '50',
      }),
    ).toEqual({
      retryDelaysMs: [10, 20],
      timeoutMs: 500,
      addressPolicy: 'none',
      concurrency: 4,
      perEndpointConcurrency: 2,
      pollIntervalMs: 50,
    });
  });

  it.each([
    ['WEBHOOK_TIMEOUT_MS', '0'],
    ['WEBHOOK_TIMEOUT_MS', '10s'],
    ['WEBHOOK_CONCURRENCY', '-1'],
    ['WEBHOOK_RETRY_DELAYS', '1m'],
    ['WEBHOOK_ALLOW_PRIVATE', 'sometimes'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => webhookConfigFromEnv({ [name]: value })).toThrow(name);
  });
});
