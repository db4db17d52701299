import { describe, expect, it } from "vitest";
import { agentProblem, quoted } from "./agent-problem.ts";

const MiB = 1024 * 1024;
const problem = (error: unknown, exchange: Parameters<typeof agentProblem>[2]) =>
  agentProblem("GetTask", error, exchange, 4 * MiB, MiB);

/** An error as the SDK throws for a JSON-RPC error answer. */
const rpcError = (code: number, message: string) =>
  Object.assign(new Error(message), { envelopeCode: code });

describe("agentProblem: why a call to an A2A agent failed", () => {
  it("nothing answered: could not be reached, with the causes", () => {
    const refused = new TypeError("fetch failed", {
      cause: new Error("connect ECONNREFUSED 127.0.0.1:9"),
    });
    expect(problem(refused, { unreachable: refused })).toBe(
      "The A2A agent could not be reached (GetTask): fetch failed: connect ECONNREFUSED 127.0.0.1:9.",
    );
  });

  it("an HTTP error, a JSON-RPC error (with the HTTP status when it is one), something else", () => {
    expect(problem(new Error("HTTP error"), { status: 401, statusText: "Unauthorized" })).toBe(
      "The A2A agent answered GetTask with HTTP 401 Unauthorized.",
    );
    expect(problem(rpcError(-32001, "Task not found"), { status: 200, statusText: "OK" })).toBe(
      "The A2A agent answered GetTask with JSON-RPC error -32001: Task not found.",
    );
    expect(problem(rpcError(-32603, "Boom"), { status: 500, statusText: "" })).toBe(
      "The A2A agent answered GetTask with JSON-RPC error -32603 (HTTP 500): Boom.",
    );
    expect(problem(new SyntaxError("Unexpected end of JSON input"), { status: 200 })).toBe(
      "The A2A agent answered GetTask with something that is not an A2A response (Unexpected end of JSON input).",
    );
  });

  it("an answer over the read limit, naming both limits", () => {
    expect(problem(new Error("cut"), { status: 200, tooLarge: true })).toBe(
      "The A2A agent's answer to GetTask is larger than 4194304 bytes, the most the service reads of one answer or stream event (4 × its 1048576-byte request body limit, room for the task and its history): it stopped reading there. A result may be at most 1048576 bytes as a completion (PAYLOAD_TOO_LARGE, as over HTTP).",
    );
  });

  it("quotes an agent's words at most 500 characters long, well-formed, a cut said as such", () => {
    expect(quoted("a\uD800b")).toBe("a\uFFFDb");
    expect(quoted("x".repeat(501))).toBe(`${"x".repeat(500)}… (1 more characters not shown)`);
  });
});
