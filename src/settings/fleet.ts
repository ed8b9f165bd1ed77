/** A fleet of replicas sharing state through Redis. */
import { ConfigError, custom, type Area } from './setting';

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

/** 32 bytes, hex or base64; the key itself is never echoed. */
export const FLEET_TOKEN_KEY = custom<Buffer | null>({
  name: 'FLEET_TOKEN_KEY',
  meaning: "the AES-256-GCM key a running provisioning's token is sealed with in Redis, so another replica can resume the run when its replica dies. Never logged",
  defaultText: 'unset: such a run ends `FAILED`, saying why',
  rangeText: '32 bytes: 64 hex digits or base64',
  read(env) {
    const value = env.text('FLEET_TOKEN_KEY');
    if (value === undefined) return null;
    const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : null;
    if (key === null || key.length !== 32) throw new ConfigError('FLEET_TOKEN_KEY must be 32 bytes: 64 hex digits, or 44 characters of base64');
    return key;
  },
});

export const FLEET: Area = {
  title: 'Fleet',
  intro: 'Per-caller limits, quotas and persisted queries apply on one replica as well; these settings share them across replicas.',
  settings: [REDIS_URL, FLEET_TOKEN_KEY],
};
