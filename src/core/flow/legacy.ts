import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { lazyChecker } from './checkers';
import type { FixedOutcomeNodeType, Flow, FlowNode } from './kinds';
import type { FaceSource } from './kinds/face_compare';
import { FIXED_OUTCOMES } from './kinds';
import type { FlowProblem } from './problems';
import { schemaIssues } from './schema-errors';

export const LEGACY_MODULE_TYPES = [
  'emailVerification',
  'identityVerification',
  'documentAuthentication',
] as const;

/** One item of the legacy `modules` list, superseded by `flow`. */
export const LegacyModuleSchema = Type.Object(
  {
    type: Type.Union(
      LEGACY_MODULE_TYPES.map((t) => Type.Literal(t)),
      { description: 'The verification this module stands for.' },
    ),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'A label; not used.' })),
    email: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 254,
        description: 'emailVerification: the address to verify; the user is then not asked for it.',
      }),
    ),
    publicRecognitionEnabled: Type.Optional(
      Type.Boolean({
        description:
          'identityVerification: also look the face up among earlier verified sessions (a recognition node).',
      }),
    ),
  },
  { additionalProperties: false, title: 'Legacy module' },
);
export type LegacyModule = Static<typeof LegacyModuleSchema>;

/** The legacy `modules` list: compiled into an equivalent flow by `modulesToFlow`. */
export const LegacyModulesSchema = Type.Array(LegacyModuleSchema, {
  minItems: 1,
  maxItems: 10,
  title: 'Legacy modules',
  description: 'Superseded by flow. Compiled into an equivalent flow; send one or the other.',
});

const checker = lazyChecker(LegacyModulesSchema);

/**
 * Every problem of a legacy `modules` value, with paths like `modules[1].type`; `[]` when valid.
 * @example validateModules([{ type: 'emailVerification' }]) // []
 */
export function validateModules(input: unknown): FlowProblem[] {
  if (!Array.isArray(input)) return [{ path: 'modules', message: 'modules must be an array' }];
  if (checker().Check(input)) return [];
  const context = { subject: 'a module', labelBase: 'modules' };
  return schemaIssues(checker().Errors(input), input, context).map((issue) => ({
    path: `modules${issue.field}`,
    message: issue.message,
  }));
}

/**
 * Values the legacy modules carry that the flow reads from `providedData`: the email of an
 * emailVerification module. The server merges them under the session's own providedData.
 * @example legacyProvidedData([{ type: 'emailVerification', email: 'a@b.co' }]) // { email: 'a@b.co' }
 */
export function legacyProvidedData(modules: readonly LegacyModule[]): Record<string, string> {
  const email = modules.find((m) => m.type === 'emailVerification' && m.email)?.email;
  return email ? { email } : {};
}

type Step = Extract<FlowNode, { type: FixedOutcomeNodeType }>;
/** A node to add and the outcomes that continue the chain (every other one fails). */
type Link = { node: Step; pass: string[] };

const FAILED_END = 'end_failed';
const PASSED_END = 'end';

function linksOf(module: LegacyModule, prefix: string, hadFaceScan: boolean): Link[] {
  const id = (suffix: string) => `${prefix}_${suffix}`;
  switch (module.type) {
    case 'emailVerification':
      return [
        ...(module.email
          ? []
          : [
              {
                node: { id: id('enter_email'), type: 'enter_email', outcomes: {} },
                pass: ['emailEntered'],
              } satisfies Link,
            ]),
        {
          node: { id: id('two_factor_email'), type: 'two_factor_email', outcomes: {} },
          pass: ['verified'],
        },
      ];
    case 'documentAuthentication': {
      const selfie: FaceSource = { source: hadFaceScan ? 'faceScan' : 'sessionVideo' };
      return [
        {
          node: { id: id('document_scan'), type: 'document_scan', outcomes: {} },
          pass: ['scanSuccess'],
        },
        {
          node: {
            id: id('face_compare'),
            type: 'face_compare',
            sourceA: selfie,
            sourceB: { source: 'documentPhoto' },
            outcomes: {},
          },
          pass: ['match'],
        },
      ];
    }
    case 'identityVerification':
      return [
        {
          node: { id: id('permissions'), type: 'permissions', outcomes: {} },
          pass: ['permissionsGranted'],
        },
        {
          node: { id: id('liveness_detection'), type: 'liveness_detection', outcomes: {} },
          pass: ['livenessDetected'],
        },
        ...(module.publicRecognitionEnabled
          ? [
              {
                node: { id: id('recognition'), type: 'recognition', outcomes: {} },
                pass: ['recognized', 'newUser'],
              } satisfies Link,
            ]
          : []),
        { node: { id: id('face_scan'), type: 'face_scan', outcomes: {} }, pass: ['passed'] },
      ];
  }
}

/**
 * The flow equivalent to a legacy `modules` list: the modules' steps chained in order
 * (emailVerification → enter_email, left out when the module gives `email`, → two_factor_email;
 * documentAuthentication → document_scan → face_compare(selfie, document);
 * identityVerification → permissions → liveness_detection → [recognition] → face_scan), each
 * passing outcome leading on and every other outcome to the end node `end_failed`.
 * @example modulesToFlow([{ type: 'emailVerification', email: 'a@b.co' }]).map((n) => n.id)
 * // ['start', 'm1_two_factor_email', 'end', 'end_failed']
 */
export function modulesToFlow(modules: readonly LegacyModule[]): Flow {
  const links: Link[] = [];
  modules.forEach((module, index) => {
    const hadFaceScan = links.some((l) => l.node.type === 'face_scan');
    links.push(...linksOf(module, `m${index + 1}`, hadFaceScan));
  });
  const steps = links.map(({ node, pass }, index) => {
    const next = links[index + 1]?.node.id ?? PASSED_END;
    const keys: readonly string[] = FIXED_OUTCOMES[node.type];
    const outcomes = Object.fromEntries(keys.map((k) => [k, pass.includes(k) ? next : FAILED_END]));
    return { ...node, outcomes } as Step;
  });
  return [
    { id: 'start', type: 'start', outcome: steps[0]?.id ?? PASSED_END },
    ...steps,
    { id: PASSED_END, type: 'end' },
    ...(steps.length > 0 ? [{ id: FAILED_END, type: 'end' } as const] : []),
  ];
}
