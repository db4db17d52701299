import type { CreateRunInput } from "@task-context/client";
import { createServiceClient } from "@task-context/client";
import { type ContextView, loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import type { RunContext } from "@task-context/protocols";
import { isNotInstalled } from "../service/load-node-service.ts";
import { PROBE_REQUEST } from "./built-in-paths.ts";
import type { ProbeDelivery, ProbePath, SkippedPaths } from "./probe-paths.ts";

type NodeService = typeof import("@task-context/server/node");
type A2aAgentModule = typeof import("@task-context/server/a2a-agent");
type WorkItemTask = Parameters<Parameters<A2aAgentModule["startWorkItemAgent"]>[0]["execute"]>[0];

/** The names of the delivery service's paths, in the report. */
export const WORK_ITEM_PATH = "work item (delivery service)";
export const A2A_PATH = "A2A agent (delivery service)";

/** The admin token of the probe's own service: it listens on loopback for the probe alone. */
const ADMIN_TOKEN = "task-context-probe";

/** How long the A2A agent may take to get its message: it matters only when it never comes. */
const A2A_PATIENCE_MS = 30_000;

/** Options of {@link servicePaths}: how the run is built from CONTEXT.md (tests break it). */
export interface ServicePathOptions {
  /**
   * The run to create from the canary CONTEXT.md's text. Default: one stage whose `background`
   * is the whole text, as an agent hands its task context to the service's agents.
   */
  run?: (context: string) => CreateRunInput;
  /** The view of CONTEXT.md the run carries instead of the whole file: judged by its sections. */
  view?: ContextView;
}

/** The run the probe creates: the task context travels as the stage's `background`. */
export function probeRun(context: string): CreateRunInput {
  return {
    goal: PROBE_REQUEST,
    constraints: [],
    stages: [
      {
        id: "probe",
        stage_description: PROBE_REQUEST,
        expected_output: "Nothing.",
        available_skills: [],
        background: context,
      },
    ],
  };
}

/**
 * Starts the delivery service on loopback on an in-memory SQLite database, creates the run of the
 * canary CONTEXT.md in it and gives `work` the service's URL and the run's id; closes the service.
 */
async function withProbeRun<T>(
  service: NodeService,
  directory: string,
  options: ServicePathOptions,
  work: (url: string, runId: string) => Promise<T>,
): Promise<T> {
  const context = await loadTaskContext(
    nodeWorkspace(directory),
    options.view === undefined ? {} : { view: options.view },
  );
  const server = await service.startNodeServer({
    port: 0,
    database: ":memory:",
    adminToken: ADMIN_TOKEN,
    limits: { rateLimit: false },
  });
  try {
    const admin = createServiceClient({ url: server.url, token: ADMIN_TOKEN });
    const run = await admin.createRun((options.run ?? probeRun)(context.content));
    return await work(server.url, run.run_id);
  } finally {
    await server.close();
  }
}

/** The view the run was built from, as a delivery names it. */
const viewOf = ({ view }: ServicePathOptions): Pick<ProbeDelivery, "view" | "viewDefinition"> =>
  view === undefined ? {} : { view: view.name, viewDefinition: view };

/** The text of a run context as its fields carry it, one per line: what an agent reads. */
function carriedText(item: RunContext): string {
  const stage = item.stage_context;
  return [
    item.goal,
    ...item.constraints,
    stage.stage_description,
    stage.expected_output,
    ...(stage.background === undefined ? [] : [stage.background]),
  ].join("\n");
}

/** A polling agent claims its work item with `@task-context/client`; the item's fields are read. */
function workItemPath(service: NodeService, options: ServicePathOptions): ProbePath {
  return {
    name: WORK_ITEM_PATH,
    send: ({ directory }) =>
      withProbeRun(service, directory, options, async (url, runId) => {
        const admin = createServiceClient({ url, token: ADMIN_TOKEN });
        const { token } = await admin.addAgent(runId, { tag: "probe" });
        const claim = await createServiceClient({ url, token }).claimNext();
        if (claim === undefined) throw new Error("no work item was offered to the probe's agent");
        const item = claim.work_item;
        const delivery: ProbeDelivery = { text: carriedText(item), ...viewOf(options) };
        if (item.context_sha256 !== undefined) delivery.receipt = item.context_sha256;
        return delivery;
      }),
  };
}

/**
 * Rejects with the reason of the first attempt of the run that failed (the service could not
 * deliver the item to the A2A agent, which then never sees it); never resolves otherwise.
 */
async function failedAttempt(
  admin: ReturnType<typeof createServiceClient>,
  runId: string,
  signal: AbortSignal,
): Promise<never> {
  try {
    for await (const event of admin.followEvents(runId, { signal })) {
      if (event.type === "work_item.failed") {
        throw new Error(`the service could not deliver the work item: ${event.reason}`);
      }
    }
  } catch (error) {
    if (signal.aborted) return new Promise<never>(() => undefined);
    throw error;
  }
  return new Promise<never>(() => undefined);
}

/**
 * The A2A agent's copy of the message: its text part, with the `Background: ` label of the
 * stage's background on a line of its own, so that the first line of CONTEXT.md is a line again.
 */
function a2aText(task: WorkItemTask): string {
  return task.text.replace(/^Background: /m, "Background:\n");
}

/**
 * The service sends the run's work item to an A2A agent served by `startWorkItemAgent` (the
 * official A2A SDK's server, on loopback): what its message carried is read.
 */
function a2aPath(
  service: NodeService,
  agents: A2aAgentModule,
  options: ServicePathOptions,
): ProbePath {
  return {
    name: A2A_PATH,
    send: ({ directory }) =>
      withProbeRun(service, directory, options, async (url, runId) => {
        let received: (task: WorkItemTask) => void = () => undefined;
        const message = new Promise<WorkItemTask>((resolve) => {
          received = resolve;
        });
        const agent = await agents.startWorkItemAgent({
          name: "task-context probe",
          skills: [{ id: "probe" }],
          execute: (task) => {
            received(task);
            return "probed";
          },
        });
        const stop = new AbortController();
        let timer: NodeJS.Timeout | undefined;
        try {
          const admin = createServiceClient({ url, token: ADMIN_TOKEN });
          await admin.addAgent(runId, { tag: "probe-a2a", a2a: { url: agent.url } });
          const task = await Promise.race([
            message,
            failedAttempt(admin, runId, stop.signal),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error("the A2A agent received no message from the service")),
                A2A_PATIENCE_MS,
              );
            }),
          ]);
          const delivery: ProbeDelivery = { text: a2aText(task), ...viewOf(options) };
          if (task.metadata.context_sha256 !== undefined) {
            delivery.receipt = task.metadata.context_sha256;
          }
          return delivery;
        } finally {
          clearTimeout(timer);
          stop.abort();
          await agent.close();
        }
      }),
  };
}

/** The delivery service's paths that run here, and those that cannot, each with why. */
export interface ServicePaths {
  paths: ProbePath[];
  skipped: SkippedPaths[];
}

/**
 * The delivery service's paths: a work item claimed by a polling agent, and the same run's work
 * item sent to an A2A agent. They start `@task-context/server` (an optional peer) in process on
 * an in-memory SQLite database, which needs Node ≥ 22.13; the A2A agent needs `express`. Where
 * one cannot load, it is among `skipped`, with the reason.
 */
export async function servicePaths(options: ServicePathOptions = {}): Promise<ServicePaths> {
  const both = [WORK_ITEM_PATH, A2A_PATH];
  let service: NodeService;
  try {
    service = await import("@task-context/server/node");
  } catch (error) {
    if (!isNotInstalled(error, "@task-context/server")) throw error;
    return {
      paths: [],
      skipped: [{ names: both, reason: "install @task-context/server" }],
    };
  }
  try {
    await import("node:sqlite");
  } catch {
    return {
      paths: [],
      skipped: [
        {
          names: both,
          reason: `the service's embedded SQLite needs Node >= ${service.SQLITE_NODE}`,
        },
      ],
    };
  }
  const paths = [workItemPath(service, options)];
  try {
    paths.push(a2aPath(service, await import("@task-context/server/a2a-agent"), options));
  } catch (error) {
    if (!isNotInstalled(error, "express")) throw error;
    return { paths, skipped: [{ names: [A2A_PATH], reason: "install express" }] };
  }
  return { paths, skipped: [] };
}
