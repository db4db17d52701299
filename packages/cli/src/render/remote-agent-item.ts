import type { WorkItem } from "@task-context/protocols/work-item";
import { CliError } from "../cli-error.ts";
import { loadNodeService } from "../service/load-node-service.ts";
import { requestJson, type ServiceTarget } from "../service/service-client.ts";

interface Claimed {
  work_item: WorkItem;
  lease: { attempt: number };
}

/** Most items worked through to reach the stage asked for. */
const MAX_STEPS = 1000;

/** The completion a stand-in agent sends for an item of an earlier stage. */
function placeholderCompletion(item: WorkItem, attempt: number): unknown {
  if (item.kind === "review") {
    return {
      attempt,
      review: {
        verdict: "approve",
        summary: "Placeholder review written by task-context render.",
        criteria: item.review_context.review_criteria.map((criterion) => ({
          criterion,
          comment: "Placeholder.",
        })),
      },
    };
  }
  return {
    attempt,
    artifact: {
      media_type: "text/plain",
      title: `Placeholder for ${item.stage_id}`,
      content: `Placeholder artifact of stage ${item.stage_id}, written by task-context render.`,
    },
  };
}

/**
 * The work item a remote agent would receive for `stageId` (default: the run's first stage),
 * built by the delivery service itself: started in process on an in-memory database, given the
 * run, and worked through the earlier stages by two stand-in agents that complete each item with
 * a placeholder artifact or an approving review. Nothing is written anywhere.
 */
export async function remoteAgentItem(
  run: unknown,
  stageId: string | undefined,
): Promise<WorkItem> {
  const service = await loadNodeService("render --for remote-agent");
  const adminToken = "render";
  const server = await service.startNodeServer({ port: 0, database: ":memory:", adminToken });
  try {
    const admin: ServiceTarget = { url: server.url, token: adminToken };
    const created = await requestJson<{ run_id: string; stages: Array<{ id: string }> }>(
      admin,
      "POST",
      "/v1/runs",
      run,
    );
    const wanted = stageId ?? created.stages[0]?.id;
    if (!created.stages.some((stage) => stage.id === wanted)) {
      throw new CliError({
        code: "CLI_USAGE",
        message: `the run has no stage ${JSON.stringify(stageId)}`,
        hint: `pass --stage with one of: ${created.stages.map((stage) => stage.id).join(", ")}`,
      });
    }
    const agents: ServiceTarget[] = [];
    for (const tag of ["render-author", "render-reviewer"]) {
      const path = `/v1/runs/${created.run_id}/agents`;
      const agent = await requestJson<{ token: string }>(admin, "POST", path, { tag });
      agents.push({ url: server.url, token: agent.token });
    }
    for (let step = 0; step < MAX_STEPS; step++) {
      let worked = false;
      for (const agent of agents) {
        const poll = await requestJson<{ offers: WorkItem[] }>(
          agent,
          "GET",
          "/v1/inbox/poll?limit=1",
        );
        const offer = poll.offers[0];
        if (offer === undefined) continue;
        if (offer.stage_id === wanted) return offer;
        const claimed = await requestJson<Claimed>(
          agent,
          "POST",
          `/v1/work-items/${offer.id}/claim`,
        );
        const completion = placeholderCompletion(claimed.work_item, claimed.lease.attempt);
        await requestJson(agent, "POST", `/v1/work-items/${offer.id}/complete`, completion);
        worked = true;
        break;
      }
      if (!worked) break;
    }
    throw new CliError({
      code: "CLI_USAGE",
      exitCode: 1,
      message: `no work item of stage ${JSON.stringify(wanted)} was offered`,
      hint: "check the run's stages: a review stage is offered only after the stage it reviews",
    });
  } finally {
    await server.close();
  }
}
