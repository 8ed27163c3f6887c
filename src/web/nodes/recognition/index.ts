import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';
import { serverOutcome } from '../../machine/serverOutcome';

/** A recognition node: the server looks for the session's face among earlier ones. */
export const recognitionPage = {
  type: 'recognition',
  screen: () => import('./RecognitionScreen'),
  devices: cameraOnly,
  actor: serverOutcome(),
} satisfies PageKind<'recognition'>;
