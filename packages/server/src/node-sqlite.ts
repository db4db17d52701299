// The SqlDatabase over Node's built-in SQLite (node:sqlite, Node ≥ 22.13). Node only.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import type { SqlDatabase, SqlValue } from "./sql/sql-database.ts";

/** A {@link SqlDatabase} that can be closed. */
export interface NodeSqlDatabase extends SqlDatabase {
  /** Closes the database; committed transactions are on disk (WAL). */
  close(): void;
}

/**
 * Opens (creating it and its folder when missing) an SQLite database file, or `":memory:"`, in
 * WAL mode with `synchronous=NORMAL`: a committed transaction survives a crash of the process.
 */
export function openNodeDatabase(path: string): NodeSqlDatabase {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path);
  database.exec("PRAGMA journal_mode = WAL");
  database.exec("PRAGMA synchronous = NORMAL");
  database.exec("PRAGMA busy_timeout = 5000");
  const statements = new Map<string, StatementSync>();
  // Tracked here: DatabaseSync's isTransaction and isOpen are newer than Node 22.13.
  let inTransaction = false;
  let open = true;
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    exec(sql) {
      database.exec(sql);
    },
    run(sql, ...params: SqlValue[]) {
      const { changes } = prepare(sql).run(...(params as SQLInputValue[]));
      return { changes: Number(changes) };
    },
    all<Row>(sql: string, ...params: SqlValue[]) {
      return prepare(sql).all(...(params as SQLInputValue[])) as Row[];
    },
    transaction(fn) {
      if (inTransaction) return fn();
      database.exec("BEGIN IMMEDIATE");
      inTransaction = true;
      try {
        const result = fn();
        database.exec("COMMIT");
        return result;
      } catch (error) {
        database.exec("ROLLBACK");
        throw error;
      } finally {
        inTransaction = false;
      }
    },
    close() {
      statements.clear();
      if (open) database.close();
      open = false;
    },
  };
}
