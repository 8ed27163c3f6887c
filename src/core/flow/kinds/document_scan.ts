import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import {
  BoundedInteger,
  fixedOutcomes,
  nodeSchema,
  type LooseNode,
  type NodeIssue,
} from './common';
import {
  DOCUMENT_KINDS,
  DOCUMENT_TYPES,
  READABLE_TYPES,
  documentKindOf,
  type DocumentType,
} from '../../documents/types';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

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
        description:
          'Document types the user may present (the 81 of the FaceSign SDK); each is read as a passport, an ID card, a residence permit, a visa or a driving licence (docs/documents.md). By default: passport, id, residence-permit, visa, dl.',
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
  /** One type of each kind the service reads. */
  allowedDocumentTypes: [...DOCUMENT_KINDS] as DocumentType[],
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
    allowedDocumentTypes: [
      ...(node.allowedDocumentTypes ?? DOCUMENT_SCAN_DEFAULTS.allowedDocumentTypes),
    ],
  };
}

/**
 * A node must allow at least one type the service reads: with only unreadable ones it could end
 * only `userCancelled` or `scanTimeout`.
 * @example checkDocumentScan({ …, allowedDocumentTypes: ['pan-card'] }) // one issue
 */
export function checkDocumentScan(node: LooseNode): NodeIssue[] {
  const types = node['allowedDocumentTypes'];
  if (!Array.isArray(types) || types.length === 0) return [];
  if (
    !types.every((t) => typeof t === 'string' && (DOCUMENT_TYPES as readonly string[]).includes(t))
  )
    return [];
  if (types.some((t: string) => documentKindOf(t) !== null)) return [];
  return [
    {
      field: '.allowedDocumentTypes',
      message: `none of ${types.join(', ')} can be read by this service (no machine-readable zone or AAMVA barcode); allow at least one of: ${READABLE_TYPES.join(', ')}`,
    },
  ];
}

/**
 * What a document_scan node's report holds (docs/documents.md): on `scanSuccess` the `format`,
 * the `fields`, the check digits (`checks`), the forgery and consistency checks
 * (`documentChecks`), `expired` and the `documentPhoto` media id; always the `attempts` made (at
 * most 20 listed) and their count.
 */
export interface DocumentScanReport {
  format?: string;
  fields?: Record<string, string | null>;
  checks?: { name: string; ok: boolean }[];
  documentChecks?: {
    name: string;
    result: 'passed' | 'failed' | 'not_performed';
    detail?: string;
  }[];
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
  check: checkDocumentScan,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: DocumentScanReport },
} as const satisfies Kind<
  'document_scan',
  typeof DocumentScanNodeSchema,
  ResolvedDocumentScanNode,
  DocumentScanReport
>;
