import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AGENT_CARD_PATH, type AgentCard } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { type WorkItemAgentCardOptions, workItemAgentCard } from "./work-item-agent-card.ts";
import { WorkItemExecutor, type WorkItemExecutorOptions } from "./work-item-executor.ts";

/** Options of {@link startWorkItemAgent}: its card, its work, where it listens. */
export interface WorkItemAgentOptions
  extends WorkItemAgentCardOptions,
    Pick<WorkItemExecutorOptions, "execute"> {
  /** The port to listen on (default 0: a free one, which `url` then names). */
  port?: number;
  /** The address to listen on (default `127.0.0.1`: this machine only). */
  host?: string;
  /**
   * The URL the service reaches the agent at, as its card says (default `http://{host}:{port}`):
   * set it when the agent listens on every address (`0.0.0.0`) or behind a proxy.
   */
  url?: string;
  /**
   * A token every A2A request must carry (`Authorization: Bearer <token>`), else it is answered
   * `401`; the card (served to anyone) then asks for it (`requireBearer`). Register the agent
   * with `a2a.credentials: { bearer: { bearer_token: "<token>" } }`. Default: none asked for.
   */
  bearerToken?: string;
}

/** True when `authorization` is `Bearer <token>` (compared in constant time). */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const expected = createHash("sha256").update(`Bearer ${token}`).digest();
  const given = createHash("sha256")
    .update(authorization ?? "")
    .digest();
  return timingSafeEqual(expected, given);
}

/** A work-item agent, listening. */
export interface RunningWorkItemAgent {
  /** Its URL: register it with the service (`a2a.url`). Its card is at `{url}/.well-known/agent-card.json`. */
  url: string;
  /** The card it serves. */
  card: AgentCard;
  /** The Node HTTP server it listens with. */
  server: Server;
  /** Stops: aborts the open tasks' signals, drops the open connections and closes the server. */
  close(): Promise<void>;
}

/**
 * Serves a task-context work item agent over A2A 1.0 with the official SDK (`@a2a-js/sdk`: its
 * `DefaultRequestHandler`, and its express handlers for the agent card and JSON-RPC): the card of
 * {@link workItemAgentCard}, and each message the delivery service sends worked by `execute`
 * ({@link WorkItemExecutor}). Needs `express` (4 or 5), an optional peer dependency of this
 * package and of the SDK, and runs on Node.
 *
 * @example
 * ```ts source="../../examples/a2a-agent.ts#agent"
 * import { dataPart, startWorkItemAgent } from "@task-context/server/a2a-agent";
 *
 * const agent = await startWorkItemAgent({
 *   name: "Illustrator",
 *   description: "Draws the illustrations a stage asks for",
 *   // The service gives the agent the stages whose available_skills its skills' ids or tags cover.
 *   skills: [{ id: "illustration", tags: ["illustration", "image_generation"] }],
 *   port: Number(process.env.PORT ?? 41241),
 *   async execute(task) {
 *     // task.item is the work item (work-item.v1), task.text its context rendered for a model.
 *     console.log(
 *       `${task.item.kind} ${task.item.id}, attempt ${task.attempt}, stage ${task.item.stage_id}`,
 *     );
 *     task.working(); // the service renews the item's lease at each working update
 *     if (task.item.kind === "task") {
 *       return `# ${task.item.stage_id}\n\nAn illustration of: ${task.item.goal}`; // Markdown
 *     }
 *     // A review: a data part { verdict, summary, criteria }, one entry per criterion.
 *     const criteria = task.item.review_context.review_criteria.map((criterion) => ({
 *       criterion,
 *       score: 8,
 *       comment: `${criterion}: fine`,
 *     }));
 *     return [dataPart({ verdict: "approve", summary: "Fits the brief", criteria })];
 *   },
 * });
 * console.log(`A2A agent "${agent.card.name}" on ${agent.url}`);
 * ```
 */
export async function startWorkItemAgent(
  options: WorkItemAgentOptions,
): Promise<RunningWorkItemAgent> {
  const host = options.host ?? "127.0.0.1";
  const app = express();
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = options.url ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const { bearerToken } = options;
  const card = workItemAgentCard({ ...options, requireBearer: bearerToken !== undefined }, url);
  const executor = new WorkItemExecutor(options);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
  if (bearerToken !== undefined) {
    app.use((request, response, next) => {
      if (bearerMatches(request.headers.authorization, bearerToken)) return next();
      response.status(401).set("www-authenticate", 'Bearer realm="a2a"').json({
        error: "This A2A agent takes requests with its bearer token only.",
      });
    });
  }
  app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url,
    card,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        executor.close();
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
