import { memoryWorkspace, type Workspace } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { parseContextBlock } from "./context-block/parse-context-block.ts";
import { readFullConventions } from "./context-block/read-full-conventions.ts";
import { resolveContextBlock } from "./context-block/resolve-context-block.ts";
import { lintContextMd } from "./context-md/lint-context-md.ts";
import { generateContext } from "./sage/generate-context.ts";
import { loadContextLimits } from "./sage/load-context-limits.ts";
import { parseSubagentContext } from "./sage/parse-subagent-context.ts";
import { renderSubagentContext } from "./sage/render-subagent-context.ts";
import type { SubagentContext } from "./schemas/subagent-context.ts";

// Every public function checks its arguments before it reads, writes or parses anything, and
// says which argument is wrong: ArgumentError, code INVALID_ARGUMENT, `argument` set.

const refused = (argument: string) =>
  expect.objectContaining({ code: "INVALID_ARGUMENT", argument });
const block = { project: { path: "/srv/app", stack: "hono" }, conventions: { summary: "s" } };
const workspace = memoryWorkspace({ "docs/CONVENTIONS.md": "ESM only." });
const notAWorkspace = [null, undefined, "/srv/app", {}, { readFile: "yes" }];

describe("lintContextMd", () => {
  it.each([null, undefined, 42, ["# Task context"], { text: "" }])(
    "refuses the text %j",
    (text) => {
      expect(() => lintContextMd(text as unknown as string)).toThrow(refused("text"));
    },
  );

  it.each([0, -1, 1.5, Number.NaN, "10000", null])("refuses maxChars %j", (maxChars) => {
    expect(() => lintContextMd("# x", { maxChars: maxChars as number })).toThrow(
      refused("maxChars"),
    );
  });

  it("refuses options that are not an object", () => {
    expect(() => lintContextMd("# x", null as unknown as object)).toThrow(refused("options"));
  });

  it("lints a 5 MB file with a forged key and a NUL byte without failing", () => {
    const text = `# Task context\n\n## What we are building\nx\u0000\n\n## Key terminology\napi_key = ${"aB3".repeat(14)}\n${"word ".repeat(1_000_000)}`;
    const result = lintContextMd(text);
    expect(result.ok).toBe(false);
    const problems = result.issues.filter((issue) => issue.severity !== "info");
    expect(problems.map((issue) => issue.rule).sort()).toEqual(["over-limit", "secret"]);
  });
});

describe("readFullConventions", () => {
  it.each([null, undefined, "block", { project: null, conventions: {} }, { conventions: {} }])(
    "refuses the block %j",
    async (bad) => {
      await expect(readFullConventions(bad as unknown as typeof block, workspace)).rejects.toThrow(
        refused("block.project.path"),
      );
    },
  );

  it("refuses a block without conventions, or with a fullPath that is not text", async () => {
    const noConventions = { project: block.project } as typeof block;
    await expect(readFullConventions(noConventions, workspace)).rejects.toThrow(
      refused("block.conventions"),
    );
    const badPath = {
      ...block,
      conventions: { summary: "s", fullPath: 7 },
    } as unknown as typeof block;
    await expect(readFullConventions(badPath, workspace)).rejects.toThrow(
      refused("block.conventions.fullPath"),
    );
  });

  it.each(notAWorkspace)("refuses the workspace %j", async (bad) => {
    await expect(readFullConventions(block, bad as unknown as Workspace)).rejects.toThrow(
      refused("workspace"),
    );
  });

  it.each([0, -5, 2.5, "64"])("refuses maxBytes %j", async (maxBytes) => {
    await expect(
      readFullConventions(block, workspace, { maxBytes: maxBytes as number }),
    ).rejects.toThrow(refused("maxBytes"));
  });
});

describe("resolveContextBlock", () => {
  it.each(notAWorkspace)("refuses the workspace %j", async (bad) => {
    await expect(resolveContextBlock("Go.", bad as unknown as Workspace)).rejects.toThrow(
      refused("workspace"),
    );
  });

  it.each([
    [{ projectJsonPath: "" }, "projectJsonPath"],
    [{ conventionsPath: 5 }, "conventionsPath"],
    [{ maxFileBytes: 0 }, "maxFileBytes"],
    [{ maxBytes: -1 }, "maxBytes"],
    [{ tokenizer: "o200k" }, "tokenizer"],
  ])("refuses the options %j", async (options, argument) => {
    await expect(
      resolveContextBlock("Go.", workspace, options as Parameters<typeof resolveContextBlock>[2]),
    ).rejects.toThrow(refused(argument));
  });

  it.each([null, 42, { prompt: "Go." }])("refuses the prompt %j", async (prompt) => {
    await expect(resolveContextBlock(prompt as unknown as string, workspace)).rejects.toThrow(
      refused("prompt"),
    );
  });
});

describe("the tokenizer option", () => {
  // The check is core's, shared by every package: one shape, one message.
  const message =
    "Invalid tokenizer: expected a Tokenizer with count and truncate (approximateTokenizer, o200kTokenizer or your own), got a string.";

  it.each([
    ["parseContextBlock", () => parseContextBlock("Go.", { tokenizer: "o200k" as never })],
    [
      "generateContext",
      () =>
        generateContext(
          { taskId: "t1", subagentType: "implement", taskData: { description: "d" } },
          { workspace: memoryWorkspace(), tokenizer: "o200k" as never },
        ),
    ],
  ])("%s refuses a tokenizer that is not one, with core's message", async (_, call) => {
    await expect(async () => call()).rejects.toThrow(refused("tokenizer"));
    await expect(async () => call()).rejects.toThrow(message);
  });
});

describe("loadContextLimits", () => {
  it.each(notAWorkspace)("refuses the workspace %j", async (bad) => {
    await expect(loadContextLimits(bad as unknown as Workspace)).rejects.toThrow(
      refused("workspace"),
    );
  });

  it.each([null, 3, "", "Review", "__proto__"])("refuses the subagent type %j", async (type) => {
    await expect(loadContextLimits(workspace, type as "review")).rejects.toThrow(
      refused("subagentType"),
    );
  });
});

describe("parseSubagentContext and renderSubagentContext", () => {
  it.each([null, undefined, 42, {}, ["<subagent-context/>"]])("parse refuses %j", (xml) => {
    expect(() => parseSubagentContext(xml as unknown as string)).toThrow(refused("xml"));
  });

  it.each([null, undefined, "<subagent-context/>", 7])("render refuses %j", (doc) => {
    expect(() => renderSubagentContext(doc as unknown as SubagentContext)).toThrow(refused("doc"));
  });

  it("refuses a 10 MB document of nested elements as invalid, not with a crash", () => {
    const xml = `<subagent-context version="1.0">${"<task>".repeat(1_000_000)}`;
    expect(() => parseSubagentContext(xml)).toThrow(
      expect.objectContaining({ code: "INVALID_SUBAGENT_CONTEXT" }),
    );
  });
});
