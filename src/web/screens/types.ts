import type { ClientApi } from '../api/client';
import type { NodeByType, NodeType, PublicSession } from '../api/types';
import type { PageEvent } from '../machine/pageMachine';
import type { Devices } from '../nodes/kind';

/** What every node screen is given: a node of its kind (`T`), or of any kind for shared screens. */
export interface ScreenProps<T extends NodeType = NodeType> {
  node: NodeByType[T];
  session: PublicSession;
  lang: string;
  api: ClientApi;
  /** Sends an event to the page machine (a new position, words said, a fatal error). */
  send(event: PageEvent): void;
  /** The address typed at an earlier enter_email node, if any. */
  enteredEmail: string | null;
  /** Set when the page asks for devices in front of a node (a flow with no permissions node). */
  implicitAsk?: Devices;
}
