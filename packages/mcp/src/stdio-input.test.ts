// What the built bin does with its input, written at once and then closed, as
// `printf '…\n…\n' | task-context-mcp .` does: every request read before stdin closes is
// answered, in order, before it exits 0; a line over the 10 MiB limit, a line that is not JSON
// and one that is not JSON-RPC each get a JSON-RPC error, and the lines after them are served.
import { describe, expect, it } from "vitest";
import { useContextDirectory } from "./test-support/context-directory.ts";
import { GET_TASK_CONTEXT_RESULT } from "./test-support/fixtures.ts";
import { HANDSHAKE, requestLine, runBinWithInput } from "./test-support/raw-stdio.ts";

const workspace = useContextDirectory("task-context-stdin-");

const getTaskContext = (id: number) =>
  requestLine(id, "tools/call", { name: "get_task_context", arguments: {} });
const answerOf = (id: number) => ({ jsonrpc: "2.0", id, result: GET_TASK_CONTEXT_RESULT });
const lines = (...items: string[]) => `${items.join("\n")}\n`;

describe("task-context-mcp: input written at once, then stdin closed", () => {
  it("answers every request it read, in order, then exits 0", async () => {
    const ids = Array.from({ length: 50 }, (_, index) => index + 1);
    const { answers, status } = await runBinWithInput(
      workspace(),
      lines(...HANDSHAKE, ...ids.map(getTaskContext)),
    );
    expect(answers[0]).toMatchObject({ id: 0, result: { serverInfo: { name: "task-context" } } });
    expect(answers.slice(1)).toEqual(ids.map(answerOf));
    expect(status).toBe(0);
  });

  it("answers a last message that has no newline", async () => {
    const { answers, status } = await runBinWithInput(
      workspace(),
      `${lines(...HANDSHAKE)}${getTaskContext(1)}`,
    );
    expect(answers.slice(1)).toEqual([answerOf(1)]);
    expect(status).toBe(0);
  });

  it("answers a message over 10 MiB with -32600 and id null, and serves the next line", async () => {
    const huge = requestLine(1, "tools/call", {
      name: "inject_task_context",
      arguments: { prompt: "x".repeat(10 * 1024 * 1024) },
    });
    const { answers, status } = await runBinWithInput(
      workspace(),
      lines(...HANDSHAKE, huge, getTaskContext(2)),
    );
    expect(answers.slice(1)).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message:
            "Invalid Request: a message longer than 10485760 bytes was received and skipped unread. Send messages of at most 10485760 bytes, one per line.",
        },
      },
      answerOf(2),
    ]);
    expect(status).toBe(0);
  });

  it("answers a line that is not JSON with -32700, and one that is not JSON-RPC with -32600", async () => {
    const { answers, status } = await runBinWithInput(
      workspace(),
      lines(...HANDSHAKE, "not json", '{"id": 7, "hello": "world"}', "", getTaskContext(8)),
    );
    // Unreadable lines are answered as they are read; the server's answers follow theirs.
    const byId = (id: unknown) => answers.filter((answer) => answer.id === id);
    expect([...byId(null), ...byId(7)]).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32700,
          message:
            "Parse error: the line is not valid JSON. Send each message as one line of JSON.",
        },
      },
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32600,
          message:
            'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message. Send {"jsonrpc": "2.0", "id": …, "method": …, "params": {…}} (a request), a notification without "id", or a response.',
        },
      },
    ]);
    expect(byId(8)).toEqual([answerOf(8)]);
    expect(answers).toHaveLength(4);
    expect(status).toBe(0);
  });

  it("exits 0 at once when stdin closes with nothing to answer", async () => {
    const { answers, status, stderr } = await runBinWithInput(workspace(), "");
    expect([answers, status, stderr]).toEqual([[], 0, ""]);
  });
});
