/**
 * CSV uploads (the network-management API's endpoint and service headings), checked whole before the upload is
 * sent: every problem is a BadInputError on `input.csv` naming the row (file lines, headings =
 * row 1) and the column (heading name, or its 1-based position for a heading we do not know).
 * The CSV is sent as the caller wrote it; this only refuses what the upstream would refuse.
 */
import { BadInputError } from '../../errors/codes';
import { isCidr, isIpv4 } from './change-input';

/** One column: whether a value is required, and the rule its value must follow. */
interface Column {
  required: boolean;
  /** Values must not repeat within the file (endpoint names are unique in a network). */
  unique?: boolean;
  check?: (value: string) => string | null;
}

const ipOrCidr = (v: string): string | null => (isIpv4(v) || isCidr(v) ? null : 'must be a dotted quad or a CIDR block');

function portRange(v: string): string | null {
  const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(v);
  if (!m) return 'must be a port or a range like 8000-8080';
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  if (first > 65535 || last > 65535) return 'ports must be 0 to 65535';
  return first > last ? 'the range must not end before it starts' : null;
}

/** The headings the network-management API takes, per upload. */
export const csvColumns: Readonly<Record<'endpoint' | 'service', Readonly<Record<string, Column>>>> = {
  endpoint: {
    NAME: { required: true, unique: true },
    ENDPOINTTYPE: { required: true, check: (v) => (/^[A-Z0-9_]+$/.test(v) ? null : 'must be uppercase without whitespace (e.g. GW, ZTCL)') },
    GEOREGION: { required: false },
    DATACENTER: { required: false },
    PROVIDER: { required: false },
  },
  service: {
    NAME: { required: true },
    STATUS: { required: false },
    TYPE: { required: true },
    PROTOCOLSTRING: { required: true, check: (v) => (['TCP', 'UDP', 'ALL', 'ICMP'].includes(v.toUpperCase()) ? null : 'must be TCP, UDP, ALL or ICMP') },
    IPADDRESSSTRING: { required: true, check: ipOrCidr },
    INTERCEPTADDRESS: { required: false, check: ipOrCidr },
    PORTRANGE: { required: true, check: portRange },
    ENDPOINT: { required: true },
  },
};

const FIELD = 'input.csv';
const fail = (row: number, column: string, message: string): BadInputError => new BadInputError(FIELD, `CSV row ${row}, column ${column}: ${message}`);

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF or LF); blank lines are kept as empty rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line += 1;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      line += 1;
    } else cell += c;
  }
  if (quoted) throw new BadInputError(FIELD, `CSV row ${line}: a quoted value is not closed`);
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Checks an upload whole; returns the number of data rows. */
export function checkCsv(kind: 'endpoint' | 'service', text: string): number {
  const columns = csvColumns[kind];
  const rows = parseCsv(text);
  const [headings = [], ...data] = rows;
  const names = headings.map((h) => h.trim().toUpperCase());
  if (names.every((n) => n === '')) throw fail(1, '1', 'the first row must hold the headings');
  names.forEach((name, i) => {
    if (columns[name] === undefined) throw fail(1, String(i + 1), `unknown heading ${JSON.stringify(headings[i] ?? '')}; known: ${Object.keys(columns).join(', ')}`);
    if (names.indexOf(name) !== i) throw fail(1, String(i + 1), `heading ${name} repeats`);
  });
  for (const [name, column] of Object.entries(columns)) {
    if (column.required && !names.includes(name)) throw fail(1, name, 'required heading missing');
  }
  const seen = new Map<string, number>();
  let count = 0;
  data.forEach((cells, i) => {
    const rowNumber = i + 2;
    if (cells.every((c) => c.trim() === '')) return; // a blank line
    count += 1;
    if (cells.length > names.length) throw fail(rowNumber, String(names.length + 1), 'more values than headings');
    names.forEach((name, j) => {
      const value = (cells[j] ?? '').trim();
      const column = columns[name];
      if (column === undefined) return;
      if (value === '') {
        if (column.required) throw fail(rowNumber, name, 'a value is required');
        return;
      }
      const problem = column.check?.(value) ?? null;
      if (problem !== null) throw fail(rowNumber, name, `${JSON.stringify(value)} ${problem}`);
      if (column.unique === true) {
        const key = `${name}:${value.toLowerCase()}`;
        const earlier = seen.get(key);
        if (earlier !== undefined) throw fail(rowNumber, name, `${JSON.stringify(value)} repeats row ${earlier} (it must be unique in the network)`);
        seen.set(key, rowNumber);
      }
    });
  });
  if (count === 0) throw new BadInputError(FIELD, 'the CSV has headings but no rows');
  return count;
}
