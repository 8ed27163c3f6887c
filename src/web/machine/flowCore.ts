import type { FlowCore } from './followFlow';

// The flow core carries the TypeBox schemas of every node type (about 30 KB gzip). The first
// screen follows the server's position without it; the download starts at boot, alongside the
// exchange, and the replay check runs as soon as it lands.
let loaded: FlowCore | null = null;

/**
 * Starts loading `src/core/flow` (once) and resolves with it.
 *
 * @example
 * loadFlowCore().then((core) => core.startFlow(flow));
 */
export function loadFlowCore(): Promise<FlowCore> {
  return (pending ??= import('../../core/flow').then((core) => (loaded = core)));
}
let pending: Promise<FlowCore> | null = null;

/**
 * The flow core if it has arrived, else null.
 *
 * @example
 * flowCoreIfLoaded()?.advanceFlow(flow, position, step);
 */
export function flowCoreIfLoaded(): FlowCore | null {
  return loaded;
}
