/** One broken rule of a flow: where (`flow[3].outcomes.passed`), which node, and what is wrong. */
export interface FlowProblem {
  path: string;
  nodeId?: string;
  message: string;
}

/**
 * Thrown by `compileFlow` when given a flow that `validateFlow` refuses.
 * @example try { compileFlow(bad) } catch (e) { if (e instanceof FlowValidationError) e.problems }
 */
export class FlowValidationError extends Error {
  readonly problems: FlowProblem[];
  constructor(problems: FlowProblem[]) {
    const first = problems[0];
    super(
      `Invalid flow (${problems.length} problem${problems.length === 1 ? '' : 's'})` +
        (first ? `: ${first.path}: ${first.message}` : ''),
    );
    this.name = 'FlowValidationError';
    this.problems = problems;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Appends a property key to a path the way a reader would write it in JavaScript.
 * @example joinKey('flow[2].outcomes', 'passed') // 'flow[2].outcomes.passed'
 * @example joinKey('flow[2].outcomes', 'two words') // 'flow[2].outcomes["two words"]'
 */
export function joinKey(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * A short rendering of a value for messages, cut at 40 characters.
 * @example shown('x'.repeat(100)) // '"xxxx…"'
 */
export function shown(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
