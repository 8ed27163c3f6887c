import type { Pg } from './client';
import { OUTBOX_CHANNEL } from './migrations';

/**
 * Calls `onNew` whenever any instance commits new outbox events (`LISTEN`), and once more each
 * time the listening connection comes back after a break, since notices sent meanwhile are lost.
 * Resolves once listening; the function it gives stops it.
 *
 * @example
 * const stop = await watchOutbox(store.pg, () => dispatcher.wake());
 * await stop();
 */
export async function watchOutbox(pg: Pg, onNew: () => void): Promise<() => Promise<void>> {
  let first = true;
  const listening = await pg.listen(OUTBOX_CHANNEL, onNew, () => {
    if (first) first = false;
    else onNew();
  });
  return () => listening.unlisten();
}
