// The event stream as a real SSE client reads it: the `eventsource` package against the Node
// server over a socket, through a proxy that kills the connection mid-frame or across a restart
// of the server. The client reconnects by itself with Last-Event-ID; nothing may be missed,
// repeated or out of order.
import { join } from "node:path";
import type { CollaborationEvent } from "@task-context/protocols";
import { describe, type ExpectStatic, it } from "vitest";
import { type NodeServer, startNodeServer } from "../../src/node.ts";
import {
  artifactCompletion,
  type Client,
  createRun,
  expectPublished,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
} from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { temporaryFolder } from "../node/services.ts";
import { type Follower, followEvents } from "./follow.ts";
import { type CuttingProxy, startProxy } from "./proxy.ts";

const adminToken = "sse-admin-token-0123456789abcdef";
/** The client waits 1 s before it reconnects (the service sends `retry: 1000`). */
const RECONNECTED = { timeout: 15_000, interval: 20 };

/** A Node server on an SQLite file behind a proxy, and a run two agents work through. */
async function setUp(onTestFinished: (cleanup: () => Promise<void> | void) => void) {
  const folder = temporaryFolder();
  const database = join(folder.path, "edge.db");
  const start = () =>
    startNodeServer({ port: 0, database, adminToken, limits: { rateLimit: false } });
  let server: NodeServer = await start();
  const service: Service = {
    baseUrl: server.url,
    adminToken,
    fetch: (url, init) => fetch(url, init),
    advance: async () => undefined,
    stop: () => server.close(),
  };
  const proxy: CuttingProxy = await startProxy(() => Number(new URL(server.url).port));
  onTestFinished(async () => {
    await proxy.close();
    await server.close();
    folder.remove();
  });
  const { run, admin, agent } = await createRun(
    service,
    runInput([taskStage("draft", { items: 6 }), reviewStage("review", "draft", ["logic"])], {
      lease_ms: 60_000,
    }),
  );
  const agents: Client[] = [await agent("writer"), await agent("critic")];
  const path = `/v1/runs/${run.run_id}/events`;

  /** Events of the run as JSON pages: what the stream must deliver. */
  const events = async (): Promise<CollaborationEvent[]> => {
    const page = await admin.events(run.run_id, { limit: 1000 });
    return page.body.events;
  };
  /** `count` claim → complete cycles (or fewer when the run completes): the run moves on. */
  const work = async (count: number) => {
    for (let done = 0; done < count; ) {
      let claimed = false;
      for (const worker of agents) {
        const claim = await worker.claimNext();
        if (claim.status !== 200) continue;
        const { work_item, lease } = claim.body;
        const body =
          work_item.kind === "task"
            ? artifactCompletion(lease.attempt)
            : reviewCompletion(lease.attempt, ["logic"]);
        const completed = await worker.complete(work_item.id, body);
        if (completed.status !== 200) throw new Error(`completion refused: ${completed.text}`);
        claimed = true;
        done += 1;
        break;
      }
      if (!claimed) return;
    }
  };
  return {
    path,
    proxy,
    events,
    work,
    /** Lets the client reconnect, works the run to its end, and returns all its events. */
    async finish(follower: Follower) {
      follower.release();
      await work(100);
      return events();
    },
    /** Restarts the server on the same database file (it may come back on another port). */
    async restart() {
      await server.close();
      server = await start();
      service.baseUrl = server.url;
    },
  };
}

/** Waits until the client has every event the run has so far. */
async function caughtUp(
  expect: ExpectStatic,
  follower: Follower,
  events: () => Promise<unknown[]>,
) {
  const total = (await events()).length;
  await expect.poll(() => follower.frames.length, RECONNECTED).toBeGreaterThanOrEqual(total);
}

/**
 * The client received exactly `expected`, in order, once each; every frame's `id:` is its seq,
 * its `event:` its type, and its data a valid collaboration-event.v1.
 */
function expectExactly(expect: ExpectStatic, follower: Follower, expected: CollaborationEvent[]) {
  expect(follower.untyped).toEqual([]);
  expect(follower.frames.map((frame) => frame.event.seq)).toEqual(
    expected.map((event) => event.seq),
  );
  expect(follower.frames.map((frame) => frame.event)).toEqual(expected);
  for (const frame of follower.frames) {
    expect(frame.lastEventId).toBe(String(frame.event.seq));
    expect(frame.type).toBe(frame.event.type);
    expectPublished("collaboration-event.v1", frame.event);
  }
}

/** The seq of the frame the proxy cut, from the bytes before the cut. */
const seqOfCut = (before: string) => Number(/\nid: (\d+)\n$/.exec(before)?.[1]);

describe.concurrent("the event stream read by an EventSource (eventsource)", () => {
  it("follows a run as it progresses; killed mid-frame, it resumes with Last-Event-ID and misses or repeats nothing", {
    timeout: 30_000,
  }, async ({ expect, onTestFinished }) => {
    const { path, proxy, events, work, finish } = await setUp(onTestFinished);
    const follower = followEvents(() => proxy.url, path, adminToken);
    onTestFinished(() => follower.close());
    await work(2);
    await caughtUp(expect, follower, events);

    follower.hold();
    const cut = proxy.cutNextFrame();
    await work(1);
    const cutSeq = seqOfCut(await cut);
    await expect.poll(() => follower.requests.length, RECONNECTED).toBe(2);
    // The run goes on while the client is away.
    const before = (await events()).length;
    await work(3);
    const whileAway = (await events()).length - before;
    const all = await finish(follower);
    await caughtUp(expect, follower, events);

    expect(all.at(-1)?.type).toBe("run.completed");
    expectExactly(expect, follower, all);
    expect(whileAway).toBeGreaterThan(10);
    // The first request had no Last-Event-ID; the reconnection sent the id of the last frame
    // the client dispatched, the one before the cut frame (whose id: line it had, but not the
    // blank line that ends a frame): the cut frame was delivered once, after the reconnection.
    expect(follower.requests.map((request) => request.lastEventId)).toEqual([
      undefined,
      String(cutSeq - 1),
    ]);
    expect(follower.requests[1]?.framesBefore).toBe(cutSeq - 1);
    expect(follower.requests[1]?.url).toBe(`${proxy.url}${path}`);
  });

  it("starts after ?after=; resumed with Last-Event-ID on the same URL, Last-Event-ID wins over ?after=", {
    timeout: 30_000,
  }, async ({ expect, onTestFinished }) => {
    const { path, proxy, events, work, finish } = await setUp(onTestFinished);
    await work(2);
    const follower = followEvents(() => proxy.url, `${path}?after=4`, adminToken);
    onTestFinished(() => follower.close());
    await caughtUp(expect, follower, async () => (await events()).slice(4));
    expect(follower.frames[0]?.event.seq).toBe(5);

    follower.hold();
    const cut = proxy.cutNextFrame();
    await work(1);
    const cutSeq = seqOfCut(await cut);
    await expect.poll(() => follower.requests.length, RECONNECTED).toBe(2);
    await work(2);
    const all = await finish(follower);
    await caughtUp(expect, follower, async () => all.slice(4));

    expectExactly(expect, follower, all.slice(4));
    expect(cutSeq).toBeGreaterThan(5);
    expect(follower.requests).toEqual([
      { url: `${proxy.url}${path}?after=4`, lastEventId: undefined, framesBefore: 0 },
      {
        url: `${proxy.url}${path}?after=4`,
        lastEventId: String(cutSeq - 1),
        framesBefore: cutSeq - 5,
      },
    ]);
  });

  it("follows the run across a restart of the server on the same database file", {
    timeout: 30_000,
  }, async ({ expect, onTestFinished }) => {
    const { path, proxy, events, work, finish, restart } = await setUp(onTestFinished);
    const follower = followEvents(() => proxy.url, path, adminToken);
    onTestFinished(() => follower.close());
    await work(2);
    await caughtUp(expect, follower, events);
    const seen = follower.frames.length;

    follower.hold();
    // The server ends its streams when it stops: the client sees its stream end and retries.
    await restart();
    await expect.poll(() => follower.requests.length, RECONNECTED).toBe(2);
    await work(2);
    const all = await finish(follower);
    await caughtUp(expect, follower, events);

    expect(all.at(-1)?.type).toBe("run.completed");
    expectExactly(expect, follower, all);
    expect(follower.requests.map((request) => request.lastEventId)).toEqual([
      undefined,
      String(seen),
    ]);
  });
});
