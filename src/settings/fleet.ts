/** A fleet of replicas sharing state through Redis. */
import { ConfigError, area, custom, type SettingsOf } from './setting';

/** Checked without ever echoing its password. */
export const REDIS_URL = custom<string | null>({
  name: 'REDIS_URL',
  meaning:
    '`redis://` or `rediss://` (TLS), with credentials and a database number (`rediss://user:pass@redis:6380/0`): replicas share pollers, provisionings, persisted queries and quotas ([Scaling out](operations.md#scaling-out)). Never logged',
  defaultText: 'unset: all state in this process',
  rangeText: 'a Redis URL',
  read(env) {
    const value = env.text('REDIS_URL');
    if (value === undefined) return null;
    const bad = (why: string): ConfigError => new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL with a host${why}`);
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw bad('');
    }
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw bad(`; got the scheme ${JSON.stringify(parsed.protocol)}`);
    if (parsed.hostname === '') throw bad('');
    if (parsed.search || parsed.hash) throw bad(', without a query string or fragment');
    const db = parsed.pathname.replace(/^\//, '');
    if (db !== '' && !/^\d{1,5}$/.test(db)) throw bad(`, and a database number as its path; got ${JSON.stringify(db)}`);
    return parsed.href;
  },
});

/** `REDIS_TLS_CA_FILE`: only with a `rediss://` REDIS_URL (a plain connection checks no certificate). */
export const REDIS_TLS_CA_FILE = custom<string | null>({
  name: 'REDIS_TLS_CA_FILE',
  meaning: "with a `rediss://` `REDIS_URL`: a PEM file of the certificate authorities Redis's certificate is checked against (a private CA)",
  defaultText: "unset: the system's authorities",
  rangeText: 'a file path',
  read(env) {
    const value = env.text('REDIS_TLS_CA_FILE');
    if (value === undefined) return null;
    if (!(env.get(REDIS_URL) ?? '').startsWith('rediss://')) throw new ConfigError('REDIS_TLS_CA_FILE needs a rediss:// REDIS_URL (TLS)');
    return value;
  },
});

/** Keys printed in this repository's examples: a fleet sealing with one of them seals nothing. */
const PUBLISHED_KEYS: readonly Buffer[] = ['00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'].map((hex) => Buffer.from(hex, 'hex'));

/** 32 bytes, hex or base64, never a published example; the key itself is never echoed. */
export const FLEET_TOKEN_KEY = custom<Buffer | null>({
  name: 'FLEET_TOKEN_KEY',
  meaning:
    "the fleet's AES-256-GCM key: a running provisioning's token is sealed with it in Redis (so another replica can resume the run when its replica dies), each provisioning entry carries an HMAC under a key derived from it (an entry changed in Redis is never resumed), shared pollers' values are sealed with another derived key, and verdicts on tokens are shared under an HMAC keyed by it (without it each replica verifies tokens on its own). The example key of the deployment manifest is refused at start-up. Never logged",
  defaultText: "unset: such a run ends `FAILED`, saying why; pollers' values cross Redis without their secret fields, and a listening replica reads a target itself when one was left out",
  rangeText: '32 bytes: 64 hex digits or base64 (`openssl rand -hex 32`)',
  read(env) {
    const value = env.text('FLEET_TOKEN_KEY');
    if (value === undefined) return null;
    const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : null;
    if (key === null || key.length !== 32) throw new ConfigError('FLEET_TOKEN_KEY must be 32 bytes: 64 hex digits, or 44 characters of base64');
    if (PUBLISHED_KEYS.some((published) => published.equals(key)))
      throw new ConfigError('FLEET_TOKEN_KEY is the example key from the deployment manifest, which anyone can read: generate one (openssl rand -hex 32)');
    return key;
  },
});

export const FLEET = area({
  title: 'Fleet',
  intro: 'Per-caller limits, quotas and persisted queries apply on one replica as well; these settings share them across replicas.',
  settings: {
    redisUrl: REDIS_URL,
    redisTlsCaFile: REDIS_TLS_CA_FILE,
    tokenKey: FLEET_TOKEN_KEY,
  },
});

export type FleetSettings = SettingsOf<typeof FLEET>;
