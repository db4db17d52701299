// Every tool's success and refusal, with both generations of the official client (v1
// @modelcontextprotocol/sdk 1.32, which checks structured content against the output schema even
// on errors, and v2 @modelcontextprotocol/client 2.4), over stdio (the built bin) and over
// Streamable HTTP (the documented recipe). A refusal has one shape: the text `<CODE>: <message>`
// and `_meta["task-context/error"]` = `{ error, code, issues? }`, never structuredContent.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schemaNames } from "@task-context/protocols";
import { lintContextMd } from "@task-context/protocols/context-md";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownFences } from "../../../docs/examples/test/markdown-fences.ts";
import {
  connectOverHttp,
  connectOverStdio,
  GENERATIONS,
  type Generation,
  type GenerationClient,
} from "./test-support/client-generations.ts";
import {
  CONTEXT,
  CONTEXT_SHA256,
  GET_TASK_CONTEXT_RESULT,
  MISSING_MESSAGE,
  toolRefusal,
} from "./test-support/fixtures.ts";
import { startHttpRecipe } from "./test-support/http-server.ts";

const quotedNames = schemaNames.map((name) => JSON.stringify(name));
const SCHEMA_REQUIRED = `schema is required: one of ${quotedNames.slice(0, -1).join(", ")} or ${quotedNames.at(-1)}, the schema's name.`;
const MISSING = toolRefusal("TASK_CONTEXT_MISSING", MISSING_MESSAGE);
const injected = (prompt: string) => `[Task Context]\n${CONTEXT}\n\n[Request]\n${prompt}`;
const BLOCK =
  "<context>\nversion: 1\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n</context>";

/** Each tool: a call that succeeds with CONTEXT.md, its result, and refusals with their shape. */
const CASES: Array<{
  tool: string;
  success: [Record<string, unknown>, Record<string, unknown>];
  refusals: Array<[Record<string, unknown>, ReturnType<typeof toolRefusal>, "with" | "without"]>;
}> = [
  {
    tool: "get_task_context",
    success: [{}, GET_TASK_CONTEXT_RESULT],
    refusals: [[{}, MISSING, "without"]],
  },
  {
    tool: "inject_task_context",
    success: [
      { prompt: "Draw the wordmark." },
      {
        content: [{ type: "text", text: injected("Draw the wordmark.") }],
        structuredContent: { text: injected("Draw the wordmark."), sha256: CONTEXT_SHA256 },
      },
    ],
    refusals: [
      [{ prompt: "Draw." }, MISSING, "without"],
      [
        { prompt: 3 },
        toolRefusal(
          "INVALID_ARGUMENT",
          'Invalid arguments for inject_task_context: prompt must be a string, not the number 3. Quote it to make it a string: "3". Call inject_task_context again with arguments that match its input schema.',
          [
            {
              path: "/prompt",
              message:
                'prompt must be a string, not the number 3. Quote it to make it a string: "3".',
            },
          ],
        ),
        "with",
      ],
    ],
  },
  {
    tool: "validate",
    success: [
      { schema: "context-block.v1", document: BLOCK },
      {
        content: [{ type: "text", text: "The document is a valid context-block.v1 document." }],
        structuredContent: { valid: true, issues: [] },
      },
    ],
    refusals: [
      [
        { document: {} },
        toolRefusal(
          "INVALID_ARGUMENT",
          `Invalid arguments for validate: ${SCHEMA_REQUIRED} Call validate again with arguments that match its input schema.`,
          [{ path: "/schema", message: SCHEMA_REQUIRED }],
        ),
        "with",
      ],
    ],
  },
  {
    tool: "lint_context_md",
    success: [
      {},
      {
        content: [
          {
            type: "text",
            text: lintContextMd(CONTEXT)
              .issues.map((issue) => `${issue.severity}: ${issue.message}`)
              .join("\n"),
          },
        ],
        structuredContent: lintContextMd(CONTEXT),
      },
    ],
    refusals: [
      [{}, MISSING, "without"],
      [
        { text: ["a list"] },
        toolRefusal(
          "INVALID_ARGUMENT",
          "Invalid arguments for lint_context_md: text must be a string, not an array. Call lint_context_md again with arguments that match its input schema.",
          [{ path: "/text", message: "text must be a string, not an array." }],
        ),
        "with",
      ],
    ],
  },
];

let withContext: string;
let withoutContext: string;
const servers: Array<Awaited<ReturnType<typeof startHttpRecipe>>> = [];
const urls: Record<"with" | "without", URL> = {} as never;

beforeAll(async () => {
  withContext = realpathSync(mkdtempSync(join(tmpdir(), "task-context-tools-")));
  withoutContext = realpathSync(mkdtempSync(join(tmpdir(), "task-context-tools-empty-")));
  writeFileSync(join(withContext, "CONTEXT.md"), CONTEXT);
  for (const [name, directory] of [
    ["with", withContext],
    ["without", withoutContext],
  ] as const) {
    const served = await startHttpRecipe(directory);
    servers.push(served);
    urls[name] = served.url;
  }
});
afterAll(async () => {
  await Promise.all(servers.map((served) => served.close()));
  rmSync(withContext, { recursive: true, force: true });
  rmSync(withoutContext, { recursive: true, force: true });
});

const TRANSPORTS: Record<
  "stdio" | "HTTP",
  (generation: Generation, workspace: "with" | "without") => Promise<GenerationClient>
> = {
  stdio: (generation, workspace) =>
    connectOverStdio(generation, workspace === "with" ? withContext : withoutContext),
  HTTP: (generation, workspace) => connectOverHttp(generation, urls[workspace]),
};

describe.each(Object.keys(TRANSPORTS) as Array<keyof typeof TRANSPORTS>)("over %s", (transport) => {
  it.each(GENERATIONS)(
    "every tool succeeds and refuses in one shape, with the %s client",
    async (generation) => {
      const clients = {
        with: await TRANSPORTS[transport](generation, "with"),
        without: await TRANSPORTS[transport](generation, "without"),
      };
      try {
        for (const { tool, success, refusals } of CASES) {
          const [args, expected] = success;
          expect(await clients.with.callTool(tool, args)).toEqual(expected);
          for (const [refusedArgs, shape, workspace] of refusals) {
            expect(await clients[workspace].callTool(tool, refusedArgs)).toEqual(shape);
          }
        }
      } finally {
        await clients.with.close();
        await clients.without.close();
      }
    },
  );
});

describe("the refusal shown in docs/mcp.md", () => {
  it("is what inject_task_context answers to { prompt: 3 }", async () => {
    const page = new URL("../../../docs/mcp.md", import.meta.url).pathname;
    const [shown] = markdownFences(page, "docs/mcp.md").filter(
      (fence) => fence.check === "tested-by packages/mcp/src/tool-errors.test.ts",
    );
    const client = await connectOverStdio("v1", withContext);
    try {
      expect(JSON.parse(shown?.body ?? "null")).toEqual(
        await client.callTool("inject_task_context", { prompt: 3 }),
      );
    } finally {
      await client.close();
    }
  });
});
