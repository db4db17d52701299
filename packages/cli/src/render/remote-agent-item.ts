import type { WorkItem } from "@task-context/client";
import {
  type CompleteBody,
  type CreateRunInput,
  createServiceClient,
  type ServiceClient,
} from "@task-context/client";
import { CliError } from "../cli-error.ts";
import { loadNodeService, startNodeService } from "../service/load-node-service.ts";
import { withService } from "../service/service-client.ts";

/** Most items worked through to reach the stage asked for. */
const MAX_STEPS = 1000;

/** The completion a stand-in agent sends for an item of an earlier stage. */
function placeholderCompletion(item: WorkItem, attempt: number): CompleteBody {
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
  const server = await startNodeService(
    service,
    { port: 0, database: ":memory:", adminToken },
    { command: "render --for remote-agent" },
  );
  try {
    return await withService({ url: server.url, token: adminToken }, async (admin) => {
      const created = await admin.createRun(run as CreateRunInput);
      const wanted = stageId ?? created.stages[0]?.id;
      if (!created.stages.some((stage) => stage.id === wanted)) {
        throw new CliError({
          code: "CLI_USAGE",
          message: `the run has no stage ${JSON.stringify(stageId)}`,
          hint: `pass --stage with one of: ${created.stages.map((stage) => stage.id).join(", ")}`,
        });
      }
      const agents: ServiceClient[] = [];
      for (const tag of ["render-author", "render-reviewer"]) {
        const { token } = await admin.addAgent(created.run_id, { tag });
        agents.push(createServiceClient({ url: server.url, token }));
      }
      for (let step = 0; step < MAX_STEPS; step++) {
        let worked = false;
        for (const agent of agents) {
          const offer = (await agent.poll({ limit: 1 })).offers[0];
          if (offer === undefined) continue;
          if (offer.stage_id === wanted) return offer;
          const claimed = await agent.claim(offer.id);
          const completion = placeholderCompletion(claimed.work_item, claimed.lease.attempt);
          await agent.complete(offer.id, completion);
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
    });
  } finally {
    await server.close();
  }
}
