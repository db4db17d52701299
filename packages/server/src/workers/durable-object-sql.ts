import type { SqlDatabase, SqlValue } from "../sql/sql-database.ts";

/** Durable Object SQL binds numbers, not bigints: safe ones are converted, others refused. */
function bindable(value: SqlValue): Exclude<SqlValue, bigint> {
  if (typeof value !== "bigint") return value;
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`The SQL parameter ${value} is outside the safe integer range.`);
  }
  return Number(value);
}

/** BLOB columns come back as ArrayBuffers: the interface's rows carry Uint8Arrays. */
function plainRow<Row>(row: Record<string, SqlStorageValue>): Row {
  const plain: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    plain[column] = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
  }
  return plain as Row;
}

/**
 * The {@link SqlDatabase} of a Durable Object's SQLite storage (`ctx.storage.sql`). Cursors are
 * read to the end at once: a statement runs as its cursor is read, and a cursor read later would
 * see later writes. `BEGIN` is refused there; `transactionSync` is the transaction (nested, a
 * savepoint). `changes` comes from SQLite's `changes()`, because `rowsWritten` counts index
 * entries too; it is asked for when first read, so read it before the next statement.
 */
export function durableObjectSql(storage: DurableObjectStorage): SqlDatabase {
  const { sql } = storage;
  return {
    exec(text) {
      sql.exec(text).toArray();
    },
    run(text, ...params) {
      sql.exec(text, ...params.map(bindable)).toArray();
      // Asked for only when read (the store never reads it): a write is one statement, not two.
      let changes: number | undefined;
      return {
        get changes() {
          if (changes === undefined) {
            const [row] = sql.exec<{ changes: number }>("SELECT changes() AS changes").toArray();
            changes = row?.changes ?? 0;
          }
          return changes;
        },
      };
    },
    all<Row>(text: string, ...params: SqlValue[]): Row[] {
      return sql
        .exec(text, ...params.map(bindable))
        .toArray()
        .map((row) => plainRow<Row>(row));
    },
    transaction(fn) {
      return storage.transactionSync(fn);
    },
  };
}
