// Every path goes through core's nodeWorkspace: the refusals are core's, word for word, on real
// files (symbolic links, a FIFO, a sparse 2 GiB file) in a temporary directory.
import { execFileSync, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTEXT_MD_URI, createTaskContextServer } from "./index.ts";
import { connectInMemory, protocolError } from "./test-support/connect.ts";
import { SAGE_XML, toolRefusal } from "./test-support/fixtures.ts";

let root: string;
let outside: string;
let client: Client | undefined;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "task-context-mcp-hostile-")));
  outside = realpathSync(mkdtempSync(join(tmpdir(), "task-context-mcp-outside-")));
  writeFileSync(join(outside, "secret.md"), "the secret");
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  client = await connectInMemory(createTaskContextServer({ workspace: nodeWorkspace(root) }));
  return client;
}

/** core's own refusal of the workspace's CONTEXT.md: the message every surface must give. */
async function coreRefusal(): Promise<{ message: string; code: string }> {
  try {
    await loadTaskContext(nodeWorkspace(root));
  } catch (error) {
    const { message, code } = error as { message: string; code: string };
    return { message, code };
  }
  throw new Error("expected core to refuse CONTEXT.md");
}

/** Each surface that reads CONTEXT.md, with the same refusal. */
async function expectRefusedEverywhere(refusal: { message: string; code: string }) {
  const connected = await connect();
  for (const [name, args] of [
    ["get_task_context", {}],
    ["inject_task_context", { prompt: "Draw." }],
  ] as const) {
    expect(await connected.callTool({ name, arguments: args })).toEqual(
      toolRefusal(refusal.code, refusal.message),
    );
  }
  expect(await protocolError(connected.readResource({ uri: CONTEXT_MD_URI }))).toEqual({
    code: -32602,
    message: refusal.message,
    data: { uri: CONTEXT_MD_URI },
  });
  expect(
    await protocolError(
      connected.getPrompt({ name: "with_task_context", arguments: { request: "Draw." } }),
    ),
  ).toEqual({ code: -32600, message: refusal.message, data: { code: refusal.code } });
  return connected;
}

/**
 * Makes a FIFO with a guard process that opens it read-write after 3 s, so that a read blocked
 * on it would end and fail the test instead of hanging the worker.
 */
function guardedFifo(path: string): () => void {
  execFileSync("mkfifo", [path]);
  const guard = spawn("sh", ["-c", 'sleep 3; exec 3<>"$0"; sleep 0.1', path], {
    stdio: "ignore",
  });
  return () => {
    if (guard.exitCode === null) guard.kill();
  };
}

describe("a hostile workspace on disk", () => {
  it("refuses a CONTEXT.md that is a symbolic link out of the workspace, as core does", async () => {
    symlinkSync(join(outside, "secret.md"), join(root, "CONTEXT.md"));
    const refusal = await coreRefusal();
    expect(refusal.code).toBe("TASK_CONTEXT_MISSING");
    const connected = await expectRefusedEverywhere(refusal);
    const lint = await connected.callTool({ name: "lint_context_md", arguments: {} });
    expect(lint.isError).toBe(true);
    expect(JSON.stringify(lint)).not.toContain("the secret");
  });

  it("refuses a CONTEXT.md under a directory that links out of the workspace", async () => {
    mkdirSync(join(root, ".sage"));
    symlinkSync(outside, join(root, ".sage/context"));
    writeFileSync(join(outside, "T-1.xml"), SAGE_XML);
    const connected = await connect();
    const refused = await protocolError(
      connected.readResource({ uri: "task-context://workspace/sage/T-1" }),
    );
    expect(refused).toEqual({
      code: -32602,
      message:
        'Refused ".sage/context/T-1.xml": it resolves to a location outside the workspace root (through a symbolic link). Keep workspace files as real files inside the workspace.',
      data: { uri: "task-context://workspace/sage/T-1" },
    });
  });

  it("treats a FIFO CONTEXT.md as missing, as core does, without blocking", async () => {
    const stopGuard = guardedFifo(join(root, "CONTEXT.md"));
    try {
      const refusal = await coreRefusal();
      expect(refusal.message).toMatch(/is not a regular file/);
      const connected = await expectRefusedEverywhere(refusal);
      expect(await connected.callTool({ name: "lint_context_md", arguments: {} })).toEqual(
        toolRefusal("TASK_CONTEXT_MISSING", refusal.message),
      );
    } finally {
      stopGuard();
    }
  });

  it("reads a bounded prefix of a huge CONTEXT.md and warns, as core does", async () => {
    const path = join(root, "CONTEXT.md");
    writeFileSync(path, "Lumen is a note-taking app. ".repeat(1_000));
    truncateSync(path, 2 * 1024 ** 3); // sparse: 2 GiB on paper, nothing on disk
    const core = await loadTaskContext(nodeWorkspace(root));
    expect(core.truncated).toBe(true);
    const connected = await connect();
    const result = await connected.callTool({ name: "get_task_context", arguments: {} });
    expect(result.structuredContent).toEqual({
      content: core.content,
      sha256: core.sha256,
      truncated: true,
      originalLength: core.originalLength,
      warning: core.warning,
    });
    const lint = await connected.callTool({ name: "lint_context_md", arguments: {} });
    const issues = (lint.structuredContent as { issues: Array<{ rule: string }> }).issues;
    expect(issues[0]?.rule).toBe("over-limit");
  });

  it("writes nothing into the workspace, whatever is called", async () => {
    writeFileSync(join(root, "CONTEXT.md"), "We are building Lumen.");
    const before = readdirSync(root, { recursive: true }).sort();
    const connected = await connect();
    await connected.callTool({ name: "get_task_context", arguments: {} });
    await connected.callTool({ name: "inject_task_context", arguments: { prompt: "Draw." } });
    await connected.callTool({ name: "lint_context_md", arguments: { text: "# Draft" } });
    await connected.callTool({
      name: "validate",
      arguments: { schema: "context-block.v1", document: {} },
    });
    await connected.getPrompt({ name: "with_task_context", arguments: { request: "Draw." } });
    await connected.readResource({ uri: CONTEXT_MD_URI });
    expect(readdirSync(root, { recursive: true }).sort()).toEqual(before);
    expect(readFileSync(join(root, "CONTEXT.md"), "utf8")).toBe("We are building Lumen.");
  });
});
