import { mkdtempSync, realpathSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_MD_URI, createTaskContextServer } from "./index.ts";
import { type TaskContextWatcher, watchTaskContext } from "./stdio.ts";
import { connectInMemory, connectToHandler } from "./test-support/connect.ts";
import { collectUpdates } from "./test-support/stdio-client.ts";
import { inotifyWatches } from "./test-support/watch-handles.ts";

let directory: string;
beforeEach(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-watch-")));
  writeFileSync(join(directory, "CONTEXT.md"), "v0");
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Resolves on the next call of a listener; counts every call. */
function counter() {
  let calls = 0;
  let wake: (() => void) | undefined;
  return {
    listener: () => {
      calls++;
      wake?.();
      wake = undefined;
    },
    get calls() {
      return calls;
    },
    next: () => new Promise<void>((resolve) => (wake = resolve)),
  };
}

const SETTLE_MS = 300;

/** No listener left, no watch open: the kernel holds no more inotify watches than before. */
function expectNothingWatched(watcher: TaskContextWatcher, baseline: number) {
  expect({
    listeners: watcher.listenerCount,
    watching: watcher.watching,
    watches: inotifyWatches(),
  }).toEqual({ listeners: 0, watching: false, watches: baseline });
}

describe("watchTaskContext", () => {
  it("calls each listener once per burst of edits, and only for CONTEXT.md", async () => {
    const watcher = watchTaskContext(directory);
    const first = counter();
    const second = counter();
    const stopFirst = watcher.subscribe(first.listener);
    watcher.subscribe(second.listener);
    const called = first.next();
    for (let edit = 1; edit <= 20; edit++) writeFileSync(join(directory, "CONTEXT.md"), `v${edit}`);
    await called;
    writeFileSync(join(directory, "notes.md"), "not the context");
    await sleep(SETTLE_MS);
    expect([first.calls, second.calls]).toEqual([1, 1]);
    stopFirst();
    const again = second.next();
    writeFileSync(join(directory, "CONTEXT.md"), "v21");
    await again;
    expect([first.calls, second.calls]).toEqual([1, 2]);
    watcher.close();
  });

  it("counts an edit that arrived while the process was held up as part of the burst", async () => {
    const watcher = watchTaskContext(directory, { debounceMs: 50 });
    const changes = counter();
    watcher.subscribe(changes.listener);
    // A second watch, told of the first edit after the watcher: once the file events are read, it
    // edits again and holds the process up past the quiet period, so the watcher's timer is
    // overdue before the second edit is read.
    let heldUp = false;
    const holder = watch(directory, () => {
      if (heldUp) return;
      heldUp = true;
      setImmediate(() => {
        writeFileSync(join(directory, "CONTEXT.md"), "v2");
        const until = Date.now() + 120;
        while (Date.now() < until) {
          // busy: the event loop cannot run
        }
      });
    });
    const called = changes.next();
    writeFileSync(join(directory, "CONTEXT.md"), "v1");
    await called;
    // Then no second call for the held-up edit (a quiet moment can only show what did not come).
    await sleep(SETTLE_MS);
    holder.close();
    expect({ heldUp, calls: changes.calls }).toEqual({ heldUp: true, calls: 1 });
    watcher.close();
  });

  it("opens one watch with the first listener and closes it with the last", () => {
    const baseline = inotifyWatches();
    const watcher = watchTaskContext(directory);
    expect([watcher.watching, inotifyWatches()]).toEqual([false, baseline]);
    const stops = Array.from({ length: 10 }, () => watcher.subscribe(() => {}));
    expect([watcher.watching, watcher.listenerCount, inotifyWatches()]).toEqual([
      true,
      10,
      baseline + 1,
    ]);
    for (const stop of stops) stop();
    stops[0]?.(); // idempotent
    expectNothingWatched(watcher, baseline);
    watcher.close();
  });

  it("tells its listeners once when the directory goes away, then stops watching", async () => {
    const watcher = watchTaskContext(directory);
    const listener = counter();
    watcher.subscribe(listener.listener);
    const called = listener.next();
    rmSync(directory, { recursive: true, force: true });
    await called;
    await sleep(SETTLE_MS);
    expect(listener.calls).toBe(1);
    watcher.close();
    expect(watcher.watching).toBe(false);
  });

  it("refuses a listener after close, a missing directory and bad options", () => {
    const watcher = watchTaskContext(directory);
    watcher.close();
    expect(() => watcher.subscribe(() => {})).toThrow(
      "Invalid watcher: this watcher was closed; create another with watchTaskContext(directory).",
    );
    expect(() => watchTaskContext(join(directory, "nope")).subscribe(() => {})).toThrow(/ENOENT/);
    expect(() => watchTaskContext("")).toThrow(/^Invalid directory/);
    expect(() => watchTaskContext(directory, { debounceMs: -1 })).toThrow(
      /^Invalid options\.debounceMs/,
    );
  });
});

describe("subscriptions over many clients", () => {
  it("leaves no watcher behind when 1 000 clients connect, subscribe and disconnect", async () => {
    const watcher = watchTaskContext(directory);
    const workspace = nodeWorkspace(directory);
    const baseline = inotifyWatches();
    for (let index = 0; index < 1_000; index++) {
      const client = await connectInMemory(
        createTaskContextServer({ workspace, changes: watcher }),
      );
      await client.subscribeResource({ uri: CONTEXT_MD_URI });
      expect(inotifyWatches()).toBe(baseline + 1);
      await client.close();
    }
    expectNothingWatched(watcher, baseline);
    watcher.close();
  });

  it("leaves no watcher behind after 1 000 2026-07-28 requests, each served by its own instance", async () => {
    const watcher = watchTaskContext(directory);
    const workspace = nodeWorkspace(directory);
    const baseline = inotifyWatches();
    // Each modern instance listens while connected: here, for the one request it serves.
    const handler = createMcpHandler((context) =>
      createTaskContextServer({ workspace, changes: watcher, era: context.era }),
    );
    const client = await connectToHandler(handler);
    for (let index = 0; index < 1_000; index++) {
      await client.callTool({ name: "get_task_context", arguments: {} });
    }
    await client.close();
    await handler.close();
    expectNothingWatched(watcher, baseline);
    watcher.close();
  });

  it("notifies 1 000 subscribed clients once each per burst, over one watch", async () => {
    const watcher = watchTaskContext(directory);
    const workspace = nodeWorkspace(directory);
    const baseline = inotifyWatches();
    const clients: Client[] = [];
    const updates: Array<ReturnType<typeof collectUpdates>> = [];
    for (let index = 0; index < 1_000; index++) {
      const client = await connectInMemory(
        createTaskContextServer({ workspace, changes: watcher }),
      );
      updates.push(collectUpdates(client));
      await client.subscribeResource({ uri: CONTEXT_MD_URI });
      clients.push(client);
    }
    expect([watcher.listenerCount, inotifyWatches()]).toEqual([1_000, baseline + 1]);
    const all = Promise.all(updates.map((update) => update.next()));
    for (let edit = 1; edit <= 10; edit++) writeFileSync(join(directory, "CONTEXT.md"), `v${edit}`);
    await all;
    await sleep(SETTLE_MS);
    expect(new Set(updates.map((update) => update.uris.length))).toEqual(new Set([1]));
    await Promise.all(clients.map((client) => client.close()));
    expectNothingWatched(watcher, baseline);
    watcher.close();
  });
});
