/**
 * Media store keys: `/`-separated segments of `[a-z0-9_.-]` that never start with a dot. That one
 * rule shuts out `..`, `.`, absolute paths, empty segments and hidden files, so a key always
 * names a file inside the store's folder and never one of the store's own dot-files (temporary
 * writes, content-type notes).
 */

/** A refused key: a programming error of the caller, never user input reaching a store. */
export class MediaKeyError extends Error {
  constructor(key: string, problem: string) {
    super(`invalid media key ${JSON.stringify(key)}: ${problem}`);
    this.name = 'MediaKeyError';
  }
}

/** Longest key accepted; far above what the service makes, well under file-system limits. */
export const MAX_MEDIA_KEY_LENGTH = 400;

const SEGMENT = /^[a-z0-9_-][a-z0-9_.-]*$/;

/**
 * Why a key is refused, or null when it is fine.
 *
 * @example
 * mediaKeyProblem('sessions/sess_1/med_2.jpg'); // null
 * mediaKeyProblem('../etc/passwd'); // 'segment ".." …'
 */
export function mediaKeyProblem(key: string): string | null {
  if (key.length === 0) return 'key is empty';
  if (key.length > MAX_MEDIA_KEY_LENGTH) return `key is longer than ${MAX_MEDIA_KEY_LENGTH}`;
  if (key.startsWith('/')) return 'key is an absolute path';
  for (const segment of key.split('/')) {
    if (segment === '') return 'key has an empty segment';
    if (!SEGMENT.test(segment)) {
      return `segment ${JSON.stringify(segment)} must be made of [a-z0-9_.-] and not start with "."`;
    }
  }
  return null;
}

/**
 * The key a service record's bytes are kept under: one folder per session, so that a session's
 * media can be removed (or listed by an operator) together.
 *
 * @example
 * mediaKeyFor('sess_1', 'med_2', 'image/jpeg'); // 'sessions/sess_1/med_2.jpg'
 */
export function mediaKeyFor(sessionId: string, mediaId: string, contentType: string): string {
  return `sessions/${sessionId}/${mediaId}${extensionFor(contentType)}`;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
};

/**
 * The file extension for a content type (`.bin` when unknown), so that files on disk open in
 * ordinary viewers.
 *
 * @example
 * extensionFor('image/jpeg'); // '.jpg'
 */
export function extensionFor(contentType: string): string {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return EXTENSIONS[base] ?? '.bin';
}
