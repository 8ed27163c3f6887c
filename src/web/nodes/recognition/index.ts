import type { PageKind } from '../kind';
import { cameraOnly } from '../kind';

/** A recognition node: the server looks for the session's face among earlier ones. */
export const recognitionPage = {
  type: 'recognition',
  screen: () => import('./RecognitionScreen'),
  devices: cameraOnly,
} satisfies PageKind<'recognition'>;
