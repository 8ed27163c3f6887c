import { lazy, type ComponentType } from 'react';
import type { NodeType } from '../api/types';
import type { ScreenProps } from '../screens/types';
import { PAGE_TABLES } from '.';
import type { PageTables } from './tables';

/** The screens of the node kinds, fetched when needed. */
export interface ScreenRegistry {
  /**
   * The screen component of a node type: the component itself once its code is here, else a
   * lazy one that suspends until it is.
   */
  screenFor<T extends NodeType>(type: T): ComponentType<ScreenProps<T>>;
  /** Fetches a node type's screen (once) and keeps it ready for `screenFor`. */
  loadScreen(type: NodeType): Promise<void>;
  /** Starts downloading a node type's screen before it is needed (for the node that comes next). */
  prefetchScreen(type: NodeType): void;
}

/**
 * The registry of the screens in `tables.loaders`. Each screen is its own chunk, fetched when its
 * node comes: the first screen's JavaScript holds none of the others (and nothing camera-related).
 *
 * @example
 * const { screenFor } = screenRegistry(PAGE_TABLES);
 */
export function screenRegistry(tables: PageTables): ScreenRegistry {
  const screens = Object.fromEntries(
    Object.entries(tables.loaders).map(([type, load]) => [type, lazy(load)]),
  );
  // Screens whose code has arrived. Rendering one of these directly, rather than through `lazy`,
  // spares a suspension, which React holds back for up to 300 ms before it shows the content.
  const loaded: Partial<Record<string, ComponentType<ScreenProps>>> = {};
  const loadScreen = async (type: NodeType) => {
    if (loaded[type]) return;
    const load = tables.loaders[type];
    if (!load) throw new Error(`no screen for node type '${type}'`);
    loaded[type] = (await load()).default;
  };
  return {
    // A type's entry is only ever drawn with a node of that type (App.tsx).
    screenFor: <T extends NodeType>(type: T) =>
      (loaded[type] ?? screens[type]) as ComponentType<ScreenProps<T>>,
    loadScreen,
    prefetchScreen: (type) => {
      loadScreen(type).catch(() => {
        // A failed prefetch is retried when the screen is really needed.
      });
    },
  };
}

/**
 * The screens showing a node of this type may need: its own, and the screen that asks for
 * devices when the page may ask in front of it (its kind needs a device).
 *
 * @example
 * screensFor('liveness_detection'); // ['liveness_detection', 'permissions']
 */
export function screensFor(type: NodeType, tables: PageTables = PAGE_TABLES): NodeType[] {
  const asker = tables.asker as NodeType | null;
  return asker && type !== asker && Object.hasOwn(tables.devices, type) ? [type, asker] : [type];
}

/**
 * The page's screen registry, from `PAGE_KINDS`.
 *
 * @example
 * const Screen = screenFor('enter_email');
 * await loadScreen('permissions');
 * prefetchScreen('two_factor_email');
 */
export const { screenFor, loadScreen, prefetchScreen } = screenRegistry(PAGE_TABLES);
