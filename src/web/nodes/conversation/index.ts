import type { PageKind } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/**
 * A conversation node: the guide's prompt and the user's answer, spoken where the browser can
 * recognise speech.
 */
export const conversationPage = {
  type: 'conversation',
  screen: () => import('./ConversationScreen'),
  // Typing always works; the microphone only where speech can be recognised and a reply is due.
  devices: (node, abilities) => ({
    camera: false,
    microphone: abilities.speechRecognition && node.doesNotRequireReply !== true,
  }),
  actor: serverOutcome(),
} satisfies PageKind<'conversation'>;
