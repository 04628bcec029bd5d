// The one way a value reaches SQL text. Both engines (ClickHouse 18.16 and chDB 26) get the
// same literals: 18.16 has no query parameters, so values are escaped here and nowhere else.
import { UUID_PATTERN } from '../identity/uuid.js';

/** A fragment of SQL that is already safe to splice (built by `sql` or `ident`). */
export class Sql {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A UUID value, spliced as toUUID('…') after checking its shape. */
export class Uuid {
  constructor(readonly value: string) {
    if (!UUID_RE.test(value)) throw new TypeError(`not a UUID: ${JSON.stringify(value)}`);
  }
}

/** A DateTime value (second precision, UTC), spliced as toDateTime('…', 'UTC'). */
export class DateTimeValue {
  constructor(readonly value: Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('invalid date');
  }
}

export type Bindable = string | number | bigint | boolean | null | Uuid | DateTimeValue | Sql | readonly Bindable[];

// Either case: toUUID() reads both, and a value bound here need not come from this service.
const UUID_RE = new RegExp(UUID_PATTERN.source, 'i');
const IDENT_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

// Every byte ClickHouse treats specially inside '…' gets a backslash escape; other control
// characters are written as \xHH so a literal never spans lines or hides a NUL.
const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
  '\0': '\\0',
};

/** Escapes a string into a ClickHouse single-quoted literal. */
export function quoteString(value: string): string {
  if (!value.isWellFormed()) throw new TypeError('string is not well-formed Unicode (lone surrogate)');
  return `'${value.replace(/[\\'\n\r\t\b\f\0\x01-\x1f\x7f]/g, (c) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
}

/** Renders one value as a SQL literal. Arrays become tuples for IN (…); empty ones are refused. */
export function literal(value: Bindable): string {
  if (value instanceof Sql) return value.text;
  if (value instanceof Uuid) return `toUUID('${value.value.toLowerCase()}')`;
  if (value instanceof DateTimeValue) return `toDateTime(${quoteString(formatDateTime(value.value))}, 'UTC')`;
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return quoteString(value);
    case 'boolean':
      return value ? '1' : '0';
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
      return Number.isInteger(value) ? value.toString() : value.toPrecision(17);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) throw new TypeError('an empty list cannot be bound (IN () is not valid SQL)');
    return `(${value.map((v) => literal(v)).join(', ')})`;
  }
  throw new TypeError(`cannot bind a value of type ${typeof value}`);
}

/** Tagged template: `sql\`SELECT … WHERE id = ${id}\`` splices every value through `literal`. */
export function sql(strings: TemplateStringsArray, ...values: Bindable[]): Sql {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += literal(value) + strings[i + 1]!;
  });
  return new Sql(text);
}

/** An identifier (database or table name), checked against a strict pattern and backquoted. */
export function ident(name: string): Sql {
  if (!IDENT_RE.test(name)) throw new TypeError(`not a valid identifier: ${JSON.stringify(name)}`);
  return new Sql(`\`${name}\``);
}

/** Joins fragments with a separator. */
export function join(parts: readonly Sql[], separator = ', '): Sql {
  return new Sql(parts.map((p) => p.text).join(separator));
}

export const uuid = (value: string): Uuid => new Uuid(value);
export const dateTime = (value: Date): DateTimeValue => new DateTimeValue(value);

/** 'YYYY-MM-DD hh:mm:ss' in UTC, the DateTime text form both engines parse. */
export function formatDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
