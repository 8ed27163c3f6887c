import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceAnalyzer } from './analyzer';
import { CRASH } from './test-support';
import { createThreadedAnalyzer } from './threaded-analyzer';

const photo = resolve(__dirname, '../../../.tmp/fixtures/astronaut.png');
if (!existsSync(photo)) console.warn('threaded-analyzer.test: skipped, run npm run fixtures');

/** Resolves after `n` turns of the event loop, each one a `setImmediate`. */
const turns = (n: number) =>
  new Promise<void>((done) => {
    const next = (left: number) => (left === 0 ? done() : setImmediate(() => next(left - 1)));
    next(n);
  });

describe.skipIf(!existsSync(photo))('createThreadedAnalyzer', () => {
  let analyzer: FaceAnalyzer;
  const bytes = () => readFileSync(photo);

  beforeAll(async () => {
    analyzer = createThreadedAnalyzer({
      module: new URL('./test-support.ts', import.meta.url).href,
    });
    await analyzer.load();
  });
  afterAll(() => analyzer.close());

  it('leaves the event loop free while a frame is analysed', async () => {
    const order: string[] = [];
    const analysis = analyzer.analyze(bytes()).then((r) => order.push(`faces ${r.faces.length}`));
    // Timers and I/O (requests, job leases) run in turns of the loop; on the loop, tfjs held
    // it for the whole frame, so none of these turns came before the answer.
    const loop = Promise.all([turns(50), new Promise((r) => setTimeout(r, 0))]).then(() =>
      order.push('50 turns and a timer'),
    );
    await Promise.all([analysis, loop]);
    expect(order).toEqual(['50 turns and a timer', 'faces 1']);
  });

  it("leaves the caller's bytes as they were (the thread gets its own copy)", async () => {
    const frame = bytes();
    const before = Buffer.from(frame);
    await analyzer.analyze(frame);
    expect(frame.byteLength).toBe(before.byteLength);
    expect(Buffer.compare(frame, before)).toBe(0);
  });

  it('answers concurrent calls each with its own frame', async () => {
    const [face, none, bad] = await Promise.allSettled([
      analyzer.analyze(bytes()),
      analyzer.analyze(readFileSync(join(__dirname, '../../../.tmp/fixtures/coffee.png'))),
      analyzer.analyze(new TextEncoder().encode('hello')),
    ]);
    expect(face.status === 'fulfilled' && face.value.faces.length).toBe(1);
    expect(none.status === 'fulfilled' && none.value.faces.length).toBe(0);
    expect(bad.status === 'rejected' && (bad.reason as Error).name).toBe('ImageDecodeError');
  });

  it('fails the calls of a thread that dies, and starts another on the next call', async () => {
    await expect(analyzer.analyze(CRASH)).rejects.toThrow(
      'the face analysis thread stopped (exit code 70)',
    );
    const r = await analyzer.analyze(bytes());
    expect(r.faces).toHaveLength(1);
  });

  it('answers what was asked before closing, and starts again when asked after', async () => {
    const pending = analyzer.analyze(bytes());
    await analyzer.close();
    expect((await pending).faces).toHaveLength(1);
    expect((await analyzer.analyze(bytes())).faces).toHaveLength(1);
  });
});
