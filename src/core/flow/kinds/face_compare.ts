import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { FLOW_LIMITS } from '../limits';
import type { LooseNode, NodeIssue } from './common';
import { SimilarityThresholdSchema, fixedOutcomes, nodeSchema, recordOf } from './common';
import type { Kind, OutcomeRules } from './kind';
import { outcomeKeys } from './kind';

export const FACE_SOURCES = ['sessionVideo', 'faceScan', 'documentPhoto', 'providedData'] as const;

/** Where a face comes from; the most recent capture of that kind is used. */
export const FaceSourceSchema = Type.Object(
  {
    source: Type.Union(
      FACE_SOURCES.map((s) => Type.Literal(s)),
      { description: 'The kind of capture; the most recent one of that kind is used.' },
    ),
    providedDataKey: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: FLOW_LIMITS.maxDataKeyLength,
        description: 'Required with source providedData: the key holding the image.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FaceSource = Static<typeof FaceSourceSchema>;

/** The server's face analysis compares the two sources. */
const OUTCOMES = {
  match: { decidedBy: 'analysis', failing: false },
  noMatch: { decidedBy: 'analysis', failing: true },
  imageUnavailable: { decidedBy: 'analysis', failing: true },
} as const satisfies OutcomeRules;

/** Compares two captured face sources. */
export const FaceCompareNodeSchema = nodeSchema(
  'face_compare',
  {
    sourceA: Type.Optional(FaceSourceSchema),
    sourceB: Type.Optional(FaceSourceSchema),
    similarityThreshold: Type.Optional(SimilarityThresholdSchema),
    outcomes: fixedOutcomes(outcomeKeys(OUTCOMES)),
  },
  'Compares two face sources. Default: the face scan against the document photo.',
);
export type FaceCompareNode = Static<typeof FaceCompareNodeSchema>;

export const FACE_COMPARE_DEFAULTS = {
  sourceA: { source: 'faceScan' },
  sourceB: { source: 'documentPhoto' },
} as const satisfies Record<string, FaceSource>;
export type ResolvedFaceCompareNode = FaceCompareNode & {
  sourceA: FaceSource;
  sourceB: FaceSource;
};

/**
 * The node with both sources filled in.
 * @example faceCompareWithDefaults({ id: 'c', type: 'face_compare', outcomes: {} }).sourceB // { source: 'documentPhoto' }
 */
export function faceCompareWithDefaults(node: FaceCompareNode): ResolvedFaceCompareNode {
  return {
    ...node,
    sourceA: { ...(node.sourceA ?? FACE_COMPARE_DEFAULTS.sourceA) },
    sourceB: { ...(node.sourceB ?? FACE_COMPARE_DEFAULTS.sourceB) },
  };
}

/**
 * A providedData source needs its key (and only it has one); both sources may not be the same.
 * @example checkFaceCompare({ …, sourceA: { source: 'providedData' } }) // providedDataKey is required
 */
export function checkFaceCompare(node: LooseNode): NodeIssue[] {
  const issues: NodeIssue[] = [];
  const sources: Partial<Record<'sourceA' | 'sourceB', FaceSource>> = {};
  for (const side of ['sourceA', 'sourceB'] as const) {
    if (node[side] === undefined) {
      sources[side] = FACE_COMPARE_DEFAULTS[side];
      continue;
    }
    const { source, providedDataKey } = recordOf(node[side]);
    if (!(FACE_SOURCES as readonly unknown[]).includes(source)) continue;
    if (source === 'providedData' && providedDataKey === undefined)
      issues.push({
        field: `.${side}.providedDataKey`,
        message: `providedDataKey is required when ${side}.source is providedData`,
      });
    if (source !== 'providedData' && providedDataKey !== undefined)
      issues.push({
        field: `.${side}.providedDataKey`,
        message: `providedDataKey is only used with source providedData (${side}.source is ${String(source)})`,
      });
    sources[side] = {
      source: source as FaceSource['source'],
      ...(typeof providedDataKey === 'string' ? { providedDataKey } : {}),
    };
  }
  const { sourceA: a, sourceB: b } = sources;
  if (a && b && a.source === b.source && a.providedDataKey === b.providedDataKey)
    issues.push({
      field: '.sourceB',
      message: `sourceA and sourceB are the same source (${describe(a)}); compare two different ones`,
    });
  return issues;
}

function describe(source: FaceSource): string {
  return source.providedDataKey === undefined
    ? source.source
    : `${source.source} '${source.providedDataKey}'`;
}

/**
 * What a face_compare node's report holds (docs/faces.md): each source as found (its media id,
 * or the `reason` and `message` it could not be used), the `similarity` and the threshold.
 */
export interface FaceCompareReport {
  sourceA: FaceSource & { mediaId?: string; reason?: string; message?: string };
  sourceB: FaceSource & { mediaId?: string; reason?: string; message?: string };
  similarity?: number;
  threshold: number;
}

/** The face_compare kind. */
export const faceCompare = {
  type: 'face_compare',
  schema: FaceCompareNodeSchema,
  defaults: faceCompareWithDefaults,
  check: checkFaceCompare,
  routes: { routing: 'fixed', outcomes: OUTCOMES },
  types: {} as { report: FaceCompareReport },
} as const satisfies Kind<
  'face_compare',
  typeof FaceCompareNodeSchema,
  ResolvedFaceCompareNode,
  FaceCompareReport
>;
