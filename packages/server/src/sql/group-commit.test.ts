import { describe, expect, it } from "vitest";
import { newId } from "../delivery/ids.ts";
import type { Write } from "../delivery/machine/writes.ts";
import { openNodeDatabase } from "../node-sqlite.ts";
import { persistWrites } from "./persist-writes.ts";
import type { RunTransaction } from "./run-transaction.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { all, type SqlSteps } from "./sql-steps.ts";
import { SqlStore } from "./sql-store.ts";

const input = {
  goal: "g",
  constraints: [],
  stages: [
    { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items: 4 },
  ],
};
const artifact = { media_type: "text/plain", content: "done" };

/** A database that counts its outermost transactions and can be told to fail the next commit. */
function countingDatabase() {
  const database = openNodeDatabase(":memory:");
  let depth = 0;
  const counts = { transactions: 0, failNextCommit: false, statements: [] as string[] };
  const counting: SqlDatabase = {
    exec: (sql) => database.exec(sql),
    run: (sql, ...params) => {
      counts.statements.push(sql);
      return database.run(sql, ...params);
    },
    all: (sql, ...params) => database.all(sql, ...params),
    transaction: (fn) => {
      if (depth === 0) counts.transactions++;
      depth++;
      try {
        return database.transaction(() => {
          const result = fn();
          if (depth === 1 && counts.failNextCommit) {
            counts.failNextCommit = false;
            throw new Error("disk I/O error");
          }
          return result;
        });
      } finally {
        depth--;
      }
    },
  };
  return { database, counting, counts };
}

/** A store with group commit (setImmediate, as on Node), a run with 4 items and one agent. */
async function groupedStore() {
  const { database, counting, counts } = countingDatabase();
  const store = new SqlStore(counting, { schedule: setImmediate });
  const runId = newId("run");
  await store.createRun(runId, input);
  const agent = { agent_id: newId("agt"), tag: "a" };
  await store.addAgent(runId, { ...agent, token_hash: "h" });
  return { database, store, counts, runId, agent };
}

describe("SqlStore's group commit", () => {
  it("commits the operations of one turn of the event loop in one transaction, each answered", async () => {
    const { store, counts, runId, agent } = await groupedStore();
    counts.transactions = 0;
    const claims = await Promise.all([1, 2, 3].map(() => store.claim(runId, agent, undefined)));
    expect(counts.transactions).toBe(1);
    const ids = claims.map((claim) => claim?.work_item.id);
    expect(new Set(ids).size).toBe(3);
    counts.transactions = 0;
    const completions = await Promise.all(
      claims.map((claim) =>
        store.complete(runId, agent, claim?.work_item.id ?? "", { attempt: 1, artifact }),
      ),
    );
    expect(counts.transactions).toBe(1);
    expect(completions.map((completion) => completion.view.status)).toEqual([
      "completed",
      "completed",
      "completed",
    ]);
  });

  it("undoes only the writes of an operation that fails; the others of its group commit", async () => {
    const { store, counts, runId, agent } = await groupedStore();
    const claim = await store.claim(runId, agent, undefined);
    const id = claim?.work_item.id ?? "";
    counts.transactions = 0;
    const [completed, twice, other] = await Promise.allSettled([
      store.complete(runId, agent, id, { attempt: 1, artifact }),
      store.complete(runId, agent, id, { attempt: 1, artifact }),
      store.claim(runId, agent, undefined),
    ]);
    expect(counts.transactions).toBe(1);
    expect(completed).toMatchObject({
      status: "fulfilled",
      value: { view: { status: "completed" } },
    });
    expect(twice).toMatchObject({ status: "rejected", reason: { code: "ALREADY_COMPLETED" } });
    expect(other).toMatchObject({ status: "fulfilled", value: { lease: { attempt: 1 } } });
    const page = await store.events(runId, 0, 100);
    expect(page.events.filter((event) => event.type === "work_item.completed")).toHaveLength(1);
  });

  it("restores a run's shared state when an operation fails after the group's first look at it", async () => {
    const { database } = countingDatabase();
    let now = 1_000_000;
    const store = new SqlStore(database, { clock: () => now, schedule: setImmediate });
    const runId = newId("run");
    await store.createRun(runId, { ...input, lease_ms: 1000 });
    const agent = { agent_id: newId("agt"), tag: "a" };
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    await store.claim(runId, agent, undefined);
    now += 2000;
    // The first operation of the group expires the lease (events appended), then fails: its
    // savepoint undoes both; the second expires it again and claims.
    const [missing, claimed] = await Promise.allSettled([
      store.claim(runId, agent, "wi_missing"),
      store.claim(runId, agent, undefined),
    ]);
    expect(missing).toMatchObject({ status: "rejected", reason: { code: "WORK_ITEM_NOT_FOUND" } });
    expect(claimed).toMatchObject({ status: "fulfilled" });
    const { events } = await store.events(runId, 0, 100);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.filter((event) => event.type === "work_item.lease_expired")).toHaveLength(1);
    expect(await store.lastSeq(runId)).toBe(events.length);
  });

  it("rejects every operation of a group whose commit fails, and writes none of them", async () => {
    const { store, counts, runId, agent } = await groupedStore();
    const before = await store.lastSeq(runId);
    counts.failNextCommit = true;
    const outcomes = await Promise.allSettled([
      store.claim(runId, agent, undefined),
      store.claim(runId, agent, undefined),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(outcomes[0]).toMatchObject({ reason: { message: "disk I/O error" } });
    expect(await store.lastSeq(runId)).toBe(before);
    const offered = await store.offers(runId, agent, 10);
    expect(offered).toHaveLength(4);
  });

  it("wakes a run's waiters only once the group that appended its events has committed", async () => {
    const { store, runId, agent } = await groupedStore();
    const seq = await store.lastSeq(runId);
    // The timeout only stops a broken wake-up: it is far past any pause of a busy machine.
    const woken = store.changed(runId, seq, { timeoutMs: 20_000 });
    let answered = false;
    void woken.then(() => {
      answered = true;
    });
    const claimed = store.claim(runId, agent, undefined);
    await Promise.resolve();
    expect(answered).toBe(false);
    await claimed;
    expect(await woken).toBe(true);
  });
});

/** An SqlStore whose tests send operations of their own (steps that write and read). */
class OpenStore extends SqlStore {
  send<T>(runId: string, body: (transaction: RunTransaction) => SqlSteps<T>): Promise<T> {
    return this.transact(runId, body);
  }
}

/** The write of an idempotency key `key` on the run (a row of its own, read by nothing else). */
const keyWrite = (key: string): Write => ({
  type: "insertIdempotencyKey",
  agent_id: "agt_test",
  key,
  request_hash: "h",
  response: {},
});

const keysOf = (database: SqlDatabase, runId: string) =>
  database
    .all<{ key: string }>("SELECT key FROM idempotency_keys WHERE run_id = ? ORDER BY key", runId)
    .map((row) => row.key);

describe("SqlStore's group commit, its writes folded", () => {
  it("writes a run's row once for a group, each other row it changes by one statement", async () => {
    const { store, counts, runId, agent } = await groupedStore();
    counts.statements = [];
    const claims = await Promise.all([1, 2, 3].map(() => store.claim(runId, agent, undefined)));
    expect(claims.map((claim) => claim?.lease.attempt)).toEqual([1, 1, 1]);
    const writes = counts.statements.map((sql) => sql.split(" (")[0]?.split(" SET")[0]);
    expect(writes.sort()).toEqual([
      "INSERT INTO attempts",
      "INSERT INTO attempts",
      "INSERT INTO attempts",
      "INSERT INTO events",
      "INSERT INTO events",
      "INSERT INTO events",
      "UPDATE runs",
      "UPDATE work_items",
      "UPDATE work_items",
      "UPDATE work_items",
    ]);
    const { events } = await store.events(runId, 0, 100);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(await store.lastSeq(runId)).toBe(events.length);
  });

  it("writes an operation's held writes before its read, in a savepoint that undoes them alone when it fails", async () => {
    const { database } = countingDatabase();
    const store = new OpenStore(database, { schedule: setImmediate });
    const runId = newId("run");
    await store.createRun(runId, input);
    function* writeThenRead(key: string, fail: boolean): SqlSteps<string[]> {
      yield* persistWrites(runId, [keyWrite(key)]);
      const seen = yield* all<{ key: string }>(
        "SELECT key FROM idempotency_keys WHERE run_id = ? ORDER BY key",
        runId,
      );
      if (fail) throw new Error(`failed after reading ${seen.map((row) => row.key).join(",")}`);
      return seen.map((row) => row.key);
    }
    function* writeOnly(key: string): SqlSteps<string> {
      yield* persistWrites(runId, [keyWrite(key)]);
      return key;
    }
    const outcomes = await Promise.allSettled([
      store.send(runId, () => writeOnly("a")),
      store.send(runId, () => writeThenRead("b", true)),
      store.send(runId, () => writeThenRead("c", false)),
      store.send(runId, () => writeOnly("d")),
    ]);
    expect(outcomes).toEqual([
      { status: "fulfilled", value: "a" },
      { status: "rejected", reason: new Error("failed after reading a,b") },
      { status: "fulfilled", value: ["a", "c"] },
      { status: "fulfilled", value: "d" },
    ]);
    expect(keysOf(database, runId)).toEqual(["a", "c", "d"]);
    database.close();
  });

  it("forgets the held writes of an operation that fails before any statement", async () => {
    const { database } = countingDatabase();
    const store = new OpenStore(database, { schedule: setImmediate });
    const runId = newId("run");
    await store.createRun(runId, input);
    const outcomes = await Promise.allSettled([
      store.send(runId, function* () {
        yield* persistWrites(runId, [keyWrite("kept")]);
      }),
      store.send(runId, function* () {
        yield* persistWrites(runId, [keyWrite("forgotten")]);
        throw new Error("refused after writing");
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(keysOf(database, runId)).toEqual(["kept"]);
    database.close();
  });
});

describe("SqlStore's options", () => {
  it("refuse a schedule or a clock that is not a function, with the option's name", () => {
    const database = openNodeDatabase(":memory:");
    expect(() => new SqlStore(database, { schedule: 5 as never })).toThrow(
      "Invalid options.schedule: expected a function, got number.",
    );
    expect(() => new SqlStore(database, { clock: null as never })).toThrow(
      "Invalid options.clock: expected a function, got null.",
    );
    database.close();
  });
});

describe("openNodeDatabase's nested transactions", () => {
  it("are savepoints: a nested one that throws undoes its own writes, the outer commits", () => {
    const database = openNodeDatabase(":memory:");
    database.exec("CREATE TABLE t (v TEXT)");
    database.transaction(() => {
      database.run("INSERT INTO t (v) VALUES ('outer')");
      expect(() =>
        database.transaction(() => {
          database.run("INSERT INTO t (v) VALUES ('inner')");
          throw new Error("refused");
        }),
      ).toThrow("refused");
      database.transaction(() => database.run("INSERT INTO t (v) VALUES ('kept')"));
    });
    expect(database.all<{ v: string }>("SELECT v FROM t ORDER BY rowid")).toEqual([
      { v: "outer" },
      { v: "kept" },
    ]);
    database.close();
  });

  it("refuses a durability it does not know", () => {
    expect(() => openNodeDatabase(":memory:", { durability: "disk" as never })).toThrow(
      'Invalid durability: expected "process" or "machine", got "disk".',
    );
  });
});
