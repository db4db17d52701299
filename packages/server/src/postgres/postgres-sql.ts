// The store's statements, written for SQLite, as PostgreSQL runs them: `?` placeholders become
// `$1`, `$2`, …; a locking read gets `FOR UPDATE`; the schema's INTEGER columns (times in
// milliseconds, counts, seqs) become BIGINT.
import type { Statement } from "../sql/sql-steps.ts";

/** Each statement's PostgreSQL text, translated once. */
const translated = new Map<string, string>();

/** `sql` with its `?` placeholders (outside quoted text) numbered as PostgreSQL's `$n`. */
export function numberPlaceholders(sql: string): string {
  let text = "";
  let count = 0;
  let quote: string | undefined;
  for (const character of sql) {
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      text += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      text += character;
    } else if (character === "?") {
      count += 1;
      text += `$${count}`;
    } else {
      text += character;
    }
  }
  return text;
}

/** The statement's text for PostgreSQL. */
export function postgresText(statement: Statement): string {
  const key = statement.lock === true ? `${statement.sql}\u0000lock` : statement.sql;
  let text = translated.get(key);
  if (text === undefined) {
    text = numberPlaceholders(statement.sql) + (statement.lock === true ? " FOR UPDATE" : "");
    translated.set(key, text);
  }
  return text;
}

/** A schema statement for PostgreSQL: INTEGER columns hold milliseconds since the epoch. */
export function postgresSchema(sql: string): string {
  return sql.replace(/\bINTEGER\b/g, "BIGINT");
}

/**
 * PostgreSQL's text cannot hold U+0000, which the contract accepts in any string: strings go in
 * with U+0001 written as U+0001 U+0001 and U+0000 as U+0001 U+0002 (one to one, so equal strings
 * stay equal), and come out as they were sent.
 */
export function encodeText(value: string): string {
  return value.includes("\u0000") || value.includes("\u0001")
    ? value.replaceAll("\u0001", "\u0001\u0001").replaceAll("\u0000", "\u0001\u0002")
    : value;
}

/** A string as {@link encodeText} received it. */
export function decodeText(value: string): string {
  if (!value.includes("\u0001")) return value;
  let decoded = "";
  for (let index = 0; index < value.length; index++) {
    const character = value[index] as string;
    if (character !== "\u0001") {
      decoded += character;
      continue;
    }
    index += 1;
    decoded += value[index] === "\u0002" ? "\u0000" : "\u0001";
  }
  return decoded;
}
