import type { Logger } from '@vrs/kit';
import type { WindowCounter } from '@vrs/bus';
import type { GatewayConfig } from '../config';
import type { GatewayServices } from '../services';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { CountSignInAttempt } from './signin-limits';
import type { SessionVerifier } from '../auth/session-authenticators';
import type { SessionCookieSettings } from '../auth/session-cookie';
import type { AuthCaches } from '../auth/auth-caches';

/** What the web app's pages are built with. */
export interface WebDeps {
  config: GatewayConfig;
  services: GatewayServices;
  mailer: Mailer;
  sessions: SessionVerifier;
  /** This process's credential caches: a revoked key or a reset password takes effect here at once. */
  authCaches: AuthCaches;
  cookie: SessionCookieSettings;
  /** The shared window counter (NATS KV or memory) the sign-in attempt limits count in. */
  counter: WindowCounter;
  log: Logger;
}

/** The pages' dependencies: the web deps and the sign-in attempt limits built from them. */
export interface PageDeps extends WebDeps {
  countSignInAttempt: CountSignInAttempt;
  /** Sends a message; a failure is logged, never shown (it must not reveal whether an address has an account). */
  deliver(message: MailMessage): Promise<void>;
}
