import type { Request, Response } from 'express';
import { AppError } from '@vrs/kit';
import { sendError } from '../../errors/envelope';
import { html, page, sendPage, wantsJson } from '../html';
import type { WebDeps } from '../web-deps';

/**
 * `/_dev/mail`: the messages the dev outbox kept (no SMTP_URL), newest first, so `npm start` users
 * can follow verification and reset links. Never registered in production (there it is a 404).
 */
export function devMailPage({ mailer }: WebDeps) {
  return (req: Request, res: Response) => {
    const messages = mailer.outbox();
    if (messages === null) {
      sendError(res, new AppError('ROUTE_NOT_FOUND', 'Mail goes out over SMTP (SMTP_URL is set); nothing is kept here.'), req.requestId);
      return;
    }
    if (wantsJson(req)) {
      res.json({ data: messages });
      return;
    }
    const body = messages.length
      ? html`${messages.map(
          (message) => html`<article>
            <h2>${message.subject}</h2>
            <p>To ${message.to} · ${message.sentAt}</p>
            <pre>${message.text}</pre>
          </article>`,
        )}`
      : html`<p>No mail yet.</p>`;
    sendPage(res, 200, page(req, { title: 'Development mail', body }));
  };
}
