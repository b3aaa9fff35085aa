import { describe, expect, it } from 'vitest';
import { configFromContext, STAGE_DEFAULTS } from '../../infra/config.js';

describe('stage configuration from context', () => {
  it('defaults to dev with its defaults', () => {
    expect(configFromContext({})).toEqual({ stage: 'dev', ...STAGE_DEFAULTS.dev });
    expect(configFromContext({ stage: 'prod' })).toEqual({ stage: 'prod', ...STAGE_DEFAULTS.prod });
  });

  it('reads -c strings and cdk.json values alike', () => {
    const fromCli = configFromContext({
      stage: 'prod',
      corsOrigins: 'https://a.example,https://b.example:8443',
      throttleRate: '12.5',
      throttleBurst: '30',
      logRetentionDays: '14',
      alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:ops',
    });
    const fromJson = configFromContext({
      stage: 'prod',
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      throttleRate: 12.5,
      throttleBurst: 30,
      logRetentionDays: 14,
      alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:ops',
    });
    expect(fromCli).toEqual(fromJson);
    expect(fromCli).toMatchObject({
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      throttleRate: 12.5,
      throttleBurst: 30,
      logRetention: 14,
    });
  });

  it('lets only dev be destroyed with the stack', () => {
    expect(configFromContext({ destroyOnRemoval: 'true' }).destroyOnRemoval).toBe(true);
    expect(() => configFromContext({ stage: 'prod', destroyOnRemoval: 'true' })).toThrow(/destroyOnRemoval/);
  });

  it.each([
    [{ stage: 'staging' }, /stage/],
    [{ throttleRate: '0' }, /throttleRate/],
    [{ throttleRate: 'fast' }, /throttleRate/],
    [{ throttleBurst: '2.5' }, /throttleBurst/],
    [{ logRetentionDays: '10' }, /logRetentionDays/],
    [{ corsOrigins: '' }, /corsOrigins/],
    [{ corsOrigins: 'a.example' }, /corsOrigins/],
    [{ corsOrigins: 'https://a.example/path' }, /corsOrigins/],
    [{ destroyOnRemoval: 'yes' }, /destroyOnRemoval/],
    [{ alarmTopicArn: 'ops-topic' }, /alarmTopicArn/],
    [{ alarmTopicArn: 'arn:aws:s3:::ops-bucket' }, /alarmTopicArn/],
    [{ alarmTopicArn: 'arn:aws:sns:eu-west-1:1234:ops' }, /alarmTopicArn/],
  ])('refuses %j, naming the key', (context, message) => {
    expect(() => configFromContext(context)).toThrow(message);
  });
});
