import type { CollaborationEvent, CreateRunInput } from "@task-context/client";
import { Command, InvalidArgumentError } from "commander";
import { usageError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { parseJsonInput, readInput } from "../read-input.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import {
  type AgentOptions,
  addAgents,
  agentRequests,
  partialFailure,
  printAdded,
} from "../service/add-agents.ts";
import { followEvents, type ServiceTarget, withService } from "../service/service-client.ts";

/** The service's default address. */
const DEFAULT_URL = "http://127.0.0.1:8787";

/** `--url` and `--token` as every `run` command takes them. */
interface ServiceOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

function targetOf(io: CliIo, options: ServiceOptions): ServiceTarget {
  const url = options.url ?? io.env.TASK_CONTEXT_URL ?? DEFAULT_URL;
  try {
    new URL(url);
  } catch {
    throw usageError(
      `--url ${JSON.stringify(url)} is not a URL`,
      "pass the address `task-context serve` printed, e.g. http://127.0.0.1:8787",
    );
  }
  const token = options.token ?? io.env.TASK_CONTEXT_TOKEN ?? io.env.TASK_CONTEXT_ADMIN_TOKEN;
  return { url, token: token === "" ? undefined : token };
}

function withServiceOptions(command: Command): Command {
  return command
    .option("--url <url>", `the service's address (default: $TASK_CONTEXT_URL or ${DEFAULT_URL})`)
    .option(
      "--token <token>",
      "the admin token (default: $TASK_CONTEXT_TOKEN or $TASK_CONTEXT_ADMIN_TOKEN)",
    )
    .option("--json", "print JSON");
}

/** Columns padded to their widest cell. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
        )
        .join("  "),
    )
    .join("\n");
}

/** One line for an event: `seq type field=value …`, without the fields every event has. */
export function describeEvent(event: CollaborationEvent): string {
  const {
    seq,
    type,
    id: _id,
    run_id: _run,
    at: _at,
    ...fields
  } = event as CollaborationEvent & Record<string, unknown>;
  const shown = Object.entries(fields).map(
    ([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  return [String(seq), type, ...shown].join(" ");
}

/** The longest a view link may live, in seconds (the service's limit: one day). */
const MAX_VIEW_TTL = 86_400;

/** `--ttl` as a whole number of seconds from 1 to a day. */
function parseTtl(value: string): number {
  const seconds = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_VIEW_TTL)) {
    throw usageError(
      `--ttl ${JSON.stringify(value)} is not a number of seconds from 1 to ${MAX_VIEW_TTL}`,
      "pass how long the link works, e.g. --ttl 3600 (one hour, the default)",
    );
  }
  return seconds;
}

/** A cancel's reason: one line, at most 1000 characters (the service's limit). */
function parseReason(value: string): string {
  if (value === "" || value.length > 1000 || /[\r\n]/.test(value)) {
    throw usageError(
      `--reason must be one line of 1 to 1000 characters (this one has ${value.length})`,
      'say briefly why, e.g. --reason "the brief changed"',
    );
  }
  return value;
}

/**
 * `task-context run create|add-agent|status|events|view|cancel`: talk to a running delivery
 * service.
 */
export function addRunCommands(program: Command, { io, exit, outputClosed }: CommandContext): void {
  const run = configureCommand(new Command("run"), io)
    .description(
      "create a run, add agents, show its status, follow its events, cancel it on a running delivery service",
    )
    .addHelpCommand(false)
    .addHelpText(
      "after",
      examples(
        "task-context run create run.json --agent writer --agent reviewer",
        "task-context run add-agent run_01JD… --agent editor",
        "task-context run status run_01JD… --json",
        "task-context run events run_01JD…",
        "task-context run view run_01JD… --ttl 600",
        'task-context run cancel run_01JD… --reason "the brief changed"',
      ),
    );

  const create = configureCommand(new Command("create"), io)
    .description(
      "create a run from a POST /v1/runs body; print its id (and agent tokens with --agent)",
    )
    .argument("<run.json>", "the run (goal, constraints, stages); - reads stdin");
  withAgentOptions(create);
  withServiceOptions(create)
    .addHelpText(
      "after",
      `
A2A agents are added first, then the others. When the service refuses one, what was created is
printed all the same (the run's id, each token added) and the error names the \`run add-agent\`
command that adds the agents left (the run stays; \`run cancel\` cancels it).
${examples(
  "task-context run create run.json",
  "task-context run create run.json --agent writer --agent reviewer --json",
  "task-context run create run.json --agent writer --a2a-agent illustrator=http://127.0.0.1:41241",
  "cat run.json | task-context run create - --url http://127.0.0.1:8787",
)}`,
    )
    .action(async (file: string, options: ServiceOptions & AgentFlags) => {
      const target = targetOf(io, options);
      const requests = await requestsOf(io, options);
      const body = parseJsonInput(await readInput(io, file));
      // The service checks the body against the contract and names what is wrong.
      const run = await withService(target, (client) => client.createRun(body as CreateRunInput));
      const added = await addAgents(target, run.run_id, requests);
      if (options.json !== true) io.stdout.write(`${run.run_id}\n`);
      printAdded(io, options, added, { run });
      if (added.failure !== undefined) {
        throw partialFailure(run.run_id, added.agents, added.failure, { runCreated: true });
      }
      exit(0);
    });

  const addAgent = configureCommand(new Command("add-agent"), io)
    .description("add agents to a run; print each one's token")
    .argument("<run-id>", "the id `task-context run create` printed");
  withAgentOptions(addAgent);
  withServiceOptions(addAgent)
    .addHelpText(
      "after",
      `
Agents are added as by \`run create\`: A2A agents first; when the service refuses one, the
tokens of those added are printed all the same and the error names the agents left.
${examples(
  "task-context run add-agent run_01JD… --agent reviewer",
  "task-context run add-agent run_01JD… --a2a-agent illustrator=http://127.0.0.1:41241 --json",
  "task-context run add-agent run_01JD… --a2a-agent illustrator=https://illustrator.example --a2a-options illustrator=illustrator.json",
)}`,
    )
    .action(async (runId: string, options: ServiceOptions & AgentFlags) => {
      const target = targetOf(io, options);
      const requests = await requestsOf(io, options);
      if (requests.length === 0) {
        throw usageError(
          "run add-agent needs an agent to add",
          "pass --agent <tag> or --a2a-agent <tag>=<url> (each repeatable)",
        );
      }
      const added = await addAgents(target, runId, requests);
      printAdded(io, options, added);
      if (added.failure !== undefined) {
        throw partialFailure(runId, added.agents, added.failure, { runCreated: false });
      }
      exit(0);
    });

  const status = configureCommand(new Command("status"), io)
    .description("show a run's status and each stage's counts")
    .argument("<run-id>", "the id `task-context run create` printed");
  withServiceOptions(status)
    .addHelpText(
      "after",
      examples("task-context run status run_01JD…", "task-context run status run_01JD… --json"),
    )
    .action(async (runId: string, options: ServiceOptions) => {
      const answer = await withService(targetOf(io, options), (client) => client.getRun(runId));
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
        exit(0);
        return;
      }
      const rows = [
        ["stage", "kind", "status", "total", "offered", "leased", "completed", "dead-lettered"],
        ...answer.stages.map((stage) => [
          stage.id,
          stage.kind,
          stage.status,
          String(stage.counts.total),
          String(stage.counts.offered),
          String(stage.counts.leased),
          String(stage.counts.completed),
          String(stage.counts.dead_lettered),
        ]),
      ];
      io.stdout.write(
        `run ${answer.run_id}: ${answer.status}\ngoal: ${answer.goal}\n\n${table(rows)}\n`,
      );
      exit(0);
    });

  const events = configureCommand(new Command("events"), io)
    .description("stream a run's events live, one line each, until run.completed or run.canceled")
    .argument("<run-id>", "the id `task-context run create` printed");
  withServiceOptions(events)
    .addHelpText(
      "after",
      `
Each line is the event's seq, its type and its own fields. A dropped connection is resumed
after the last event shown (Last-Event-ID): no event is missed or repeated. Ends after
run.completed or run.canceled, or on Ctrl-C. --json prints each event as a JSON line.
${examples("task-context run events run_01JD…", "task-context run events run_01JD… --json | jq .type")}`,
    )
    .action(async (runId: string, options: ServiceOptions) => {
      const stop = new AbortController();
      const stopListening = io.onSignal?.(() => stop.abort());
      try {
        await followEvents(
          targetOf(io, options),
          runId,
          (event) => {
            io.stdout.write(
              `${options.json === true ? JSON.stringify(event) : describeEvent(event)}\n`,
            );
          },
          // Ctrl-C, or nobody reading the lines any more (`… | head -1`): the stream closes.
          AbortSignal.any([stop.signal, outputClosed]),
        );
      } finally {
        stopListening?.();
      }
      exit(0);
    });

  const view = configureCommand(new Command("view"), io)
    .description("print a short-lived link to the run's page, to open in a browser")
    .argument("<run-id>", "the id `task-context run create` printed")
    .option("--ttl <seconds>", "how long the link works, in seconds (default 3600, at most 86400)")
    .option("--can-requeue", "let the page's Requeue buttons put dead letters back on offer");
  withServiceOptions(view)
    .addHelpText(
      "after",
      `
The page shows the run's goal, stages, work items, artifacts with their reviews and its events,
live. The link works without the admin token, for this run only, until it expires; anyone with
it can read the run (and, with --can-requeue, requeue its dead letters). --json prints
{ url, expires_at, can_requeue }.
${examples("task-context run view run_01JD…", "task-context run view run_01JD… --ttl 600 --can-requeue")}`,
    )
    .action(
      async (runId: string, options: ServiceOptions & { ttl?: string; canRequeue?: boolean }) => {
        const target = targetOf(io, options);
        const body = {
          ...(options.ttl === undefined ? {} : { ttl_seconds: parseTtl(options.ttl) }),
          ...(options.canRequeue === true ? { can_requeue: true } : {}),
        };
        const link = await withService(target, (client) => client.createViewLink(runId, body));
        io.stdout.write(
          options.json === true ? `${JSON.stringify(link, null, 2)}\n` : `${link.url}\n`,
        );
        exit(0);
      },
    );

  const cancel = configureCommand(new Command("cancel"), io)
    .description(
      "cancel a run: its work items are withdrawn and nothing of it is accepted any more",
    )
    .argument("<run-id>", "the id `task-context run create` printed")
    .option("--reason <text>", "why, kept with the run and shown to its agents (one line)");
  withServiceOptions(cancel)
    .addHelpText(
      "after",
      `
The run's status becomes canceled, for good: its agents' claims, heartbeats, completions and
failures are refused (409 RUN_CANCELED, saying when), A2A tasks in flight are canceled at their
agents, its event stream ends. Canceling a canceled run prints it again; a completed run cannot
be canceled (409 RUN_COMPLETED, exit 1). --json prints the run.
${examples("task-context run cancel run_01JD…", 'task-context run cancel run_01JD… --reason "the brief changed" --json')}`,
    )
    .action(async (runId: string, options: ServiceOptions & { reason?: string }) => {
      const target = targetOf(io, options);
      const body = options.reason === undefined ? {} : { reason: parseReason(options.reason) };
      const canceled = await withService(target, (client) => client.cancelRun(runId, body));
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify(canceled, null, 2)}\n`);
      } else {
        const why = canceled.cancel_reason === undefined ? "" : ` (${canceled.cancel_reason})`;
        io.stdout.write(`run ${canceled.run_id}: canceled at ${canceled.canceled_at}${why}\n`);
      }
      exit(0);
    });

  run
    .addCommand(create)
    .addCommand(addAgent)
    .addCommand(status)
    .addCommand(events)
    .addCommand(view)
    .addCommand(cancel);
  program.addCommand(run);
}

/** `--agent` and `--a2a-agent`, repeatable, as `run create` and `run add-agent` take them. */
function withAgentOptions(command: Command): Command {
  return command
    .option(
      "--agent <tag>",
      "add an agent with this tag and print its token (repeatable)",
      (tag: string, tags: string[]) => [...tags, tag],
      [] as string[],
    )
    .option(
      "--a2a-agent <tag=url>",
      "add an A2A agent (1.0 or 0.3): the service reads its agent card at the URL and sends it the work items of the stages its skills cover (repeatable)",
      (value: string, agents: AgentOptions["a2aAgent"]) => [...agents, parseA2aAgent(value)],
      [] as AgentOptions["a2aAgent"],
    )
    .option(
      "--a2a-options <tag=file>",
      'the rest of an A2A agent\'s registration as a JSON object in a file, e.g. its credentials: {"credentials": {"bearer": {"bearer_token": "…"}}} (kept out of the command line and never printed)',
      (value: string, options: A2aOptionsArgument[]) => [...options, parseA2aOptions(value)],
      [] as A2aOptionsArgument[],
    );
}

/** The agents' options as commander parses them: the `--a2a-options` files not read yet. */
type AgentFlags = Omit<AgentOptions, "a2aOptions"> & { a2aOptions: A2aOptionsArgument[] };

/** The agents to add, each `--a2a-options` file read. */
async function requestsOf(io: CliIo, options: AgentFlags) {
  return agentRequests({ ...options, a2aOptions: await readA2aOptions(io, options.a2aOptions) });
}

/** `--a2a-options <tag>=<file>` as typed, before the file is read. */
interface A2aOptionsArgument {
  tag: string;
  file: string;
}

/** `tag=file` as an A2A agent's options file; a usage error (exit 2) for anything else. */
function parseA2aOptions(value: string): A2aOptionsArgument {
  const at = value.indexOf("=");
  if (at < 1 || at === value.length - 1) {
    throw new InvalidArgumentError(
      "expected <tag>=<file>, the agent's tag and a JSON file of its registration's a2a fields, e.g. illustrator=illustrator.json",
    );
  }
  return { tag: value.slice(0, at), file: value.slice(at + 1) };
}

/**
 * Reads each `--a2a-options` file: a JSON object of the agent's `a2a` registration fields other
 * than `url` (which `--a2a-agent` gives). Its contents (credentials) are never printed: an error
 * names the file only.
 */
async function readA2aOptions(
  io: CliIo,
  given: readonly A2aOptionsArgument[],
): Promise<AgentOptions["a2aOptions"]> {
  const options: AgentOptions["a2aOptions"] = [];
  for (const { tag, file } of given) {
    const fields = parseJsonInput(await readInput(io, file));
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw usageError(
        `${file} (--a2a-options ${tag}) is not a JSON object`,
        'write the agent\'s a2a fields as an object, e.g. {"credentials": {"bearer": {"bearer_token": "…"}}}',
      );
    }
    if ("url" in fields) {
      throw usageError(
        `${file} (--a2a-options ${tag}) gives a url`,
        `give the agent's URL with --a2a-agent ${tag}=<url> and leave it out of the file`,
      );
    }
    options.push({ tag, file, fields: fields as Record<string, unknown> });
  }
  return options;
}

/** `tag=url` as an A2A agent to add; a usage error (exit 2) for anything else. */
function parseA2aAgent(value: string): { tag: string; url: string } {
  const at = value.indexOf("=");
  const tag = value.slice(0, at);
  const url = value.slice(at + 1);
  if (at < 1 || !/^https?:\/\/./.test(url) || !URL.canParse(url)) {
    throw new InvalidArgumentError(
      "expected <tag>=<url>, the agent's tag and its http(s) URL, e.g. illustrator=http://127.0.0.1:41241",
    );
  }
  return { tag, url };
}
