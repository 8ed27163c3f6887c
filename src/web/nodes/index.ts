/**
 * The page side of the node kinds, one folder each (`nodes/<type>/`), and the page's tables of
 * node types derived from them. Adding a kind: docs/flows.md, "Adding a node kind".
 */
import type { NodeActors } from '../../core/flow';
import type { NodeType } from '../api/types';
import { conversationPage } from './conversation';
import { dataValidationPage } from './data_validation';
import { documentScanPage } from './document_scan';
import { endPage } from './end';
import { enterEmailPage } from './enter_email';
import { externalCallPage } from './external_call';
import { faceComparePage } from './face_compare';
import { faceScanPage } from './face_scan';
import { fieldConditionPage } from './field_condition';
import type { PageKind } from './kind';
import { livenessDetectionPage } from './liveness_detection';
import { permissionsPage } from './permissions';
import { recognitionPage } from './recognition';
import { startPage } from './start';
import { pageTables } from './tables';
import { twoFactorEmailPage } from './two_factor_email';
import { twoFactorSmsPage } from './two_factor_sms';

/** The page kind of every node type of the flow core: one missing, or one too many, does not compile. */
export const PAGE_KINDS = {
  start: startPage,
  end: endPage,
  conversation: conversationPage,
  recognition: recognitionPage,
  liveness_detection: livenessDetectionPage,
  document_scan: documentScanPage,
  face_scan: faceScanPage,
  face_compare: faceComparePage,
  enter_email: enterEmailPage,
  two_factor_email: twoFactorEmailPage,
  two_factor_sms: twoFactorSmsPage,
  data_validation: dataValidationPage,
  permissions: permissionsPage,
  field_condition: fieldConditionPage,
  external_call: externalCallPage,
} satisfies { readonly [T in NodeType]: PageKind<T> };

/** The page's tables (screens, devices, actors), derived from `PAGE_KINDS`. */
export const PAGE_TABLES = pageTables(Object.values(PAGE_KINDS));

/** The node type whose screen asks for devices, also in front of nodes that need one. */
export const DEVICE_ASKER = PAGE_TABLES.asker as NodeType | null;

/**
 * The actor of every work kind, from its page module: what the page's flow machine invokes in each
 * node state (`machine/flowRunner.ts` supplies them with `.provide()`).
 */
// Keyed by type at run time; `PageKind` makes each work kind give the actor of its own type.
export const PAGE_ACTORS = PAGE_TABLES.actors as NodeActors;
