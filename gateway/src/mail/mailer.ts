import type { Logger } from '@vrs/kit';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail extends MailMessage {
  from: string;
  sentAt: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** The dev outbox's last messages, newest first; null when mail goes out over SMTP. */
  outbox(): SentMail[] | null;
}

/**
 * Mail leaves from the gateway (ADR 0034): billing issues the link tokens, the gateway knows the
 * public address (PUBLIC_BASE_URL) the links must point at and composes the message. With SMTP_URL
 * it goes out over SMTP (nodemailer); without it the message is logged and kept in memory — the
 * last `keep` messages, for `/_dev/mail` — so `npm start` works with no mail server.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; keep: number; log: Logger }): Mailer {
  const { smtpUrl, from, log } = options;
  if (smtpUrl) {
    // nodemailer is loaded by the first message, not at start: a gateway that sends no mail need not carry it.
    let transport: Promise<import('nodemailer').Transporter> | undefined;
    return {
      async send(message) {
        transport ??= import('nodemailer').then(({ createTransport }) => createTransport(smtpUrl));
        await (await transport).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
        log.info({ subject: message.subject }, 'mail sent');
      },
      outbox: () => null,
    };
  }
  const kept: SentMail[] = [];
  return {
    async send(message) {
      kept.unshift({ ...message, from, sentAt: new Date().toISOString() });
      kept.length = Math.min(kept.length, options.keep);
      log.info({ to: message.to, subject: message.subject, text: message.text }, 'mail not sent (no SMTP_URL); kept at /_dev/mail');
    },
    outbox: () => [...kept],
  };
}
