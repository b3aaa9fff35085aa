/**
 * Signing in (docs/api.md): a Cognito user pool and one public app client. The functions
 * verify the pool's JWTs themselves (functions/http/identity.ts), given the issuer and the client
 * id; nothing else of the pool reaches them. The web page signs in at the pool's hosted UI (a
 * Cognito domain) with the authorization code grant and PKCE, the one OAuth flow meant for a
 * public client in a browser: no secret, no password in the page, the code useless without the
 * page's verifier, and the tokens fetched from /oauth2/token rather than carried in a URL.
 */
import { Duration, Fn, Lazy, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { cognitoSignIn, type SignInConfig } from '../client/site-config.js';

/** Both tokens a client may send live an hour, as the local issuer's do (docs/api.md). */
export const TOKEN_VALIDITY = Duration.hours(1);
/** How long a signed-in client may renew its tokens without the password. */
export const REFRESH_VALIDITY = Duration.days(30);
/** Cognito's default is 8; 12 with every character class, for a pool anyone may sign up to. */
export const PASSWORD_MIN_LENGTH = 12;

export interface PlayersProps {
  readonly stage: string;
  /** Keep the pool (deletion protection, retained) when the stack goes: a player's `sub` is their games' owner. */
  readonly keepData: boolean;
}

export class Players extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  /** The hosted UI and the OAuth endpoints: `https://<prefix>.auth.<region>.amazoncognito.com`. */
  readonly domain: UserPoolDomain;
  /** The page that signs in here (its URL is the client's one callback), once the site exists. */
  private webUrl: string | undefined;
  /** The same, as a value resolved at synthesis (after signInFrom). */
  private readonly webUrlToken: string;
  /**
   * The `iss` of the pool's tokens, `https://cognito-idp.<region>.<suffix>/<pool id>`, its JWKS at
   * `<issuer>/.well-known/jwks.json` (the functions' default). Built like the CDK's own
   * HttpUserPoolAuthorizer builds it: the functions compare `iss` as a string, and the pool's
   * ProviderURL attribute is documented only as "the URL of the provider".
   */
  readonly issuer: string;

  constructor(scope: Construct, id: string, props: PlayersProps) {
    super(scope, id);
    this.userPool = new UserPool(this, 'UserPool', {
      userPoolName: `klondike-${props.stage}`,
      // Anyone may sign up to keep their games; the email, verified by a code, is the user name and
      // the way back in. The player's id is the pool's `sub`, which never changes.
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // A changed address takes effect once verified: a typo cannot lock the player out.
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: PASSWORD_MIN_LENGTH,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      // A player may add an authenticator app; SMS would need an SNS role and costs per message.
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Lite: password sign-in, email verification and optional MFA are all a game needs, at the
      // lowest price per monthly active user (Essentials and Plus add managed login, passwordless
      // and threat protection).
      featurePlan: FeaturePlan.LITE,
      deletionProtection: props.keepData,
      removalPolicy: props.keepData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional, not required: what a sign-in protects is a card game record, and required MFA would turn most players away. Players may turn on an authenticator app (TOTP).',
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus feature plan (threat protection) is billed per monthly active user at several times the Lite price; the API throttles per stage and per route, and a password policy of 12 characters with every class applies.',
    });

    // A prefix domain must be unique in its region across all accounts: the stack's own id (a
    // UUID, known only at deployment) makes it so, and names no account.
    const stackUuid = Fn.select(2, Fn.split('/', Stack.of(this).stackId));
    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: Fn.join('-', ['klondike', props.stage, stackUuid]) },
      // Lite's sign-in pages (managed login's branding editor needs Essentials).
      managedLoginVersion: ManagedLoginVersion.CLASSIC_HOSTED_UI,
    });

    // Known once the site exists (its distribution's URL); the distribution does not depend on
    // the client, so the client may depend on it without a cycle.
    const webUrl = Lazy.string({
      produce: () => {
        if (!this.webUrl) throw new Error('Players: signInFrom(url) names the web page that signs in here');
        return this.webUrl;
      },
    });
    this.webUrlToken = webUrl;
    this.client = this.userPool.addClient('Client', {
      userPoolClientName: `klondike-${props.stage}-public`,
      // A public client: the web page and the terminal client cannot keep a secret.
      generateSecret: false,
      // SRP for players (the password never leaves the device); ADMIN_USER_PASSWORD_AUTH for an
      // operator's curl session (docs/operations.md), callable only with IAM credentials. No
      // USER_PASSWORD_AUTH: it would let anyone post plain passwords to a public client.
      authFlows: { userSrp: true, adminUserPassword: true },
      // The web page: the code grant only (never the implicit grant, whose tokens travel in the
      // URL), back to the page itself and nowhere else; PKCE is the page's part of it.
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [webUrl],
        logoutUrls: [webUrl],
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      idTokenValidity: TOKEN_VALIDITY,
      accessTokenValidity: TOKEN_VALIDITY,
      refreshTokenValidity: REFRESH_VALIDITY,
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
    });

    const stack = Stack.of(this);
    this.issuer = `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
  }

  /** Registers the web page (`https://<distribution>/`) as the client's callback and sign-out URL. */
  signInFrom(url: string): void {
    this.webUrl = url;
  }

  /** What the page's `/config.json` says: this pool's hosted UI, the public client, the page's URL. */
  webSignIn(): Extract<SignInConfig, { kind: 'oauth' }> {
    return cognitoSignIn(this.domain.baseUrl(), this.client.userPoolClientId, this.webUrlToken);
  }
}
