import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { ErrorDetail } from '../../core/api';

/**
 * A JSON pointer as the API names paths: `/flow/3/outcomes` → `flow[3].outcomes`.
 *
 * @example
 * pointerToPath('/metadata/plan'); // 'metadata.plan'
 * pointerToPath('/langs/0'); // 'langs[0]'
 */
export function pointerToPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

/**
 * A compiled TypeBox check that returns every problem with its path (one per path: unions give
 * several errors for one value, the first says enough).
 *
 * @example
 * const check = compileCheck(Type.Object({ a: Type.String() }));
 * check({ a: 1 }); // [{ path: 'a', message: 'Expected string' }]
 */
export function compileCheck(schema: TSchema): (value: unknown) => ErrorDetail[] {
  const compiled: TypeCheck<TSchema> = TypeCompiler.Compile(schema);
  return (value) => {
    if (compiled.Check(value)) return [];
    const seen = new Set<string>();
    const out: ErrorDetail[] = [];
    for (const e of compiled.Errors(value)) {
      const path = pointerToPath(e.path);
      if (seen.has(path)) continue;
      seen.add(path);
      const message =
        e.message === 'Unexpected property'
          ? `unknown parameter "${path.split('.').pop()}"`
          : `${e.message.charAt(0).toLowerCase()}${e.message.slice(1)}`;
      out.push({ path: path || '(body)', message });
      if (out.length >= 100) break;
    }
    return out;
  };
}
