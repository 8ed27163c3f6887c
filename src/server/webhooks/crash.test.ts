import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../sdk/handler';
import { createWebhookDispatcher } from './dispatcher';
import { registerEndpoint } from './endpoints';
import { createSqliteWebhookStore } from './sqlite-store';
import { openTempStore, startReceiver, type Receiver, type TempStore } from './test-support';
import { promised } from '../store/promised';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const EVENTS = 60;

let child: ChildProcess | undefined;
let temp: TempStore | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await receiver?.close();
  await temp?.close();
});

function spawnDispatcher(file: string): Promise<ChildProcess> {
  const p = spawn(process.execPath, ['--import', 'tsx', CHILD, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CHILD_TIMEOUT_MS: '2000', CHILD_LEASE_MARGIN_MS: '500' },
  });
  return new Promise((resolve, reject) => {
    p.once('error', reject);
    p.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(p);
    });
  });
}

describe('a dispatcher killed with kill -9 in the middle of deliveries', () => {
  it('loses no event: another dispatcher resumes, and the SDK removes the duplicates', async () => {
    temp = openTempStore();
    const store = createSqliteWebhookStore(temp.db);
    const processed: string[] = [];
    let duplicates = 0;
    // The handler is made once the endpoint (and so its secret) exists.
    const receiving: { handle?: ReturnType<typeof createWebhookHandler> } = {};

    let phase: 'before' | 'frozen' | 'after' = 'before';
    let frozen = 0;
    let killed!: () => void;
    const killedNow = new Promise<void>((r) => (killed = r));
    receiver = await startReceiver((req, res) => {
      // Until the kill: the first 10 are answered; after that each event is processed but its
      // answer never leaves (as if the dispatcher died before reading it).
      const hold = phase === 'frozen' || (phase === 'before' && processed.length >= 10);
      void receiving.handle!({ rawBody: req.body, headers: req.headers }).then((r) => {
        if ('received' in r.body && r.body.duplicate) duplicates++;
        if (hold) {
          phase = 'frozen';
          if (++frozen === 4) killed();
          return;
        }
        res.statusCode = r.status;
        res.end(JSON.stringify(r.body));
      });
      return 'handled';
    });
    const reg = await registerEndpoint(promised(store), {
      accountId: 'acct_a',
      mode: 'test',
      url: receiver.url,
      policy: 'local',
      now: Date.now(),
    });
    if (!reg.ok) throw new Error(reg.problems.join());
    receiving.handle = createWebhookHandler({
      secret: reg.secret,
      onEvent: (e) => void processed.push(e.id),
    });
    const ids = Array.from({ length: EVENTS }, () => temp!.event());

    child = await spawnDispatcher(temp.path);
    await killedNow;
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    phase = 'after';
    const before = new Set(processed);
    expect(before.size).toBeGreaterThanOrEqual(14);
    expect(before.size).toBeLessThan(EVENTS);

    const d = createWebhookDispatcher({ store, pollIntervalMs: 20, timeoutMs: 2_000 });
    d.start();
    const allDelivered = () =>
      ids.every((id) => store.getEvent(id)!.deliveries[0]?.status === 'delivered');
    try {
      // The frozen deliveries are still leased by the dead process: they come again when the
      // lease ends (timeout + margin), as duplicates of events the receiver already processed.
      const until = Date.now() + 15_000;
      while (!allDelivered() && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await d.stop();
    }
    expect(new Set(processed)).toEqual(new Set(ids));
    expect(processed).toHaveLength(EVENTS); // each processed once
    expect(duplicates).toBeGreaterThanOrEqual(4); // the frozen ones came again and were removed
    expect(allDelivered()).toBe(true);
  });
});
