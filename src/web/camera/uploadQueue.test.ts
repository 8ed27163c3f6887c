import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUploadQueue, type UploadProgress } from './uploadQueue';

class Retryable extends Error {}
class Refused extends Error {}

/** A server that answers each send when told to, so the test decides the interleaving. */
function controlledServer() {
  const calls: { item: number; resolve(): void; reject(e: Error): void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = (item: number) =>
    new Promise<void>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const done = () => inFlight--;
      calls.push({
        item,
        resolve: () => (done(), resolve()),
        reject: (e) => (done(), reject(e)),
      });
    });
  return { calls, send, maxInFlight: () => maxInFlight };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createUploadQueue', () => {
  it('sends in push order, one request at a time, while more are pushed', async () => {
    const server = controlledServer();
    const queue = createUploadQueue({ send: server.send, retryable: () => false });
    queue.push(1);
    queue.push(2);
    await tick();
    expect(server.calls.map((c) => c.item)).toEqual([1]);
    queue.push(3);
    server.calls[0]!.resolve();
    await tick();
    expect(server.calls.map((c) => c.item)).toEqual([1, 2]);
    server.calls[1]!.resolve();
    await tick();
    server.calls[2]!.resolve();
    expect(await queue.drained()).toEqual({
      sent: 3,
      dropped: 0,
      pending: 0,
      failing: 0,
      abandoned: 0,
    });
    expect(server.maxInFlight()).toBe(1);
  });

  it('keeps the order for any mix of pushes and answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), async (plan) => {
        const order: number[] = [];
        let inFlight = 0;
        let most = 0;
        const queue = createUploadQueue<number>({
          send: async (n) => {
            inFlight++;
            most = Math.max(most, inFlight);
            await tick();
            order.push(n);
            inFlight--;
          },
          retryable: () => false,
        });
        // true: push now; false: let the queue run a little first.
        let n = 0;
        for (const pushNow of plan) {
          if (!pushNow) await tick();
          queue.push(n++);
        }
        await queue.drained();
        expect(order).toEqual(Array.from({ length: n }, (_, i) => i));
        expect(most).toBe(1);
      }),
      { numRuns: 30 },
    );
  });

  it('retries a retryable failure with growing waits, then goes on in order', async () => {
    const waits: number[] = [];
    const tries: number[] = [];
    let failuresLeft = 7;
    const queue = createUploadQueue<number>({
      send: async (n) => {
        tries.push(n);
        if (n === 1 && failuresLeft-- > 0) throw new Retryable('offline');
      },
      retryable: (e) => e instanceof Retryable,
      retryDelaysMs: [10, 20, 40],
      maxTries: 10,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    queue.push(1);
    queue.push(2);
    expect(await queue.drained()).toEqual({
      sent: 2,
      dropped: 0,
      pending: 0,
      failing: 0,
      abandoned: 0,
    });
    // The last wait repeats past the end of the list.
    expect(waits).toEqual([10, 20, 40, 40, 40, 40, 40]);
    expect(tries).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 2]);
  });

  it('drops an item the server refuses and sends the next', async () => {
    const seen: number[] = [];
    const queue = createUploadQueue<number>({
      send: async (n) => {
        seen.push(n);
        if (n === 2) throw new Refused('too big');
      },
      retryable: (e) => e instanceof Retryable,
    });
    [1, 2, 3].forEach((n) => queue.push(n));
    expect(await queue.drained()).toEqual({
      sent: 2,
      dropped: 1,
      pending: 0,
      failing: 0,
      abandoned: 0,
    });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('reports a struggling connection while it retries', async () => {
    const seen: UploadProgress[] = [];
    let fail = 2;
    const queue = createUploadQueue<number>({
      send: async () => {
        if (fail-- > 0) throw new Retryable('offline');
      },
      retryable: () => true,
      sleep: async () => {},
      onProgress: (p) => seen.push(p),
    });
    queue.push(1);
    await queue.drained();
    expect(seen.map((p) => p.failing)).toEqual([0, 1, 2, 0]);
    expect(seen.at(-1)).toEqual({ sent: 1, dropped: 0, pending: 0, failing: 0, abandoned: 0 });
  });

  it('resolves drained at once when nothing was pushed, and again after more', async () => {
    const queue = createUploadQueue<number>({ send: async () => {}, retryable: () => false });
    expect(await queue.drained()).toEqual({
      sent: 0,
      dropped: 0,
      pending: 0,
      failing: 0,
      abandoned: 0,
    });
    queue.push(1);
    expect((await queue.drained()).sent).toBe(1);
  });

  it('stops: the item in flight is not counted, nothing more is sent, drained resolves', async () => {
    const server = controlledServer();
    const queue = createUploadQueue({ send: server.send, retryable: () => true });
    queue.push(1);
    queue.push(2);
    await tick();
    const drained = queue.drained();
    queue.stop();
    expect(await drained).toEqual({ sent: 0, dropped: 0, pending: 0, failing: 0, abandoned: 2 });
    server.calls[0]!.resolve();
    queue.push(3);
    await tick();
    expect(server.calls.map((c) => c.item)).toEqual([1]);
  });

  it('stops retrying once stopped', async () => {
    let tries = 0;
    let release: () => void = () => {};
    const queue = createUploadQueue<number>({
      send: async () => {
        tries++;
        throw new Retryable('offline');
      },
      retryable: () => true,
      sleep: () => new Promise<void>((r) => (release = r)),
    });
    queue.push(1);
    await tick();
    queue.stop();
    release();
    await tick();
    expect(tries).toBe(1);
  });
});

// The throttled run's page stayed on "Sending the pictures…" for 180 s (issue 21): the flow waits
// for the queue before it asks for the decision, so no upload may hold the queue for ever.
describe('createUploadQueue when the server does not answer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A server whose answer to each try is decided by `answer(item, tryNumber)`. */
  function server(answer: (item: number, n: number) => 'ok' | 'hang' | 'retryable' | number) {
    const tries: number[] = [];
    const signals: AbortSignal[] = [];
    const send = (item: number, signal: AbortSignal) => {
      tries.push(item);
      signals.push(signal);
      const a = answer(item, tries.filter((t) => t === item).length);
      if (a === 'ok') return Promise.resolve();
      if (a === 'retryable') return Promise.reject(new Retryable('503'));
      // Never settles, even when aborted: the queue may not rely on `send` honouring the signal.
      if (a === 'hang') return new Promise<void>(() => {});
      return new Promise<void>((resolve) => setTimeout(resolve, a));
    };
    return { tries, signals, send };
  }

  it('times out a try that never settles, retries it a bounded number of times, then goes on', async () => {
    vi.useFakeTimers();
    const s = server((item) => (item === 1 ? 'hang' : 'ok'));
    const queue = createUploadQueue<number>({
      send: s.send,
      retryable: () => false,
      timeoutMs: 5_000,
      maxTries: 3,
      retryDelaysMs: [100],
    });
    queue.push(1);
    queue.push(2);
    let done: UploadProgress | null = null;
    void queue.drained().then((p) => (done = p));
    await vi.advanceTimersByTimeAsync(3 * 5_000 + 2 * 100);
    expect(done).toEqual({ sent: 1, dropped: 1, pending: 0, failing: 0, abandoned: 0 });
    expect(s.tries).toEqual([1, 1, 1, 2]);
    // Each timed-out try's request was told to let go.
    expect(s.signals.slice(0, 3).map((x) => x.aborted)).toEqual([true, true, true]);
    expect(s.signals[3]!.aborted).toBe(false);
  });

  it('counts an answer that comes after the timeout as a failed try, and the retry as sent', async () => {
    vi.useFakeTimers();
    const s = server((_, n) => (n === 1 ? 20_000 : 'ok'));
    const queue = createUploadQueue<number>({
      send: s.send,
      retryable: () => false,
      timeoutMs: 5_000,
      retryDelaysMs: [100],
    });
    queue.push(1);
    const drained = queue.drained();
    await vi.advanceTimersByTimeAsync(5_100);
    expect(await drained).toEqual({ sent: 1, dropped: 0, pending: 0, failing: 0, abandoned: 0 });
    expect(s.tries).toEqual([1, 1]);
  });

  it('drops an item whose retryable failures go on, after maxTries', async () => {
    const s = server(() => 'retryable');
    const queue = createUploadQueue<number>({
      send: s.send,
      retryable: (e) => e instanceof Retryable,
      maxTries: 4,
      sleep: async () => {},
    });
    queue.push(1);
    expect(await queue.drained()).toEqual({
      sent: 0,
      dropped: 1,
      pending: 0,
      failing: 0,
      abandoned: 0,
    });
    expect(s.tries).toEqual([1, 1, 1, 1]);
  });

  it('drained(withinMs) resolves by then with what arrived, abandoning the rest', async () => {
    vi.useFakeTimers();
    const s = server((item) => (item === 2 ? 'hang' : 'ok'));
    const queue = createUploadQueue<number>({
      send: s.send,
      retryable: () => false,
      timeoutMs: 60_000,
    });
    [1, 2, 3].forEach((n) => queue.push(n));
    let done: UploadProgress | null = null;
    void queue.drained(8_000).then((p) => (done = p));
    await vi.advanceTimersByTimeAsync(7_999);
    expect(done).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toEqual({ sent: 1, dropped: 0, pending: 0, failing: 0, abandoned: 2 });
    // The request in flight is aborted and nothing more goes out.
    expect(s.signals[1]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(s.tries).toEqual([1, 2]);
  });

  it('drained(withinMs) resolves as soon as all is sent, and the queue goes on working', async () => {
    vi.useFakeTimers();
    const s = server(() => 'ok');
    const queue = createUploadQueue<number>({ send: s.send, retryable: () => false });
    queue.push(1);
    await vi.advanceTimersByTimeAsync(0);
    expect((await queue.drained(8_000)).sent).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    queue.push(2);
    expect((await queue.drained()).sent).toBe(2);
  });
});
