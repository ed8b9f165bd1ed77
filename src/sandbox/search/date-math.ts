/**
 * Elasticsearch date math for range bounds: `now`, `now-24h`, `now-7d/d`, `2026-11-21||+1M/M`,
 * absolute ISO dates (a missing zone means UTC) and epoch milliseconds. Units y M w d h H m s.
 * Rounding (`/d`) goes down for `gte`/`lt` and up to the unit's last millisecond for `gt`/`lte`,
 * as Elasticsearch does, so `lte: now/d` includes the whole of today.
 */
import { parsingError } from './es-error';

type Unit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

const UNIT_OF: Record<string, Unit> = { y: 'y', M: 'M', w: 'w', d: 'd', h: 'h', H: 'h', m: 'm', s: 's' };

function add(ms: number, amount: number, unit: Unit): number {
  const d = new Date(ms);
  switch (unit) {
    case 'y':
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return d.getTime();
    case 'M':
      d.setUTCMonth(d.getUTCMonth() + amount);
      return d.getTime();
    case 'w':
      return ms + amount * 7 * 86_400_000;
    case 'd':
      return ms + amount * 86_400_000;
    case 'h':
      return ms + amount * 3_600_000;
    case 'm':
      return ms + amount * 60_000;
    case 's':
      return ms + amount * 1000;
  }
}

function floorTo(ms: number, unit: Unit): number {
  const d = new Date(ms);
  switch (unit) {
    case 'y':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
    case 'M':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'w': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * 86_400_000; // weeks start on Monday
    }
    case 'd':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'h':
      return ms - (ms % 3_600_000);
    case 'm':
      return ms - (ms % 60_000);
    case 's':
      return ms - (ms % 1000);
  }
}

/** Parses an absolute date: ISO 8601 (date only, or date-time; no zone = UTC) or epoch millis. */
export function parseAbsolute(text: string, format?: string): number | null {
  const t = text.trim();
  if (/^-?\d+$/.test(t) && (format === undefined || format.includes('epoch') || t.length > 8)) {
    return format?.includes('epoch_second') === true ? Number(t) * 1000 : Number(t);
  }
  if (!/^\d{4}(-\d\d(-\d\d([T ]\d\d(:\d\d(:\d\d(\.\d+)?)?)?)?)?)?(Z|[+-]\d\d:?\d\d)?$/.test(t)) return null;
  let iso = t.replace(' ', 'T');
  if (/^\d{4}$/.test(iso)) iso += '-01-01';
  else if (/^\d{4}-\d\d$/.test(iso)) iso += '-01';
  if (iso.includes('T') && !/(Z|[+-]\d\d:?\d\d)$/.test(iso)) iso += 'Z';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** Resolves one range bound to epoch milliseconds. */
export function resolveDate(value: unknown, now: number, roundUp: boolean, format?: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return format?.includes('epoch_second') === true ? value * 1000 : value;
  if (typeof value !== 'string') throw parsingError(`failed to parse date field [${String(value)}]`);
  let anchor: number | null;
  let rest: string;
  if (value.startsWith('now')) {
    anchor = now;
    rest = value.slice(3);
  } else {
    const at = value.indexOf('||');
    anchor = parseAbsolute(at < 0 ? value : value.slice(0, at), format);
    rest = at < 0 ? '' : value.slice(at + 2);
  }
  if (anchor === null) throw parsingError(`failed to parse date field [${value}] with format [${format ?? 'strict_date_optional_time||epoch_millis'}]`);
  let ms = anchor;
  const op = /([+-])(\d+)([yMwdhHms])|\/([yMwdhHms])/y;
  let pos = 0;
  while (pos < rest.length) {
    op.lastIndex = pos;
    const m = op.exec(rest);
    if (m === null) throw parsingError(`operator not supported for date math [${value}]`);
    if (m[4] !== undefined) {
      const unit = UNIT_OF[m[4]] as Unit;
      ms = roundUp ? add(floorTo(ms, unit), 1, unit) - 1 : floorTo(ms, unit);
    } else {
      const unit = UNIT_OF[m[3] as string] as Unit;
      ms = add(ms, (m[1] === '-' ? -1 : 1) * Number(m[2]), unit);
    }
    pos = op.lastIndex;
  }
  return ms;
}
