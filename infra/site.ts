/**
 * The web client in AWS: its build in a private bucket, one CloudFront distribution in front of
 * it and of the HTTP API. The API's paths (from the route table) go to the API with caching off
 * and every viewer header but Host forwarded; everything else comes from the bucket through
 * origin access control. The page and the API thus share one origin, so the page needs no CORS
 * and no URL of the API: it calls its own origin, as it does under `npm start`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  AssetHashType,
  DefaultStackSynthesizer,
  DockerImage,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  Token,
  Validations,
} from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, type ISource, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { SITE_CONFIG_PATH, type SignInConfig, type SiteConfig } from '../client/site-config.js';
import { apiPathPatterns } from './api-paths.js';
import { PROJECT_ROOT } from './bundling.js';
import { cacheControlOf, contentSecurityPolicy } from './site-headers.js';

export interface WebSiteProps {
  /** The HTTP API the page talks to, behind the same distribution. */
  readonly api: HttpApi;
  /** How long the access logs of the bucket and the distribution are kept. */
  readonly logRetention: RetentionDays;
  /** Where client/web lives. Default: this repository. */
  readonly projectRoot?: string;
  /**
   * Where the page signs in (its `/config.json`), and the origins it must fetch from to do so
   * (its CSP's connect-src: the token endpoint's). Default: no sign-in.
   */
  readonly signIn?: { readonly config: SignInConfig; readonly connectSources: readonly string[] };
}

/**
 * The built client, made at synthesis by the local Vite (`cdk synth` needs no Docker): the same
 * build `npm start` serves. Its hash is that of the output, so a change that does not change
 * the page deploys nothing.
 */
export function webAssets(projectRoot: string = PROJECT_ROOT): ISource {
  const vite = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = join(projectRoot, 'client', 'web', 'vite.config.ts');
  return Source.asset(join(projectRoot, 'client', 'web'), {
    exclude: ['dist', 'node_modules'],
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never used: local bundling below always builds or fails loudly.
      image: DockerImage.fromRegistry('local-vite-build-only'),
      local: {
        tryBundle(outputDir: string): boolean {
          const built = spawnSync(
            process.execPath,
            [vite, 'build', '--config', config, '--outDir', outputDir, '--emptyOutDir', '--logLevel', 'warn'],
            { cwd: projectRoot, encoding: 'utf8' },
          );
          if (built.status !== 0) {
            throw new Error(`the web client's build failed:\n${built.stderr || built.stdout || built.error}`);
          }
          return true;
        },
      },
    },
  });
}

export class WebSite extends Construct {
  readonly bucket: Bucket;
  readonly logs: Bucket;
  readonly distribution: Distribution;
  /** https://<distribution domain>/ */
  readonly url: string;
  /** The page's `/config.json` (deploy-time values in it are tokens until deployment). */
  readonly siteConfig: SiteConfig;

  constructor(scope: Construct, id: string, props: WebSiteProps) {
    super(scope, id);
    const days = Duration.days(props.logRetention);

    // One bucket for the access logs of the site's bucket and of the distribution. CloudFront's
    // standard logs are written with an ACL, hence object writer ownership (no public ACL: all
    // public access stays blocked).
    this.logs = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: days }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.logs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access log bucket of the site; logging its own access would log the logs.',
    });

    // The build is derived from the repository and deployed again by every deploy: nothing in
    // the bucket needs keeping when the stack goes (it is emptied, then deleted).
    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'bucket/',
      removalPolicy: RemovalPolicy.DESTROY,
      // CloudFormation deletes no bucket with objects in it: the CDK's handler empties this one
      // when, and only when, the bucket itself is being deleted.
      autoDeleteObjects: true,
    });

    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Klondike web client: CSP, no framing, no sniffing, no referrer, HSTS',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.signIn?.connectSources),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
    });

    // API Gateway's host name (its endpoint is https://<id>.execute-api.<region>.<suffix>).
    const apiDomain = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const toApi: BehaviorOptions = {
      origin: new HttpOrigin(apiDomain, {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      }),
      // A redirect would turn a POST into a GET: plain HTTP is refused instead.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      // Every answer is about one game at one moment: nothing is cached. With caching off, this
      // policy forwards every viewer header (Authorization, If-Match, Idempotency-Key) but Host,
      // which must be the API's own, and every query string.
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Klondike web client and API (${Stack.of(this).stackName})`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
      },
      additionalBehaviors: Object.fromEntries(apiPathPatterns().map((pattern) => [pattern, toApi])),
      // No errorResponses: they would apply to the API's answers too, and replace its
      // problem+json 403s and 404s with a page. The page's links are fragments of `/`.
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logs,
      logFilePrefix: 'cloudfront/',
    });
    this.acknowledgeDistribution();

    const site = webAssets(props.projectRoot);
    const configFile = SITE_CONFIG_PATH.slice(1);
    // Hashed assets first, immutable; then index.html, never cached stale, and the edge told to
    // drop its copy: a new page never names an asset that is not there yet. Earlier builds' assets
    // stay (no pruning): the page a visitor loaded before this deploy, and the edge's copies of the
    // old index.html until the invalidation ends, still find theirs. config.json is its own
    // deployment (it holds the pool's deploy-time names).
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [site],
      destinationBucket: this.bucket,
      exclude: ['index.html', configFile],
      prune: false,
      cacheControl: [CacheControl.fromString(cacheControlOf('/assets/'))],
      memoryLimit: 256,
    });
    // Where the page signs in: the user pool's domain and client, resolved at deployment.
    this.siteConfig = { signIn: props.signIn?.config ?? { kind: 'none' } };
    const config = new BucketDeployment(this, 'DeployConfig', {
      sources: [Source.jsonData(configFile, this.siteConfig)],
      destinationBucket: this.bucket,
      prune: false,
      cacheControl: [CacheControl.fromString(cacheControlOf(SITE_CONFIG_PATH))],
      distribution: this.distribution,
      distributionPaths: [SITE_CONFIG_PATH],
      memoryLimit: 256,
    });
    const index = new BucketDeployment(this, 'DeployIndex', {
      sources: [site],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['index.html'],
      prune: false,
      cacheControl: [CacheControl.fromString(cacheControlOf('/index.html'))],
      distribution: this.distribution,
      distributionPaths: ['/', '/index.html'],
      memoryLimit: 256,
    });
    index.node.addDependency(assets, config);
    this.acknowledgeDeploymentHandler();
    this.url = `https://${this.distribution.distributionDomainName}/`;
  }

  /**
   * BucketDeployment's handler is one function per stack that the CDK makes and owns (its code,
   * runtime and role are not ours to set); what it is granted is scoped by the CDK to the asset
   * staging bucket and this site's bucket, plus CloudFront invalidation, which has no resource.
   */
  private acknowledgeDeploymentHandler(): void {
    const stack = Stack.of(this);
    // The default bootstrap's staging bucket, as cdk-nag names it in the finding: with the stack's
    // account and region where they are known (the CLI passes them), else as pseudo parameters.
    const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const stagingBucket = `cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${known(stack.account, 'AccountId')}-${known(stack.region, 'Region')}`;
    const handlers = stack.node.children.filter((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    for (const handler of handlers) {
      const validations = Validations.of(handler);
      validations.acknowledge({
        id: 'AwsSolutions-L1',
        reason: "The CDK's BucketDeployment handler: the CDK chooses and updates its runtime.",
      });
      validations.acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "The CDK's BucketDeployment handler role: the managed policy lets it write its own logs.",
      });
      const grants: [string, string][] = [
        ['Action::s3:GetObject*', 'reads the staged build and this bucket'],
        ['Action::s3:GetBucket*', 'reads the buckets it copies between'],
        ['Action::s3:List*', 'lists the keys it copies'],
        ['Action::s3:DeleteObject*', 'the CDK grants it with the write grants (no deployment here prunes)'],
        ['Action::s3:Abort*', 'aborts its own failed uploads'],
        [
          `Resource::arn:<AWS::Partition>:s3:::${stagingBucket}/*`,
          "the CDK's asset staging bucket, whose keys it reads",
        ],
        [
          `Resource::<${stack.getLogicalId(this.bucket.node.defaultChild as CfnBucket)}.Arn>/*`,
          "this site's bucket, every key",
        ],
        [
          'Resource::*',
          "invalidates the distribution with cloudfront:CreateInvalidation and GetInvalidation, which the CDK grants on every resource (the CDK's own policy, which this stack does not write)",
        ],
      ];
      for (const [finding, why] of grants) {
        validations.acknowledge({
          id: `AwsSolutions-IAM5[${finding}]`,
          reason: `The CDK's BucketDeployment handler ${why}.`,
        });
      }
    }
  }

  private acknowledgeDistribution(): void {
    const validations = Validations.of(this.distribution);
    validations.acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'A card game for anyone anywhere: there is no country to keep out.',
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        "No WAF web ACL: the API throttles at its stage (and its open CPU-heavy routes harder), every game route checks its game's token, and the bucket only holds the public build. A web ACL costs a monthly fee; add one with the distribution's webAclId when abuse calls for it.",
    });
    validations.acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution uses CloudFront's default *.cloudfront.net certificate, whose viewer TLS policy cannot be chosen. With a custom domain and an ACM certificate, set minimumProtocolVersion TLSv1.2_2021.",
    });
  }
}
