// The one list of the store's methods (src/delivery/store-methods.ts) and the forwarders generated
// from it: what the Workers router's store and a run's Durable Object are made of, checked here
// on Node against the SQL store itself.
import { describe, expect, it } from "vitest";
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { newId } from "../../src/delivery/ids.ts";
import {
  callMethod,
  defineRunMethods,
  type RunMethod,
  runMethods,
  type StoreMethodList,
  storeMethods,
} from "../../src/delivery/store-methods.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { artifactCompletion, runInput, taskStage } from "../contract/client.ts";

describe("the store's methods", () => {
  it("are listed once each, all of them the SQL store's, the run methods in the list's order", () => {
    const listed = Object.keys(storeMethods);
    for (const method of listed) {
      expect(typeof Reflect.get(SqlStore.prototype, method), method).toBe("function");
    }
    expect(runMethods).toEqual(
      listed.filter((method) => storeMethods[method as keyof typeof storeMethods] === "run"),
    );
    // The special ones, written out by hand on each side.
    expect(listed.filter((method) => !(runMethods as readonly string[]).includes(method))).toEqual([
      "createRun",
      "findAgent",
      "claimNext",
      "changed",
      "query",
    ]);
  });

  it("must name every method of DeliveryStore, and nothing else (type errors otherwise)", () => {
    const { expireLeases: _, ...withoutOne } = storeMethods;
    // @ts-expect-error a method of DeliveryStore missing from the list
    const missing: StoreMethodList = withoutOne;
    // @ts-expect-error a method that DeliveryStore does not have
    const extra: StoreMethodList = { ...storeMethods, expireAllLeases: "explicit" };
    expect([missing, extra]).toHaveLength(2);
  });
});

/** A store made of generated forwarders only: each run method calls `target`'s. */
class Forwarder {
  readonly calls: { method: RunMethod; runId: string; args: unknown[] }[] = [];
  readonly target: object;

  constructor(target: object) {
    this.target = target;
  }
}
defineRunMethods(Forwarder, (forwarder, method, runId, args) => {
  forwarder.calls.push({ method, runId, args });
  return callMethod(forwarder.target, method, args);
});

/** A {@link Forwarder} with the generated methods' types (the Workers classes merge them in). */
const forwarderTo = (target: object) =>
  new Forwarder(target) as Forwarder & Pick<DeliveryStore, RunMethod>;

describe("the generated forwarders", () => {
  it("are methods of the prototype, named after the store's, one per run method", () => {
    for (const method of runMethods) {
      const descriptor = Object.getOwnPropertyDescriptor(Forwarder.prototype, method);
      expect(typeof descriptor?.value, method).toBe("function");
      expect(descriptor?.enumerable).toBe(false);
      expect(Reflect.get(Forwarder.prototype, method).name).toBe(method);
    }
    expect(Object.keys(new Forwarder({})).sort()).toEqual(["calls", "target"]);
  });

  it("pass the method, its run id (the first argument) and every argument on, and its answer back", async () => {
    const seen: unknown[][] = [];
    const target = Object.fromEntries(
      runMethods.map((method) => [
        method,
        async (...args: unknown[]) => {
          seen.push([method, ...args]);
          return `${method} answered`;
        },
      ]),
    );
    const forwarder = forwarderTo(target);
    const agent = { agent_id: "agt_1", tag: "writer" };
    const body = { attempt: 1, artifact: { kind: "document", content: "# Draft" } } as never;
    const key = { key: "k", requestHash: "h" };
    expect(await forwarder.complete("run_1", agent, "wi_1", body, key)).toBe("complete answered");
    expect(await forwarder.events("run_2", 5, 10)).toBe("events answered");
    expect(seen).toEqual([
      ["complete", "run_1", agent, "wi_1", body, key],
      ["events", "run_2", 5, 10],
    ]);
    expect(forwarder.calls.map(({ method, runId }) => [method, runId])).toEqual([
      ["complete", "run_1"],
      ["events", "run_2"],
    ]);
  });

  it("reject, as an async method does, when forwarding throws", async () => {
    const refusing = { prototype: {} };
    defineRunMethods(refusing, (_prototype, method, runId) => {
      throw new Error(`${method} of ${runId} refused`);
    });
    const getRun = Reflect.get(refusing.prototype, "getRun") as (runId: string) => unknown;
    const answer = getRun.call(refusing.prototype, "run_x");
    expect(answer).toBeInstanceOf(Promise);
    await expect(answer).rejects.toThrow("getRun of run_x refused");
  });

  it("answer as the SQL store does, refusals included", async () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      const forwarder = forwarderTo(store);
      const runId = newId("run");
      await store.createRun(runId, runInput([taskStage("draft")]));
      const agent = { agent_id: newId("agt"), tag: "writer" };
      await forwarder.addAgent(runId, { ...agent, token_hash: "0".repeat(64) });
      expect(await store.findAgent(runId, agent.agent_id)).toMatchObject(agent);
      const [offer] = await forwarder.offers(runId, agent, 10);
      expect(offer).toBeDefined();
      const claimed = await forwarder.claim(runId, agent, offer?.id);
      expect(claimed?.work_item.id).toBe(offer?.id);
      const completion = await forwarder.complete(
        runId,
        agent,
        offer?.id ?? "",
        artifactCompletion(1),
      );
      expect(completion.view.status).toBe("completed");
      expect(await forwarder.getRun(runId)).toEqual(await store.getRun(runId));
      expect(await forwarder.events(runId, 0, 100)).toEqual(await store.events(runId, 0, 100));
      expect(await forwarder.lastSeq(runId)).toBe(await store.lastSeq(runId));
      const refusal = forwarder.requeue(runId, offer?.id ?? "");
      await expect(refusal).rejects.toMatchObject({ code: "NOT_DEAD_LETTERED" });
      await expect(forwarder.getRun(newId("run"))).rejects.toMatchObject({
        code: "RUN_NOT_FOUND",
      });
      expect(forwarder.calls.map(({ method }) => method)).toEqual([
        "addAgent",
        "offers",
        "claim",
        "complete",
        "getRun",
        "events",
        "lastSeq",
        "requeue",
        "getRun",
      ]);
    } finally {
      store.close();
      database.close();
    }
  });
});
