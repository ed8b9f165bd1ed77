import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import type { UpstreamService } from '../../../../src/errors/codes';
import { Cancellation } from '../../../../src/core/cancellation';
import type { CallerScope } from '../../../../src/upstream/chain/call';
import { startCall, type TargetSettings } from '../../../../src/upstream/chain/target';
import type { ServiceBase } from '../../../../src/upstream/link-target';

const settings: TargetSettings = {
  bases: new Map<UpstreamService, ServiceBase>([
    ['rest-v1', { origin: 'http://up.test', basePath: '/rest/v1', servicePath: '/rest/v1' }],
    ['search', { origin: 'http://search.test', basePath: '/es', servicePath: null }],
  ]),
  searchAuthorization: 'Basic c3ZjOnB3',
};

function scope(authorization?: string): CallerScope {
  const options = { signal: new Cancellation(), authorization };
  return { options, spendQuota: null, credentialKey: () => (authorization === undefined ? 'anonymous' : 'hashed') };
}

describe('the target step', () => {
  it('resolves the target once, with the query, and sends the caller credential verbatim', () => {
    const call = startCall(settings, { service: 'rest-v1', method: 'GET', path: '/networks', query: { page: 2, sort: ['a', 'b'], x: null } }, scope('Bearer t'));
    expect(call.target).toEqual({ origin: 'http://up.test', pathAndQuery: '/rest/v1/networks?page=2&sort=a&sort=b', info: { service: 'rest-v1', method: 'GET', path: '/rest/v1/networks', status: null } });
    expect(call.authorization).toBe('Bearer t');
    expect(call.credentialKey).toBe('hashed');
    expect(call.outcome).toBe('network');
  });

  it('gives search its own credentials and key, never the caller token', () => {
    const call = startCall(settings, { service: 'search', method: 'POST', path: '/_search' }, scope('Bearer t'));
    expect(call.authorization).toBe('Basic c3ZjOnB3');
    expect(call.credentialKey).toBe('search');
  });

  it('keys a call without credentials as anonymous', () => {
    expect(startCall(settings, { service: 'rest-v1', method: 'GET', path: '/networks' }, scope()).credentialKey).toBe('anonymous');
  });

  it('refuses a link outside the base and an unconfigured service, unsent', () => {
    const outside = (): unknown => startCall(settings, { service: 'rest-v1', method: 'GET', path: 'http://elsewhere.test/x' }, scope('Bearer t'));
    expect(outside).toThrow(UpstreamError);
    expect(() => startCall(settings, { service: 'core-v2', method: 'GET', path: '/networks' }, scope('Bearer t'))).toThrow(expect.objectContaining({ code: ErrorCode.NOT_CONFIGURED }) as Error);
  });
});
