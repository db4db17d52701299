import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { RunView, StageView } from "@task-context/contract";
import { runNotFound } from "../delivery/delivery-error.ts";
import type { AgentSession } from "./operation-tools.ts";

/** The URI of a run's context resource. */
export function runContextUri(runId: string): string {
  return `task-context://runs/${runId}/context`;
}

/** What the context resource holds: what every recipient of the run works toward, and now. */
export interface RunContext {
  run_id: string;
  status: RunView["status"];
  goal: string;
  constraints: string[];
  /** The stages whose items are on offer or leased now, with their stage context. */
  current_stages: StageView[];
}

/** The run's context: its goal, constraints and current stage(s). */
export function runContext(run: RunView): RunContext {
  return {
    run_id: run.run_id,
    status: run.status,
    goal: run.goal,
    constraints: run.constraints,
    current_stages: run.stages.filter((stage) => stage.status === "active"),
  };
}

/**
 * The resource `task-context://runs/{run_id}/context` (JSON): the agent's own run only; another
 * run's URI is the protocol's "resource not found" with `RUN_NOT_FOUND`'s message, the answer
 * HTTP gives for another run's id (a token reveals nothing about other runs).
 */
export function registerRunContext(server: McpServer, session: AgentSession): void {
  const { store } = session.service;
  const { runId } = session.caller;
  server.registerResource(
    "run_context",
    new ResourceTemplate(runContextUri("{run_id}"), {
      list: async () => ({
        resources: [
          { uri: runContextUri(runId), name: "run_context", mimeType: "application/json" },
        ],
      }),
    }),
    {
      title: "The run's context",
      description:
        "The run's goal, constraints and current stage(s) with their stage context (description, expected output, skills, background), as JSON.",
      mimeType: "application/json",
    },
    async (uri, { run_id }) => {
      if (run_id !== runId) {
        throw new ResourceNotFoundError(uri.href, runNotFound(String(run_id)).message);
      }
      const context = runContext(await store.getRun(runId));
      return {
        contents: [
          { uri: uri.href, mimeType: "application/json", text: JSON.stringify(context, null, 2) },
        ],
      };
    },
  );
}
