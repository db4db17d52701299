// Requests with malformed params, as raw JSON-RPC lines to the built bin: each is answered
// `-32602 Invalid params` with a sentence per problem and its JSON Pointer, where the SDK alone
// answers `-32603 Internal error` with a zod dump (resources/read, prompts/get) or a raw dump.
import { describe, expect, it } from "vitest";
import { useContextDirectory } from "./test-support/context-directory.ts";
import { HANDSHAKE, requestLine, runBinWithInput } from "./test-support/raw-stdio.ts";

const directory = useContextDirectory("task-context-params-");

const URI_REQUIRED =
  "uri is required: a string, the resource's URI, such as task-context://workspace/CONTEXT.md.";
const NAME_REQUIRED = "name is required: a string, the prompt's name, such as with_task_context.";

/**
 * A malformed request with one problem at `path`, and the answer: `Invalid params for <method>:
 * <problem>` (or `Invalid <what>: …` for a prompt's own arguments).
 */
const refused = (
  method: string,
  params: unknown,
  path: string,
  problem: string,
  what?: string,
) => ({
  method,
  params,
  message: `Invalid ${what ?? `params for ${method}`}: ${problem}`,
  issues: [{ path, message: problem }],
});

const CASES = [
  refused("resources/read", {}, "/uri", URI_REQUIRED),
  refused("resources/read", undefined, "", "params is required: an object with uri."),
  refused(
    "resources/read",
    { uri: 5 },
    "/uri",
    'uri must be a string, not the number 5. Quote it to make it a string: "5".',
  ),
  refused("prompts/get", {}, "/name", NAME_REQUIRED),
  refused("prompts/get", { name: null }, "/name", "name must be a string, not null."),
  refused(
    "prompts/get",
    { name: "with_task_context", arguments: [1, 2] },
    "/arguments",
    "arguments must be an object, not an array.",
  ),
  refused(
    "prompts/get",
    { name: "with_task_context" },
    "/arguments/request",
    "request is required: a string, what you want done.",
    "arguments for prompt with_task_context",
  ),
  refused(
    "tools/call",
    { name: "get_task_context", arguments: [1, 2] },
    "/arguments",
    "arguments must be an object, not an array.",
  ),
  refused(
    "resources/subscribe",
    { uri: ["task-context://workspace/CONTEXT.md"] },
    "/uri",
    "uri must be a string, not an array.",
  ),
];

describe("malformed params, as raw JSON-RPC over stdio", () => {
  it("answers each with -32602 and a readable message, never -32603", async () => {
    const requests = CASES.map(({ method, params }, index) =>
      requestLine(index + 1, method, params),
    );
    const { answers, status } = await runBinWithInput(
      directory(),
      `${[...HANDSHAKE, ...requests].join("\n")}\n`,
    );
    expect(status).toBe(0);
    const errors = answers.filter((answer) => answer.id !== 0);
    expect(errors.sort((a, b) => Number(a.id) - Number(b.id))).toEqual(
      CASES.map(({ message, issues }, index) => ({
        jsonrpc: "2.0",
        id: index + 1,
        error: { code: -32602, message, data: { issues } },
      })),
    );
  });
});
