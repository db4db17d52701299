import type { AgentCard } from "@a2a-js/sdk";

/** Where the service answers A2A JSON-RPC requests, under its origin. */
export const A2A_SERVER_PATH = "/a2a";

/** The id of the card's one skill. */
export const RUN_SKILL_ID = "run-staged-task";

/**
 * The delivery service's own A2A 1.0 agent card, served at `/.well-known/agent-card.json`: one
 * JSON-RPC interface at `{origin}/a2a`, streaming, a bearer token required (the admin token or a
 * client token scoped to creating runs), and one skill: run a staged task. `origin` is the
 * service's URL as its clients reach it (no trailing slash).
 */
export function serviceAgentCard(origin: string): AgentCard {
  return {
    name: "task-context delivery service",
    description:
      "Runs a staged task: a goal, constraints and stages whose work items the service hands to its agents (polling, MCP or A2A), with leases, reviews and artifacts.",
    supportedInterfaces: [
      {
        url: `${origin}${A2A_SERVER_PATH}`,
        protocolBinding: "JSONRPC",
        tenant: "",
        protocolVersion: "1.0",
      },
    ],
    provider: undefined,
    version: "1.0.0",
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description:
              "The service's admin token, or a token scoped to creating runs (TASK_CONTEXT_A2A_TOKENS)",
            scheme: "Bearer",
            bearerFormat: "",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/markdown", "application/json"],
    skills: [
      {
        id: RUN_SKILL_ID,
        name: "Run a staged task",
        description:
          'A message\'s text parts are the run\'s goal (a text part with metadata { "task_context": "constraint" } is a constraint); one data part holds the run\'s stages (and optionally constraints, lease_ms, max_attempts), checked against the run schema. The task is the run: its status follows the run, each completed artifact streams back.',
        tags: ["task-context", "staged-task", "delegation"],
        examples: [],
        inputModes: ["text/plain", "application/json"],
        outputModes: ["text/markdown", "application/json"],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}
