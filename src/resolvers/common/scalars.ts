/**
 * The custom scalars of schema/common.graphql. Invalid inputs fail with BAD_USER_INPUT before any
 * resolver (and so before any upstream call) runs.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { ErrorCode } from '../../errors/codes';

// RFC 3339 date-time, plus the upstream's `+0000` offsets (no colon) and a space separator.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}:?\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT } });
}

/**
 * Normalize an RFC 3339 string (any offset, with or without fraction) to UTC with `Z`.
 * Returns null when the text is not a valid date-time.
 */
export function normalizeDateTime(text: string): string | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  // Check the calendar fields ourselves: Date silently rolls 2024-02-30 over into March.
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(Number(y), month)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  if (offset !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(-2)) > 59)) return null;
  const ms = frac === '' ? '' : `.${frac.slice(1, 4).padEnd(3, '0')}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s === '60' ? '59' : s}${ms}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// Forms an upstream may send that are not RFC 3339: a local date-time without an offset
// (Spring's LocalDateTime; read as UTC) and epoch seconds or milliseconds as digits.
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?$/;
const EPOCH_DIGITS = /^-?\d{1,15}$/;

/** Epoch numbers below 10^11 are seconds (until year 5138), larger ones milliseconds. */
function fromEpoch(epoch: number): string | null {
  const date = new Date(Math.abs(epoch) < 1e11 ? epoch * 1000 : epoch);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Upstream output is read leniently (any form the platform is known to send, or plausible); client input is not. */
export function upstreamDateTime(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number') return Number.isFinite(value) ? fromEpoch(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (LOCAL_DATE_TIME.test(text)) return normalizeDateTime(`${text}Z`);
  if (EPOCH_DIGITS.test(text)) return fromEpoch(Number(text));
  return normalizeDateTime(text);
}

function serializeDateTime(value: unknown): string {
  const normalized = upstreamDateTime(value);
  if (normalized !== null) return normalized;
  throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value) ?? String(value)}`, {
    extensions: { code: ErrorCode.UPSTREAM_BAD_RESPONSE },
  });
}

function parseDateTime(value: unknown): string {
  const normalized = typeof value === 'string' ? normalizeDateTime(value) : null;
  if (normalized === null) {
    throw badInput(`DateTime must be an RFC 3339 date-time with an offset, e.g. 2024-05-01T12:00:00Z; got ${JSON.stringify(value)}`);
  }
  return normalized;
}

export const DateTimeScalar = new GraphQLScalarType<string, string>({
  name: 'DateTime',
  description: 'An RFC 3339 date-time, always returned in UTC with a `Z` suffix.',
  serialize: serializeDateTime,
  parseValue: parseDateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badInput('DateTime must be a string');
    return parseDateTime(ast.value);
  },
});

function parseUuid(value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw badInput(`UUID must look like xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx; got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

export const UuidScalar = new GraphQLScalarType<string, string>({
  name: 'UUID',
  description: 'A UUID in canonical form.',
  serialize(value) {
    if (typeof value === 'string') return value;
    throw new GraphQLError('UUID cannot represent a non-string value');
  },
  parseValue: parseUuid,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw badInput('UUID must be a string');
    return parseUuid(ast.value);
  },
});

/** Turn a literal (with variables) into a plain JSON value. */
function literalToJson(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.ENUM:
      return ast.value;
    case Kind.LIST:
      return ast.values.map((v) => literalToJson(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalToJson(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value] ?? null;
  }
}

export const JsonScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'A free-form JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalToJson(ast, variables),
});
