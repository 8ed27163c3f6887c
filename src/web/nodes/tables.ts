import type { ComponentType } from 'react';
import type { AnyActorLogic } from 'xstate';
import type { FlowNode } from '../api/types';
import type { ScreenProps } from '../screens/types';
import type { AnyPageKind, BrowserAbilities, Devices } from './kind';

type Loader = () => Promise<{ default: ComponentType<ScreenProps> }>;

/** The page's tables of node types, each derived from the page kinds. */
export interface PageTables {
  /** Each type's screen chunk. */
  loaders: Record<string, Loader>;
  /** The devices each type needs, for the types that need some. */
  devices: Record<string, (node: FlowNode, abilities: BrowserAbilities) => Devices>;
  /** The devices a node asks for itself, for the kind whose screen asks (permissions). */
  asks: Record<string, (node: FlowNode) => Devices>;
  /** The type whose screen asks for devices, also in front of other nodes. */
  asker: string | null;
  /** The actor each work type's node invokes in the flow machine. */
  actors: Record<string, AnyActorLogic>;
}

/**
 * Derives the page's tables of node types (screens, devices, the flow machine's actors) from a
 * list of page kinds; a kind listed twice, or a second kind that asks for devices, is refused.
 * `nodes/index.ts` calls it with `PAGE_KINDS`; the recipe test calls it with a toy kind added.
 * @example pageTables([recognitionPage]).devices.recognition // the camera
 */
export function pageTables(kinds: readonly AnyPageKind[]): PageTables {
  const t: PageTables = { loaders: {}, devices: {}, asks: {}, asker: null, actors: {} };
  for (const kind of kinds) {
    const type = kind.type;
    if (Object.hasOwn(t.loaders, type)) throw new Error(`page kind '${type}' is listed twice`);
    // Each entry is reached only with a node of its own type (registry.ts, devices.ts).
    t.loaders[type] = kind.screen as Loader;
    if (kind.devices) t.devices[type] = kind.devices as PageTables['devices'][string];
    if (kind.actor) t.actors[type] = kind.actor;
    if (kind.asks) {
      if (t.asker !== null)
        throw new Error(`page kinds '${t.asker}' and '${type}' both ask for devices`);
      t.asks[type] = kind.asks as PageTables['asks'][string];
      t.asker = type;
    }
  }
  return t;
}
