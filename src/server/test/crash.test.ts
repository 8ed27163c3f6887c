import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MINIMAL_FLOW } from './harness';
import { exited, idv, serve } from './process';

const dir = mkdtempSync(join(tmpdir(), 'idv-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durability', () => {
  it('keeps every acknowledged session after kill -9 in the middle of a burst of creates', async () => {
    const env = { DATA_DIR: dir, PORT: '0', RATE_LIMIT_LIVE: '1000000' };
    const key = (await idv(['keys', 'create', '--mode', 'live'], env)).stdout.trim();
    expect(key).toMatch(/^sk_live_/);
    const first = await serve(env);
    const acknowledged: string[] = [];
    let failures = 0;
    let killed = false;
    const worker = async () => {
      for (;;) {
        if (killed && failures > 0) return;
        try {
          const r = await fetch(`${first.url}/sessions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              flow: MINIMAL_FLOW,
              metadata: { n: String(acknowledged.length) },
            }),
          });
          if (r.status !== 200) throw new Error(`status ${r.status}`);
          const body = (await r.json()) as { session: { id: string } };
          acknowledged.push(body.session.id);
        } catch {
          failures++;
          if (killed) return;
        }
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    await exited(first.child);
    expect(failures).toBeGreaterThan(0);

    const second = await serve(env);
    try {
      const missing: string[] = [];
      for (const id of acknowledged) {
        const r = await fetch(`${second.url}/sessions/${id}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        if (r.status !== 200) missing.push(id);
      }
      expect(missing).toEqual([]);
      const total = (await (
        await fetch(`${second.url}/sessions?limit=0&includeTotal=true`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { totalCount: number };
      // Some creates may have committed without their answer reaching us: never fewer.
      expect(total.totalCount).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  }, 90_000);
});
