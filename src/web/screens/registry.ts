import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { NodeType } from '../api/types';
import type { ScreenProps } from './types';

type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

// Each screen is its own chunk, fetched when its node comes: the first screen's JavaScript holds
// none of the others (and nothing camera-related).
const loaders = {
  permissions: () => import('./PermissionsScreen'),
  conversation: () => import('./ConversationScreen'),
  enter_email: () => import('./EnterEmailScreen'),
  two_factor_email: () => import('./TwoFactorEmailScreen'),
  two_factor_sms: () => import('./TwoFactorSmsScreen'),
  liveness_detection: () => import('./LivenessScreen'),
  document_scan: () => import('./DocumentScanScreen'),
  face_scan: () => import('./FaceScanScreen'),
  face_compare: () => import('./FaceCompareScreen'),
  recognition: () => import('./RecognitionScreen'),
  data_validation: () => import('./WaitScreen'),
  start: () => import('./WaitScreen'),
  end: () => import('./WaitScreen'),
} satisfies Record<NodeType, () => Promise<{ default: ComponentType<ScreenProps> }>>;

const screens = Object.fromEntries(
  Object.entries(loaders).map(([type, load]) => [type, lazy(load)]),
) as Record<NodeType, Screen>;

// Screens whose code has arrived. Rendering one of these directly, rather than through `lazy`,
// spares a suspension, which React holds back for up to 300 ms before it shows the content.
const loaded: Partial<Record<NodeType, ComponentType<ScreenProps>>> = {};

/**
 * The screen component of a node type: the component itself once its code is here, else a lazy
 * one that suspends until it is.
 *
 * @example
 * const Screen = screenFor('enter_email');
 */
export function screenFor(type: NodeType): ComponentType<ScreenProps> {
  return loaded[type] ?? screens[type];
}

/**
 * Fetches a node type's screen (once) and keeps it ready for `screenFor`.
 *
 * @example
 * await loadScreen('permissions');
 */
export async function loadScreen(type: NodeType): Promise<void> {
  if (loaded[type]) return;
  loaded[type] = (await loaders[type]()).default;
}

/**
 * Starts downloading a node type's screen before it is needed (for the node that comes next).
 *
 * @example
 * prefetchScreen('two_factor_email');
 */
export function prefetchScreen(type: NodeType): void {
  loadScreen(type).catch(() => {
    // A failed prefetch is retried when the screen is really needed.
  });
}
