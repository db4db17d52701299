// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run them as
// written, with the AI SDK's test models in place of the provider's and a memory workspace in
// place of the directory, and check that they do what their comments say.
import { memoryWorkspace, type Workspace } from "@task-context/core";
import { APICallError, type ImageModel, type LanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { createMediaTools } from "./create-media-tools.ts";
import { CONTEXT, imageModel, injected, languageModel, PNG } from "./test-support/fixtures.ts";
import { systemRefusingModel } from "./test-support/limited-models.ts";

/** What the examples' `openai(…)` and `nodeWorkspace(…)` return, and what their tools returned. */
const standIn = vi.hoisted(() => ({
  workspace: undefined as Workspace | undefined,
  language: undefined as LanguageModel | undefined,
  image: undefined as ImageModel | undefined,
  results: [] as unknown[],
}));

vi.mock("@ai-sdk/openai", () => ({
  openai: Object.assign(() => standIn.language, { image: () => standIn.image }),
}));

vi.mock("@task-context/core/node", () => ({ nodeWorkspace: () => standIn.workspace }));

// The tools as created, except that every result is also kept for the test to read.
vi.mock("@task-context/media-tools", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@task-context/media-tools")>();
  const recording: typeof createMediaTools = (options) => {
    const tools = actual.createMediaTools(options);
    type Execute = (...args: unknown[]) => Promise<unknown>;
    for (const tool of Object.values(tools) as { execute: Execute }[]) {
      const execute = tool.execute.bind(tool);
      tool.execute = async (...args) => {
        const result = await execute(...args);
        standIn.results.push(result);
        return result;
      };
    }
    return tools;
  };
  return { ...actual, createMediaTools: recording };
});

/** A provider call that settles only when it is aborted. */
const untilAborted = async ({ abortSignal }: { abortSignal?: AbortSignal | undefined }) =>
  new Promise<never>((_, reject) => {
    abortSignal?.addEventListener("abort", () => reject(abortSignal.reason), { once: true });
  });

beforeEach(() => {
  standIn.workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
  standIn.language = languageModel();
  standIn.image = imageModel();
  standIn.results = [];
  vi.resetModules();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("examples/call-a-tool.ts", () => {
  it("logs the tool that ran and the model's answer", async () => {
    standIn.workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "screens/home.png": PNG });
    const model = languageModel("The header says LUMEN.");
    standIn.language = model;
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/call-a-tool.ts");
    expect(logged.mock.calls).toEqual([["understand_image", "The header says LUMEN."]]);
    expect(JSON.stringify(model.doGenerateCalls[0]?.prompt)).toContain(
      JSON.stringify(injected("What does the header say?")),
    );
  });

  it("logs TASK_CONTEXT_MISSING and the guiding message without CONTEXT.md", async () => {
    standIn.workspace = memoryWorkspace({ "screens/home.png": PNG });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await import("../examples/call-a-tool.ts");
    expect(logged.mock.calls).toEqual([
      ["TASK_CONTEXT_MISSING", expect.stringMatching(/^CONTEXT\.md not found in workspace\. /)],
    ]);
  });
});

describe("examples/task-context-middleware.ts", () => {
  it("sends the prompt after the task context, to generateText and to streamText", async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const finishReason = { unified: "stop", raw: "stop" } as const;
    const model = new MockLanguageModelV4({
      doGenerate: async () => ({
        content: [{ type: "text", text: "Ok." }],
        finishReason,
        usage,
        warnings: [],
      }),
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "Lumen is here." },
          { type: "text-end", id: "t" },
          { type: "finish", finishReason, usage },
        ]),
      }),
    });
    standIn.language = model;
    const written = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await import("../examples/task-context-middleware.ts");
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: injected("Name three headlines.") }] },
    ]);
    expect(model.doStreamCalls[0]?.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: injected("Write the launch tweet.") }] },
    ]);
    expect(written.mock.calls).toEqual([["Lumen is here."]]);
  });
});

describe("examples/model-profiles.ts", () => {
  it("prints whisper-1's limit, then the fit of a CONTEXT.md over its profile's 600 characters", async () => {
    const goal = "## What we are building\nLumen, a note-taking app for researchers.";
    const other = `## Other details\n${"Run pnpm test before every push. ".repeat(20).trim()}`;
    standIn.workspace = memoryWorkspace({
      "CONTEXT.md": `# Task context\n\n${goal}\n\n${other}\n\n## Key terminology\n- **Vault**: notes.`,
    });
    const model = systemRefusingModel("openai.responses", "gpt-4o-mini");
    standIn.language = model;
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await import("../examples/model-profiles.ts");
    expect(log.mock.calls[0]).toEqual([{ amount: 224, unit: "tokens", overflow: "keeps-end" }]);
    expect(log.mock.calls[1]).toEqual([
      expect.objectContaining({
        profile: "openai/gpt-4o-mini",
        kept: ["Task context", "What we are building", "Key terminology"],
        dropped: ["Other details"],
        cut: false,
        leftOut: false,
      }),
    ]);
    expect(warn.mock.calls).toEqual([
      [
        'The task context was fitted to openai/gpt-4o-mini\'s prompt limit (600 characters; it refuses longer prompts): kept "Task context", "What we are building", "Key terminology"; left out "Other details". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".',
      ],
    ]);
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `[Task Context]\n# Task context\n\n${goal}\n\n## Key terminology\n- **Vault**: notes.\n\n[Request]\nName three headlines.`,
          },
        ],
      },
    ]);
  });
});

describe("the error examples return what their comments show", () => {
  it("examples/file-too-large.ts", async () => {
    await import("../examples/file-too-large.ts");
    expect(standIn.results).toEqual([
      {
        success: false,
        code: "FILE_TOO_LARGE",
        error:
          '"big.png" is 3 MiB, over the 2 MiB limit for image files. Use a smaller or compressed file, or raise `limits.image` in createMediaTools.',
      },
    ]);
  });

  it("examples/aborted.ts", async () => {
    const image = imageModel();
    image.doGenerate = untilAborted;
    standIn.image = image;
    await import("../examples/aborted.ts");
    expect(standIn.results).toEqual([
      {
        success: false,
        code: "ABORTED",
        error: "generate_image was aborted by the caller: the user cancelled; nothing was written.",
      },
    ]);
  });

  it("examples/timeout.ts, with the minute cut short", async () => {
    const image = imageModel();
    image.doGenerate = untilAborted;
    standIn.image = image;
    // The example's 60 000 ms deadline fires at once; its message still names the 60 000 ms.
    const { setTimeout } = globalThis;
    const delays: unknown[] = [];
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((
      callback: () => void,
      delay?: number,
    ) => {
      delays.push(delay);
      return setTimeout(callback, delay === 60_000 ? 0 : delay);
    }) as typeof globalThis.setTimeout);
    await import("../examples/timeout.ts");
    expect(delays).toContain(60_000);
    expect(standIn.results).toEqual([
      {
        success: false,
        code: "TIMEOUT",
        error:
          "generate_image timed out after 60000 ms and was aborted; nothing was written. Try again, use a smaller input, or raise `timeoutMs` in createMediaTools.",
      },
    ]);
  });

  it("examples/model-not-configured.ts", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await import("../examples/model-not-configured.ts");
    expect(logged.mock.calls).toEqual([
      [
        "MODEL_NOT_CONFIGURED",
        "generate_audio needs a speech model, and none is configured. Pass `models.speech` to createMediaTools; until then this tool cannot be used.",
      ],
    ]);
  });

  it("examples/provider-error.ts, with the provider's answer to a size it does not support", async () => {
    const image = imageModel();
    image.doGenerate = async () => {
      throw new APICallError({
        message: "Invalid size: 7x7 is not supported.",
        url: "https://api.example.test/v1/images/generations",
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    };
    standIn.image = image;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await import("../examples/provider-error.ts");
    expect(logged.mock.calls).toEqual([
      ["generate_image: the model provider failed (HTTP 400): Invalid size: 7x7 is not supported."],
    ]);
  });

  it("examples/unsupported-media-type.ts", async () => {
    await import("../examples/unsupported-media-type.ts");
    expect(standIn.results).toEqual([
      {
        success: false,
        code: "UNSUPPORTED_MEDIA_TYPE",
        error:
          '"logo.png" is text/plain (detected from its content), not an image. Use understand_file or read_media, which picks the tool from the content.',
      },
    ]);
  });
});
