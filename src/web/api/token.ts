const KEY = 'idv.client';

/** The client token kept for this tab, and which secret it came from. */
export interface StoredToken {
  token: string;
  /** A short fingerprint of the exchanged secret: a reload of the same link resumes. */
  secretTag: string | null;
}

/** Where the token lives between reloads: `sessionStorage` in the page, a Map in tests. */
export interface TokenStore {
  read(): StoredToken | null;
  write(value: StoredToken): void;
  clear(): void;
}

/**
 * A non-cryptographic fingerprint of a client secret. It only tells "the same link again" apart
 * from "a new link"; the secret itself is dead once exchanged, and is never stored.
 *
 * @example
 * secretTag('cs_abc') === secretTag('cs_abc'); // true
 */
export function secretTag(secret: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < secret.length; i++) {
    h ^= secret.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36) + secret.length.toString(36);
}

/**
 * The token store over a `Storage` (the page passes `sessionStorage`, so a reload of the tab
 * resumes and another tab does not).
 *
 * @example
 * const store = storageTokenStore(sessionStorage);
 * store.write({ token: 'ct_x', secretTag: null });
 */
export function storageTokenStore(storage: Storage | undefined): TokenStore {
  return {
    read() {
      try {
        const raw = storage?.getItem(KEY);
        if (!raw) return null;
        const parsed = JSON.parse(raw) as Partial<StoredToken>;
        return typeof parsed.token === 'string'
          ? { token: parsed.token, secretTag: parsed.secretTag ?? null }
          : null;
      } catch {
        return null;
      }
    },
    write(value) {
      try {
        storage?.setItem(KEY, JSON.stringify(value));
      } catch {
        // Private modes may refuse storage: the page still works, it just cannot resume a reload.
      }
    },
    clear() {
      try {
        storage?.removeItem(KEY);
      } catch {
        // Nothing stored, nothing to clear.
      }
    },
  };
}
