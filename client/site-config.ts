/**
 * `GET /config.json`, beside the web client's files: how the page signs a player in. It is not
 * part of the HTTP API (the page's build is the same everywhere; where it signs in is not): the
 * local runtime answers it for its own issuer, and the stack deploys it into the site's bucket
 * with the Cognito domain and app client it made. Neither holds a secret.
 */
export const SITE_CONFIG_PATH = '/config.json';

export type SignInConfig =
  /** No sign-in offered (the local runtime trusts an issuer it knows no sign-in page of). */
  | { readonly kind: 'none' }
  /** `npm start`'s development issuer: `POST <tokenUrl> {"player": "<name>"}` answers `{ token }`. */
  | { readonly kind: 'dev'; readonly tokenUrl: string }
  /**
   * An OAuth 2.0 authorization server (Cognito's hosted UI): the authorization code grant with
   * PKCE (S256), as a public client without a secret. Cognito's own paths: `/oauth2/authorize`,
   * `/oauth2/token`, `/logout?client_id=&logout_uri=`.
   */
  | {
      readonly kind: 'oauth';
      readonly authorizeUrl: string;
      readonly tokenUrl: string;
      readonly logoutUrl: string;
      readonly clientId: string;
      readonly scope: string;
      /** The callback registered with the client; the page's own `/` when left out. */
      readonly redirectUri?: string;
    };

export interface SiteConfig {
  readonly signIn: SignInConfig;
}

/** Cognito's endpoints under a user pool domain (`https://<prefix>.auth.<region>.amazoncognito.com`). */
export function cognitoSignIn(
  domainUrl: string,
  clientId: string,
  redirectUri?: string,
): Extract<SignInConfig, { kind: 'oauth' }> {
  return {
    kind: 'oauth',
    authorizeUrl: `${domainUrl}/oauth2/authorize`,
    tokenUrl: `${domainUrl}/oauth2/token`,
    logoutUrl: `${domainUrl}/logout`,
    clientId,
    scope: 'openid email',
    ...(redirectUri === undefined ? {} : { redirectUri }),
  };
}
