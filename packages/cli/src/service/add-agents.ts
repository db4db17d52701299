import type { AgentCreated, RunCreated } from "@task-context/client";
import { CliError, usageError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { type ServiceTarget, withService } from "./service-client.ts";

/** An agent to add to a run: `--agent <tag>`, or `--a2a-agent <tag>=<url>` with its URL. */
export interface AgentRequest {
  tag: string;
  /** The A2A agent's base URL; undefined for an agent that polls with its token. */
  url?: string;
}

/** `--agent` and `--a2a-agent` as `run create` and `run add-agent` take them. */
export interface AgentOptions {
  agent: string[];
  a2aAgent: { tag: string; url: string }[];
}

/**
 * The agents to add, A2A agents first: their registration is the one that can fail on what the
 * service finds (an agent card it cannot read, skills that cover no stage), and a failure then
 * leaves no token issued to nobody. A tag given twice, or empty, is a usage error (exit 2) before
 * anything is sent: the service would refuse it only after the run exists.
 */
export function agentRequests({ agent, a2aAgent }: AgentOptions): AgentRequest[] {
  const requests: AgentRequest[] = [...a2aAgent, ...agent.map((tag) => ({ tag }))];
  const seen = new Set<string>();
  for (const { tag } of requests) {
    if (tag === "") {
      throw usageError(
        "--agent needs a tag, not an empty string",
        "name the agent, e.g. --agent writer",
      );
    }
    if (seen.has(tag)) {
      throw usageError(
        `the tag ${JSON.stringify(tag)} is given twice: each agent of a run has its own tag`,
        "give each --agent and --a2a-agent a different tag",
      );
    }
    seen.add(tag);
  }
  return requests;
}

/** The `--agent` / `--a2a-agent` options that add `requests`, as they are typed. */
export function agentArguments(requests: readonly AgentRequest[]): string {
  return requests
    .map(({ tag, url }) => (url === undefined ? `--agent ${tag}` : `--a2a-agent ${tag}=${url}`))
    .join(" ");
}

/** What {@link addAgents} added, and the error that stopped it with the requests it left. */
export interface AgentsAdded {
  agents: AgentCreated[];
  failure?: { error: CliError; notAdded: AgentRequest[] };
}

/**
 * Adds `requests` to the run one by one and stops at the first the service refuses (or that
 * cannot reach it): what was added before is returned with the error, for the caller to print
 * (each token is shown this once) before it reports the failure.
 */
export async function addAgents(
  target: ServiceTarget,
  runId: string,
  requests: readonly AgentRequest[],
): Promise<AgentsAdded> {
  const agents: AgentCreated[] = [];
  for (const [index, { tag, url }] of requests.entries()) {
    try {
      agents.push(
        await withService(target, (client) =>
          client.addAgent(runId, url === undefined ? { tag } : { tag, a2a: { url } }),
        ),
      );
    } catch (error) {
      if (!CliError.isInstance(error)) throw error;
      return { agents, failure: { error, notAdded: requests.slice(index) } };
    }
  }
  return { agents };
}

/**
 * Prints what was added: one line per agent, `agent <tag>: <token>` with the A2A agent's name and
 * stages; with `json`, `{ run?, agents, not_added? }` (`not_added`: the tags left by a failure).
 */
export function printAdded(
  io: CliIo,
  { json }: { json?: boolean },
  { agents, failure }: AgentsAdded,
  { run }: { run?: RunCreated } = {},
): void {
  if (json === true) {
    const notAdded = failure?.notAdded.map((request) => request.tag);
    const printed = {
      ...(run === undefined ? {} : { run }),
      agents,
      ...(notAdded === undefined ? {} : { not_added: notAdded }),
    };
    io.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
    return;
  }
  for (const agent of agents) {
    const a2a =
      agent.a2a === undefined
        ? ""
        : ` (A2A agent "${agent.a2a.agent_name}", stages ${agent.a2a.stages.join(", ")})`;
    io.stdout.write(`agent ${agent.tag}: ${agent.token}${a2a}\n`);
  }
}

/**
 * The error to report after a partial registration: the service's, with a hint that says what
 * exists (a run `run create` made stays: the service cannot cancel a run) and the command that
 * adds the agents left.
 */
export function partialFailure(
  runId: string,
  agents: readonly AgentCreated[],
  { error, notAdded }: NonNullable<AgentsAdded["failure"]>,
  { runCreated }: { runCreated: boolean },
): CliError {
  const tags = agents.map((agent) => agent.tag).join(", ");
  const exists = runCreated
    ? `run ${runId} was created (${agents.length === 0 ? "with no agent" : `with ${tags}, printed above`}) and stays, as a run cannot be canceled`
    : agents.length === 0
      ? "no agent was added"
      : `${tags} added, printed above`;
  return new CliError({
    code: error.code,
    message: error.message,
    hint: `${error.hint}; ${exists}: add the rest with \`task-context run add-agent ${runId} ${agentArguments(notAdded)}\``,
    exitCode: error.exitCode,
    cause: error.cause,
  });
}
