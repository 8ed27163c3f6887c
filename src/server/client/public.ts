import type { PublicSessionShape } from '../../core/api';
import type { FlowPosition } from '../../core/flow';
import { maskDestination } from '../otp/codes';
import { knownEmail, knownPhone } from '../otp/destinations';
import { safeEmbedOrigins } from '../sessions/embedOrigins';
import { absoluteUrl } from '../sessions/present';
import type { AvatarRecord, SessionRecord } from '../store/types';

/**
 * What the hosted page may see of a session: the flow and what the page shows, never metadata,
 * the client reference or providedData values (contacts only masked).
 *
 * @example
 * publicSession(session, avatar, 'http://localhost:3000').settings.avatar?.imageUrl;
 */
export function publicSession(
  s: SessionRecord,
  avatar: AvatarRecord | null,
  publicUrl: string,
): PublicSessionShape {
  const st = s.settings;
  const email = knownEmail(s);
  const phone = knownPhone(s);
  return {
    id: s.id,
    status: s.status,
    testMode: s.mode === 'test',
    flow: st.flow,
    settings: {
      avatar: avatar
        ? {
            id: avatar.id,
            name: avatar.name,
            gender: avatar.gender,
            imageUrl: absoluteUrl(publicUrl, avatar.imageUrl),
          }
        : null,
      langs: st.langs,
      defaultLang: st.defaultLang,
      lang: s.report.lang ?? null,
      ...(st.initialPhrase !== undefined ? { initialPhrase: st.initialPhrase } : {}),
      ...(st.finalPhrase !== undefined ? { finalPhrase: st.finalPhrase } : {}),
      ...(st.customization !== undefined ? { customization: st.customization } : {}),
      ...(st.redirectUrl !== undefined ? { redirectUrl: st.redirectUrl } : {}),
      // The same origins the page's CSP lets frame it, whatever an older version stored.
      embedOrigins: safeEmbedOrigins(st.embedOrigins, s.mode),
      // The page samples video frames only for a session that takes them.
      videoAIAnalysisEnabled: st.videoAIAnalysisEnabled === true,
    },
    ...(s.report.consent ? { consent: s.report.consent } : {}),
    contact: {
      email: email ? maskDestination(email) : null,
      phone: phone ? maskDestination(phone) : null,
    },
  };
}

/** The position as the page reads it. */
export function publicPosition(s: SessionRecord): FlowPosition {
  return s.position;
}
