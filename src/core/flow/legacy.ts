import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { lazyChecker } from './checkers';
import type { FixedOutcomeNodeType, Flow, FlowNode } from './kinds';
import type { FaceSource } from './kinds/face_compare';
import { FIXED_OUTCOMES } from './kinds';
import type { FlowProblem } from './problems';
import { schemaIssues } from './schema-errors';
import { FLOW_LIMITS } from './limits';

export const LEGACY_MODULE_TYPES = [
  'emailVerification',
  'smsVerification',
  'identityVerification',
  'documentAuthentication',
  'ageEstimation',
  'proofOfIntent',
  'knowledgeVerify',
] as const;

/**
 * Legacy module types the original product's SDK names that this service does not compile, and
 * why: a session with one is refused with that reason (docs/sdk-inputs.md, "Legacy modules").
 */
export const UNSUPPORTED_MODULES: Readonly<Partial<Record<LegacyModuleType, string>>> = {
  proofOfIntent:
    'proofOfIntent is not supported as a module: its requested data has no questions to ask ' +
    'here; use a flow of conversation nodes that ask for it, with an extractionSchema naming ' +
    'the fields',
  knowledgeVerify:
    'knowledgeVerify is not supported: the service has no knowledge questions to ask; use a ' +
    'flow with conversation and field_condition nodes',
};
type LegacyModuleType = (typeof LEGACY_MODULE_TYPES)[number];

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
    phone: Type.Optional(
      Type.String({
        minLength: 3,
        maxLength: 40,
        description:
          'smsVerification: the phone number to verify; the user is then not asked for it.',
      }),
    ),
    age: Type.Optional(
      Type.Integer({
        minimum: FLOW_LIMITS.age.min,
        maximum: FLOW_LIMITS.age.max,
        description: 'ageEstimation: the least age, in years, read from the document presented.',
      }),
    ),
    requestedData: Type.Optional(
      Type.Array(Type.Unknown(), { description: 'proofOfIntent only (not supported).' }),
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
  const unsupported = input.flatMap((m: unknown, i): FlowProblem[] => {
    const reason = UNSUPPORTED_MODULES[(m as { type?: unknown } | null)?.type as LegacyModuleType];
    return reason ? [{ path: `modules[${i}].type`, message: reason }] : [];
  });
  const ages = input.flatMap((m: unknown, i): FlowProblem[] => {
    const module = m as { type?: unknown; age?: unknown } | null;
    return module?.type === 'ageEstimation' && module.age === undefined
      ? [{ path: `modules[${i}].age`, message: 'age is required for an ageEstimation module' }]
      : [];
  });
  if (checker().Check(input)) return [...unsupported, ...ages];
  const context = { subject: 'a module', labelBase: 'modules' };
  const shape = schemaIssues(checker().Errors(input), input, context).map((issue) => ({
    path: `modules${issue.field}`,
    message: issue.message,
  }));
  return [...unsupported, ...ages, ...shape];
}

/**
 * Values the legacy modules carry that the flow reads from `providedData`: the email of an
 * emailVerification module, the phone of an smsVerification one. The server merges them under
 * the session's own providedData.
 * @example legacyProvidedData([{ type: 'emailVerification', email: 'a@b.co' }]) // { email: 'a@b.co' }
 */
export function legacyProvidedData(modules: readonly LegacyModule[]): Record<string, string> {
  const email = modules.find((m) => m.type === 'emailVerification' && m.email)?.email;
  const phone = modules.find((m) => m.type === 'smsVerification' && m.phone)?.phone;
  return { ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
}

type Step = Extract<FlowNode, { type: FixedOutcomeNodeType }> | AgeCheck;
/** The age check of an ageEstimation module; its outcomes are made when the chain is. */
type AgeCheck = Omit<Extract<FlowNode, { type: 'data_validation' }>, 'outcomes'> & {
  outcomes: Extract<FlowNode, { type: 'data_validation' }>['outcomes'] | Record<string, never>;
};
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
    case 'smsVerification':
      return [
        {
          node: { id: id('two_factor_sms'), type: 'two_factor_sms', outcomes: {} },
          pass: ['verified'],
        },
      ];
    case 'ageEstimation':
      return [
        {
          node: { id: id('document_scan'), type: 'document_scan', outcomes: {} },
          pass: ['scanSuccess'],
        },
        {
          node: {
            id: id('age_check'),
            type: 'data_validation',
            validation: {
              field: 'extractedData.dateOfBirth',
              action: 'minAge',
              value: module.age ?? 0,
            },
            outcomes: {},
          },
          pass: ['passed'],
        },
      ];
    case 'proofOfIntent':
    case 'knowledgeVerify':
      // Refused by validateModules (UNSUPPORTED_MODULES): never compiled.
      return [];
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
 * smsVerification → two_factor_sms (its `phone` joins providedData);
 * documentAuthentication → document_scan → face_compare(selfie, document);
 * ageEstimation → document_scan → data_validation(minAge `age` on the document's date of birth);
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
    if (node.type === 'data_validation') {
      const outcomes = (['passed', 'failed'] as const).map((result) => ({
        id: result,
        condition: result,
        targetNodeId: pass.includes(result) ? next : FAILED_END,
      }));
      return { ...node, outcomes } as FlowNode;
    }
    const keys: readonly string[] = FIXED_OUTCOMES[node.type];
    const outcomes = Object.fromEntries(keys.map((k) => [k, pass.includes(k) ? next : FAILED_END]));
    return { ...node, outcomes } as FlowNode;
  });
  return [
    { id: 'start', type: 'start', outcome: steps[0]?.id ?? PASSED_END },
    ...steps,
    { id: PASSED_END, type: 'end' },
    ...(steps.length > 0 ? [{ id: FAILED_END, type: 'end' } as const] : []),
  ];
}
