// An independent client: the MCP Inspector's CLI mode spawns the built bin over stdio, as a
// person checking the server by hand would, and prints what the server answered as JSON.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTEXT_BLOCK_URI, CONTEXT_MD_URI } from "./index.ts";
import { CONTEXT, GET_TASK_CONTEXT_RESULT } from "./test-support/fixtures.ts";
import { BIN } from "./test-support/stdio-client.ts";

const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve("@modelcontextprotocol/inspector/package.json")),
  "clients/launcher/build/index.js",
);

let directory: string;
let home: string;

beforeAll(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-inspector-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  // The Inspector keeps a catalog and secrets under the home directory: keep them in the test's.
  home = join(directory, ".home");
  mkdirSync(home);
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Runs `inspector --cli node dist/bin.js <directory> …arguments` and parses its JSON output. */
async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, "--cli", process.execPath, BIN, directory, ...args],
    { env: { ...process.env, HOME: home }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe("the MCP Inspector (CLI mode) against the built bin", () => {
  it("lists the four tools", async () => {
    const { tools } = (await inspect("--method", "tools/list")) as {
      tools: Array<{ name: string; outputSchema?: object }>;
    };
    expect(tools.map((tool) => tool.name)).toEqual([
      "get_task_context",
      "inject_task_context",
      "validate",
      "lint_context_md",
    ]);
    expect(tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);
  });

  it("lists the resources", async () => {
    const { resources } = (await inspect("--method", "resources/list")) as {
      resources: Array<{ uri: string }>;
    };
    expect(resources.map((resource) => resource.uri)).toEqual([CONTEXT_MD_URI, CONTEXT_BLOCK_URI]);
  });

  it("calls get_task_context", async () => {
    expect(await inspect("--method", "tools/call", "--tool-name", "get_task_context")).toEqual(
      GET_TASK_CONTEXT_RESULT,
    );
  });

  it("gets the with_task_context prompt", async () => {
    expect(
      await inspect(
        "--method",
        "prompts/get",
        "--prompt-name",
        "with_task_context",
        "--prompt-args",
        "request=Draw the icon.",
      ),
    ).toMatchObject({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text: `[Task Context]\n${CONTEXT}\n\n[Request]\nDraw the icon.`,
          },
        },
      ],
    });
  });
});
