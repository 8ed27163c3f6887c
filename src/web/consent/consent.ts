/**
 * When the page asks for consent, and what it tells the user it captures. The page asks once, on
 * the page that asks for the camera (a permissions node, or the same page in front of the first
 * camera step), before the browser is asked: no frame is taken before the choice.
 */
import type { FlowNode, PublicSession } from '../api/types';
import { devicesFor, type BrowserAbilities, type Devices } from '../nodes/devices';

/**
 * Whether the page must ask for consent before asking for `devices`: before the camera, once
 * (the session keeps the choice, so a reload does not ask again).
 *
 * @example
 * consentDue({ camera: true, microphone: false }, false); // true
 * consentDue({ camera: false, microphone: true }, false); // false
 */
export function consentDue(devices: Devices, consented: boolean): boolean {
  return devices.camera && !consented;
}

export interface Captures {
  face: boolean;
  video: boolean;
  document: boolean;
  voice: boolean;
}

const FACE = new Set<string>(['face_scan', 'liveness_detection']);

/**
 * What the flow may capture, for the disclosure: face images, the video of the session (any
 * camera step records it), document images, and the voice where answers may be spoken.
 *
 * @example
 * capturesOf([{ id: 'd', type: 'document_scan', outcomes: {} }], { speechRecognition: false });
 * // { face: false, video: true, document: true, voice: false }
 */
export function capturesOf(flow: readonly FlowNode[], abilities: BrowserAbilities): Captures {
  const has = (type: string) => flow.some((n) => n.type === type);
  return {
    face: flow.some((n) => FACE.has(n.type)),
    video: flow.some((n) => devicesFor(n, abilities).camera),
    document: has('document_scan'),
    voice: abilities.speechRecognition && flow.some((n) => devicesFor(n, abilities).microphone),
  };
}

/** The integrator's consent settings (`customization.consent`), with their defaults. */
export function consentSettingsOf(session: PublicSession): {
  organizationName: string | null;
  privacyUrl: string | null;
  retentionDays: number | null;
} {
  const c = session.settings.customization?.consent;
  return {
    organizationName: c?.organizationName ?? null,
    privacyUrl: c?.privacyUrl ?? null,
    retentionDays: c?.retentionDays ?? null,
  };
}
