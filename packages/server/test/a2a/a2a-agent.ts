// A real A2A 1.0 agent for the tests: the public work-item agent of @task-context/server/a2a-agent
// (its executor and card, on the official SDK's DefaultRequestHandler and express handlers) on
// loopback. It does the work of the demo's stages — a text artifact for a task item, a review data
// part for a review item — unless a behaviour makes it hostile; on top of the public agent it
// serves any card (a lying or broken one, or none), counts each task's polls, publishes `working`
// without a timestamp, and drops its connections on demand.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AGENT_CARD_PATH, type AgentCard, type Message, type Part, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type PushNotificationSender,
} from "@a2a-js/sdk/server";
import {
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
  UserBuilder,
} from "@a2a-js/sdk/server/express";
import type { WorkItem } from "@task-context/protocols";
import express from "express";
import {
  dataPart,
  textPart,
  WorkItemExecutor,
  type WorkItemTask,
  workItemAgentCard,
} from "../../src/a2a-agent.ts";
import type { ServiceClient } from "../../src/client.ts";
import { a2a03CardJson } from "./a2a03-card.ts";

export { dataPart, textPart };

/** What the agent does with one task; the default does the stage's work at once. */
export type Behaviour = (task: AgentTask) => Promise<void>;

/** One task as a behaviour sees it: the work item received, and ways to answer. */
export interface AgentTask {
  item: WorkItem;
  /** The work item's attempt, from the message's metadata. */
  attempt: number;
  message: Message;
  taskId: string;
  /** The text part the service rendered. */
  text: string;
  /** Publishes `working`: with a status timestamp unless `timestamp: false` (it is optional). */
  working(options?: { timestamp?: boolean }): void;
  /** Publishes an artifact (default: the stage's work) then `completed`. */
  complete(parts?: Part[]): void;
  /** Publishes a final (or interrupted) state with a message. */
  finish(state: TaskState, said?: string): void;
  /** True once the service asked to cancel this task, or the agent closed. */
  canceled(): boolean;
  /** How many times the task was polled (tasks/get) so far. */
  polls(): number;
  bus: ExecutionEventBus;
}

/** The stage's work: a draft for a task item, an approval by every criterion for a review. */
export function stageWork(item: WorkItem, by: string): Part[] {
  if (item.kind === "review") {
    return [
      dataPart({
        verdict: "approve",
        summary: `Reviewed by ${by}`,
        criteria: item.review_context.review_criteria.map((criterion) => ({
          criterion,
          comment: `${criterion}: fine`,
        })),
      }),
    ];
  }
  return [textPart(`# ${item.stage_id} by ${by}\n\n${item.goal}`)];
}

/** A polling agent (its typed client) claims the next item and completes it with a draft. */
export async function completeNextByPolling(polling: ServiceClient): Promise<void> {
  const claim = await polling.claimNext();
  if (claim === undefined) throw new Error("nothing was on offer to the polling agent");
  await polling.complete(claim.work_item.id, {
    attempt: claim.lease.attempt,
    artifact: { media_type: "text/markdown", content: "# Lumen" },
  });
}

/** The default behaviour: working, then the stage's work, completed. */
export const doTheWork: Behaviour = async (task) => {
  task.working();
  task.complete();
};

export interface A2aAgentOptions {
  name: string;
  skills: { id: string; tags?: string[] }[];
  streaming?: boolean;
  behaviour?: Behaviour;
  /**
   * Serve this instead of the card (a lying or broken card, a signed one); `null`: no card at
   * all (404). Asked again at each read of the card, so a card may change between reads.
   */
  card?: (card: AgentCard) => unknown;
  /** Signs the card the SDK serves (the SDK's `generateAgentCardSignature`). */
  signer?: (card: AgentCard) => Promise<AgentCard>;
  /** Served as JSON at `/jwks.json` (a key set for the card's signatures). */
  jwks?: unknown;
  /**
   * Speak A2A 0.3 only, as an agent built before 1.0: a 0.3 card (no `supportedInterfaces`), and
   * the official SDK's 0.3 compatibility layer answering JSON-RPC at `/` and HTTP+JSON at `/rest`
   * (the interface `transport` names first; the other is listed second), whatever `A2A-Version`
   * a request says (0.3 had no such header): a 1.0 method is "Method not found".
   */
  a2a03?: { transport: "JSONRPC" | "HTTP+JSON" };
  /**
   * The card's security schemes and requirements (the SDK's types, served as A2A 1.0 JSON), and
   * the check every A2A request must pass: else it is answered HTTP 401 and noted in `refused`.
   */
  /**
   * Offer push notifications (`capabilities.pushNotifications`) and send them with this sender
   * (made over the SDK's push-config store: see ./push-sender.ts).
   */
  push?: (store: InMemoryPushNotificationStore) => PushNotificationSender;
  security?: {
    schemes: AgentCard["securitySchemes"];
    requirements: AgentCard["securityRequirements"];
    admits: (request: IncomingMessage) => boolean;
  };
}

export interface RunningA2aAgent {
  url: string;
  /** Every task it received, in order. */
  tasks: AgentTask[];
  /** Every A2A request it refused (HTTP 401) for want of credentials, in order. */
  refused: IncomingMessage[];
  /** Drops every open connection (a stream breaks), and goes on serving new ones. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** The SDK's request handler, counting each task's polls (tasks/get). */
class CountingRequestHandler extends DefaultRequestHandler {
  readonly polls = new Map<string, number>();

  override async getTask(
    ...args: Parameters<DefaultRequestHandler["getTask"]>
  ): ReturnType<DefaultRequestHandler["getTask"]> {
    this.polls.set(args[0].id, (this.polls.get(args[0].id) ?? 0) + 1);
    return super.getTask(...args);
  }
}

/** The public executor, noting every cancel, also of a task whose behaviour already returned. */
class NotingExecutor extends WorkItemExecutor {
  readonly canceled = new Set<string>();
  closed = false;

  override async cancelTask(taskId: string): Promise<void> {
    this.canceled.add(taskId);
    await super.cancelTask(taskId);
  }

  override close(): void {
    this.closed = true;
    super.close();
  }
}

/** `working` without a status timestamp, which A2A makes optional. */
function workingWithoutTimestamp(task: WorkItemTask) {
  return AgentEvent.statusUpdate({
    taskId: task.taskId,
    contextId: task.contextId,
    status: { state: TaskState.TASK_STATE_WORKING, timestamp: undefined, message: undefined },
    metadata: undefined,
  });
}

/** A 0.3 agent's interfaces: JSON-RPC at `{url}/`, HTTP+JSON at `{url}/rest`, `transport` first. */
function a2a03Interfaces(url: string, { transport }: NonNullable<A2aAgentOptions["a2a03"]>) {
  const jsonRpc = {
    url: `${url}/`,
    protocolBinding: "JSONRPC",
    tenant: "",
    protocolVersion: "0.3",
  };
  const rest = { ...jsonRpc, url: `${url}/rest`, protocolBinding: "HTTP+JSON" };
  return transport === "JSONRPC" ? [jsonRpc, rest] : [rest, jsonRpc];
}

/** Starts an A2A agent on 127.0.0.1 (a free port). */
export async function startA2aAgent(options: A2aAgentOptions): Promise<RunningA2aAgent> {
  const tasks: AgentTask[] = [];
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card = workItemAgentCard({ ...options, description: `A test agent: ${options.name}` }, url);
  if (options.a2a03 !== undefined) card.supportedInterfaces = a2a03Interfaces(url, options.a2a03);
  const refused: IncomingMessage[] = [];
  const security = options.security;
  if (security !== undefined) {
    card.securitySchemes = security.schemes;
    card.securityRequirements = security.requirements;
  }
  const behaviour = options.behaviour ?? doTheWork;
  let handler: CountingRequestHandler | undefined;
  const executor: NotingExecutor = new NotingExecutor({
    name: options.name,
    execute: async (task) => {
      const agentTask: AgentTask = {
        item: task.item,
        attempt: task.attempt,
        message: task.message,
        taskId: task.taskId,
        text: task.text,
        bus: task.bus,
        working: (working) =>
          working?.timestamp === false
            ? task.bus.publish(workingWithoutTimestamp(task))
            : task.working(),
        complete: (parts = stageWork(task.item, options.name)) =>
          task.complete(parts, { title: `${task.item.stage_id} result` }),
        finish: (state, said) => task.finish(state, said),
        canceled: () =>
          task.signal.aborted || executor.canceled.has(task.taskId) || executor.closed,
        polls: () => handler?.polls.get(task.taskId) ?? 0,
      };
      tasks.push(agentTask);
      await behaviour(agentTask);
      return undefined;
    },
  });
  const pushStore = new InMemoryPushNotificationStore();
  if (options.push !== undefined && card.capabilities !== undefined) {
    card.capabilities.pushNotifications = true;
  }
  handler = new CountingRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    undefined,
    options.push === undefined ? undefined : pushStore,
    options.push?.(pushStore),
    undefined,
    options.signer,
  );
  if (options.a2a03 !== undefined) {
    // A 0.3 agent answers 0.3 whatever a request says: the SDK's handlers take no header as 0.3.
    app.use((request, _response, next) => {
      delete request.headers["a2a-version"];
      next();
    });
  }
  if (options.card === undefined && options.a2a03 !== undefined) {
    app.get(`/${AGENT_CARD_PATH}`, (_request, response) => {
      response.json(a2a03CardJson(card));
    });
  } else if (options.card === undefined) {
    app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  } else {
    const serve = options.card;
    app.get(`/${AGENT_CARD_PATH}`, async (_request, response) => {
      const served = await serve(card);
      if (served === null) {
        response.status(404).end();
        return;
      }
      response
        .type("application/json")
        .send(typeof served === "string" ? served : JSON.stringify(served));
    });
  }
  if (options.jwks !== undefined) {
    const jwks = options.jwks;
    app.get("/jwks.json", (_request, response) => {
      response.json(jwks);
    });
  }
  if (security !== undefined) {
    app.use((request, response, next) => {
      if (security.admits(request)) return next();
      refused.push(request);
      response.status(401).set("www-authenticate", "Bearer").json({ error: "unauthorized" });
    });
  }
  const legacyCompat = { enabled: options.a2a03 !== undefined };
  const userBuilder = UserBuilder.noAuthentication;
  if (options.a2a03 !== undefined) {
    app.use("/rest", restHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  }
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  return {
    url,
    tasks,
    refused,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        executor.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
