import type { OtpSendLimits, OtpSendOutcome, SessionStore } from '../store/types';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface OutgoingSms {
  to: string;
  text: string;
}

/** Sends email. A rejected promise means the message did not go out (`delivery_failed`). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Sends SMS. A rejected promise means the message did not go out (`delivery_failed`). */
export interface SmsSender {
  send(sms: OutgoingSms): Promise<void>;
}

/**
 * The store's side of one-time codes: the node's current code read, a send claimed with its
 * limits, a code checked and counted.
 */
export type OtpCodeStore = Pick<SessionStore, 'getOtp' | 'claimOtpSend' | 'checkOtp'>;
export type { OtpSendLimits, OtpSendOutcome };
