import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  DEFAULT_LANG,
  IMAGE_DATA_KEYS,
  ExtractionSchemaSchema,
  checkMapLimits,
  createProblemsFor,
  extractionProblems,
  type ExtractionField,
  type ApiVersion,
  type CreateSessionBody,
  type ErrorDetail,
} from '../../core/api';
import {
  legacyProvidedData,
  modulesToFlow,
  startFlow,
  validateFlow,
  validateModules,
  type Flow,
  type FlowProblem,
  type LegacyModule,
} from '../../core/flow';
import { CREATION_CHECKS } from '../../core/flow/creation-checks';
import { orderedId } from '../ids';
import { knownFlow, rememberFlow, type KnownFlow } from '../knownFlows';
import type { Scope, SessionRecord, StoredSettings } from '../store/types';
import { checkEmbedOrigin } from './embedOrigins';
import { testOutcomeProblems } from './test-outcomes';

const extractionChecker = TypeCompiler.Compile(ExtractionSchemaSchema);

/** Whether an `extractionSchema` has the shape the route's schema documents. */
function extractionFieldsValid(v: unknown[]): v is ExtractionField[] {
  return extractionChecker.Check(v);
}

export interface CreateContext {
  scope: Scope;
  version: ApiVersion;
  now: number;
  /** Avatars that exist now. */
  avatarIds: ReadonlySet<string>;
  /** Languages offered now. */
  langIds: readonly string[];
  /** Why the guide cannot say a node's prompt (the local renderer's check); absent with an LLM. */
  promptProblem?: ((prompt: string) => string | null) | undefined;
}

/**
 * The prompts of a valid flow the guide cannot say, each naming its node.
 *
 * @example
 * promptProblems(flow, (p) => (p.startsWith('Verify') ? 'cannot say' : null));
 * // [{ path: 'flow[1].prompt', nodeId: 'ask', message: 'cannot say' }]
 */
export function promptProblems(
  flow: Flow,
  problemWith: (prompt: string) => string | null,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  flow.forEach((node, i) => {
    const prompt = 'prompt' in node ? node.prompt : undefined;
    if (typeof prompt !== 'string') return;
    const message = problemWith(prompt);
    if (message) problems.push({ path: `flow[${i}].prompt`, nodeId: node.id, message });
  });
  return problems;
}

export type BuildResult =
  { ok: true; session: SessionRecord } | { ok: false; problems: ErrorDetail[] };

/**
 * Validates a flow, or recognises one found valid before, and gives its known form: the shared
 * value a session keeps, its identity and its start. `trusted` (a flow built from valid legacy
 * modules) skips the validation.
 *
 * @example
 * checkFlow(flow); // { problems: [], known: { identity: { flowId: 'flow_…' }, start: … } }
 */
export function checkFlow(
  flow: unknown,
  trusted = false,
): { problems: FlowProblem[]; known: KnownFlow | null } {
  const found = knownFlow(flow);
  if ('known' in found) return { problems: [], known: found.known };
  const problems = trusted ? [] : validateFlow(flow, CREATION_CHECKS);
  if (problems.length) return { problems, known: null };
  return { problems, known: rememberFlow(flow as Flow, startFlow(flow as Flow), found.text) };
}

function checkUrl(path: string, value: string): ErrorDetail[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ path, message: `"${value}" is not a URL` }];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return [{ path, message: 'must be an http or https URL' }];
  }
  return [];
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Keys of `providedData` that other parts read as text: they must be strings (compat.md §2.1). */
const TEXT_DATA_KEYS = ['name', 'email', 'phone'] as const;

function providedDataProblems(data: Record<string, unknown>): ErrorDetail[] {
  const problems = checkMapLimits('providedData', data, IMAGE_DATA_KEYS);
  for (const key of TEXT_DATA_KEYS) {
    const v = data[key];
    if (v !== undefined && typeof v !== 'string')
      problems.push({
        path: `providedData.${key}`,
        message: `providedData.${key} must be a string`,
      });
  }
  return problems;
}

/**
 * Checks a `POST /sessions` body under `ctx.version` and builds the new session; every problem
 * is reported at once and nothing is stored unless there are none. `shape` holds the problems the
 * route's schema found (`CreateSessionBodyCheckSchema`, checked by Fastify); they come first.
 *
 * @example
 * const r = buildSession({ flow }, ctx, []);
 * if (!r.ok) throw invalid(r.problems);
 */
export function buildSession(
  raw: unknown,
  ctx: CreateContext,
  shape: readonly ErrorDetail[],
): BuildResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [{ path: '(body)', message: 'the body must be a JSON object' }] };
  }
  const problems: ErrorDetail[] = [...shape];
  const bodyObj = raw as Record<string, unknown>;
  problems.push(...createProblemsFor(ctx.version, bodyObj));
  const body = raw as CreateSessionBody;

  let flow: Flow | null = null;
  let checked: ReturnType<typeof checkFlow> | null = null;
  let modules: LegacyModule[] | undefined;
  const hasFlow = body.flow !== undefined;
  const hasModules = body.modules !== undefined;
  if (hasFlow && hasModules) {
    problems.push({ path: 'modules', message: 'send either flow or modules, not both' });
  } else if (!hasFlow && !hasModules) {
    problems.push({ path: 'flow', message: 'flow is required (or the legacy modules list)' });
  } else if (hasFlow) {
    checked = checkFlow(body.flow);
    const flowProblems = checked.problems;
    for (const p of flowProblems) {
      problems.push({
        path: p.path,
        message: p.message,
        ...(p.nodeId !== undefined ? { nodeId: p.nodeId } : {}),
      });
    }
    if (checked.known) {
      flow = checked.known.value;
      if (ctx.promptProblem) problems.push(...promptProblems(flow, ctx.promptProblem));
    }
  } else {
    const moduleProblems = validateModules(body.modules);
    problems.push(...moduleProblems.map((p) => ({ path: p.path, message: p.message })));
    if (moduleProblems.length === 0) {
      modules = body.modules as LegacyModule[];
      checked = checkFlow(modulesToFlow(modules), true);
      flow = checked.known?.value ?? null;
    }
  }

  if (isMap(body.testOutcomes)) {
    problems.push(...testOutcomeProblems(body.testOutcomes, flow, ctx.scope.mode));
  }
  if (isMap(body.metadata)) problems.push(...checkMapLimits('metadata', body.metadata));
  if (isMap(body.providedData)) problems.push(...providedDataProblems(body.providedData));
  if (Array.isArray(body.extractionSchema) && extractionFieldsValid(body.extractionSchema)) {
    problems.push(...extractionProblems(body.extractionSchema));
  }

  const langs = Array.isArray(body.langs) ? body.langs : [...ctx.langIds];
  langs.forEach((l, i) => {
    if (typeof l === 'string' && !ctx.langIds.includes(l)) {
      problems.push({
        path: `langs[${i}]`,
        message: `"${l}" is not a supported language (${ctx.langIds.join(', ')})`,
      });
    }
  });
  const defaultLang =
    typeof body.defaultLang === 'string'
      ? body.defaultLang
      : langs.includes(DEFAULT_LANG)
        ? DEFAULT_LANG
        : (langs[0] ?? DEFAULT_LANG);
  if (typeof body.defaultLang === 'string' && !langs.includes(body.defaultLang)) {
    problems.push({
      path: 'defaultLang',
      message: `defaultLang "${body.defaultLang}" must be one of langs (${langs.join(', ')})`,
    });
  }
  if (typeof body.avatarId === 'string' && !ctx.avatarIds.has(body.avatarId)) {
    problems.push({
      path: 'avatarId',
      message: `no avatar "${body.avatarId}"; GET /avatars lists them`,
    });
  }
  if (typeof body.redirectUrl === 'string') {
    problems.push(...checkUrl('redirectUrl', body.redirectUrl));
  }
  const privacyUrl = body.customization?.consent?.privacyUrl;
  if (typeof privacyUrl === 'string') {
    problems.push(...checkUrl('customization.consent.privacyUrl', privacyUrl));
  }
  const embedOrigins: string[] = [];
  if (Array.isArray(body.embedOrigins)) {
    body.embedOrigins.forEach((o, i) => {
      if (typeof o !== 'string') return;
      const c = checkEmbedOrigin(o, ctx.scope.mode);
      if (c.ok) embedOrigins.push(c.origin);
      else problems.push({ path: `embedOrigins[${i}]`, message: c.message });
    });
  }

  if (problems.length > 0 || flow === null || !checked?.known) {
    return {
      ok: false,
      problems: problems.length ? problems : [{ path: 'flow', message: 'invalid flow' }],
    };
  }

  const settings: StoredSettings = {
    flow,
    ...(modules ? { modules } : {}),
    ...(body.flowId !== undefined ? { flowId: body.flowId } : {}),
    ...(body.clientReferenceId !== undefined ? { clientReferenceId: body.clientReferenceId } : {}),
    metadata: body.metadata ?? {},
    ...(body.initialPhrase !== undefined ? { initialPhrase: body.initialPhrase } : {}),
    ...(body.finalPhrase !== undefined ? { finalPhrase: body.finalPhrase } : {}),
    // A legacy emailVerification module's address is the user's, as if sent in providedData.
    providedData: { ...(modules ? legacyProvidedData(modules) : {}), ...(body.providedData ?? {}) },
    ...(body.avatarId !== undefined ? { avatarId: body.avatarId } : {}),
    langs,
    defaultLang,
    zone: body.zone === 'eu' ? 'eu' : 'us',
    ...(body.customization !== undefined ? { customization: body.customization } : {}),
    videoAIAnalysisEnabled: body.videoAIAnalysisEnabled ?? false,
    ...(body.backgroundAssetId !== undefined ? { backgroundAssetId: body.backgroundAssetId } : {}),
    ...(body.extractionSchema !== undefined
      ? { extractionSchema: body.extractionSchema as ExtractionField[] }
      : {}),
    ...(body.redirectUrl !== undefined ? { redirectUrl: body.redirectUrl } : {}),
    embedOrigins,
    ...(body.testOutcomes !== undefined ? { testOutcomes: body.testOutcomes } : {}),
  };
  const session: SessionRecord = {
    id: orderedId('sess', 4),
    accountId: ctx.scope.accountId,
    mode: ctx.scope.mode,
    status: 'created',
    createdAt: ctx.now,
    startedAt: null,
    finishedAt: null,
    lastActivityAt: ctx.now,
    flowId: body.flowId ?? checked.known.identity.flowId,
    clientReferenceId: body.clientReferenceId ?? null,
    version: ctx.version,
    settings,
    report: {
      transcript: [],
      nodeReports: [],
      isVerified: false,
      // Every declared field is in the report from the start: null until a reply gives it.
      ...(settings.extractionSchema
        ? {
            extractedData: Object.fromEntries(
              settings.extractionSchema.map((f) => [f.fieldName, null]),
            ),
          }
        : {}),
    },
    position: checked.known.start,
    rev: 0,
  };
  return { ok: true, session };
}
