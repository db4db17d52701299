import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CONTEXT_MISSING_MESSAGE,
  defineContextTool,
  memoryWorkspace,
  type Workspace,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { describe, expect, it } from "vitest";

const parameters = {
  type: "object",
  properties: { prompt: { type: "string", description: "What to ask about the image." } },
  required: ["prompt"],
  additionalProperties: false,
} as const;

/** A tool that records the prompt it would send to an external vision model. */
function describeImageTool(workspace: Workspace) {
  const sent: string[] = [];
  const tool = defineContextTool({
    name: "understand_image",
    description: "Answer a question about an image.",
    parameters,
    workspace,
    execute(input: { prompt: string }, { prependTaskContext }) {
      const externalPrompt = prependTaskContext(input.prompt);
      sent.push(externalPrompt);
      return { text: `answered: ${input.prompt}` };
    },
  });
  return { tool, sent };
}

describe("spec 000: Multimodal Tool Context Injection", () => {
  it("Tool receives task context: the context is prepended to the external prompt", async () => {
    const { tool, sent } = describeImageTool(
      memoryWorkspace({
        "CONTEXT.md": "Lumen is a note-taking app; LUMEN in screenshots is the product name.",
      }),
    );
    const result = await tool.execute({ prompt: "What does the header say?" });
    expect(result).toEqual({ success: true, text: "answered: What does the header say?" });
    expect(sent).toEqual([
      "[Task Context]\nLumen is a note-taking app; LUMEN in screenshots is the product name.\n\n[Request]\nWhat does the header say?",
    ]);
  });

  it("Tool fails without CONTEXT.md: returns an error guiding the agent to create it, without calling out", async () => {
    const { tool, sent } = describeImageTool(memoryWorkspace());
    const result = await tool.execute({ prompt: "What does the header say?" });
    expect(result).toEqual({
      success: false,
      error: `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
      code: "TASK_CONTEXT_MISSING",
    });
    expect(sent).toEqual([]);
  });

  it("Tool returns truncation warning: the response carries the truncation details", async () => {
    const { tool, sent } = describeImageTool(memoryWorkspace({ "CONTEXT.md": "c".repeat(10_500) }));
    const result = await tool.execute({ prompt: "Describe it." });
    expect(result).toEqual({
      success: true,
      text: "answered: Describe it.",
      warning:
        "CONTEXT.md was truncated from 10500 to 10000 characters (limit 10000). Consider shortening it.",
    });
    expect(sent).toEqual([`[Task Context]\n${"c".repeat(10_000)}\n\n[Request]\nDescribe it.`]);
  });
});

describe("defineContextTool", () => {
  it("never shows the context parameters in the schema the model sees", () => {
    const { tool } = describeImageTool(memoryWorkspace());
    expect(tool.parameters).toBe(parameters);
    expect(JSON.stringify(tool.parameters)).not.toMatch(/task_?context|warning/i);
    expect(Object.keys(tool)).toEqual(["name", "description", "parameters", "execute"]);
  });

  it("refuses a schema that declares a context parameter", () => {
    for (const name of ["taskContext", "task_context", "warning"]) {
      expect(() =>
        defineContextTool({
          name: "bad",
          description: "",
          parameters: { type: "object", properties: { [name]: { type: "string" } } },
          execute: () => ({}),
        }),
      ).toThrow(`tool "bad" declares ${name}, which task-context supplies itself`);
    }
  });

  it("reads CONTEXT.md on every call, so a file written during the run is used", async () => {
    const root = await mkdtemp(join(tmpdir(), "task-context-tool-"));
    try {
      const { tool, sent } = describeImageTool(nodeWorkspace(root));
      expect((await tool.execute({ prompt: "first" })).success).toBe(false);
      await writeFile(join(root, "CONTEXT.md"), "Now we know: Lumen.");
      expect(await tool.execute({ prompt: "second" })).toEqual({
        success: true,
        text: "answered: second",
      });
      expect(sent).toEqual(["[Task Context]\nNow we know: Lumen.\n\n[Request]\nsecond"]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("adds taskContext and warning to the arguments execute receives, as @context_params does", async () => {
    let received: unknown;
    const tool = defineContextTool({
      name: "probe",
      description: "",
      parameters,
      workspace: memoryWorkspace({ "CONTEXT.md": "Lumen." }),
      execute(input: { prompt: string }) {
        received = input;
        return {};
      },
    });
    await tool.execute({ prompt: "Describe." });
    expect(received).toEqual({ prompt: "Describe.", taskContext: "Lumen.", warning: undefined });
  });

  it("takes the workspace per call and hands execute the loaded details", async () => {
    let seen: unknown;
    const tool = defineContextTool({
      name: "probe",
      description: "",
      parameters: {},
      execute(_input: object, context) {
        seen = {
          taskContext: context.taskContext,
          warning: context.warning,
          sha256: context.loaded.sha256.length,
        };
        return { ok: true };
      },
    });
    const result = await tool.execute({}, { workspace: memoryWorkspace({ "CONTEXT.md": "ctx" }) });
    expect(result).toEqual({ success: true, ok: true });
    expect(seen).toEqual({ taskContext: "ctx", warning: undefined, sha256: 64 });
  });

  it("reports a missing workspace and a failing execute as results, not crashes", async () => {
    const tool = defineContextTool({
      name: "broken",
      description: "",
      parameters: {},
      execute(): { never: true } {
        throw new Error("provider said 503");
      },
    });
    expect(await tool.execute({})).toEqual({
      success: false,
      error:
        'Invalid workspace: tool "broken" has no workspace: pass one to defineContextTool or to execute.',
      code: "INVALID_ARGUMENT",
    });
    expect(await tool.execute({}, { workspace: memoryWorkspace({ "CONTEXT.md": "x" }) })).toEqual({
      success: false,
      error: "broken failed: provider said 503",
      code: "TOOL_EXECUTION_FAILED",
    });
  });

  it("delivers the definition's view, or the call's, and fails with CONTEXT_VIEW_EMPTY when it selects nothing", async () => {
    const sent: string[] = [];
    const tool = defineContextTool({
      name: "generate_image",
      description: "",
      parameters: {},
      workspace: memoryWorkspace({
        "CONTEXT.md": "## What we are building\nLumen.\n\n## Other details\nRun pnpm test.",
      }),
      load: { view: { name: "building", include: ["What we are building"] } },
      execute(_input: object, { prependTaskContext, loaded }) {
        sent.push(prependTaskContext("Draw."));
        return { view: loaded.view?.name };
      },
    });
    expect(await tool.execute({})).toStrictEqual({ success: true, view: "building" });
    expect(
      await tool.execute({}, { view: { name: "details", include: ["other details"] } }),
    ).toStrictEqual({
      success: true,
      view: "details",
    });
    expect(sent).toStrictEqual([
      "[Task Context]\n## What we are building\nLumen.\n\n[Request]\nDraw.",
      "[Task Context]\n## Other details\nRun pnpm test.\n\n[Request]\nDraw.",
    ]);
    expect(
      await tool.execute({}, { view: { name: "ops", include: ["Deployment"] } }),
    ).toStrictEqual({
      success: false,
      error:
        'View "ops" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md\'s headings are "What we are building", "Other details". Name headings CONTEXT.md has, or write those sections into it.',
      code: "CONTEXT_VIEW_EMPTY",
    });
    expect(await tool.execute({}, { view: { name: "" } })).toMatchObject({
      success: false,
      code: "INVALID_ARGUMENT",
      error:
        "Invalid options.view.name: expected the view's name, a non-empty string, got the empty string.",
    });
  });
});
