/**
 * The patterns of a `data_validation` node's `matches` action. They are integrators' text run on
 * end users' data, so they go through RE2 (re2js, pure JavaScript), whose matching time grows
 * linearly with the input: JavaScript's backtracking RegExp can take seconds or years on a crafted
 * value (`^(a+)+$`). RE2 syntax has no lookaround and no backreferences; docs/flows.md lists the
 * differences. The flow validator refuses what this module cannot run, and the server matches
 * with it, so both read the rule from here.
 */
import { RE2JS } from 're2js';
import { FLOW_LIMITS } from './limits';

const { maxLength, maxProgramSize } = FLOW_LIMITS.pattern;

/** Compiled patterns (or why they cannot be), so a flow's check compiles its pattern once. */
const compiledCache = new Map<string, RE2JS | string>();
const CACHE_SIZE = 200;

/**
 * Why a pattern cannot be used by `matches`, or undefined when it can.
 *
 * @example
 * patternProblem('^[a-z]+@'); // undefined
 * patternProblem('(?=a)'); // 'value is not a valid RE2 regular expression: invalid or unsupported Perl syntax: `(?=` (…)'
 */
export function patternProblem(pattern: string): string | undefined {
  const compiled = compile(pattern);
  return typeof compiled === 'string' ? compiled : undefined;
}

/**
 * Whether `value` contains a match of `pattern` (an unanchored search, like RegExp's `test`),
 * in time linear in the value. A pattern `patternProblem` refuses and a value longer than
 * `FLOW_LIMITS.maxMatchedValueLength` never match.
 *
 * @example
 * patternMatches('^(a+)+$', 'a'.repeat(50) + '!'); // false, at once
 * patternMatches('(?i)^gold$', 'Gold'); // true
 */
export function patternMatches(pattern: string, value: string): boolean {
  if (value.length > FLOW_LIMITS.maxMatchedValueLength) return false;
  const compiled = compile(pattern);
  return typeof compiled !== 'string' && compiled.test(value);
}

function compile(pattern: string): RE2JS | string {
  const known = compiledCache.get(pattern);
  if (known !== undefined) {
    // Least recently used goes first: refresh this one.
    compiledCache.delete(pattern);
    compiledCache.set(pattern, known);
    return known;
  }
  const result = compileUncached(pattern);
  compiledCache.set(pattern, result);
  if (compiledCache.size > CACHE_SIZE)
    compiledCache.delete(compiledCache.keys().next().value as string);
  return result;
}

function compileUncached(pattern: string): RE2JS | string {
  // Checked before compiling: the compiler's work grows with the pattern.
  if (pattern.length > maxLength)
    return `value is ${pattern.length} characters long; a matches pattern may have at most ${maxLength}`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return (
      `value is not a valid RE2 regular expression: ${reason.replace(/^error parsing regexp: /, '')} ` +
      '(RE2 has no lookahead, lookbehind or backreferences)'
    );
  }
  // The program size bounds the work per character of the value.
  const size = compiled.programSize();
  if (size > maxProgramSize)
    return (
      `value is too large a regular expression (${size} RE2 instructions; at most ${maxProgramSize}): ` +
      'use smaller counted repetitions such as {1,100}'
    );
  return compiled;
}
