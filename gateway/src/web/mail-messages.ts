import type { MailMessage } from '../mail/mailer';

/** The mail the web app sends; every link is absolute, on the service's public address. */

function mail(to: string, subject: string, lines: string[]): MailMessage {
  return { to, subject, text: lines.join('\n') };
}

export function verificationMail(to: string, baseUrl: string, token: string): MailMessage {
  return mail(to, 'Verify your email address', [
    'Welcome to Video Research Service.',
    '',
    'Open this link to verify your email address (it works once, for a limited time):',
    `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`,
    '',
    'If you did not sign up, ignore this message.',
  ]);
}

export function alreadyRegisteredMail(to: string, baseUrl: string): MailMessage {
  return mail(to, 'You already have an account', [
    'Someone (perhaps you) tried to sign up with this email address, which already has an account.',
    '',
    `Sign in: ${baseUrl}/signin`,
    `Forgot your password? ${baseUrl}/forgot-password`,
    '',
    'If it was not you, you can ignore this message: nothing changed.',
  ]);
}

export function passwordResetMail(to: string, baseUrl: string, token: string): MailMessage {
  return mail(to, 'Choose a new password', [
    'Open this link to choose a new password (it works once, for a limited time):',
    `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`,
    '',
    'Choosing a new password signs out every session of the account.',
    'If you did not ask for this, ignore this message: nothing changed.',
  ]);
}
