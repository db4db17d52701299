import { afterEach, describe, expect, it } from "vitest";
import { newId } from "../delivery/ids.ts";
import { openNodeDatabase } from "../node-sqlite.ts";
import { SqlStore } from "../sql/sql-store.ts";
import { type FollowEnd, RunFeeds } from "./run-feeds.ts";
import type { FollowerSink } from "./sse-body.ts";

/** Waits for a condition, never for a time: the deadline only ends a hung test. */
const EVENTUALLY = { timeout: 15_000, interval: 5 };
const timing = { keepAliveMs: 3_600_000, recheckMs: 3_600_000, clock: () => 0 };
const run = (items: number) => ({
  goal: "g",
  constraints: [],
  stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [], items }],
});

/** A run on an SQLite store whose event reads are counted, and one agent that makes events. */
async function setUp() {
  const database = openNodeDatabase(":memory:");
  const store = new SqlStore(database);
  const reads: number[] = [];
  const events = store.events.bind(store);
  store.events = (runId, after, limit) => {
    reads.push(after);
    return events(runId, after, limit);
  };
  const runId = newId("run");
  await store.createRun(runId, run(20));
  const agent = { agent_id: newId("agt"), tag: "worker" };
  await store.addAgent(runId, { ...agent, token_hash: "h" });
  const stop = new AbortController();
  cleanups.push(() => {
    stop.abort();
    store.close();
    database.close();
  });
  return {
    store,
    runId,
    reads,
    stop: stop.signal,
    /** One more event: a claim. */
    claim: () => store.claim(runId, agent, undefined),
  };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A follower that reads at once, keeping the ids of the frames it is sent. */
function collector() {
  const ids: number[] = [];
  let comments = 0;
  const decoder = new TextDecoder();
  const write: FollowerSink = {
    write(bytes) {
      const text = decoder.decode(bytes);
      const id = /^id: (\d+)$/m.exec(text)?.[1];
      if (id === undefined) comments += 1;
      else ids.push(Number(id));
      return 0;
    },
    drained: async () => undefined,
  };
  return { ids, write, comments: () => comments };
}

describe("the runs' event feeds", () => {
  it("reads each new event once and writes it to every follower of the run", async () => {
    const { store, runId, reads, stop, claim } = await setUp();
    const feeds = new RunFeeds(store, timing);
    const after = await store.lastSeq(runId);
    const followers = Array.from({ length: 50 }, () => collector());
    const ends = followers.map((follower) => feeds.follow(runId, after, follower.write, stop));
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(50);
    const readsBefore = reads.length;
    await claim();
    await claim();
    await expect
      .poll(() => followers.every((follower) => follower.ids.length === 2), EVENTUALLY)
      .toBe(true);
    for (const follower of followers) expect(follower.ids).toEqual([after + 1, after + 2]);
    // One reader: a page or two for the two events, not one per follower.
    expect(reads.length - readsBefore).toBeLessThanOrEqual(2);
    // Still following: the run goes on.
    expect(await Promise.race([...ends, Promise.resolve("following")])).toBe("following");
  });

  it("serves followers that resume within the run's latest events from the reader's frames", async () => {
    const { store, runId, reads, stop } = await setUp();
    const feeds = new RunFeeds(store, timing);
    const last = await store.lastSeq(runId);
    const followers = Array.from({ length: 20 }, () => collector());
    for (const follower of followers) void feeds.follow(runId, 0, follower.write, stop);
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(20);
    for (const follower of followers) {
      expect(follower.ids).toEqual(Array.from({ length: last }, (_, index) => index + 1));
    }
    // The reader's one page when it started; none of the followers read their own.
    expect(reads).toEqual([0]);
  });

  it("not shared (Workers), gives each follower a reader of its own", async () => {
    const { store, runId, reads, stop, claim } = await setUp();
    const feeds = new RunFeeds(store, timing, { shared: false });
    const after = await store.lastSeq(runId);
    const followers = Array.from({ length: 3 }, () => collector());
    for (const follower of followers) void feeds.follow(runId, after, follower.write, stop);
    await new Promise((resolve) => setImmediate(resolve));
    const readsBefore = reads.length;
    await claim();
    await expect
      .poll(() => followers.every((follower) => follower.ids.length === 1), EVENTUALLY)
      .toBe(true);
    expect(reads.length - readsBefore).toBe(3);
  });

  it("catches a resuming follower up on its own, then joins it to the live events: none missed or repeated", async () => {
    const { store, runId, stop, claim } = await setUp();
    const feeds = new RunFeeds(store, timing);
    const live = collector();
    void feeds.follow(runId, await store.lastSeq(runId), live.write, stop);
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(1);
    const resuming = collector();
    const following = feeds.follow(runId, 3, resuming.write, stop);
    const claims = [claim(), claim(), claim()];
    await Promise.all(claims);
    const last = await store.lastSeq(runId);
    await expect.poll(() => resuming.ids.at(-1), EVENTUALLY).toBe(last);
    expect(resuming.ids).toEqual(Array.from({ length: last - 3 }, (_, index) => index + 4));
    await expect.poll(() => live.ids.length, EVENTUALLY).toBe(3);
    void following;
  });

  it("cuts off a follower that reads nothing once it is too far behind; the others get every event", async () => {
    const { store, runId, stop, claim } = await setUp();
    const feeds = new RunFeeds(store, timing, { maxBehind: 3 });
    const after = await store.lastSeq(runId);
    const reading = collector();
    const readingEnd = feeds.follow(runId, after, reading.write, stop);
    // Its client never reads what it is sent.
    let unread = 0;
    const never: FollowerSink = { write: () => ++unread, drained: () => new Promise(() => {}) };
    const stuck = feeds.follow(runId, after, never, stop);
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(2);
    for (let index = 0; index < 5; index++) await claim();
    expect(await stuck).toBe<FollowEnd>("cut");
    await expect.poll(() => reading.ids.length, EVENTUALLY).toBe(5);
    expect(feeds.followers(runId)).toBe(1);
    void readingEnd;
  });

  it("ends a follow when its signal aborts, and stops the run's reader once nobody follows", async () => {
    const { store, runId, reads, claim } = await setUp();
    const feeds = new RunFeeds(store, timing);
    const leaving = new AbortController();
    const follower = collector();
    const end = feeds.follow(runId, await store.lastSeq(runId), follower.write, leaving.signal);
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(1);
    leaving.abort();
    expect(await end).toBe<FollowEnd>("left");
    expect(feeds.followers(runId)).toBe(0);
    const readsAfter = reads.length;
    await claim();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads.length).toBe(readsAfter);
  });

  it("sends keep-alives by the service's clock to the followers that were sent nothing", async () => {
    const { store, runId, stop } = await setUp();
    let now = 0;
    const feeds = new RunFeeds(store, { keepAliveMs: 1000, recheckMs: 5, clock: () => now });
    const follower = collector();
    void feeds.follow(runId, await store.lastSeq(runId), follower.write, stop);
    await expect.poll(() => feeds.followers(runId), EVENTUALLY).toBe(1);
    now = 1000;
    await expect.poll(() => follower.comments(), EVENTUALLY).toBe(1);
    now = 2000;
    await expect.poll(() => follower.comments(), EVENTUALLY).toBe(2);
    expect(follower.ids).toEqual([]);
  });
});
