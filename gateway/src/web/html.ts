import type { Request, Response } from 'express';
import type { AppError } from '@vrs/kit';
import { envelopeOf, setRetryAfter } from '../errors/envelope';

/** Markup that is already safe: built by `html`, never from a raw string. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = SafeHtml | string | number | null | undefined | false | Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof SafeHtml) return value.value;
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A template tag that escapes every interpolated value unless it is SafeHtml, so pages cannot forget to. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, part, index) => out + part + (index < values.length ? render(values[index]) : ''), ''));
}

/** The hidden field every form of a signed-in page carries (ADR 0034, CSRF). */
export function csrfField(token: string | undefined): SafeHtml {
  return token ? html`<input type="hidden" name="_csrf" value="${token}" />` : html``;
}

/**
 * One-line notices after a redirect. The query names a notice by key, never carries its text, so
 * a crafted link cannot put words on our page.
 */
const notices = {
  'signed-up': 'Check your inbox: we sent a link to verify your email address.',
  verified: 'Your email address is verified. Sign in to continue.',
  'signed-out': 'You are signed out.',
  'reset-sent': 'If an account uses that address, we sent it a link to choose a new password.',
  'password-reset': 'Your password was changed and every session signed out. Sign in with the new password.',
  'key-revoked': 'The key was revoked.',
  'session-revoked': 'The session was signed out.',
} as const;

function noticeOf(req: Request): string | undefined {
  const key = typeof req.query.notice === 'string' ? req.query.notice : undefined;
  return key && Object.hasOwn(notices, key) ? notices[key as keyof typeof notices] : undefined;
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Signed in: the navigation and the sign-out form show. */
  signedIn?: { csrfToken: string };
  error?: AppError;
}

/** The pages' one stylesheet, served at /web.css: the Content-Security-Policy allows no inline style (ADR 0081). */
export const pageStyles = `
body{font-family:system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;line-height:1.5;color:#1a1a1a}
nav{display:flex;gap:1rem;align-items:center;border-bottom:1px solid #ccc;padding-bottom:.5rem;margin-bottom:1rem;flex-wrap:wrap}
nav form{margin-left:auto}
label{display:block;margin-top:.75rem;font-weight:600}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;max-width:24rem;padding:.4rem;font-size:1rem}
button{margin-top:1rem;padding:.4rem .9rem;font-size:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem;border-bottom:1px solid #ddd;vertical-align:top}
.notice{background:#eef6ee;border:1px solid #7a7;padding:.5rem}.error{background:#fbeaea;border:1px solid #c55;padding:.5rem}
code{background:#f3f3f3;padding:.1rem .3rem;word-break:break-all}
label.choice{display:inline;font-weight:normal}
`;

export function page(req: Request, options: PageOptions): string {
  const notice = noticeOf(req);
  const nav = options.signedIn
    ? html`<nav aria-label="Main">
        <a href="/">Dashboard</a><a href="/keys">API keys</a><a href="/sessions">Sessions</a>
        <form method="post" action="/signout">${csrfField(options.signedIn.csrfToken)}<button type="submit">Sign out</button></form>
      </nav>`
    : html`<nav aria-label="Main"><a href="/signin">Sign in</a><a href="/signup">Sign up</a></nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${options.title} · Video Research Service</title>
  <link rel="stylesheet" href="/web.css" />
</head>
<body>
  <header>${nav}</header>
  <main>
    <h1>${options.title}</h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    ${options.error ? html`<p class="error" role="alert" data-code="${options.error.code}">${options.error.message}</p>` : ''}
    ${options.body}
  </main>
</body>
</html>`.value;
}

/** Scripts and tests ask for JSON; browsers get pages. */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

export function sendPage(res: Response, status: number, body: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.type('html').send(body);
}

/** A failed form: the envelope for JSON callers, else the page again with the error, at the error's status. */
export function sendFormError(req: Request, res: Response, error: AppError, rerender: (error: AppError) => string): void {
  setRetryAfter(res, error);
  if (wantsJson(req)) {
    res.status(error.status).json(envelopeOf(error, req.requestId));
    return;
  }
  sendPage(res, error.status, rerender(error));
}
