// Several PostgreSQL instances on one run, each bringing its stale copy of the run up to date with
// only the rows written since its version (run-state-rows.ts): the model-based sequences
// (test/model/store-model.ts) with every operation on the next of two instances in turn, and
// after each, both instances' states equal to a whole read of the run by a third; and a command
// whose writes PostgreSQL refused leaves no state behind that another instance's commit could
// seem to make valid; nor do the rows an instance of an earlier release writes (no version) go
// unseen.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import type { RunState } from "../../src/delivery/machine/run-state.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import type { RunStateCache } from "../../src/sql/run-state-cache.ts";
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

/** A run of one stage with one item, which {@link agent} has claimed: the item's id. */
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
      expect(checks).toBeGreaterThan(numRuns * 10);
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
  it("read again the rows an earlier release wrote without their version", async () => {
    const database = await newDatabase();
    const [current, whole] = (await Promise.all(
      [0, 1].map(() => PostgresStore.open(database.url, { clock: () => 1_000 })),
    )) as [PostgresStore, PostgresStore];
    const earlier = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const runId = "run_upgrade";
      await claimedRun(current, runId);
      // As the earlier release writes: its rows and the run's next version, no row version.
      await earlier.begin(async (sql) => {
        await sql`UPDATE work_items SET failures = failures + 1 WHERE run_id = ${runId}`;
        await sql`INSERT INTO agents (run_id, id, tag, token_hash, created_at)
          VALUES (${runId}, 'agt_later', 'later', ${"y".repeat(64)}, 1000)`;
        await sql`UPDATE runs SET version = version + 1 WHERE id = ${runId}`;
      });
      const expected = (await wholeRead(whole, runId)) as {
        items: [string, { failures: number }][];
      };
      expect(expected.items.map(([, item]) => item.failures)).toEqual([1]);
      expect(await stateOf(current, runId)).toEqual(expected);
      // Read again while stale, and merged to the same state.
      await earlier`UPDATE runs SET version = version + 1 WHERE id = ${runId}`;
      expect(await stateOf(current, runId)).toEqual(await wholeRead(whole, runId));
    } finally {
      await earlier.end();
      await Promise.all([current, whole].map((instance) => instance.end()));
      await database.drop();
    }
  });
});
