import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type { ViewTokens } from "../page/view-token.ts";
import type { Caller } from "./auth.ts";

/**
 * The viewer of a view link's token for `runId`: 401 `UNAUTHORIZED` for a token that is
 * malformed, forged or expired; 404 `RUN_NOT_FOUND` for a genuine token of another run, the
 * answer a token gets for any run it cannot see.
 */
export async function viewerOf(
  service: { viewTokens: ViewTokens; timing: { clock: () => number } },
  token: string,
  runId: string,
): Promise<Extract<Caller, { role: "viewer" }>> {
  const checked = await service.viewTokens.verify(
    token,
    runId,
    Math.floor(service.timing.clock() / 1000),
  );
  if ("grant" in checked) {
    return { role: "viewer", runId, canRequeue: checked.grant.canRequeue };
  }
  if (checked.problem === "other-run") throw runNotFound(runId);
  throw new DeliveryError({
    code: "UNAUTHORIZED",
    message:
      checked.problem === "expired"
        ? "This view link has expired. Ask for a new one: task-context run view <run-id> (or POST /v1/runs/{run_id}/view-links)."
        : "The view token is not valid. Use the whole link as task-context run view printed it.",
  });
}
