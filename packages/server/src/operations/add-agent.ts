import { operations } from "@task-context/contract";
import { sha256Hex } from "@task-context/core/internal";
import { a2aAgentView, a2aEndpoint } from "../a2a/a2a-registration.ts";
import { selfReviewWarnings } from "../a2a/self-review.ts";
import { newAgentToken, newId } from "../delivery/ids.ts";
import { requestOrigin } from "../execution/http-request.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/**
 * `POST /v1/runs/{run_id}/agents`: the agent stored with its token's hash, the token answered
 * once; an A2A agent's card read and matched first, and its dispatcher told.
 */
export const addAgent = defineHandler(operations.addAgent, {
  handle: async ({ path, body }, context) => {
    const { service } = context;
    const { store } = service;
    const runId = path.run_id;
    const { tag, a2a } = body;
    const agentId = newId("agt");
    const token = newAgentToken(runId, agentId);
    const endpoint =
      a2a === undefined
        ? undefined
        : await a2aEndpoint(service, runId, a2a, requestOrigin(context, "addAgent"));
    await store.addAgent(runId, {
      agent_id: agentId,
      tag,
      token_hash: await sha256Hex(token),
      a2a: endpoint,
    });
    if (endpoint === undefined) return { agent_id: agentId, tag, token };
    service.a2a.agentAdded?.(runId);
    const view = a2aAgentView(endpoint, service.a2a.streaming ?? true);
    const [run, agents] = await Promise.all([store.getRun(runId), store.a2aAgents(runId)]);
    const warning = selfReviewWarnings(run.stages, agents).join(" ");
    const answer = { agent_id: agentId, tag, token, a2a: view };
    return warning === "" ? answer : { ...answer, warning };
  },
});
