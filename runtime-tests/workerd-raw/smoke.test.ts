// What only a raw workerd shows: the packages' dist/, bundled for Workers, runs without
// nodejs_compat and without code generation from strings (which production Workers refuse and
// the Workers Vitest integration allows). The Worker of wrangler.jsonc runs in wrangler's test
// harness (Miniflare: the real workerd, locally, no account).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestHarness } from "wrangler";

const server = createTestHarness({
  root: import.meta.dirname,
  workers: [{ configPath: "./wrangler.jsonc" }],
});

/** The JSON the Worker answers for one of its checks (worker.ts). */
async function check(name: string): Promise<unknown> {
  const response = await server.fetch(`/${name}`);
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(() => server.listen());
afterAll(() => server.close());

describe("@task-context/core", () => {
  it("runs on workerd without nodejs_compat: no process global", async () => {
    expect(await check("runtime")).toStrictEqual({
      userAgent: "Cloudflare-Workers",
      process: "undefined",
    });
  });

  it("loadTaskContext(memoryWorkspace(...)) and injectTaskContext give the exact context and prompt", async () => {
    expect(await check("load-task-context")).toStrictEqual({
      context: {
        content: "Building Lumen.",
        truncated: false,
        originalLength: 15,
        originalLengthIsExact: true,
        originalBytes: 15,
        sha256: "4bf958303164409557de1922853a95f225851ab6521ff91c59f6d947856b6c40",
        found: true,
      },
      injected: "[Task Context]\nBuilding Lumen.\n\n[Request]\nDescribe it.",
    });
  });

  it("the o200k tokenizer loads lazily and counts as on every other runtime", async () => {
    expect(await check("o200k")).toBe(20);
  });
});

describe("@task-context/protocols", () => {
  it("code generation from strings is refused here, as on production Workers", async () => {
    const refused = {
      allowed: false,
      name: "EvalError",
      message: "Code generation from strings disallowed for this context",
    };
    expect(await check("new-function")).toStrictEqual(refused);
    expect(await check("eval")).toStrictEqual(refused);
  });

  it("validate() gives the schemas' verdicts without code generation", async () => {
    expect(await check("validate")).toStrictEqual([
      { valid: true, issues: [] },
      {
        valid: false,
        issues: [
          {
            path: "/conventions",
            message: "conventions is required: an object with summary and, optionally, fullPath.",
          },
        ],
      },
    ]);
  });

  it("parseContextBlock parses an unversioned block as version 1", async () => {
    expect(await check("parse-context-block")).toStrictEqual({
      status: "found",
      block: { version: 1, project: { path: "/p", stack: "s" }, conventions: { summary: "x" } },
      request: "Go",
    });
  });

  it("generateContext writes Sage XML that parses back", async () => {
    expect(await check("generate-context")).toStrictEqual({
      path: ".sage/context/task-7.xml",
      description: "Dark mode",
    });
  });

  it("lintContextMd reports the template's placeholders", async () => {
    expect(await check("lint-context-md")).toBe(4);
  });
});

describe("@task-context/system-prompt", () => {
  it("buildSystemPrompt builds the same text as on every other runtime", async () => {
    expect(await check("build-system-prompt")).toBe(3211);
  });
});

describe("@task-context/media-tools", () => {
  it("read_media sends the injected prompt beside the image", async () => {
    expect(await check("read-media")).toMatchObject({
      result: { success: true, tool: "understand_image", text: "LUMEN." },
      sent: [
        { type: "text", text: "[Task Context]\nBuilding Lumen.\n\n[Request]\nHeader?" },
        { type: "file" },
      ],
    });
  });

  it("taskContextMiddleware injects the context into a wrapped model's call", async () => {
    expect(await check("middleware")).toMatchObject({
      text: "LUMEN.",
      sent: [
        {
          role: "user",
          content: [
            { type: "text", text: "[Task Context]\nBuilding Lumen.\n\n[Request]\nHeadlines?" },
          ],
        },
      ],
    });
  });
});
