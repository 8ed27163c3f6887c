import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';

export interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<ValueError>;
}

/**
 * A checker for a schema, compiled once on first use. Compiling needs `new Function`; where a
 * Content-Security-Policy forbids it (the hosted page), the interpreted checker is used instead.
 * @example lazyChecker(StartNodeSchema)().Check(node)
 */
export function lazyChecker(schema: TSchema): () => Checker {
  let checker: Checker | undefined;
  return () => {
    if (!checker) {
      try {
        checker = TypeCompiler.Compile(schema);
      } catch {
        checker = {
          Check: (value) => Value.Check(schema, value),
          Errors: (value) => Value.Errors(schema, value),
        };
      }
    }
    return checker;
  };
}
