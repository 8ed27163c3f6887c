/**
 * Secrets of the service itself (not of an account), such as the media signing key: made once,
 * then the same for every instance and across restarts. Where they live follows the store: files
 * in the data folder beside SQLite, a table beside the rest on PostgreSQL.
 */
export interface PlatformSecrets {
  /**
   * The secret called `name` (`[a-z0-9-]`): the one kept, or else `candidate`, kept now. Callers
   * racing in several processes all get the first one kept, never their own losing candidate.
   */
  keep(name: string, candidate: Buffer): Promise<Buffer>;
  /** Where `name` is kept, for messages to the operator (a path, or a table and row). */
  whereIs(name: string): string;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Refuses a name that is not `[a-z0-9-]` (it becomes a file name, or a key in a table).
 *
 * @example
 * checkSecretName('media-signing'); // fine
 * checkSecretName('../x'); // throws
 */
export function checkSecretName(name: string): void {
  if (!NAME.test(name)) {
    throw new Error(
      `a platform secret's name is [a-z0-9-], up to 63 (got ${JSON.stringify(name)})`,
    );
  }
}
