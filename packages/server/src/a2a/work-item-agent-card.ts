import type { AgentCard } from "@a2a-js/sdk";

/** A skill of a work-item agent: the service matches a stage's `available_skills` to ids and tags. */
export interface WorkItemAgentSkill {
  id: string;
  /** Default: the id. */
  name?: string;
  /** Default: the name. */
  description?: string;
  tags?: readonly string[];
}

/** What the card of a work-item agent says of it. */
export interface WorkItemAgentCardOptions {
  /** The agent's name: the service shows it as the agent's `agent_name`. */
  name: string;
  /** Default: `"{name}: an A2A agent that works task-context work items."` */
  description?: string;
  /**
   * Its skills: a stage is the agent's when every one of the stage's `available_skills` is the id
   * or a tag of one of them (a stage without `available_skills` is any agent's).
   */
  skills: readonly WorkItemAgentSkill[];
  /**
   * Whether it streams its tasks' events (default true): the service follows each task on its
   * stream on Node, and polls it (`GetTask`) otherwise, and always on Workers.
   */
  streaming?: boolean;
  /** The card's `version` (default `"1.0.0"`). */
  version?: string;
  /**
   * The card asks for an HTTP Bearer token (a security scheme `bearer`, required by every
   * request): register the agent with `a2a.credentials: { bearer: { bearer_token } }`.
   */
  requireBearer?: boolean;
}

/** The security scheme and requirement of a card that asks for a bearer token. */
const bearerSecurity: Pick<AgentCard, "securitySchemes" | "securityRequirements"> = {
  securitySchemes: {
    bearer: {
      scheme: {
        $case: "httpAuthSecurityScheme",
        value: {
          description: "A token the agent's operator gives",
          scheme: "Bearer",
          bearerFormat: "",
        },
      },
    },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};

/**
 * The A2A 1.0 agent card of a work-item agent served at `url`: one JSON-RPC interface at
 * `{url}/`, no credentials asked for (or a bearer token, `requireBearer`), text and JSON in and out — what the delivery service needs
 * to register it (`POST /v1/runs/{run_id}/agents` with `a2a.url`).
 */
export function workItemAgentCard(options: WorkItemAgentCardOptions, url: string): AgentCard {
  return {
    name: options.name,
    description:
      options.description ?? `${options.name}: an A2A agent that works task-context work items.`,
    supportedInterfaces: [
      {
        url: url.endsWith("/") ? url : `${url}/`,
        protocolBinding: "JSONRPC",
        tenant: "",
        protocolVersion: "1.0",
      },
    ],
    provider: undefined,
    version: options.version ?? "1.0.0",
    capabilities: {
      streaming: options.streaming ?? true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    ...(options.requireBearer === true
      ? bearerSecurity
      : { securitySchemes: {}, securityRequirements: [] }),
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/markdown", "application/json"],
    skills: options.skills.map((skill) => ({
      id: skill.id,
      name: skill.name ?? skill.id,
      description: skill.description ?? skill.name ?? skill.id,
      tags: [...(skill.tags ?? [])],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
