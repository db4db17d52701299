import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { durableObjectSql } from "../../src/workers/durable-object-sql.ts";

/** Runs `check` on the SqlDatabase of a fresh object's storage. */
function inObject<T>(name: string, check: (database: ReturnType<typeof durableObjectSql>) => T) {
  return runInDurableObject(env.RUNS.get(env.RUNS.idFromName(name)), (_, state) =>
    check(durableObjectSql(state.storage)),
  );
}

describe("the SqlDatabase over a Durable Object's SQLite storage", () => {
  it("counts changed rows as SQLite does, not index entries", async () => {
    const counts = await inObject("sql-changes", (database) => {
      database.exec("CREATE TABLE t (k TEXT, v INTEGER)");
      database.exec("CREATE INDEX t_k ON t (k)");
      return [
        database.run("INSERT INTO t (k, v) VALUES ('a', 1), ('b', 2), ('c', 3)").changes,
        database.run("UPDATE t SET k = k || 'x' WHERE v <= 2").changes,
        database.run("UPDATE t SET v = 0 WHERE k = 'none'").changes,
        database.run("DELETE FROM t").changes,
      ];
    });
    expect(counts).toEqual([3, 2, 0, 3]);
  });

  it("binds safe bigints as numbers, refuses others, and reads blobs as Uint8Array", async () => {
    const read = await inObject("sql-values", (database) => {
      database.exec("CREATE TABLE v (n INTEGER, b BLOB)");
      database.run("INSERT INTO v (n, b) VALUES (?, ?)", 42n, new Uint8Array([1, 2, 3]));
      let refused = "";
      try {
        database.run("INSERT INTO v (n) VALUES (?)", 2n ** 60n);
      } catch (error) {
        refused = String(error);
      }
      const [row] = database.all<{ n: number; b: Uint8Array }>("SELECT n, b FROM v");
      return { n: row?.n, blob: row?.b instanceof Uint8Array ? [...row.b] : row?.b, refused };
    });
    expect(read).toEqual({
      n: 42,
      blob: [1, 2, 3],
      refused:
        "RangeError: The SQL parameter 1152921504606846976 is outside the safe integer range.",
    });
  });

  it("reads every row at once: a later write does not show in rows already read", async () => {
    const rows = await inObject("sql-cursor", (database) => {
      database.exec("CREATE TABLE c (x INTEGER)");
      database.run("INSERT INTO c (x) VALUES (1)");
      const before = database.all<{ x: number }>("SELECT x FROM c");
      database.run("INSERT INTO c (x) VALUES (2)");
      return before;
    });
    expect(rows).toEqual([{ x: 1 }]);
  });

  it("a transaction is all or nothing, also nested", async () => {
    const rows = await inObject("sql-transaction", (database) => {
      database.exec("CREATE TABLE r (x INTEGER)");
      try {
        database.transaction(() => {
          database.run("INSERT INTO r (x) VALUES (1)");
          throw new Error("rolled back");
        });
      } catch {}
      database.transaction(() => {
        database.run("INSERT INTO r (x) VALUES (2)");
        try {
          database.transaction(() => {
            database.run("INSERT INTO r (x) VALUES (3)");
            throw new Error("inner part rolled back");
          });
        } catch {}
      });
      return database.all<{ x: number }>("SELECT x FROM r ORDER BY x");
    });
    expect(rows).toEqual([{ x: 2 }]);
  });
});
