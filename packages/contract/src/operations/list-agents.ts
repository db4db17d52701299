import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { attemptRecord, cardSignature, runView } from "../schemas.ts";

/** The most failures `GET /v1/runs/{run_id}/agents` shows of one A2A agent. */
const LAST_ERRORS = 5;

const agentExample = {
  agent_id: "agt_2xw8p6d0v4m1c9t7k3h5q0r8zz",
  tag: "writer",
  kind: "http",
  stages: ["draft", "review"],
};

const a2aAgentExample = {
  agent_id: "agt_9k3h5q0r8zz2xw8p6d0v4m1c9t",
  tag: "herald",
  kind: "a2a",
  stages: ["draft"],
  a2a: {
    url: "https://herald.example.com",
    agent_name: "Herald",
    interface_url: "https://herald.example.com/a2a/jsonrpc",
    protocol_binding: "JSONRPC",
    protocol_version: "1.0",
    concurrency: 1,
    card_check: { at: "2026-11-20T10:00:00.000Z", outcome: "unchanged" },
    card_signature: {
      verified: true,
      kid: "herald-2026",
      alg: "ES256",
      key_source: "jku",
      jku: "https://herald.example.com/.well-known/jwks.json",
    },
    transport_errors: [
      {
        at: "2026-11-20T10:16:02.000Z",
        kind: "unreachable",
        work_item_id: "wi_ffnxz1cg6f1qz0jh5rzj9twwqt",
        attempt: 1,
      },
    ],
    last_errors: [
      {
        at: "2026-11-20T10:16:02.000Z",
        work_item_id: "wi_ffnxz1cg6f1qz0jh5rzj9twwqt",
        attempt: 1,
        reason:
          "The A2A agent could not be reached (SendMessage): fetch failed: connect ECONNREFUSED 203.0.113.7:443.",
      },
    ],
  },
};

/** An agent of a run as `GET /v1/runs/{run_id}/agents` shows it: never its token. */
export const agentView = z
  .strictObject({
    agent_id: z.string().min(1),
    tag: z.string().min(1),
    kind: z
      .enum(["http", "a2a"])
      .describe(
        "http: the agent calls the service with its token (over HTTP or /mcp: the run does not tell them apart); a2a: the service sends it its work items",
      ),
    stages: z
      .array(runView.shape.stages.element.shape.id)
      .describe(
        "The ids of the stages whose items it may take: every stage for an http agent, the stages matched to its card for an A2A agent",
      ),
    a2a: z
      .strictObject({
        url: z.string().describe("The base URL it was added with"),
        agent_name: z.string().describe("The name its agent card gives"),
        interface_url: z.string().describe("The card's interface the service sends to"),
        protocol_binding: z.string().describe("That interface's binding: JSONRPC or HTTP+JSON"),
        protocol_version: z
          .string()
          .nullable()
          .describe(
            "That interface's A2A protocolVersion (1.0 when the card did not say); null when the stored card has none",
          ),
        concurrency: z.int().min(1),
        card_signature: cardSignature,
        card_check: z
          .strictObject({
            at: z.iso.datetime().describe("When the card was last read"),
            outcome: z
              .enum(["registered", "unchanged", "changed", "failed"])
              .describe(
                "registered: read at registration, not since; unchanged or changed: read again and taken; failed: read again and not taken (the last good card is kept)",
              ),
            reason: z
              .string()
              .optional()
              .describe(
                "Why the card was not taken (failed only): unreachable, invalid, a bad signature, …",
              ),
          })
          .nullable()
          .describe(
            "The card's last check; the card is read again before the agent's next attempt once the refresh interval passed (default 1 hour), and at once after an attempt failed with a transport error. null for an agent registered before cards were checked",
          ),
        transport_errors: z
          .array(
            z.strictObject({
              at: z.iso.datetime().describe("When the attempt ended"),
              kind: z
                .enum(["unreachable", "timeout", "http_status", "protocol_error"])
                .describe(
                  "unreachable: nothing answered (refused, reset, DNS); timeout: no answer within the attempt's lease; http_status: an HTTP error status; protocol_error: a JSON-RPC error, an answer that is not A2A, or one over the size limit",
                ),
              status: z
                .int()
                .optional()
                .describe("The HTTP status the agent answered (http_status only)"),
              work_item_id: z.string().min(1),
              attempt: attemptRecord.shape.attempt,
            }),
          )
          .max(LAST_ERRORS)
          .describe(
            `Of the last ${LAST_ERRORS * 4} failed attempts, the ${LAST_ERRORS} newest whose reason is a transport error, classified; the agent's own failures and results the service refused are not transport errors`,
          ),
        last_errors: z
          .array(
            z.strictObject({
              at: z.iso.datetime().describe("When the attempt ended"),
              work_item_id: z.string().min(1),
              attempt: attemptRecord.shape.attempt,
              reason: z.string(),
            }),
          )
          .max(LAST_ERRORS)
          .describe(
            `The last ${LAST_ERRORS} attempts that failed, newest first, with the reason the service recorded: the agent unreachable, an HTTP status or JSON-RPC error it answered, silence past the lease, a result the service refused, or the agent's own failure`,
          ),
      })
      .optional()
      .describe("A2A agents: what the service read of the card, and how its attempts failed"),
  })
  .meta({ id: "AgentView", examples: [agentExample, a2aAgentExample] });

/** The answer to `GET /v1/runs/{run_id}/agents`. */
export const agentList = z
  .strictObject({
    agents: z.array(agentView).describe("In the order they were added"),
  })
  .meta({ id: "AgentList", examples: [{ agents: [agentExample, a2aAgentExample] }] });

/** An agent of a run as `GET /v1/runs/{run_id}/agents` shows it. */
export type AgentView = z.infer<typeof agentView>;

/** The answer to `GET /v1/runs/{run_id}/agents`. */
export type AgentList = z.infer<typeof agentList>;

/** `GET /v1/runs/{run_id}/agents`: who works on the run, and how its A2A agents fare. */
export const listAgents = defineOperation({
  id: "listAgents",
  method: "GET",
  path: "/v1/runs/{run_id}/agents",
  audience: "admin or agent",
  summary: "The run's agents: tag, kind, stages, and for A2A agents their card and last errors",
  description:
    "Every agent added to the run, in the order they were added, never with its token. An A2A agent shows the interface of its card the service sends to (URL, binding, protocol version) and its last failed attempts with their reasons: where to look when an A2A agent's items keep going back on offer. An agent sees its own run only, as with GET /v1/runs/{run_id}.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }) },
  output: { kind: "json", status: 200, body: agentList, description: "The run's agents" },
  errors: ["RUN_NOT_FOUND"],
  client: { method: "listAgents" },
});
