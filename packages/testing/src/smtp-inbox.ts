import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

/**
 * A real SMTP server for tests (smtp-server + mailparser) that keeps every message it receives, and
 * a small HTTP inbox in front of it so test workers in other processes can read the mail:
 * `GET <inboxUrl>/messages?to=<address>` answers `{data: ReceivedMail[]}`, oldest first.
 * Plain SMTP on loopback, no STARTTLS or AUTH: the gateway under test sends with `smtp://host:port`.
 */
export async function startSmtpInbox(options: { host?: string } = {}) {
  const host = options.host ?? '127.0.0.1';
  const messages: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: new Date().toISOString(),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, host, () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://inbox.invalid');
    if (req.method !== 'GET' || url.pathname !== '/messages') {
      res.writeHead(404).end();
      return;
    }
    const to = url.searchParams.get('to')?.toLowerCase();
    const data = to ? messages.filter((message) => message.to.includes(to)) : messages;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data }));
  });
  await new Promise<void>((resolve) => http.listen(0, host, () => resolve()));
  const httpPort = (http.address() as AddressInfo).port;

  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    inboxUrl: `http://${host}:${httpPort}`,
    async close() {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

/** The mail sent to `to` so far, oldest first, read from an inbox's HTTP side. */
export async function mailTo(inboxUrl: string, to: string): Promise<ReceivedMail[]> {
  const response = await fetch(`${inboxUrl}/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`inbox answered ${response.status}`);
  return ((await response.json()) as { data: ReceivedMail[] }).data;
}

/** Waits for the `count`-th message to `to` (whose subject matches, when given) and returns it. */
export async function waitForMail(
  inboxUrl: string,
  to: string,
  options: { subject?: RegExp; count?: number; timeoutMs?: number } = {},
): Promise<ReceivedMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const count = options.count ?? 1;
  for (;;) {
    const matching = (await mailTo(inboxUrl, to)).filter((mail) => !options.subject || options.subject.test(mail.subject));
    if (matching.length >= count) return matching[count - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail #${count} to ${to} within ${options.timeoutMs ?? 10_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first http(s) link in a message's text that starts with `prefix` (e.g. `${gatewayUrl}/verify-email`). */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link starting ${prefix} in mail "${mail.subject}":\n${mail.text}`);
  return link;
}
