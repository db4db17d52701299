// The machine's writes of many commands as few statements: folded row by row into what they
// leave behind (../sql/folded-writes.ts), then sent as at most one INSERT and one UPDATE per
// table, each row a record of one JSON parameter (`json_to_recordset`): a group commit of 30
// claims and completions writes about ten statements where it wrote two hundred. graphile-worker's
// completeJobs does the same for its completions (one statement for a batch of ids).
import type { Write } from "../delivery/machine/writes.ts";
import { type FoldedTable, FoldedWrites, type Row, type Table } from "../sql/folded-writes.ts";
import type { Statement } from "../sql/sql-steps.ts";
import { encodeText } from "./postgres-sql.ts";

/**
 * The tables of a run's state whose rows carry the run version that last wrote them (PostgreSQL's
 * schema, postgres-schema.ts): an instance whose copy of the run is stale reads the rows written
 * since its version (../sql/run-state-rows.ts). Attempts are read through their item (an outcome
 * changes only with its item), stages never change, events are not part of the state.
 */
const versioned: ReadonlySet<string> = new Set([
  "agents",
  "work_items",
  "artifacts",
  "idempotency_keys",
]);

/** The writes held for a group: the statements that write what they leave, once taken. */
export class CoalescedWrites {
  readonly #folded = new FoldedWrites();
  /** The version each run written to has after the writes added (its last command's). */
  readonly #versions = new Map<string, number>();

  /** Whether no write was added since the last {@link take}. */
  get empty(): boolean {
    return this.#folded.empty;
  }

  /**
   * Adds the writes of one command on the run `runId`, after those added before: the rows of the
   * run's state written in the group carry the run's version after its last command (the group
   * commits as a whole: no instance sees a version between).
   */
  add(runId: string, writes: readonly Write[]): void {
    this.#folded.add(runId, writes);
    const version = versionAfter(writes);
    if (version > (this.#versions.get(runId) ?? 0)) this.#versions.set(runId, version);
  }

  /** The statements that leave what the writes added leave, and starts empty again. */
  take(): Statement[] {
    const folded = this.#folded.take().map((each) => this.#stamped(each));
    this.#versions.clear();
    const statements: Statement[] = [];
    for (const { table, inserted } of folded) {
      if (inserted.length > 0) statements.push(insertStatement(table, inserted));
    }
    for (const { table, updated } of folded) {
      if (updated.length > 0) statements.push(updateStatement(table, updated));
    }
    return statements;
  }

  /** The table's rows with the version of their run, when its rows carry one. */
  #stamped(folded: FoldedTable): FoldedTable {
    if (!versioned.has(folded.table.name)) return folded;
    const stamp = (row: Row): Row => ({
      ...row,
      version: this.#versions.get(String(row.run_id)) ?? 0,
    });
    return {
      table: { ...folded.table, columns: { ...folded.table.columns, version: "bigint" } },
      inserted: folded.inserted.map(stamp),
      updated: folded.updated.map(stamp),
    };
  }
}

/**
 * The run's version once a command's writes are done: its `updateRun`'s (every command that
 * writes ends with one, Draft.finish), else the inserted run's.
 */
function versionAfter(writes: readonly Write[]): number {
  let version = 0;
  for (const write of writes) {
    if (write.type === "updateRun") version = write.version;
    else if (write.type === "insertRun") version = write.run.version;
  }
  return version;
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
