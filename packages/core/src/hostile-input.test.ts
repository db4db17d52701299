// Bad input a new user might send: wrong types, empty values, limits that leave nothing, forged
// context. Each gets a typed error (or the real context), never a crash, a read of the wrong
// directory, or a prompt sent without context.
import { link, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  approximateTokenizer,
  defineContextTool,
  injectTaskContext,
  loadTaskContext,
  memoryWorkspace,
  splitTaskContext,
  type Workspace,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { o200kTokenizer } from "@task-context/core/o200k";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "task-context-hostile-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const invalidArgument = (argument: string) => ({ code: "INVALID_ARGUMENT", argument });

describe("arguments of the wrong type or empty", () => {
  it.each([
    ["the empty string", ""],
    ["null", null],
    ["a number", 42],
    ["undefined", undefined],
    ["an object without readFile", {}],
  ])(
    "loadTaskContext refuses %s as a workspace before touching the file system",
    async (_, value) => {
      await expect(loadTaskContext(value as unknown as Workspace)).rejects.toMatchObject(
        invalidArgument("workspace"),
      );
    },
  );

  it("loadTaskContext refuses options that are not an object, a tokenizer that is not one, a required that is not a boolean", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": "x" });
    await expect(loadTaskContext(workspace, null as never)).rejects.toMatchObject(
      invalidArgument("options"),
    );
    await expect(
      loadTaskContext(workspace, { maxTokens: 5, tokenizer: {} as never }),
    ).rejects.toMatchObject(invalidArgument("tokenizer"));
    for (const required of [0, "no", null]) {
      await expect(
        loadTaskContext(memoryWorkspace(), { required: required as never }),
      ).rejects.toMatchObject(invalidArgument("required"));
    }
  });

  it("workspace reads refuse options that are not an object, as a typed error", async () => {
    for (const workspace of [memoryWorkspace({ a: "b" }), nodeWorkspace(root)]) {
      await expect(workspace.readFile("a", null as never)).rejects.toMatchObject(
        invalidArgument("options"),
      );
    }
    expect(() => nodeWorkspace(root, { allowHardLinks: "yes" as never })).toThrow(
      expect.objectContaining(invalidArgument("options.allowHardLinks")),
    );
  });

  it.each([
    ["", "the empty string"],
    [null, "null"],
    [7, "a number (7)"],
  ])(
    "nodeWorkspace refuses %j as a root instead of using the working directory",
    (value, shown) => {
      expect(() => nodeWorkspace(value as unknown as string)).toThrow(
        `Invalid root: expected the workspace directory, a non-empty path, got ${shown}.`,
      );
    },
  );

  it("memoryWorkspace refuses files that are not an object of strings or bytes", () => {
    expect(() => memoryWorkspace(null as never)).toThrow(/Invalid files: .* got null\./);
    expect(() => memoryWorkspace({ "CONTEXT.md": 5 as never })).toThrow(
      'Invalid content of "CONTEXT.md": expected the file\'s content as a string or a Uint8Array, got a number (5).',
    );
  });

  it("workspace writes refuse data that is neither a string nor bytes, writing nothing", async () => {
    for (const workspace of [memoryWorkspace(), nodeWorkspace(root)]) {
      await expect(workspace.writeFile("a.md", undefined as never)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      await expect(workspace.readFile("a.md")).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
    }
  });

  it("injectTaskContext refuses a prompt that is not a string instead of sending the text undefined", () => {
    for (const prompt of [undefined, null, 42, { text: "hi" }]) {
      expect(() => injectTaskContext(prompt as never, "Building Lumen.")).toThrow(
        expect.objectContaining(invalidArgument("prompt")),
      );
    }
    expect(() => injectTaskContext("hi", 42 as never)).toThrow(
      expect.objectContaining(invalidArgument("context")),
    );
    expect(() => splitTaskContext(undefined as never)).toThrow(
      expect.objectContaining(invalidArgument("text")),
    );
  });

  it("tokenizers refuse text that is not a string", () => {
    for (const tokenizer of [approximateTokenizer, o200kTokenizer]) {
      expect(() => tokenizer.count(null as never)).toThrow(
        expect.objectContaining(invalidArgument("text")),
      );
      expect(() => tokenizer.truncate(undefined as never, 5)).toThrow(
        expect.objectContaining(invalidArgument("text")),
      );
    }
  });

  it("a context tool answers bad call options with a result, never a throw", async () => {
    const tool = defineContextTool({
      name: "t",
      description: "d",
      parameters: {},
      workspace: memoryWorkspace({ "CONTEXT.md": "Lumen." }),
      execute: () => ({ text: "ok" }),
    });
    expect(await tool.execute({}, null as never)).toStrictEqual({
      success: false,
      error: "Invalid options: expected an object, got null.",
      code: "INVALID_ARGUMENT",
    });
    expect(await tool.execute({}, { workspace: "/tmp" as never })).toMatchObject({
      success: false,
      code: "INVALID_ARGUMENT",
    });
  });

  it("a context tool's success is its own verdict, and execute must return an object", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": "Lumen." });
    const base = { name: "t", description: "d", parameters: {}, workspace };
    const lying = defineContextTool({ ...base, execute: () => ({ success: false, text: "ok" }) });
    expect(await lying.execute({})).toStrictEqual({ success: true, text: "ok" });
    const text = defineContextTool({ ...base, execute: () => "ok" as never });
    expect(await text.execute({})).toStrictEqual({
      success: false,
      error: "t failed: execute returned a string instead of an object",
      code: "TOOL_EXECUTION_FAILED",
    });
  });

  it("a context tool reports an operating-system error by its code, without its paths", async () => {
    const { readFile } = await import("node:fs/promises");
    const tool = defineContextTool({
      name: "t",
      description: "d",
      parameters: {},
      workspace: memoryWorkspace({ "CONTEXT.md": "Lumen." }),
      execute: async () => ({ text: await readFile("/nonexistent/secret/path", "utf8") }),
    });
    expect(await tool.execute({})).toStrictEqual({
      success: false,
      error: "t failed: the operating system refused open (ENOENT)",
      code: "TOOL_EXECUTION_FAILED",
    });
  });

  it("defineContextTool refuses loader options it could never use, when the tool is defined", () => {
    expect(() =>
      defineContextTool({
        name: "t",
        description: "d",
        parameters: {},
        load: { maxChars: -1 },
        execute: () => ({}),
      }),
    ).toThrow(expect.objectContaining(invalidArgument("definition.load.maxChars")));
  });

  it("defineContextTool refuses a definition without a name or an execute function", () => {
    const base = { name: "t", description: "d", parameters: {}, execute: () => ({}) };
    expect(() => defineContextTool({ ...base, name: "" })).toThrow(
      expect.objectContaining(invalidArgument("definition.name")),
    );
    expect(() => defineContextTool({ ...base, execute: undefined as never })).toThrow(
      expect.objectContaining(invalidArgument("definition.execute")),
    );
    expect(() => defineContextTool({ ...base, workspace: "/tmp" as never })).toThrow(
      expect.objectContaining(invalidArgument("definition.workspace")),
    );
  });
});

describe("limits that would leave nothing to deliver", () => {
  it("fails like a missing file when the first grapheme cluster is longer than maxChars", async () => {
    // One grapheme cluster of 20 001 units: a letter and 20 000 combining marks.
    const cluster = `e${"\u0301".repeat(20_000)} and more`;
    const workspace = memoryWorkspace({ "CONTEXT.md": cluster });
    const detail =
      "CONTEXT.md exists, but nothing of it fits the configured limits: its first character or token is larger than maxChars or maxTokens allow, or more whitespace than the limits read comes before its text. Start it with ordinary text, or raise the limits.";
    await expect(loadTaskContext(workspace)).rejects.toMatchObject({
      code: "TASK_CONTEXT_MISSING",
      reason: "nothing-fits",
      message: `CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.\n${detail}`,
    });
    // Optional context: nothing is delivered, and the result says why.
    expect(await loadTaskContext(workspace, { required: false })).toMatchObject({
      found: false,
      content: "",
      warning: `No task context was delivered: ${detail}`,
    });
  });

  it("a context tool does not run, and sends nothing, when nothing fits", async () => {
    let calls = 0;
    const tool = defineContextTool({
      name: "describe",
      description: "d",
      parameters: {},
      workspace: memoryWorkspace({ "CONTEXT.md": `🏳️‍🌈${"\u200d🌈".repeat(40)}` }),
      load: { maxChars: 8 },
      execute: () => {
        calls++;
        return {};
      },
    });
    expect(await tool.execute({})).toMatchObject({ success: false, code: "TASK_CONTEXT_MISSING" });
    expect(calls).toBe(0);
  });

  it("keeps the longest prefix of a first word that is longer than the token budget", async () => {
    const word = "Supercalifragilisticexpialidocious".repeat(20);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": `${word} rest` }), {
      maxTokens: 3,
      tokenizer: approximateTokenizer,
    });
    expect(context.content.length).toBeGreaterThan(0);
    expect(word.startsWith(context.content)).toBe(true);
    expect(approximateTokenizer.count(context.content)).toBeLessThanOrEqual(3);
    // One more letter would not fit.
    expect(approximateTokenizer.count(word.slice(0, context.content.length + 1))).toBeGreaterThan(
      3,
    );
    expect(approximateTokenizer.truncate(word, 1)).toBe(word.slice(0, 8));
  });

  it("keeps the longest fitting prefix of a long word with the exact tokenizer", async () => {
    const run = "a".repeat(10_000);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": run }), {
      maxTokens: 100,
      tokenizer: o200kTokenizer,
    });
    expect(context.content).toBe("a".repeat(context.content.length));
    expect(o200kTokenizer.count(context.content)).toBeLessThanOrEqual(100);
    expect(o200kTokenizer.count(`${context.content}a`)).toBeGreaterThan(100);
  });

  it("gives the same answer from its cache when the same file is loaded again", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": "b".repeat(5_000) });
    const options = { maxTokens: 40, tokenizer: o200kTokenizer };
    const first = await loadTaskContext(workspace, options);
    const second = await loadTaskContext(workspace, options);
    expect(second).toStrictEqual(first);
    await workspace.writeFile("CONTEXT.md", "c".repeat(5_000));
    expect((await loadTaskContext(workspace, options)).content).toBe(
      "c".repeat(first.content.length),
    );
  });
});

describe("nothing the model sends may pose as the context", () => {
  it.each(["task_context", "taskContext", "TaskContext", "task-context", "warning"])(
    "drops a model-supplied %s and hands execute the real context",
    async (name) => {
      let received: Record<string, unknown> = {};
      const tool = defineContextTool({
        name: "describe",
        description: "d",
        parameters: { type: "object", properties: { prompt: { type: "string" } } },
        workspace: memoryWorkspace({ "CONTEXT.md": "Lumen is a note-taking app." }),
        execute: (input: Record<string, unknown>) => {
          received = input;
          return {};
        },
      });
      await tool.execute({ prompt: "hi", [name]: "Lumen is a hospital." });
      expect(received).toStrictEqual({
        prompt: "hi",
        taskContext: "Lumen is a note-taking app.",
        warning: undefined,
      });
    },
  );
});

describe("nodeWorkspace: operating-system errors and hard links", () => {
  it("maps ENAMETOOLONG on read and write to WorkspaceIoError without the absolute root", async () => {
    const workspace = nodeWorkspace(root);
    const path = `${"n".repeat(300)}.md`;
    for (const attempt of [workspace.readFile(path), workspace.writeFile(path, "x")]) {
      await expect(attempt).rejects.toMatchObject({
        code: "WORKSPACE_IO_ERROR",
        systemCode: "ENAMETOOLONG",
        path,
      });
      await expect(attempt).rejects.toSatisfy(
        (error: Error) => !error.message.includes(root) && error.cause === undefined,
      );
    }
  });

  it("refuses a hard link to a file outside the workspace, and reads it only when allowed", async () => {
    const outside = await mkdtemp(join(tmpdir(), "task-context-outside-"));
    try {
      await writeFile(join(outside, "secret.txt"), "SECRET");
      await link(join(outside, "secret.txt"), join(root, "CONTEXT.md"));
      await expect(nodeWorkspace(root).readFile("CONTEXT.md")).rejects.toMatchObject({
        code: "WORKSPACE_ESCAPE",
        route: "hard-link",
      });
      await expect(loadTaskContext(root)).rejects.toMatchObject({ code: "WORKSPACE_ESCAPE" });
      const allowed = await nodeWorkspace(root, { allowHardLinks: true }).readFile("CONTEXT.md");
      expect(new TextDecoder().decode(allowed.bytes)).toBe("SECRET");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("replacing a hard-linked file by a write leaves the other name untouched", async () => {
    const outside = await mkdtemp(join(tmpdir(), "task-context-outside-"));
    try {
      await writeFile(join(outside, "secret.txt"), "SECRET");
      await link(join(outside, "secret.txt"), join(root, "notes.md"));
      await nodeWorkspace(root).writeFile("notes.md", "mine");
      const { readFile } = await import("node:fs/promises");
      expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("SECRET");
      expect(await readFile(join(root, "notes.md"), "utf8")).toBe("mine");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
