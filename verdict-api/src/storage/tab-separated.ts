// Rows as TabSeparated text for inserts: half the bytes of JSONEachRow (no key per value) and
// parsed faster by both engines. Data, not SQL: its escaping is ClickHouse's TSV rules.

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0', '\b': '\\b', '\f': '\\f' };
const SPECIAL = /[\\\t\n\r\0\b\f]/;
const SPECIALS = /[\\\t\n\r\0\b\f]/g;

/** One TSV field: strings with \\ \t \n \r \0 \b \f escaped, finite numbers, booleans as 1/0. */
export function tsvField(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // Most names need no escape: test first, so they are not copied.
      return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => TSV_ESCAPES[c]!) : value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot insert a non-finite number: ${value}`);
      return String(value);
    case 'boolean':
      return value ? '1' : '0';
    default:
      throw new TypeError(`cannot insert a value of type ${value === null ? 'null' : typeof value}`);
  }
}

/** The columns (the first row's keys) and the TSV body of `rows`; every row must have them all. */
export function toTabSeparated(rows: readonly Record<string, unknown>[]): { columns: string[]; body: string } {
  const columns = Object.keys(rows[0] ?? {});
  const lines = new Array<string>(rows.length);
  const fields = new Array<string>(columns.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    for (let j = 0; j < columns.length; j++) {
      const value = row[columns[j]!];
      if (value === undefined) throw new TypeError(`row ${i} has no value for column ${columns[j]}`);
      fields[j] = tsvField(value);
    }
    lines[i] = fields.join('\t');
  }
  return { columns, body: `${lines.join('\n')}\n` };
}
