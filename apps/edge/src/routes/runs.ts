import { sha256Hex } from "@task-context/core/internal";
import { jsonResponse } from "../contract/openapi.ts";
import {
  addAgentBody,
  agentCreated,
  artifact,
  createRunBody,
  deadLettersView,
  requeueView,
  runView,
} from "../contract/schemas.ts";
import { newAgentToken, newId } from "../delivery/ids.ts";
import { jsonBody } from "../http/validation.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

/** Runs, agents, artifacts and dead letters. */
export function runRoutes(app: App, context: RouteContext): void {
  const { store } = context;

  app.post(
    "/v1/runs",
    endpoint(context, {
      id: "createRun",
      summary: "Create a run and offer its first stage's work items",
      tag: "runs",
      audience: "admin",
      responses: { 201: jsonResponse(runView, "The run") },
      errors: [400, 403, 413, 415],
    }),
    jsonBody(createRunBody),
    async (c) => c.json(await store.createRun(newId("run"), c.req.valid("json")), 201),
  );

  app.get(
    "/v1/runs/:run_id",
    endpoint(context, {
      id: "getRun",
      summary: "A run with its status and per-stage item counts",
      tag: "runs",
      audience: "admin or agent",
      responses: { 200: jsonResponse(runView, "The run") },
      errors: [404],
    }),
    async (c) => c.json(await store.getRun(c.req.param("run_id"))),
  );

  app.post(
    "/v1/runs/:run_id/agents",
    endpoint(context, {
      id: "addAgent",
      summary: "Add an agent to a run; its token is returned this once",
      tag: "runs",
      audience: "admin",
      responses: { 201: jsonResponse(agentCreated, "The agent and its token") },
      errors: [400, 403, 404, 409, 413, 415],
    }),
    jsonBody(addAgentBody),
    async (c) => {
      const runId = c.req.param("run_id");
      const { tag } = c.req.valid("json");
      const agentId = newId("agt");
      const token = newAgentToken(runId, agentId);
      await store.addAgent(runId, { agent_id: agentId, tag, token_hash: await sha256Hex(token) });
      c.header("Cache-Control", "no-store");
      return c.json({ agent_id: agentId, tag, token }, 201);
    },
  );

  app.get(
    "/v1/runs/:run_id/artifacts/:artifact_id",
    endpoint(context, {
      id: "getArtifact",
      summary: "An artifact with its content",
      tag: "runs",
      audience: "admin or agent",
      responses: { 200: jsonResponse(artifact, "The artifact (artifact.v1)") },
      errors: [404],
    }),
    async (c) => c.json(await store.artifact(c.req.param("run_id"), c.req.param("artifact_id"))),
  );

  app.get(
    "/v1/runs/:run_id/dead-letters",
    endpoint(context, {
      id: "listDeadLetters",
      summary: "Dead-lettered work items with their attempt history",
      tag: "runs",
      audience: "admin",
      responses: { 200: jsonResponse(deadLettersView, "The dead letters") },
      errors: [403, 404],
    }),
    async (c) => c.json({ dead_letters: await store.deadLetters(c.req.param("run_id")) }),
  );

  app.post(
    "/v1/runs/:run_id/work-items/:id/requeue",
    endpoint(context, {
      id: "requeueWorkItem",
      summary: "Put a dead-lettered work item back on offer (with a fresh failure budget)",
      tag: "runs",
      audience: "admin",
      responses: { 200: jsonResponse(requeueView, "The work item, on offer again") },
      errors: [403, 404, 409],
    }),
    async (c) =>
      c.json({ work_item: await store.requeue(c.req.param("run_id"), c.req.param("id")) }),
  );
}
