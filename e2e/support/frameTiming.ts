import type { BrowserContext, Page, Request } from '@playwright/test';

/** One frame of a liveness attempt as the page handled it, wall-clock milliseconds. */
export interface FrameTiming {
  role: string;
  /** When the page took the frame (its `toBlob` call). */
  taken: number;
  /** When its JPEG was ready. */
  encoded: number;
  /** When its upload was sent (after the frames before it). */
  sent: number;
  /** When the server answered the upload. */
  answered: number;
}

export interface AttemptTiming {
  frames: FrameTiming[];
  /** When `finish` was sent and answered. */
  finish?: { sent: number; answered: number };
  /** When the page's poll first read the attempt as decided. */
  decidedSeen?: number;
}

type Posted = {
  kind: 'frame' | 'finish' | 'poll';
  role?: string;
  sent: number;
  answered: number;
  decided?: boolean;
};

/**
 * Records where a camera page's time goes (`E2E_TIMING=1` in the liveness specs): when each frame
 * was taken and encoded (a wrapped `HTMLCanvasElement.toBlob`: the page encodes only the frames it
 * sends), when its upload left and was answered, `finish`, and the first poll that read the
 * attempt decided. Call before the context's first page; `collect(page)` once the node is decided.
 *
 * @example
 * const timing = frameTiming(context);
 * const page = await context.newPage();
 * // … the capture …
 * console.log(await timing.collect(page));
 */
export function frameTiming(context: BrowserContext): {
  collect(page: Page): Promise<AttemptTiming>;
} {
  void context.addInitScript(() => {
    const w = window as unknown as { __encodes: [number, number][] };
    w.__encodes = [];
    const original = HTMLCanvasElement.prototype.toBlob;
    HTMLCanvasElement.prototype.toBlob = function (callback, ...rest) {
      const row: [number, number] = [Date.now(), 0];
      w.__encodes.push(row);
      original.call(
        this,
        (blob) => {
          row[1] = Date.now();
          callback(blob);
        },
        ...rest,
      );
    };
  });
  const posted: Posted[] = [];
  const pending: Promise<void>[] = [];
  const onFinished = (r: Request) => {
    const url = r.url();
    if (!url.includes('/liveness/')) return;
    const kind = url.endsWith('/frames')
      ? 'frame'
      : url.endsWith('/finish')
        ? 'finish'
        : r.method() === 'GET'
          ? 'poll'
          : null;
    if (!kind) return;
    const t = r.timing();
    const row: Posted = { kind, sent: t.startTime, answered: t.startTime + t.responseEnd };
    if (kind === 'frame') row.role = (r.postDataJSON() as { role?: string }).role;
    posted.push(row);
    if (kind !== 'frame') {
      pending.push(
        r
          .response()
          .then((res) => res?.json())
          .then((body: { status?: string } | undefined) => {
            row.decided = body?.status === 'decided';
          })
          .catch(() => undefined),
      );
    }
  };
  context.on('requestfinished', onFinished);
  return {
    async collect(page) {
      await Promise.all(pending);
      context.off('requestfinished', onFinished);
      const encodes = await page.evaluate(
        () => (window as unknown as { __encodes: [number, number][] }).__encodes,
      );
      const uploads = posted.filter((p) => p.kind === 'frame').sort((a, b) => a.sent - b.sent);
      // Frames are encoded and uploaded in the order taken, one upload at a time.
      const frames = uploads.map((u, k) => ({
        role: u.role ?? '?',
        taken: encodes[k]?.[0] ?? NaN,
        encoded: encodes[k]?.[1] ?? NaN,
        sent: Math.round(u.sent),
        answered: Math.round(u.answered),
      }));
      const finish = posted.find((p) => p.kind === 'finish');
      const decided = posted.filter((p) => p.decided).sort((a, b) => a.answered - b.answered)[0];
      return {
        frames,
        ...(finish
          ? { finish: { sent: Math.round(finish.sent), answered: Math.round(finish.answered) } }
          : {}),
        ...(decided ? { decidedSeen: Math.round(decided.answered) } : {}),
      };
    },
  };
}

/**
 * The summary of an attempt's timing: from the page taking its last challenge frame to seeing
 * the decision, and where that went (encoding, waiting behind earlier uploads, the upload
 * itself, from its answer to `finish`, from `finish` to the decision seen).
 *
 * @example
 * summarise(await timing.collect(page)); // { lastChallengeToDecision: 2650, queued: 1200, … }
 */
export function summarise(a: AttemptTiming): Record<string, number> | null {
  const last = a.frames.filter((f) => f.role === 'challenge').at(-1);
  if (!last || !a.finish || a.decidedSeen === undefined) return null;
  return {
    lastChallengeToDecision: a.decidedSeen - last.taken,
    encoding: last.encoded - last.taken,
    queuedBehindUploads: last.sent - last.encoded,
    upload: last.answered - last.sent,
    toFinish: a.finish.sent - last.answered,
    finishToDecisionSeen: a.decidedSeen - a.finish.sent,
    framesAfterIt: a.frames.filter((f) => f.taken > last.taken).length,
    frames: a.frames.length,
  };
}
