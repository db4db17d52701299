import type { AddAgentInput, AgentCreated, RunCreated } from "@task-context/client";
import { CliError, usageError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { type ServiceTarget, withService } from "./service-client.ts";

/** An agent to add to a run: `--agent <tag>`, or `--a2a-agent <tag>=<url>` with its URL. */
export interface AgentRequest {
  tag: string;
  /** The A2A agent's base URL; undefined for an agent that polls with its token. */
  url?: string;
  /**
   * The rest of the A2A agent's registration (`a2a.credentials`, …), read from the file
   * `--a2a-options <tag>=<file>` names; `file` is kept to name it again, never its contents.
   */
  options?: { file: string; fields: Record<string, unknown> };
}

/** `--agent`, `--a2a-agent` and `--a2a-options` as `run create` and `run add-agent` take them. */
export interface AgentOptions {
  agent: string[];
  a2aAgent: { tag: string; url: string }[];
  /** `--a2a-options <tag>=<file>`: each file read, its JSON object given (see `readA2aOptions`). */
  a2aOptions: { tag: string; file: string; fields: Record<string, unknown> }[];
}

/**
 * The agents to add, A2A agents first: their registration is the one that can fail on what the
 * service finds (an agent card it cannot read, skills that cover no stage), and a failure then
 * leaves no token issued to nobody. A tag given twice, or empty, is a usage error (exit 2) before
 * anything is sent: the service would refuse it only after the run exists.
 */
export function agentRequests({ agent, a2aAgent, a2aOptions }: AgentOptions): AgentRequest[] {
  const requests: AgentRequest[] = [
    ...a2aAgent.map((request) => withA2aOptions(request, a2aOptions)),
    ...agent.map((tag) => ({ tag })),
  ];
  for (const { tag } of a2aOptions) {
    if (!a2aAgent.some((request) => request.tag === tag)) {
      throw usageError(
        `--a2a-options names ${JSON.stringify(tag)}, which no --a2a-agent adds`,
        `add the agent with --a2a-agent ${tag}=<url>, or drop its --a2a-options`,
      );
    }
  }
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

/** An A2A agent's request with the fields its one `--a2a-options` file gives. */
function withA2aOptions(
  request: { tag: string; url: string },
  a2aOptions: AgentOptions["a2aOptions"],
): AgentRequest {
  const given = a2aOptions.filter(({ tag }) => tag === request.tag);
  if (given.length > 1) {
    throw usageError(
      `--a2a-options names ${JSON.stringify(request.tag)} twice`,
      "put all of the agent's registration fields in one file",
    );
  }
  const [options] = given;
  return options === undefined
    ? request
    : { ...request, options: { file: options.file, fields: options.fields } };
}

/** The `--agent` / `--a2a-agent` / `--a2a-options` options that add `requests`, as they are typed. */
export function agentArguments(requests: readonly AgentRequest[]): string {
  return requests
    .map(({ tag, url, options }) =>
      url === undefined
        ? `--agent ${tag}`
        : `--a2a-agent ${tag}=${url}${options === undefined ? "" : ` --a2a-options ${tag}=${options.file}`}`,
    )
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
  for (const [index, { tag, url, options }] of requests.entries()) {
    // The file's fields as given (the service checks them); the URL is the one `--a2a-agent` gives.
    const input: AddAgentInput =
      url === undefined
        ? { tag }
        : { tag, a2a: { ...options?.fields, url } as AddAgentInput["a2a"] };
    try {
      agents.push(await withService(target, (client) => client.addAgent(runId, input)));
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
 * exists (a run `run create` made stays until it is canceled) and the command that adds the
 * agents left, or the one that cancels the run.
 */
export function partialFailure(
  runId: string,
  agents: readonly AgentCreated[],
  { error, notAdded }: NonNullable<AgentsAdded["failure"]>,
  { runCreated }: { runCreated: boolean },
): CliError {
  const tags = agents.map((agent) => agent.tag).join(", ");
  const exists = runCreated
    ? `run ${runId} was created (${agents.length === 0 ? "with no agent" : `with ${tags}, printed above`}) and stays (\`task-context run cancel ${runId}\` cancels it)`
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
