import { describe, expect, it } from "vitest";
import { A2A03_METHODS, agentProblem } from "./agent-problem.ts";
import { transportError } from "./transport-error.ts";

const MiB = 1024 * 1024;
const rpcError = (code: number, message: string) =>
  Object.assign(new Error(message), { envelopeCode: code });

describe("transportError: which failures' reasons are transport errors", () => {
  it("classifies the sentences agentProblem writes, for 1.0 and 0.3 method names", () => {
    const refused = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    for (const call of ["SendMessage", A2A03_METHODS.GetTask] as const) {
      const reason = (error: unknown, exchange: Parameters<typeof agentProblem>[2]) =>
        transportError(agentProblem(call, error, exchange, 4 * MiB, MiB));
      expect(reason(refused, { unreachable: refused })).toEqual({ kind: "unreachable" });
      expect(reason(new Error("x"), { status: 503, statusText: "Service Unavailable" })).toEqual({
        kind: "http_status",
        status: 503,
      });
      expect(reason(rpcError(-32601, "Method not found"), { status: 200 })).toEqual({
        kind: "protocol_error",
      });
      expect(reason(new Error("bad"), { status: 200 })).toEqual({ kind: "protocol_error" });
      expect(reason(new Error("big"), { status: 200, tooLarge: true })).toEqual({
        kind: "protocol_error",
      });
    }
  });

  it("classifies silence as a timeout, and leaves the agent's own failures out", () => {
    expect(
      transportError(
        "The A2A agent did not answer within the attempt's lease (lease_ms 60000, renewed by each working update; given up 5000 ms before its end): its task was last submitted.",
      ),
    ).toEqual({ kind: "timeout" });
    expect(transportError("The A2A task ended rejected: I only paint.")).toBeUndefined();
    expect(transportError("The A2A agent stopped at input-required: what colour?")).toBeUndefined();
    expect(
      transportError("The service refused the A2A task's result (INVALID_COMPLETION): …"),
    ).toBeUndefined();
  });
});
