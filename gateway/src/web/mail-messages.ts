import type { MailMessage } from '../mail/mailer';

/** The mail the web app sends; every link is absolute, on the service's public address. */

export function verificationMail(to: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: 'Verify your email address',
    text: [
      'Welcome to Video Research Service.',
      '',
      'Open this link to verify your email address (it works once, for a limited time):',
      `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`,
      '',
      'If you did not sign up, ignore this message.',
    ].join('\n'),
  };
}

export function alreadyRegisteredMail(to: string, baseUrl: string): MailMessage {
  return {
    to,
    subject: 'You already have an account',
    text: [
      'Someone (perhaps you) tried to sign up with this email address, which already has an account.',
      '',
      `Sign in: ${baseUrl}/signin`,
      `Forgot your password? ${baseUrl}/forgot-password`,
      '',
      'If it was not you, you can ignore this message: nothing changed.',
    ].join('\n'),
  };
}

export function passwordResetMail(to: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: 'Choose a new password',
    text: [
      'Open this link to choose a new password (it works once, for a limited time):',
      `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`,
      '',
      'Choosing a new password signs out every session of the account.',
      'If you did not ask for this, ignore this message: nothing changed.',
    ].join('\n'),
  };
}
