import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** An external_call node: the server calls the integrator's endpoint when the page asks it to. */
export const externalCallPage = {
  type: 'external_call',
  screen: () => import('./ExternalCallScreen'),
  actor: serverOutcome(),
} satisfies PageKind<'external_call'>;
