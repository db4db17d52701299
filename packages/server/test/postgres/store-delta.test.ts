// Several PostgreSQL instances on one run, each bringing its stale copy of the run up to date with
// only the rows written since its version (run-state-rows.ts): the model-based sequences
// (test/model/store-model.ts) with every operation on the next of two instances in turn, and
// after each, both instances' states equal to a whole read of the run by a third; and a command
// whose writes PostgreSQL refused leaves no state behind that another instance's commit could
// seem to make valid; nor does a transaction given up while its lock's answer was on its way
// (its connection lost) change the state the instance keeps when that answer comes late.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import type { RunState } from "../../src/delivery/machine/run-state.ts";
import { postgresText } from "../../src/postgres/postgres-sql.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import type { RunStateCache } from "../../src/sql/run-state-cache.ts";
import { TransactionEndedError } from "../../src/sql/run-state-rows.ts";
import type { RunTransaction } from "../../src/sql/run-transaction.ts";
import { done, runStepsAsync, type Statement, type Writes } from "../../src/sql/sql-steps.ts";
import { checkStoreAgainstModel } from "../model/store-model.ts";
import { refuseArtifacts } from "./databases.ts";
import { newDatabase, reason, title } from "./services.ts";

const numRuns = Number(process.env.MODEL_RUNS ?? 2);

/** A state as plain data, in the order a whole read gives (maps and sets by key). */
function plain(state: RunState): unknown {
  const sorted = <T>(values: Iterable<T>) => [...values].sort();
  const byKey = <V>(map: Map<string, V>) =>
    [...map.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  return {
    run: state.run,
    stages: state.stages,
    items: byKey(state.items),
    queue: [...state.queue],
    leased: sorted(state.leased),
    deadLettered: sorted(state.deadLettered),
    counts: state.counts,
    agents: byKey(state.agents),
    tags: sorted(state.tags),
    artifacts: state.artifacts,
    idempotency: byKey(state.idempotency),
  };
}

/** The third instance's cache, emptied before each read: it reads the run whole. */
function wholeRead(whole: PostgresStore, runId: string): Promise<unknown> {
  (whole as unknown as { states: RunStateCache }).states.clear();
  return stateOf(whole, runId);
}

/** The agent of {@link claimedRun}. */
const agent = { agent_id: "agt_writer", tag: "writer" };

/** A run of one stage with one item, which {@link agent} has claimed on `store`: the item's id. */
async function claimedRun(store: PostgresStore, runId: string): Promise<string> {
  const stage = { stage_description: "Draft", expected_output: "A draft", available_skills: [] };
  await store.createRun(runId, {
    goal: "Write.",
    constraints: [],
    stages: [{ id: "draft", ...stage }],
  });
  await store.addAgent(runId, { ...agent, token_hash: "x".repeat(64) });
  const claim = await store.claim(runId, agent, undefined);
  return claim?.work_item.id as string;
}

/** The run's state as `store` has it now (its copy checked, and brought up to date). */
async function stateOf(store: PostgresStore, runId: string): Promise<unknown> {
  try {
    return plain(await store.runState(runId));
  } catch (error) {
    return { refused: (error as { code?: unknown }).code };
  }
}

describe.skipIf(reason !== undefined)(title("PostgreSQL instances sharing a run"), () => {
  it("bring their states up to date with what changed as a whole read would", async () => {
    const database = await newDatabase();
    let clock = () => 0;
    const [first, second, whole] = await Promise.all(
      [0, 1, 2].map(() => PostgresStore.open(database.url, { clock: () => clock() })),
    );
    const instances = [first, second] as PostgresStore[];
    let turn = 0;
    let checks = 0;
    /** After an operation on the run `runId`: every instance's state is the whole read's. */
    const agree = async (runId: unknown) => {
      if (typeof runId !== "string") return;
      const states = [];
      for (const instance of instances) states.push(await stateOf(instance, runId));
      const expected = await wholeRead(whole as PostgresStore, runId);
      for (const state of states) expect(state).toEqual(expected);
      checks += 1;
    };
    /** The store the model's commands see: each operation on the next instance in turn. */
    const interleaved = new Proxy({} as PostgresStore, {
      get(_, name) {
        const instance = instances[turn++ % instances.length] as PostgresStore;
        const member = Reflect.get(instance, name, instance) as unknown;
        if (typeof member !== "function") return member;
        return async (...args: unknown[]) => {
          try {
            return await member.apply(instance, args);
          } finally {
            await agree(args[0]);
          }
        };
      },
    });
    try {
      await checkStoreAgainstModel(
        async (sequenceClock) => {
          clock = sequenceClock;
          return {
            store: interleaved,
            async crash() {},
            async close() {},
          };
        },
        { numRuns, maxCommands: 30 },
      );
      // The sequences are drawn at random, some short: that some operation was checked at all.
      expect(checks).toBeGreaterThan(0);
    } finally {
      await Promise.all([first, second, whole].map((instance) => instance?.end()));
      await database.drop();
    }
  });
});

describe.skipIf(reason !== undefined)(title("PostgreSQL instances sharing a run"), () => {
  it("keep no state a refused write changed, which the other's next commit would seem to validate", async () => {
    const database = await newDatabase();
    const [first, second, whole] = (await Promise.all(
      [0, 1, 2].map(() => PostgresStore.open(database.url, { clock: () => 1_000 })),
    )) as [PostgresStore, PostgresStore, PostgresStore];
    try {
      const runId = "run_refused";
      const itemId = await claimedRun(first, runId);
      await refuseArtifacts(database.url);
      const body = { attempt: 1, artifact: { media_type: "text/markdown", content: "# Draft" } };
      await expect(first.complete(runId, agent, itemId, body)).rejects.toThrow(
        "the artifact store is full",
      );
      // The run's next version, committed by the other instance: the item still leased.
      await second.heartbeat(runId, agent, itemId, 1);
      const expected = await wholeRead(whole, runId);
      expect((expected as { leased: string[] }).leased).toEqual([itemId]);
      expect(await stateOf(first, runId)).toEqual(expected);
    } finally {
      await Promise.all([first, second, whole].map((instance) => instance.end()));
      await database.drop();
    }
  });
});

describe.skipIf(reason !== undefined)(title("PostgreSQL instances sharing a run"), () => {
  it("leave the kept state alone when a given-up transaction's lock answers late", async () => {
    const database = await newDatabase();
    const [first, second, whole] = (await Promise.all(
      [0, 1, 2].map(() => PostgresStore.open(database.url, { clock: () => 1_000 })),
    )) as [PostgresStore, PostgresStore, PostgresStore];
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const runId = "run_given_up";
      const itemId = await claimedRun(first, runId);
      // The other instance moves the run on: the first one's copy is now stale.
      await second.heartbeat(runId, agent, itemId, 1);
      const states = (first as unknown as { states: RunStateCache }).states;
      const kept = states.get(runId) as RunState;
      const before = plain(kept);
      // A group of the first instance whose connection was lost while its lock's answer was on
      // its way: given up (failed) before that answer comes.
      const transaction = (
        first as unknown as { newTransaction(): RunTransaction }
      ).newTransaction();
      const lateAnswers = async (statement: Statement | Writes) => {
        if (statement.kind === "writes") return undefined;
        if (statement.lock === true) transaction.failed();
        return sql.unsafe(postgresText(statement), statement.params as never[]);
      };
      const steps = transaction.execute(runId, { type: "expireLeases" }, (_, state) =>
        done(state.run.version),
      );
      await expect(runStepsAsync(lateAnswers, steps)).rejects.toThrow(TransactionEndedError);
      expect(states.get(runId)).toBe(kept);
      expect(plain(kept)).toEqual(before);
      // The instance's next transaction brings its copy up to date as a whole read would.
      expect(await stateOf(first, runId)).toEqual(await wholeRead(whole, runId));
    } finally {
      await sql.end();
      await Promise.all([first, second, whole].map((instance) => instance.end()));
      await database.drop();
    }
  });
});
