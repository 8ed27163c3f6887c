import type { ClientSecret } from '../../core/api';
import type { MediaService } from '../media/types';
import type { ClientSecretRecord, SessionRecord } from '../store/types';

/** What presenting a session needs of the media service: fresh signed URLs. */
export type MediaUrlSigner = Pick<MediaService, 'signedUrl'>;

const MEDIA_ID = /^med_[0-9a-f]+$/;

/** The latest-version JSON of a session; versions are applied afterwards, at the edge. */
export interface SessionJson {
  id: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  status: SessionRecord['status'];
  livemode: boolean;
  flowId: string;
  version: string;
  settings: SessionRecord['settings'];
  report: SessionRecord['report'];
}

/**
 * A stored session as the API shows it. With `media`, the media ids the report keeps
 * (`report.screenshots`) become signed URLs valid for 15 minutes from now; without it they stay
 * ids (callers that show no report to integrators).
 *
 * @example
 * presentSession(record).status; // 'created'
 * presentSession(record, media).report.screenshots; // ['https://…/media/med_…?expires=…&sig=…']
 */
export function presentSession(s: SessionRecord, media?: MediaUrlSigner): SessionJson {
  return {
    id: s.id,
    createdAt: s.createdAt,
    ...(s.startedAt !== null ? { startedAt: s.startedAt } : {}),
    ...(s.finishedAt !== null ? { finishedAt: s.finishedAt } : {}),
    status: s.status,
    livemode: s.mode === 'live',
    flowId: s.flowId,
    version: s.version,
    settings: s.settings,
    report: media ? withSignedMedia(s.report, media) : s.report,
  };
}

/**
 * The report with its media ids replaced by fresh signed URLs; the same object when it has none
 * (the stored report is never changed).
 *
 * @example
 * withSignedMedia({ ...report, screenshots: ['med_1'] }, media).screenshots;
 * // ['https://idv.example/media/med_1?expires=…&sig=…']
 */
export function withSignedMedia(
  report: SessionRecord['report'],
  media: MediaUrlSigner,
): SessionRecord['report'] {
  const shots = report.screenshots;
  const video = report.videos?.userVideoUrl;
  const signVideo = video !== undefined && MEDIA_ID.test(video);
  if (!shots?.some((x) => MEDIA_ID.test(x)) && !signVideo) return report;
  return {
    ...report,
    ...(shots
      ? { screenshots: shots.map((x) => (MEDIA_ID.test(x) ? media.signedUrl(x).url : x)) }
      : {}),
    ...(signVideo
      ? { videos: { ...report.videos, userVideoUrl: media.signedUrl(video).url } }
      : {}),
  };
}

/**
 * Whether a session's presentation holds signed URLs, which expire: such a presentation must be
 * made afresh for each read, never served from a cache.
 *
 * @example
 * carriesSignedMedia(sessionWithScreenshots); // true
 */
export function carriesSignedMedia(s: SessionRecord): boolean {
  const video = s.report.videos?.userVideoUrl;
  return (
    (s.report.screenshots?.some((x) => MEDIA_ID.test(x)) ?? false) ||
    (video !== undefined && MEDIA_ID.test(video))
  );
}

/**
 * The hosted page's URL for a secret.
 *
 * @example
 * verifyUrl('http://localhost:3000', 'cs_x'); // 'http://localhost:3000/verify?client_secret=cs_x'
 */
export function verifyUrl(publicUrl: string, secret: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verify?client_secret=${encodeURIComponent(secret)}`;
}

/**
 * A stored client secret as the API shows it.
 *
 * @example
 * presentSecret(secretRecord, 'http://localhost:3000').url;
 */
export function presentSecret(c: ClientSecretRecord, publicUrl: string): ClientSecret {
  return {
    secret: c.secret,
    createdAt: c.createdAt,
    expireAt: c.expireAt,
    url: verifyUrl(publicUrl, c.secret),
  };
}

/**
 * An image path of this service made absolute.
 *
 * @example
 * absoluteUrl('http://x.test', '/avatars/nova.svg'); // 'http://x.test/avatars/nova.svg'
 */
export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return pathOrUrl.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${pathOrUrl}` : pathOrUrl;
}
