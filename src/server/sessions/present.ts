import type { ClientSecret, Report, ReportMedia, SessionMedia } from '../../core/api';
import type { MediaService } from '../media/types';
import { presentReport } from './present-report';
import type { ClientSecretRecord, SessionRecord } from '../store/types';

/** What presenting a session needs of the media service: fresh signed URLs and the records. */
export type MediaUrlSigner = Pick<MediaService, 'signedUrl' | 'get'>;

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
  report: Report;
  erasedAt?: number;
}

/**
 * A stored session as the API shows it. With `media`, the media ids the report keeps
 * (`report.screenshots`, the user video, document photos) become signed URLs valid for 15 minutes
 * from now, also as the media objects of `report.media`; without it they stay ids (callers that
 * show no report to integrators).
 *
 * @example
 * (await presentSession(record)).status; // 'created'
 * (await presentSession(record, media)).report.screenshots; // ['https://…/media/med_…?expires=…&sig=…']
 */
export async function presentSession(
  s: SessionRecord,
  media?: MediaUrlSigner,
): Promise<SessionJson> {
  const stored = media ? withSignedMedia(s.report, media) : s.report;
  const report = presentReport(s, stored);
  if (media) {
    const objects = await reportMedia(s.report, media);
    if (objects) report.media = objects;
  }
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
    report,
    ...(s.report.erasedAt !== undefined ? { erasedAt: s.report.erasedAt } : {}),
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
  media: Pick<MediaService, 'signedUrl'>,
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

/** The document photos (portraits) the document_scan nodes kept. */
function documentPhotos(report: SessionRecord['report']): string[] {
  return report.nodeReports.flatMap((r) => {
    const id = r.type === 'document_scan' ? r.report?.['documentPhoto'] : undefined;
    return typeof id === 'string' && MEDIA_ID.test(id) ? [id] : [];
  });
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
    (video !== undefined && MEDIA_ID.test(video)) ||
    documentPhotos(s.report).length > 0
  );
}

/**
 * `report.media` (compat.md §4.11): the report's media as media objects with fresh signed URLs;
 * undefined when the report keeps none.
 *
 * @example
 * (await reportMedia(report, media))?.screenshots?.[0]; // { id: 'med_…', createdAt: …, expireAt: …, contentType: 'image/jpeg', url: 'https://…' }
 */
export async function reportMedia(
  report: SessionRecord['report'],
  media: MediaUrlSigner,
): Promise<ReportMedia | undefined> {
  const object = async (id: string): Promise<SessionMedia | null> => {
    if (!MEDIA_ID.test(id)) return null;
    const record = await media.get(id);
    if (!record) return null;
    const signed = media.signedUrl(id);
    return {
      id,
      createdAt: record.createdAt,
      expireAt: signed.expires,
      contentType: record.contentType,
      url: signed.url,
    };
  };
  const out: ReportMedia = {};
  const shots = (await Promise.all((report.screenshots ?? []).map(object))).filter(
    (x): x is SessionMedia => x !== null,
  );
  if (shots.length) out.screenshots = shots;
  const video = report.videos?.userVideoUrl;
  const userVideo = video ? await object(video) : null;
  if (userVideo) out.userVideo = userVideo;
  const photos = (await Promise.all(documentPhotos(report).map(object))).filter(
    (x): x is SessionMedia => x !== null,
  );
  // The portrait cut from the document's first side (side 0).
  if (photos.length) out.documentImages = photos.map((file) => ({ side: 0, type: 'face', file }));
  return Object.keys(out).length ? out : undefined;
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
