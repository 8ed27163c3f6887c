import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import { BoundedInteger, fixedOutcomes, nodeSchema } from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

export const DOCUMENT_TYPES = ['passport', 'id', 'dl'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The server reads the document; the user may cancel; the server enforces the time limit. */
const OUTCOMES = {
  scanSuccess: { decidedBy: 'analysis', failing: false },
  userCancelled: { decidedBy: 'user', failing: true },
  scanTimeout: { decidedBy: 'server', failing: true },
} as const satisfies OutcomeRules;

/** Captures an identity document and reads its machine-readable zone. */
export const DocumentScanNodeSchema = nodeSchema(
  'document_scan',
  {
    allowedDocumentTypes: Type.Optional(
      Type.Array(Type.Union(DOCUMENT_TYPES.map((t) => Type.Literal(t))), {
        minItems: 1,
        uniqueItems: true,
        description: 'passport, id (ID card) and/or dl (driving licence). All by default.',
      }),
    ),
    scanningMode: Type.Optional(
      Type.Union([Type.Literal('single'), Type.Literal('automatic')], {
        default: 'single',
        description: 'single: one side; automatic: front and back where the document has both.',
      }),
    ),
    showTorchButton: Type.Optional(Type.Boolean({ default: true })),
    showCameraSwitch: Type.Optional(Type.Boolean({ default: true })),
    showMirrorCameraButton: Type.Optional(Type.Boolean({ default: true })),
    timeoutSeconds: Type.Optional(
      BoundedInteger(FLOW_LIMITS.scanTimeoutSeconds, 'Time allowed before scanTimeout.'),
    ),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  'Captures an identity document and verifies its machine-readable zone.',
);
export type DocumentScanNode = Static<typeof DocumentScanNodeSchema>;

export const DOCUMENT_SCAN_DEFAULTS = {
  allowedDocumentTypes: [...DOCUMENT_TYPES],
  scanningMode: 'single',
  showTorchButton: true,
  showCameraSwitch: true,
  showMirrorCameraButton: true,
  timeoutSeconds: FLOW_LIMITS.scanTimeoutSeconds.default,
} as const;
export type ResolvedDocumentScanNode = DocumentScanNode & {
  allowedDocumentTypes: DocumentType[];
  scanningMode: 'single' | 'automatic';
  showTorchButton: boolean;
  showCameraSwitch: boolean;
  showMirrorCameraButton: boolean;
  timeoutSeconds: number;
};

/**
 * The node with every option filled in.
 * @example documentScanWithDefaults({ id: 'd', type: 'document_scan', outcomes: {} }).scanningMode // 'single'
 */
export function documentScanWithDefaults(node: DocumentScanNode): ResolvedDocumentScanNode {
  return {
    ...DOCUMENT_SCAN_DEFAULTS,
    ...node,
    allowedDocumentTypes: [...(node.allowedDocumentTypes ?? DOCUMENT_TYPES)],
  };
}

/**
 * What a document_scan node's report holds (docs/documents.md): on `scanSuccess` the `format`,
 * the nine `fields`, the `checks`, `expired` and the `documentPhoto` media id; always the
 * `attempts` made (at most 20 listed) and their count.
 */
export interface DocumentScanReport {
  format?: string;
  fields?: Record<string, string | null>;
  checks?: { name: string; ok: boolean }[];
  expired?: boolean;
  documentPhoto?: string | null;
  attempts?: unknown[];
  attemptCount?: number;
}

/** The document_scan kind. */
export const documentScan = {
  type: 'document_scan',
  schema: DocumentScanNodeSchema,
  defaults: documentScanWithDefaults,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: DocumentScanReport },
} as const satisfies Kind<
  'document_scan',
  typeof DocumentScanNodeSchema,
  ResolvedDocumentScanNode,
  DocumentScanReport
>;
