// The machine's writes of many commands as few statements: folded row by row into what they
// leave behind (../sql/folded-writes.ts), then sent as at most one INSERT and one UPDATE per
// table, each row a record of one JSON parameter (`json_to_recordset`): a group commit of 30
// claims and completions writes about ten statements where it wrote two hundred. graphile-worker's
// completeJobs does the same for its completions (one statement for a batch of ids).
import type { Write } from "../delivery/machine/writes.ts";
import { FoldedWrites, type Row, type Table } from "../sql/folded-writes.ts";
import type { Statement } from "../sql/sql-steps.ts";
import { encodeText } from "./postgres-sql.ts";

/** The writes held for a group: the statements that write what they leave, once taken. */
export class CoalescedWrites {
  readonly #folded = new FoldedWrites();

  /** Whether no write was added since the last {@link take}. */
  get empty(): boolean {
    return this.#folded.empty;
  }

  /** Adds the writes of one command on the run `runId`, after those added before. */
  add(runId: string, writes: readonly Write[]): void {
    this.#folded.add(runId, writes);
  }

  /** The statements that leave what the writes added leave, and starts empty again. */
  take(): Statement[] {
    const folded = this.#folded.take();
    const statements: Statement[] = [];
    for (const { table, inserted } of folded) {
      if (inserted.length > 0) statements.push(insertStatement(table, inserted));
    }
    for (const { table, updated } of folded) {
      if (updated.length > 0) statements.push(updateStatement(table, updated));
    }
    return statements;
  }
}

/** The rows as one JSON parameter, strings encoded for PostgreSQL's text (no U+0000). */
const recordsOf = (rows: Row[]) => JSON.stringify(rows.map(encodedRow));

/** The row with its strings as encodeText writes them (the row itself when none changes). */
function encodedRow(row: Row): Row {
  let encoded: Row | undefined;
  for (const [column, value] of Object.entries(row)) {
    if (typeof value !== "string") continue;
    const text = encodeText(value);
    if (text === value) continue;
    encoded ??= { ...row };
    encoded[column] = text;
  }
  return encoded ?? row;
}

/** `json_to_recordset(?::text::json) AS r(column type, …)` for `columns` of `table`. */
function recordset(table: Table, columns: readonly string[]): string {
  const types = columns.map((column) => `${column} ${table.columns[column]}`).join(", ");
  return `json_to_recordset(?::text::json) AS r(${types})`;
}

/** One INSERT of `rows` (each with every column of the table). */
function insertStatement(table: Table, rows: Row[]): Statement {
  const columns = Object.keys(table.columns);
  const list = columns.join(", ");
  return {
    kind: "run",
    sql: `INSERT INTO ${table.name} (${list}) SELECT ${list} FROM ${recordset(table, columns)}`,
    params: [recordsOf(rows)],
  };
}

/** One UPDATE of `rows` (each with the table's key and the same columns to set). */
function updateStatement(table: Table, rows: Row[]): Statement {
  const columns = Object.keys(rows[0] ?? {});
  const assignments = columns
    .filter((column) => !table.key.includes(column))
    .map((column) =>
      table.keepFirst?.includes(column)
        ? `${column} = coalesce(t.${column}, r.${column})`
        : `${column} = r.${column}`,
    )
    .join(", ");
  const match = table.key.map((column) => `t.${column} = r.${column}`).join(" AND ");
  return {
    kind: "run",
    sql: `UPDATE ${table.name} t SET ${assignments} FROM ${recordset(table, columns)} WHERE ${match}`,
    params: [recordsOf(rows)],
  };
}
