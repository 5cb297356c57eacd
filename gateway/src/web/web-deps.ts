import type { Logger } from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';
import type { GatewayConfig } from '../config';
import type { GatewayServices } from '../services';
import type { Mailer } from '../mail/mailer';
import type { SessionVerifier } from '../auth/session-authenticators';
import type { SessionCookieSettings } from '../auth/session-cookie';

/** What the web app's pages are built with. */
export interface WebDeps {
  config: GatewayConfig;
  services: GatewayServices;
  mailer: Mailer;
  sessions: SessionVerifier;
  cookie: SessionCookieSettings;
  /** The shared window counter (NATS KV or memory) the sign-in attempt limits count in. */
  counter: WindowCounter;
  log: Logger;
}
