/**
 * Node fields the original product's SDK allows (compat.md §3) that this service does not do.
 * A flow that sends one is refused with a message saying so, rather than "unknown field": the
 * integrator learns it is known and not supported, and why (docs/sdk-inputs.md).
 */
export const UNSUPPORTED_NODE_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  conversation: {
    awaitExternal:
      'background polling of an external endpoint during a conversation is not supported by ' +
      'this service; put an external_call node before the conversation and a field_condition ' +
      'after it',
  },
};

/**
 * Why a node type does not take a field the SDK allows, or null when the field is simply unknown.
 * @example unsupportedFieldReason('conversation', 'awaitExternal') // 'background polling … not supported …'
 */
export function unsupportedFieldReason(type: string | undefined, field: string): string | null {
  if (type === undefined) return null;
  return UNSUPPORTED_NODE_FIELDS[type]?.[field] ?? null;
}
