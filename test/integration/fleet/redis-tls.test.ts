/**
 * `rediss://`: the fleet's link to a Redis that speaks TLS only (Debian's redis-server with a
 * certificate made here by openssl), checked against REDIS_TLS_CA_FILE's authority; without that
 * authority the self-signed certificate is refused and the link never comes up.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config';
import { RedisLink } from '../../../src/state/redis/link';
import { freePort, REDIS_SERVER, redisTestsEnabled } from '../../helpers/redis-server';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('Redis over TLS (rediss://)', () => {
  let dir: string;
  let child: ChildProcess;
  let url: string;
  const links: RedisLink[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'netgraph-redis-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const port = await freePort();
    child = spawn(REDIS_SERVER, ['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--tls-cert-file', join(dir, 'cert.pem'), '--tls-key-file', join(dir, 'key.pem'), '--tls-auth-clients', 'no', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    url = `rediss://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects with the configured authority, and not without it', async () => {
    const config = loadConfig({ REDIS_URL: url, REDIS_TLS_CA_FILE: join(dir, 'cert.pem') });
    expect(config.fleet.redisTlsCaFile).toBe(join(dir, 'cert.pem'));
    const trusted = new RedisLink(url, () => undefined, { ca: readFileSync(join(dir, 'cert.pem')) });
    links.push(trusted);
    await waitUntil(() => trusted.isUp, () => 'the TLS link up', 10_000);
    await trusted.client.set('netgraph:tls-check', 'ok');
    await expect(trusted.client.get('netgraph:tls-check')).resolves.toBe('ok');

    const untrusted = new RedisLink(url, () => undefined);
    links.push(untrusted);
    // Without the authority the handshake fails on the certificate, and the link stays down.
    await waitUntil(() => /certificate/i.test(untrusted.check().detail ?? ''), () => `a certificate error, got ${JSON.stringify(untrusted.check())}`, 10_000);
    expect(untrusted.isUp).toBe(false);
    expect(untrusted.check().status).toBe('starting');
  }, 20_000);

  it('is refused with a plain redis:// URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_TLS_CA_FILE: '/etc/ca.pem' })).toThrow(/^REDIS_TLS_CA_FILE needs a rediss:\/\/ REDIS_URL/);
  });
});
