import type { CollaborationEvent } from "@task-context/client";
import { createServiceClient, type ServiceClient, ServiceError } from "@task-context/client";
import { CliError } from "../cli-error.ts";

/** Where the service is and who is asking. */
export interface ServiceTarget {
  /** `http://127.0.0.1:8787`. */
  url: string;
  /** The admin token (or an agent token, for the reads an agent may do). */
  token: string | undefined;
}

/** What to do about an error of the service. */
function hintFor(status: number | undefined, code: string): string {
  if (status === 401)
    return "pass the admin token with --token or TASK_CONTEXT_TOKEN (`task-context serve` prints it)";
  if (status === 403) return "this needs the admin token, not an agent token";
  if (code === "RUN_NOT_FOUND") return "check the run id: `task-context run create` prints it";
  if (code === "AGENT_CARD_INVALID")
    return "check the agent's URL and the card it serves at /.well-known/agent-card.json";
  if (code === "AGENT_SKILLS_MISMATCH")
    return "declare the stages' available_skills in the agent card's skills (as ids or tags)";
  if (code === "AGENT_TAG_TAKEN") return "give the agent a tag no other agent of the run has";
  if (status === 400)
    return "fix the fields named above; the body is the POST /v1/runs body (docs/delivery-service-contract.md)";
  if (status === 429) return "wait a moment and try again";
  return "see docs/delivery-service-contract.md for what the service answers";
}

/** The lowest-level code of a failed connection, e.g. `ECONNREFUSED`. */
function systemCodeOf(error: unknown): string | undefined {
  for (let cause = error; typeof cause === "object" && cause !== null; ) {
    const { code, cause: next } = cause as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
    cause = next;
  }
  return undefined;
}

/**
 * The {@link CliError} for an error of the client: the service's answer with its code and a hint,
 * or a service that could not be reached. Other errors are returned as they are.
 */
export function cliErrorOf(target: ServiceTarget, error: unknown): unknown {
  if (!ServiceError.isInstance(error)) return error;
  if (error.code === "NETWORK_ERROR") {
    const reason = systemCodeOf(error.cause);
    return new CliError({
      code: "CLI_SERVICE",
      message: `cannot reach the delivery service at ${target.url}${reason === undefined ? "" : ` (${reason})`}`,
      hint: "start it with `task-context serve`, or pass its address with --url or TASK_CONTEXT_URL",
      cause: error,
    });
  }
  const issues = (error.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  return new CliError({
    code: "CLI_SERVICE",
    message: `the service answered ${error.status} ${error.code}: ${error.message.replace(/\.$/, "")}${issues === "" ? "" : ` (${issues})`}`,
    hint: hintFor(error.status, error.code),
    cause: error,
  });
}

/**
 * Runs `action` with a client of the service at `target`; an error of the client is thrown as
 * the {@link CliError} that says what the service answered, or that it could not be reached.
 */
export async function withService<T>(
  target: ServiceTarget,
  action: (client: ServiceClient) => Promise<T>,
): Promise<T> {
  try {
    return await action(createServiceClient(target));
  } catch (error) {
    throw cliErrorOf(target, error);
  }
}

/**
 * Follows a run's event stream live and calls `onEvent` for each event in seq order, until
 * `run.completed` ("completed") or `signal` ("stopped"). The client resumes a dropped connection
 * with `Last-Event-ID`, so no event is missed or repeated.
 */
export async function followEvents(
  target: ServiceTarget,
  runId: string,
  onEvent: (event: CollaborationEvent) => void,
  signal?: AbortSignal,
): Promise<"completed" | "stopped"> {
  try {
    await withService(target, async (client) => {
      for await (const event of client.followEvents(runId, signal === undefined ? {} : { signal }))
        onEvent(event);
    });
    return "completed";
  } catch (error) {
    if (signal?.aborted) return "stopped";
    throw error;
  }
}
