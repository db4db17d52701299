import { operations } from "@task-context/contract";
import { agentStatus } from "../a2a/agent-status.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/** `GET /v1/runs/{run_id}/agents`: the run's agents, and how its A2A agents fare. */
export const listAgents = defineHandler(operations.listAgents, {
  handle: async ({ path }, { service }) => ({
    agents: await agentStatus(service.store, path.run_id),
  }),
});
