// The probe as a library: a canary in a throwaway copy, each built-in path judged on what arrived.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AI_SDK_PATHS,
  aiSdkPaths,
  childProcessSubagentPath,
  functionRunnerSubagentPath,
  judgeDelivery,
  mcpServerPath,
  PROBE_REQUEST,
  type ProbePath,
  plantCanary,
  probePassed,
  probePaths,
} from "../src/probe/index.ts";
import { CONTEXT, workspace } from "./probe-workspace.ts";

const HEX64 = /^[0-9a-f]{64}$/;

describe("plantCanary", () => {
  it("copies the workspace with the canary first, last and below each heading, and leaves the original alone", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": `\n${CONTEXT}\n`, "notes.md": "n" });
    const canary = await plantCanary(directory);
    try {
      expect(canary.token).toMatch(/^[0-9a-f]{32}$/);
      expect(canary.first).toBe(`task-context canary ${canary.token} begin`);
      expect(canary.last).toBe(`task-context canary ${canary.token} end`);
      const section = (n: number) => `task-context canary ${canary.token} section ${n}`;
      expect(canary.sections).toStrictEqual([
        { heading: "Goal", line: section(1) },
        { heading: "Key terms", line: section(2) },
      ]);
      expect(readFileSync(join(canary.directory, "CONTEXT.md"), "utf8")).toBe(
        [
          canary.first,
          "",
          "# Goal",
          section(1),
          "Ship Lumen's export menu.",
          "",
          "# Key terms",
          section(2),
          "- **Lumen**: the product.",
          "",
          canary.last,
          "",
        ].join("\n"),
      );
      expect(readFileSync(join(canary.directory, "notes.md"), "utf8")).toBe("n");
      expect(readFileSync(join(directory, "CONTEXT.md"), "utf8")).toBe(`\n${CONTEXT}\n`);
    } finally {
      await canary.remove();
    }
    expect(() => readFileSync(join(canary.directory, "notes.md"))).toThrow(/ENOENT/);
  });
});

describe("judgeDelivery", () => {
  const canary = {
    token: "ab",
    first: "task-context canary ab begin",
    last: "task-context canary ab end",
  };

  it("is verbatim when both lines arrive whole, CRLF line breaks included", () => {
    expect(judgeDelivery("p", canary, `${canary.first}\r\nx\r\n${canary.last}`)).toStrictEqual({
      path: "p",
      received: true,
      verbatim: true,
      truncated: false,
    });
  });

  it("is truncated when one end arrives without the other", () => {
    expect(judgeDelivery("p", canary, `x\n${canary.last}`)).toStrictEqual({
      path: "p",
      received: true,
      verbatim: false,
      truncated: true,
      reason: "the top of CONTEXT.md did not arrive, only its end",
    });
    expect(judgeDelivery("p", canary, `${canary.first}\nx`)).toStrictEqual({
      path: "p",
      received: true,
      verbatim: false,
      truncated: true,
      reason: "the end of CONTEXT.md did not arrive, only its top",
    });
  });

  it("is truncated when only part of one line arrives, and not verbatim when both arrive changed", () => {
    expect(judgeDelivery("p", canary, "ary ab end\n")).toStrictEqual({
      path: "p",
      received: true,
      verbatim: false,
      truncated: true,
      reason: "a canary line arrived cut through",
    });
    expect(judgeDelivery("p", canary, `> ${canary.first}\n> ${canary.last}`)).toStrictEqual({
      path: "p",
      received: true,
      verbatim: false,
      truncated: false,
      reason: "the canary lines arrived changed, not verbatim",
    });
  });

  it("is not received when the token is absent, and carries what the delivery says", () => {
    expect(
      judgeDelivery("p", canary, {
        text: "[Request]\nhi",
        receipt: "r",
        view: "media",
        warning: "It was left out.",
      }),
    ).toStrictEqual({
      path: "p",
      received: false,
      verbatim: false,
      view: "media",
      receipt: "r",
      reason: "the canary did not arrive; it warned: It was left out.",
    });
  });
});

describe("probePaths", () => {
  it("passes on every built-in path of a correct project, each with the receipt of the planted context", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const ai = await aiSdkPaths();
    expect(ai?.map((path) => path.name)).toStrictEqual([
      "media tool understand_image",
      "media tool understand_audio (transcription)",
      "media tool understand_audio (understanding)",
      "media tool understand_video",
      "media tool understand_file",
      "media tool read_media",
      "media tool generate_media",
      "media tool generate_image",
      "media tool generate_video",
      "media tool generate_audio",
      "AI SDK middleware",
    ]);
    const results = await probePaths({
      workspace: directory,
      paths: [
        childProcessSubagentPath(),
        functionRunnerSubagentPath(),
        mcpServerPath(),
        ...(ai ?? []),
      ],
    });
    expect(results.map(({ receipt, ...rest }) => rest)).toStrictEqual(
      [
        { path: "subagent (child process)", received: true, verbatim: true, truncated: false },
        { path: "subagent (function runner)", received: true, verbatim: true, truncated: false },
        {
          path: "MCP server (inject_task_context)",
          received: true,
          verbatim: true,
          truncated: false,
        },
        ...AI_SDK_PATHS.map((path) => ({ path, received: true, verbatim: true, truncated: false })),
      ].map((result) => ({ ...result, sections: { expected: 2, arrived: 2, dropped: [] } })),
    );
    const receipts = new Set(results.map((result) => result.receipt));
    expect(receipts.size).toBe(1);
    expect([...receipts][0]).toMatch(HEX64);
    expect(probePassed(results)).toBe(true);
  });

  it("reports the paths that drop the canary: no CONTEXT.md and a middleware told it is not required", async (context) => {
    const directory = workspace(context, { "notes.md": "no context here" });
    const ai = await aiSdkPaths({ middleware: { required: false } });
    const results = await probePaths({
      workspace: directory,
      paths: [mcpServerPath(), ...(ai ?? []).filter((path) => path.name === "AI SDK middleware")],
    });
    expect(results).toStrictEqual([
      {
        path: "MCP server (inject_task_context)",
        received: false,
        verbatim: false,
        error: expect.stringMatching(/^TASK_CONTEXT_MISSING: CONTEXT\.md not found in workspace\./),
      },
      {
        path: "AI SDK middleware",
        received: false,
        verbatim: false,
        reason: "the canary did not arrive",
      },
    ]);
    expect(probePassed(results)).toBe(false);
  });

  it("reports a recipient that drops the [Task Context] block, and one that keeps only the end", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const dropsBlock: ProbePath = {
      name: "drops the block",
      send: async () => `[Request]\n${PROBE_REQUEST}`,
    };
    const keepsEnd: ProbePath = {
      name: "keeps the end",
      send: async ({ content }) => ({ text: content.slice(-60), receipt: "r" }),
    };
    const results = await probePaths({ workspace: directory, paths: [dropsBlock, keepsEnd] });
    expect(results).toStrictEqual([
      {
        path: "drops the block",
        received: false,
        verbatim: false,
        reason: "the canary did not arrive",
      },
      {
        path: "keeps the end",
        received: true,
        verbatim: false,
        truncated: true,
        receipt: "r",
        sections: { expected: 2, arrived: 0, dropped: ["Goal", "Key terms"] },
        reason:
          'the top of CONTEXT.md did not arrive, only its end; sections dropped: "Goal", "Key terms"',
      },
    ]);
  });

  it("reports generate_image for dall-e-2 as cut: fitted to its 1 000 characters, the goal kept and the end dropped", async (context) => {
    const terms = Array.from({ length: 40 }, (_, index) => `- **Term ${index}**: a word of ours.`);
    const directory = workspace(context, {
      "CONTEXT.md": `# Goal\nShip the export menu.\n\n# Key terms\n${terms.join("\n")}\n`,
    });
    const ai = await aiSdkPaths({ image: { provider: "openai.image", modelId: "dall-e-2" } });
    const image = (ai ?? []).filter((path) => path.name === "media tool generate_image");
    const [result] = await probePaths({ workspace: directory, paths: image });
    expect(result).toStrictEqual({
      path: "media tool generate_image",
      received: true,
      verbatim: false,
      truncated: true,
      receipt: expect.stringMatching(HEX64),
      sections: { expected: 2, arrived: 1, dropped: ["Key terms"] },
      reason:
        'the end of CONTEXT.md did not arrive, only its top; sections dropped: "Key terms"; it warned: The task context was fitted to openai/dall-e-2\'s prompt limit (1000 characters; it refuses longer prompts): kept "Goal"; left out "Key terms". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".',
    });
  });
});
