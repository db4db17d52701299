// The SqlDatabase over Node's built-in SQLite (node:sqlite, Node ≥ 22.13). Node only. node:sqlite
// is loaded when a database is opened, not when this module is: the Node entry that imports it
// also serves PostgreSQL, which needs no SQLite and runs on Node 20.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { SQLInputValue, StatementSync } from "node:sqlite";
import { ArgumentError } from "@task-context/core";
import type { SqlDatabase, SqlValue } from "./sql/sql-database.ts";
import { SqliteUnavailableError } from "./sqlite-unavailable-error.ts";

/** Begin, commit and roll back: of a transaction, and of a savepoint inside one. */
const topLevel = ["BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"] as const;
const nested = [
  "SAVEPOINT nested",
  "RELEASE nested",
  "ROLLBACK TO nested",
  "RELEASE nested",
] as const;

/** A {@link SqlDatabase} that can be closed. */
export interface NodeSqlDatabase extends SqlDatabase {
  /** Closes the database; committed transactions are on disk (WAL). */
  close(): void;
}

/**
 * How a commit reaches the disk. `"process"` (SQLite's `synchronous=NORMAL` in WAL mode): a
 * committed transaction survives a crash of the process; a crash of the machine may lose the last
 * commits. `"machine"` (`synchronous=FULL`): each commit is on disk before it is answered, as
 * PostgreSQL's default gives, at the cost of one flush per commit (a group commit shares it).
 */
export type Durability = "process" | "machine";

/** Options of {@link openNodeDatabase}. */
export interface NodeDatabaseOptions {
  /** Default `"process"`. */
  durability?: Durability;
}

/**
 * Node's built-in SQLite module; `SqliteUnavailableError` on a Node without it (before 22.13, or
 * 22.5 to 22.12 without `--experimental-sqlite`). Loaded synchronously, as `openNodeDatabase` is.
 */
function loadNodeSqlite(): typeof import("node:sqlite") {
  const sqlite = globalThis.process?.getBuiltinModule?.("node:sqlite");
  if (sqlite === undefined) {
    throw new SqliteUnavailableError({ nodeVersion: globalThis.process?.versions?.node ?? "?" });
  }
  return sqlite;
}

/**
 * Opens (creating it and its folder when missing) an SQLite database file, or `":memory:"`, in
 * WAL mode; `durability` says what a commit survives. Throws `SqliteUnavailableError`
 * (`UNSUPPORTED_RUNTIME`) on a Node without `node:sqlite` (older than 22.13).
 */
export function openNodeDatabase(
  path: string,
  { durability = "process" }: NodeDatabaseOptions = {},
): NodeSqlDatabase {
  if (durability !== "process" && durability !== "machine") {
    throw new ArgumentError({
      argument: "durability",
      message: `expected "process" or "machine", got ${JSON.stringify(durability)}.`,
    });
  }
  const { DatabaseSync } = loadNodeSqlite();
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new DatabaseSync(path);
  database.exec("PRAGMA journal_mode = WAL");
  database.exec(`PRAGMA synchronous = ${durability === "machine" ? "FULL" : "NORMAL"}`);
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
      // Inside a transaction, a savepoint: its writes are undone alone when fn throws. The
      // statements are prepared once: a group commit runs one savepoint per operation.
      const outermost = !inTransaction;
      const [begin, commit, ...rollback] = outermost ? topLevel : nested;
      prepare(begin).run();
      inTransaction = true;
      try {
        const result = fn();
        prepare(commit).run();
        return result;
      } catch (error) {
        for (const statement of rollback) prepare(statement).run();
        throw error;
      } finally {
        if (outermost) inTransaction = false;
      }
    },
    close() {
      statements.clear();
      if (open) database.close();
      open = false;
    },
  };
}
