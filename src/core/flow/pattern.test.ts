import { describe, expect, it } from 'vitest';
import { FLOW_LIMITS } from './limits';
import { patternMatches, patternProblem } from './pattern';

/** The email pattern of the probe: JavaScript's RegExp spends about 24 s on its crafted value. */
const EMAIL = String.raw`^([a-zA-Z0-9_\.\-])+\@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$`;
/** 57 characters: a long run the `{2,4}` groups can split in exponentially many ways, then a `!`. */
const CRAFTED_EMAIL = `a@a.${'a'.repeat(52)}!`;

// Each value makes a backtracking engine try every way to split it; RE2 reads it once.
const CATASTROPHIC: { pattern: string; bad: string; good: string }[] = [
  { pattern: '^(a+)+$', bad: `${'a'.repeat(100)}!`, good: 'a'.repeat(100) },
  { pattern: '(a|aa)+$', bad: `${'a'.repeat(100)}!`, good: `!${'a'.repeat(100)}` },
  {
    pattern: '^(([a-z])+.)+[A-Z]([a-z])+$',
    bad: 'a'.repeat(100),
    good: `${'a'.repeat(100)}Bc`,
  },
  { pattern: EMAIL, bad: CRAFTED_EMAIL, good: 'jane.doe-1@mail.example.com' },
];

describe('matches patterns (RE2)', () => {
  it.each(CATASTROPHIC)('answers $pattern on its crafted value, and on a good one', (c) => {
    expect(patternProblem(c.pattern)).toBeUndefined();
    expect(patternMatches(c.pattern, c.bad)).toBe(false);
    expect(patternMatches(c.pattern, c.good)).toBe(true);
  });

  it('refuses what RE2 cannot run: lookahead, lookbehind, backreferences, and says why', () => {
    const unsupported = ['(?=a)a', '^(?!admin)', '(?<=@)example', '(a)\\1', '(?<x>a)\\k<x>'];
    for (const pattern of unsupported) {
      const problem = patternProblem(pattern);
      expect(problem, pattern).toMatch(/^value is not a valid RE2 regular expression: /);
      expect(problem).toContain('RE2 has no lookahead, lookbehind or backreferences');
      // A pattern the check refuses never matches, even text JavaScript's RegExp would accept.
      expect(patternMatches(pattern, 'aa')).toBe(false);
    }
    expect(patternProblem('(?=a)a')).toContain('invalid or unsupported Perl syntax: `(?=`');
    expect(patternProblem('([a-z]+')).toBe(
      'value is not a valid RE2 regular expression: missing closing ): `([a-z]+` ' +
        '(RE2 has no lookahead, lookbehind or backreferences)',
    );
  });

  it('reads RE2 syntax: (?i) for any case, \\z for the very end, \\x{…} for a code point', () => {
    expect(patternMatches('(?i)^gold$', 'Gold')).toBe(true);
    expect(patternMatches('^gold$', 'Gold')).toBe(false);
    expect(patternMatches('^a\\z', 'a')).toBe(true);
    expect(patternMatches('^Jos\\x{e9}$', 'José')).toBe(true);
    expect(patternMatches('^\\p{Lu}\\p{Ll}+$', 'Élodie')).toBe(true);
    // An unanchored search, like RegExp's test.
    expect(patternMatches('@example\\.com', 'jane@example.com.evil')).toBe(true);
  });

  it('bounds the pattern: its length, then the size of its program', () => {
    const { maxLength, maxProgramSize } = FLOW_LIMITS.pattern;
    expect(patternProblem('a'.repeat(maxLength))).toBeUndefined();
    expect(patternProblem('a'.repeat(maxLength + 1))).toBe(
      `value is ${maxLength + 1} characters long; a matches pattern may have at most ${maxLength}`,
    );
    // Short text, large program: each counted repetition is a copy of what it repeats.
    expect(patternProblem('^[a-z]{1,400}$')).toBeUndefined();
    const big = patternProblem('^(?:[a-z]{1,100}-){10}$');
    expect(big).toMatch(
      new RegExp(
        `^value is too large a regular expression \\(\\d+ RE2 instructions; at most ${maxProgramSize}\\)`,
      ),
    );
    // RE2's own bound on counted repetitions, nested or not.
    expect(patternProblem('a{1001}')).toContain('invalid repeat count');
    expect(patternProblem('((a{100}){100}){100}')).toContain('invalid repeat count');
  });

  it('fails a value longer than the matched-value limit, whatever the pattern', () => {
    const max = FLOW_LIMITS.maxMatchedValueLength;
    expect(patternMatches('^a+$', 'a'.repeat(max))).toBe(true);
    expect(patternMatches('^a+$', 'a'.repeat(max + 1))).toBe(false);
    expect(patternMatches('a', 'a'.repeat(max + 1))).toBe(false);
  });
});
