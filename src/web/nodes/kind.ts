import type { ComponentType } from 'react';
import type { AnyActorLogic } from 'xstate';
import type { NodeActorLogic, WorkNodeType } from '../../core/flow';
import type { NodeByType, NodeType } from '../api/types';
import type { ScreenProps } from '../screens/types';

/** Camera and microphone, as a node needs them or as they have been asked for. */
export interface Devices {
  camera: boolean;
  microphone: boolean;
}

/** What the browser can do, as far as the choice of devices goes. */
export interface BrowserAbilities {
  /** `SpeechRecognition` (or its webkit name) exists: conversation answers can be spoken. */
  speechRecognition: boolean;
}

/** The module a kind's screen chunk exports: the screen as its default export. */
export interface ScreenModule<T extends NodeType> {
  default: ComponentType<ScreenProps<T>>;
}

/**
 * The page side of one node kind (`src/web/nodes/<type>/index.ts`), listed in `PAGE_KINDS`. It
 * holds only what the page needs before the kind's screen arrives; the screen, and anything
 * heavy, comes with `screen()`, its own chunk. The flow core's kind (`src/core/flow/kinds/`) holds
 * the rest (schema, outcomes, who decides them).
 *
 * A kind whose node is a state with work (all but start and end) gives the actor that state
 * invokes in the flow machine the page runs (`machine.provide({ actors: { [type]: actor } })`,
 * `machine/flowRunner.ts`).
 *
 * @example
 * export const recognitionPage = {
 *   type: 'recognition',
 *   screen: () => import('./RecognitionScreen'),
 *   devices: cameraOnly,
 *   actor: serverOutcome(),
 * } satisfies PageKind<'recognition'>;
 */
export type PageKind<T extends NodeType = NodeType> = PageKindParts<T> &
  (T extends WorkNodeType
    ? {
        /**
         * The actor a node of the kind invokes in the flow machine: it ends with the outcome the
         * server decided (`machine/serverOutcome.ts`).
         */
        readonly actor: NodeActorLogic<T>;
      }
    : { readonly actor?: never });

/** What every page kind holds. */
export interface PageKindParts<T extends NodeType = NodeType> {
  readonly type: T;
  /** Fetches the kind's screen chunk (once; the registry keeps it). */
  screen(): Promise<ScreenModule<T>>;
  /**
   * The devices a node of the kind needs. Left out: none. A kind that needs one may have the
   * page ask for it in front of the node, in a flow without a permissions node before it.
   */
  devices?(node: NodeByType[T], abilities: BrowserAbilities): Devices;
  /**
   * For the kind whose screen asks for devices (permissions): the devices a node of it asks for.
   * Its screen also asks in front of nodes that need a device nobody asked for.
   */
  asks?(node: NodeByType[T]): Devices;
}

/** A page kind of any type, as the tables see it. */
export interface AnyPageKind {
  readonly type: string;
  screen(): Promise<{ default: ComponentType<never> }>;
  devices?(node: never, abilities: BrowserAbilities): Devices;
  asks?(node: never): Devices;
  actor?: AnyActorLogic;
}

/**
 * The camera alone: what the camera kinds need.
 * @example cameraOnly() // { camera: true, microphone: false }
 */
export function cameraOnly(): Devices {
  return { camera: true, microphone: false };
}
