// The machine's writes as SQL, none of which reads, so that an asynchronous engine sends them all
// without waiting: folded into the rows they leave (folded-writes.ts), each row written by one
// prepared statement. On SQLite (node:sqlite, a Durable Object) that is cheaper in CPU than one
// statement for many rows (multi-row VALUES, json_each): nothing goes over a network, and a
// prepared statement binds a row's values directly (docs/benchmarks.md, "The cost of a cycle on
// SQLite and the Durable Object"). PostgreSQL folds a group's writes into one statement per table
// and kind instead (../postgres/coalesced-writes.ts).
import type { Write } from "../delivery/machine/writes.ts";
import { type FoldedTable, FoldedWrites, type Row, type Table } from "./folded-writes.ts";
import type { SqlValue } from "./sql-database.ts";
import type { SqlSteps, Statement } from "./sql-steps.ts";

/** Writes each of `writes` of the run `runId`: one step, whose statements the engine runs. */
export function* persistWrites(runId: string, writes: readonly Write[]): SqlSteps<void> {
  yield { kind: "writes", runId, writes, statements: () => writeStatements(runId, writes) };
}

/** The statements that write what `writes` of the run `runId` leave: one a row. */
export function writeStatements(runId: string, writes: readonly Write[]): Statement[] {
  const folded = new FoldedWrites();
  folded.add(runId, writes);
  return rowStatements(folded.take());
}

/** One statement for each row of `folded`: the inserts, then the updates. */
export function rowStatements(folded: readonly FoldedTable[]): Statement[] {
  const statements: Statement[] = [];
  for (const { table, inserted } of folded) {
    for (const row of inserted) statements.push(insertStatement(table, row));
  }
  for (const { table, updated } of folded) {
    for (const row of updated) statements.push(updateStatement(table, row));
  }
  return statements;
}

/** A table's INSERT of one row, and the columns it binds in order. */
interface Insert {
  sql: string;
  columns: readonly string[];
}

/** A table's UPDATE of one row by its key for the columns a kind of write sets. */
interface Update {
  sql: string;
  /** The columns it sets, then the key's. */
  columns: readonly string[];
}

const inserts = new Map<Table, Insert>();
const updates = new Map<Table, Map<string, Update>>();

/** The INSERT of one row (every column of the table). */
function insertStatement(table: Table, row: Row): Statement {
  let insert = inserts.get(table);
  if (insert === undefined) {
    const columns = Object.keys(table.columns);
    const sql = `INSERT INTO ${table.name} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    insert = { sql, columns };
    inserts.set(table, insert);
  }
  const params: SqlValue[] = [];
  for (const column of insert.columns) params.push(row[column] ?? null);
  return { kind: "run", sql: insert.sql, params };
}

/** The UPDATE of one row by its key: the row's other columns are set. */
function updateStatement(table: Table, row: Row): Statement {
  let columns = "";
  for (const column in row) columns += `${column} `;
  let byColumns = updates.get(table);
  if (byColumns === undefined) {
    byColumns = new Map();
    updates.set(table, byColumns);
  }
  let update = byColumns.get(columns);
  if (update === undefined) {
    const set = Object.keys(row).filter((column) => !table.key.includes(column));
    const assignments = set.map((column) =>
      table.keepFirst?.includes(column) ? `${column} = coalesce(${column}, ?)` : `${column} = ?`,
    );
    const match = table.key.map((column) => `${column} = ?`).join(" AND ");
    update = {
      sql: `UPDATE ${table.name} SET ${assignments.join(", ")} WHERE ${match}`,
      columns: [...set, ...table.key],
    };
    byColumns.set(columns, update);
  }
  const params: SqlValue[] = [];
  for (const column of update.columns) params.push(row[column] ?? null);
  return { kind: "run", sql: update.sql, params };
}
