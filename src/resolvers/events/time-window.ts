/**
 * Time windows of event search: RFC 3339 date-times or the search service's date math, checked
 * before any call (BAD_USER_INPUT naming the argument). Date math: an anchor (`now`, or a date
 * followed by `||`) then any number of `+N<unit>`/`-N<unit>` and an optional rounding `/<unit>`;
 * units `y M w d h H m s`.
 */
import { BadInputError } from '../../errors/codes';
import type { TimeWindow } from '../../upstream/search/bodies';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/i;
const MATH = /^([+-]\d+[yMwdhHms])*(\/[yMwdhHms])?$/;
const UNIT_MS: Readonly<Record<string, number>> = { y: 365 * 86_400_000, M: 30 * 86_400_000, w: 7 * 86_400_000, d: 86_400_000, h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000 };

/** Milliseconds since the epoch the expression stands for (rounding ignored), or null when it is not one. */
export function instantOf(value: string, now: number = Date.now()): number | null {
  if (RFC3339.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  let anchor: number;
  let rest: string;
  if (value.startsWith('now')) {
    anchor = now;
    rest = value.slice(3);
  } else {
    const sep = value.indexOf('||');
    if (sep < 0 || !DATE.test(value.slice(0, sep))) return null;
    const date = value.slice(0, sep);
    anchor = Date.parse(/T.*(Z|[+-]\d{2}:\d{2})$/i.test(date) ? date : date.includes('T') ? `${date}Z` : `${date}T00:00:00Z`);
    if (Number.isNaN(anchor)) return null;
    rest = value.slice(sep + 2);
  }
  if (!MATH.test(rest)) return null;
  for (const [, sign, n, unit] of rest.matchAll(/([+-])(\d+)([yMwdhHms])/g)) {
    anchor += (sign === '-' ? -1 : 1) * Number(n) * (UNIT_MS[unit ?? 's'] ?? 0);
  }
  return anchor;
}

/** Checks `from` and `to` (each RFC 3339 or date math; `from` not after `to` where both can be compared). */
export function timeWindow(from: string, to: string): TimeWindow & { fromMs: number; toMs: number } {
  const now = Date.now();
  const fromMs = instantOf(from, now);
  if (fromMs === null) throw new BadInputError('from', `from must be an RFC 3339 date-time (2026-11-23T10:00:00Z) or date math (now-24h); got ${JSON.stringify(from)}`);
  const toMs = instantOf(to, now);
  if (toMs === null) throw new BadInputError('to', `to must be an RFC 3339 date-time (2026-11-23T10:00:00Z) or date math (now); got ${JSON.stringify(to)}`);
  if (fromMs > toMs) throw new BadInputError('from', 'from must not be after to');
  return { from, to, fromMs, toMs };
}

/** A whole number in `min`..`max`, else BAD_USER_INPUT naming `name`. */
export function boundedInt(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new BadInputError(name, `${name} must be an integer from ${min} to ${max}; got ${value}`);
  return value;
}

const INTERVAL = /^([1-9]\d{0,5})([smhd])$/;

/** A fixed interval (`30m`, `1h`, `1d`) in ms, with at most `maxPoints` intervals in the window. */
export function intervalOf(value: string, window: { fromMs: number; toMs: number }, maxPoints: number): number {
  const m = INTERVAL.exec(value);
  if (!m) throw new BadInputError('interval', `interval must be a whole number and a unit s, m, h or d (e.g. 1h); got ${JSON.stringify(value)}`);
  const ms = Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000);
  if ((window.toMs - window.fromMs) / ms > maxPoints) throw new BadInputError('interval', `interval ${value} gives more than ${maxPoints} points in this window; pick a longer one`);
  return ms;
}
