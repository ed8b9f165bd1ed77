/**
 * A small CSV reader (RFC 4180: commas, double quotes, doubled quotes inside quotes, CRLF or LF).
 * Rows are numbered as lines of the file: the heading row is row 1, the first data row is row 2.
 */
import { HttpError } from '../core/types';

export interface CsvRow {
  /** Row number in the file (heading = 1). */
  row: number;
  /** Values by heading (headings uppercased and trimmed). */
  values: Map<string, string>;
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new HttpError(400, 'CSV: unterminated quoted field');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * Rows of a CSV upload keyed by the allowed headings. A missing required heading, an unknown
 * heading or a row with the wrong number of cells is a 400 naming the row and column.
 */
export function readCsvRows(text: string, headings: readonly string[], required: readonly string[]): CsvRow[] {
  const rows = parseCsv(text)
    .map((cells, i) => ({ cells, row: i + 1 }))
    .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
  const head = rows.shift();
  if (head === undefined) throw new HttpError(400, 'CSV: the file is empty (expected a heading row)');
  const names = head.cells.map((c) => c.trim().toUpperCase());
  names.forEach((name, i) => {
    if (!headings.includes(name)) throw new HttpError(400, `CSV row ${head.row}, column ${i + 1}: unknown heading "${name}" (allowed: ${headings.join(', ')})`);
  });
  for (const name of required) {
    if (!names.includes(name)) throw new HttpError(400, `CSV row ${head.row}: missing required column ${name}`);
  }
  if (rows.length === 0) throw new HttpError(400, 'CSV: no data rows');
  return rows.map(({ cells, row }) => {
    if (cells.length !== names.length) {
      throw new HttpError(400, `CSV row ${row}: expected ${names.length} columns, found ${cells.length}`);
    }
    const values = new Map<string, string>();
    names.forEach((name, i) => values.set(name, (cells[i] ?? '').trim()));
    return { row, values };
  });
}

export function csvError(row: number, column: string, message: string): HttpError {
  return new HttpError(400, `CSV row ${row}, column ${column}: ${message}`);
}
