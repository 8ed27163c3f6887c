/**
 * The size limits of the public API (decisions.md, "Limits"). One table, read by the request
 * checks, the docs and the OpenAPI document, so a limit is changed in one place.
 */
export const API_LIMITS = {
  /** Keys allowed in `metadata` and in `providedData`. */
  maxMapKeys: 50,
  maxMapKeyLength: 40,
  maxMapValueLength: 500,
  /** `providedData.referenceImage` may hold a data URL of a photo. */
  maxReferenceImageLength: 5 * 1024 * 1024,
  maxPromptLength: 2000,
  maxPhraseLength: 2000,
  maxClientReferenceIdLength: 200,
  maxFlowIdLength: 100,
  maxEmbedOrigins: 20,
  maxUrlLength: 2048,
  maxBodyBytes: 8 * 1024 * 1024,
  /**
   * Levels of arrays and objects a JSON body may nest (the body itself is level 1). A flow needs
   * 5 and a page's report about 8; the code that reads a body recurses, so a body nested
   * thousands of levels deep is refused before anything reads it.
   */
  maxJsonDepth: 32,
  maxSearchLength: 200,
  pageSizeDefault: 25,
  pageSizeMax: 100,
} as const;

/** Keys of `providedData` that carry images and so get the larger value limit. */
export const IMAGE_DATA_KEYS: ReadonlySet<string> = new Set(['referenceImage']);

export interface LimitProblem {
  path: string;
  message: string;
}

/**
 * Checks a map (`metadata`, `providedData`) against the key and value limits and returns every
 * breach at once; the caller has already checked that it is an object. A value that is not a
 * string is measured by its JSON text (metadata holds any JSON).
 *
 * @example
 * checkMapLimits('metadata', { plan: 'gold' }); // []
 * checkMapLimits('metadata', { ['k'.repeat(41)]: 'v' })[0]?.message; // '… at most 40 characters'
 */
export function checkMapLimits(
  name: string,
  map: Readonly<Record<string, unknown>>,
  largeKeys: ReadonlySet<string> = new Set(),
): LimitProblem[] {
  const problems: LimitProblem[] = [];
  const keys = Object.keys(map);
  if (keys.length > API_LIMITS.maxMapKeys) {
    problems.push({
      path: name,
      message: `${name} has ${keys.length} keys; at most ${API_LIMITS.maxMapKeys} are allowed`,
    });
  }
  for (const key of keys) {
    if (key.length === 0 || key.length > API_LIMITS.maxMapKeyLength) {
      problems.push({
        path: `${name}.${key}`,
        message: `${name} keys must be 1 to ${API_LIMITS.maxMapKeyLength} characters long`,
      });
    }
    const max = largeKeys.has(key)
      ? API_LIMITS.maxReferenceImageLength
      : API_LIMITS.maxMapValueLength;
    const raw = map[key];
    const value = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
    if (value.length > max) {
      problems.push({
        path: `${name}.${key}`,
        message: `${name}.${key} is ${value.length} characters long; at most ${max} are allowed`,
      });
    }
  }
  return problems;
}
