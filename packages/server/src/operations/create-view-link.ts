import { operations } from "@task-context/contract";
import { requestOrigin } from "../execution/http-request.ts";
import { defineHandler } from "../execution/operation-handler.ts";
import { DEFAULT_VIEW_TTL_SECONDS, viewLinkUrl } from "../page/view-token.ts";

/** `POST /v1/runs/{run_id}/view-links`: a signed, short-lived link to the run's page. */
export const createViewLink = defineHandler(operations.createViewLink, {
  handle: async ({ path, body }, context) => {
    const { service } = context;
    const runId = path.run_id;
    const { ttl_seconds = DEFAULT_VIEW_TTL_SECONDS, can_requeue = false } = body;
    await service.store.getRun(runId); // 404 for a run that does not exist
    const expiresAt = Math.floor(service.timing.clock() / 1000) + ttl_seconds;
    const token = await service.viewTokens.sign({ runId, expiresAt, canRequeue: can_requeue });
    return {
      url: viewLinkUrl(requestOrigin(context, "createViewLink"), runId, token),
      expires_at: new Date(expiresAt * 1000).toISOString(),
      can_requeue,
    };
  },
});
