import { operations } from "@task-context/contract";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { httpRequest } from "../execution/http-request.ts";
import { defineHandler } from "../execution/operation-handler.ts";
import { newNonce } from "../page/layout.ts";
import { errorPage, pageAccess } from "../page/page-answer.ts";

/**
 * `POST /runs/{run_id}/work-items/{id}/requeue`: the page's Requeue form (the view token in its
 * field `view`, or `?view=`, or the admin token), answered 303 back to the page.
 */
export const requeueFromPage = defineHandler(operations.requeueFromPage, {
  handle: async ({ path }, context) => {
    const c = httpRequest(context, "requeueFromPage");
    const runId = path.run_id;
    const workItemId = path.id;
    const nonce = newNonce();
    let back: string | undefined;
    try {
      const form = (c.req.header("Content-Type") ?? "").startsWith(
        "application/x-www-form-urlencoded",
      )
        ? await c.req.parseBody()
        : {};
      const field = typeof form.view === "string" && form.view !== "" ? form.view : undefined;
      const access = await pageAccess(c, context.service, runId, field);
      const page = `/runs/${encodeURIComponent(runId)}`;
      back = access.admin ? page : `${page}?view=${encodeURIComponent(access.viewToken)}`;
      if (!access.canRequeue) {
        throw new DeliveryError({
          code: "FORBIDDEN",
          message:
            "This view link may not requeue. Ask for one that may: task-context run view <run-id> --can-requeue.",
        });
      }
      await context.service.store.requeue(runId, workItemId);
      return c.redirect(`${back}#item-${encodeURIComponent(workItemId)}`, 303);
    } catch (failure) {
      return errorPage(c, failure, nonce, back);
    }
  },
});
