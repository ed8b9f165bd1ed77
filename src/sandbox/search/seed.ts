/**
 * Seed documents: firewall usage (`zfw.events-YYYY.MM.DD`, one index per day) and alerts
 * (`svc.alerts-YYYY.MM.DD`), with `@timestamp` spread over the 7 days before the clock's now at
 * seeding. Firewalls get heavy-tailed traffic weights so top talkers are clearly ordered.
 */
import type { AreaContext, SeedSize } from '../core/types';
import { DocStore, TIMESTAMP_FIELD } from './doc-store';

export const USAGE_INDEX_PREFIX = 'zfw.events-';
export const ALERT_INDEX_PREFIX = 'svc.alerts-';
const DAY_MS = 86_400_000;
export const SEED_SPAN_MS = 7 * DAY_MS;

interface SizeProfile {
  usageDocs: number;
  firewalls: number;
  alerts: number;
}

export const SEARCH_SIZES: Record<SeedSize, SizeProfile> = {
  tiny: { usageDocs: 400, firewalls: 4, alerts: 80 },
  demo: { usageDocs: 4000, firewalls: 12, alerts: 600 },
  large: { usageDocs: 100_000, firewalls: 40, alerts: 3000 },
};

const PORTS = [443, 443, 443, 80, 53, 22, 8443, 3389, 5432, 6379];
const INTERFACES = ['eth0', 'eth1', 'tun0'];
const DIRECTIONS = ['egress', 'ingress'];
const SOURCE_TYPES = ['edge-router', 'endpoint', 'controller', 'service'];
const MESSAGES: Record<string, string[]> = {
  'edge-router': ['edge router lost its link to the controller', 'edge router link latency above threshold', 'edge router certificate expires soon'],
  endpoint: ['endpoint failed to enrol: one-time token expired', 'endpoint has no edge router it may dial', 'endpoint reconnected after a long outage'],
  controller: ['controller disk usage above 85%', 'controller database backup failed', 'controller restarted'],
  service: ['service has no hosting endpoint online', 'service attributes match no AppWAN', 'service server egress unreachable'],
};

/** Daily index name for a timestamp (`prefix` + `YYYY.MM.DD`, UTC). */
export function dailyIndex(prefix: string, ms: number): string {
  return prefix + new Date(ms).toISOString().slice(0, 10).replace(/-/g, '.');
}

/** `dailyIndex` memoized per day: formatting a date per document dominated seeding time. */
function dailyIndexer(prefix: string): (ms: number) => string {
  const names = new Map<number, string>();
  return (ms) => {
    const day = Math.floor(ms / DAY_MS);
    let name = names.get(day);
    if (name === undefined) {
      name = dailyIndex(prefix, ms);
      names.set(day, name);
    }
    return name;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function seedDocuments(ctx: AreaContext, size: SeedSize, now: number): DocStore {
  const store = new DocStore();
  const profile = SEARCH_SIZES[size];
  const random = ctx.random;
  store.reserve(profile.usageDocs + profile.alerts);
  store.idSalt = Math.floor(random() * 0xffffffff);

  const firewalls = Array.from({ length: profile.firewalls }, (_, f) => ({
    id: ctx.uuid(),
    weight: 1 / (f + 1) ** 1.3,
    addresses: Array.from({ length: 4 + (f % 9) }, (_, a) => `10.${f + 1}.${a}.${10 + Math.floor(random() * 200)}`),
  }));
  const totalWeight = firewalls.reduce((s, f) => s + f.weight, 0);
  const cumulative: number[] = [];
  firewalls.reduce((acc, f) => {
    cumulative.push(acc + f.weight / totalWeight);
    return acc + f.weight / totalWeight;
  }, 0);
  const destinations = Array.from({ length: 40 }, (_, d) => `${[52, 34, 104, 151][d % 4]}.${d * 3 + 1}.${d + 7}.${200 - d}`);

  const usageIndex = dailyIndexer(USAGE_INDEX_PREFIX);
  const writeUsage = store.writer([
    { name: TIMESTAMP_FIELD, kind: 'date' },
    { name: 'zfw.source_id', kind: 'str' },
    { name: 'zfw.saddr', kind: 'str' },
    { name: 'zfw.daddr', kind: 'str' },
    { name: 'zfw.dport', kind: 'num' },
    { name: 'zfw.interface', kind: 'str' },
    { name: 'zfw.direction', kind: 'str' },
    { name: 'zfw.usage.circuit.tx', kind: 'num' },
    { name: 'zfw.usage.circuit.rx', kind: 'num' },
  ]);
  const row: (number | string)[] = new Array<number | string>(9).fill(0);
  for (let n = 0; n < profile.usageDocs; n++) {
    const r = random();
    let f = cumulative.findIndex((c) => r < c);
    if (f < 0) f = firewalls.length - 1;
    const fw = firewalls[f] ?? (firewalls[0] as (typeof firewalls)[number]);
    const ts = now - Math.floor(random() * SEED_SPAN_MS);
    // Skewed address choice: low positions carry more traffic.
    const saddr = fw.addresses[Math.floor(random() ** 2 * fw.addresses.length)] as string;
    row[0] = ts;
    row[1] = fw.id;
    row[2] = saddr;
    row[3] = pick(random, destinations);
    row[4] = pick(random, PORTS);
    row[5] = pick(random, INTERFACES);
    row[6] = pick(random, DIRECTIONS);
    row[7] = Math.round(random() * random() * 2_000_000) + 64;
    row[8] = Math.round(random() * random() * 8_000_000) + 64;
    writeUsage(usageIndex(ts), row);
  }

  for (let n = 0; n < profile.alerts; n++) {
    const ts = now - Math.floor(random() * SEED_SPAN_MS);
    const sourceType = pick(random, SOURCE_TYPES);
    const r = random();
    const severity = r < 0.1 ? 'critical' : r < 0.4 ? 'warning' : 'info';
    const message = pick(random, MESSAGES[sourceType] ?? ['configuration problem']);
    const at = new Date(ts).toISOString();
    store.add(dailyIndex(ALERT_INDEX_PREFIX, ts), {
      [TIMESTAMP_FIELD]: ts,
      event_source_type: sourceType,
      severity,
      message,
      logs: [`${at} ${severity.toUpperCase()} ${sourceType}: ${message}`, `${at} DEBUG ${sourceType}: check id ${ctx.uuid()}`],
    });
  }
  return store;
}
