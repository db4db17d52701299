import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import { loadTaskContext, TaskContextError } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_BLOCK_URI, CONTEXT_MD_URI } from "./index.ts";
import {
  CONTEXT,
  GET_TASK_CONTEXT_RESULT,
  SAGE_XML,
  toolRefusal,
} from "./test-support/fixtures.ts";
import { BIN, collectUpdates, connectStdio } from "./test-support/stdio-client.ts";

let directory: string;
const clients: Client[] = [];

beforeEach(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-mcp-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  rmSync(directory, { recursive: true, force: true });
});

async function connect(options: { modern?: boolean } = {}): Promise<Client> {
  const { client } = await connectStdio(directory, options);
  clients.push(client);
  return client;
}

/** Longer than the 50 ms debounce many times over: a second notification would have come. */
const SETTLE_MS = 400;

describe("task-context-mcp over stdio (the built bin, spawned)", () => {
  it.each([
    ["the 2025 handshake", false],
    ["the 2026-07-28 revision", true],
  ])("lists tools and resources and calls get_task_context (%s)", async (_era, modern) => {
    const client = await connect({ modern });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "get_task_context",
      "inject_task_context",
      "validate",
      "lint_context_md",
    ]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      CONTEXT_MD_URI,
      CONTEXT_BLOCK_URI,
    ]);
    // The 2026-07-28 revision adds the server's identity in _meta; the result is the same.
    const { content, structuredContent } = await client.callTool({
      name: "get_task_context",
      arguments: {},
    });
    expect({ content, structuredContent }).toEqual(GET_TASK_CONTEXT_RESULT);
  });

  it("serves on the machine's own Node (20 here), not only the toolchain's", async () => {
    const specifier = new URL("../../../scripts/system-node.mjs", import.meta.url).href;
    const { systemNode } = (await import(specifier)) as { systemNode: () => string };
    const node = systemNode();
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    expect(version).toMatch(/^v(2[0-9])\./);
    const { client } = await connectStdio(directory, { node });
    clients.push(client);
    const { content } = await client.callTool({ name: "get_task_context", arguments: {} });
    expect(content).toEqual(GET_TASK_CONTEXT_RESULT.content);
  });

  it("lists the Sage documents on disk and reads one", async () => {
    mkdirSync(join(directory, ".sage/context"), { recursive: true });
    writeFileSync(join(directory, ".sage/context/T-1.xml"), SAGE_XML);
    writeFileSync(join(directory, ".sage/context/notes.txt"), "not a document");
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(
      "task-context://workspace/sage/T-1",
    );
    expect(resources).toHaveLength(3);
    const { contents } = await client.readResource({ uri: "task-context://workspace/sage/T-1" });
    expect(contents[0]).toMatchObject({ text: SAGE_XML });
  });

  it("lists no Sage documents through a .sage that links out of the workspace", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "task-context-outside-")));
    try {
      mkdirSync(join(outside, "context"));
      writeFileSync(join(outside, "context/T-1.xml"), SAGE_XML);
      symlinkSync(outside, join(directory, ".sage"));
      const client = await connect();
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual([
        CONTEXT_MD_URI,
        CONTEXT_BLOCK_URI,
      ]);
      await expect(
        client.readResource({ uri: "task-context://workspace/sage/T-1" }),
      ).rejects.toThrow(/outside the workspace root/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("puts the directory's real path in the context block", async () => {
    mkdirSync(join(directory, "docs"));
    writeFileSync(join(directory, "docs/project.json"), '{"stack": "hono"}');
    writeFileSync(join(directory, "docs/CONVENTIONS.md"), "ESM only.\n");
    const client = await connect();
    const { contents } = await client.readResource({ uri: CONTEXT_BLOCK_URI });
    expect(contents[0]).toMatchObject({
      text: `<context>\nversion: 1\nproject:\n  path: ${directory}\n  stack: hono\nconventions:\n  summary: ESM only.\n  fullPath: ${directory}/docs/CONVENTIONS.md\n</context>`,
    });
  });

  it("refuses a CONTEXT.md that is a symbolic link out of the workspace, as core does", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "task-context-outside-")));
    try {
      writeFileSync(join(outside, "secret.md"), "the secret");
      rmSync(join(directory, "CONTEXT.md"));
      symlinkSync(join(outside, "secret.md"), join(directory, "CONTEXT.md"));
      const core = await loadTaskContext(nodeWorkspace(directory)).catch(
        (error: TaskContextError) => error,
      );
      expect(TaskContextError.isInstance(core)).toBe(true);
      const { code, message } = core as TaskContextError;
      const client = await connect();
      const result = await client.callTool({ name: "get_task_context", arguments: {} });
      expect(result).toEqual(toolRefusal(code, message));
      expect(JSON.stringify(result)).not.toContain("the secret");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("notifies a 2025-era subscriber once per burst of edits, and not after unsubscribing", async () => {
    const client = await connect();
    const updates = collectUpdates(client);
    await client.subscribeResource({ uri: CONTEXT_MD_URI });
    const first = updates.next();
    const started = performance.now();
    for (let edit = 1; edit <= 5; edit++) writeFileSync(join(directory, "CONTEXT.md"), `v${edit}`);
    const writing = performance.now() - started;
    expect(await first).toBe(CONTEXT_MD_URI);
    await sleep(SETTLE_MS);
    // One burst is edits closer together than the server's 50 ms quiet period. On a machine so
    // busy that this process was held up longer than that between two writes, they were two
    // bursts, and two notifications are right.
    expect(new Set(updates.uris)).toEqual(new Set([CONTEXT_MD_URI]));
    expect(updates.uris.length).toBeLessThanOrEqual(writing < 50 ? 1 : 5);
    const [content] = (await client.readResource({ uri: CONTEXT_MD_URI })).contents;
    expect(content).toMatchObject({ text: "v5" });

    const notified = updates.uris.length;
    await client.unsubscribeResource({ uri: CONTEXT_MD_URI });
    writeFileSync(join(directory, "CONTEXT.md"), "v6");
    await sleep(SETTLE_MS);
    expect(updates.uris.length).toBe(notified);
  });

  it("notifies a 2026-07-28 listen stream once per burst, also for a rename over the file", async () => {
    const client = await connect({ modern: true });
    const updates = collectUpdates(client);
    const subscription = await client.listen({ resourceSubscriptions: [CONTEXT_MD_URI] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [CONTEXT_MD_URI] });
    const first = updates.next();
    writeFileSync(join(directory, "CONTEXT.md.tmp"), "saved by an editor");
    renameSync(join(directory, "CONTEXT.md.tmp"), join(directory, "CONTEXT.md"));
    expect(await first).toBe(CONTEXT_MD_URI);
    await sleep(SETTLE_MS);
    expect(updates.uris).toEqual([CONTEXT_MD_URI]);
    const second = updates.next();
    writeFileSync(join(directory, "CONTEXT.md"), "second burst");
    expect(await second).toBe(CONTEXT_MD_URI);
    await subscription.close();
  });

  it("accepts a subscription to another resource, and never notifies for it", async () => {
    const client = await connect();
    const updates = collectUpdates(client);
    expect(await client.subscribeResource({ uri: CONTEXT_BLOCK_URI })).toEqual({});
    writeFileSync(join(directory, "CONTEXT.md"), "changed");
    await sleep(SETTLE_MS);
    expect(updates.uris).toEqual([]);
  });

  it("exits with 2 and says why when the directory does not exist", () => {
    const result = spawnSync(process.execPath, [BIN, join(directory, "nope")], {
      encoding: "utf8",
      input: "",
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `task-context-mcp: Invalid directory: ${JSON.stringify(join(directory, "nope"))} is not a directory. Give the workspace directory that holds CONTEXT.md.\n`,
    );
  });

  it("exits when the client closes stdin", () => {
    const result = spawnSync(process.execPath, [BIN, directory], { input: "", timeout: 20_000 });
    expect(result.status).toBe(0);
    expect(result.stdout.length).toBe(0);
  });
});
