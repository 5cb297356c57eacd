import type { Store } from '@vrs/store';

/** A client registered by RFC 7591 dynamic registration (ADR 0095): public, no secret. */
export interface OAuthClientDoc {
  /** The client_id. */
  _id: string;
  clientName: string | null;
  /** Exact strings: the authorize request must name one of them byte for byte. */
  redirectUris: string[];
  grantTypes: string[];
  createdAt: string;
}

export function createOAuthClientsRepo(store: Store) {
  const clients = store.collection<OAuthClientDoc>('oauth_clients');
  return {
    insert: (doc: OAuthClientDoc) => clients.insertOne(doc),
    findById: (clientId: string) => clients.findOne({ _id: clientId }),
  };
}
