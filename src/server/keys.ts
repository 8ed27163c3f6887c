import { randomBytes } from 'node:crypto';
import { newId, sha256Hex } from './ids';
import type { ApiKeyRecord, Mode, SessionStore } from './store/types';

/** How many characters of a key are kept to name it (`sk_test_` + 8). */
export const KEY_PREFIX_LENGTH = 16;

/**
 * Makes an API key for an account (created when missing). The key is returned once and only its
 * SHA-256 is stored.
 *
 * @example
 * const { key } = await createApiKey(store, { accountName: 'default', mode: 'test', now: Date.now() });
 * key.startsWith('sk_test_'); // true
 */
export async function createApiKey(
  store: SessionStore,
  input: { accountName: string; mode: Mode; now: number },
): Promise<{ key: string; record: Omit<ApiKeyRecord, 'revokedAt'> }> {
  const account = await store.ensureAccount(input.accountName, input.now);
  const key = `sk_${input.mode}_${randomBytes(32).toString('base64url')}`;
  const record = {
    id: newId('key'),
    accountId: account.id,
    accountName: account.name,
    mode: input.mode,
    prefix: key.slice(0, KEY_PREFIX_LENGTH),
    hash: sha256Hex(key),
    createdAt: input.now,
  };
  await store.insertApiKey(record);
  return { key, record };
}
