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
