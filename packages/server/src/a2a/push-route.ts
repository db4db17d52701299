// The webhook A2A agents push their tasks' updates to: POST /v1/a2a/push/{run_id}/{work_item_id}/{attempt}.
// It takes no service token: a notification is authenticated by the attempt's own push token
// (Authorization: Bearer, or the SDK's older X-A2A-Notification-Token header), checked by the
// receiver, which answers 401 or 404 for a forged one and counts it.
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { App } from "../http/app-env.ts";
import { errorResponse } from "../http/error-response.ts";
import type { PushReceiver } from "./push-receiver.ts";

/** The path of an attempt's webhook under the service's public URL. */
export function pushPath(runId: string, workItemId: string, attempt: number): string {
  return `/v1/a2a/push/${encodeURIComponent(runId)}/${encodeURIComponent(workItemId)}/${attempt}`;
}

/** The token a notification carries: `Authorization: Bearer <token>`, or the legacy header. */
function pushToken(
  authorization: string | undefined,
  legacy: string | undefined,
): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  return bearer ?? (legacy === undefined || legacy === "" ? undefined : legacy);
}

/** What answers the webhook: a {@link PushReceiver}, or what forwards to one (a run's object). */
export type PushTarget = Pick<PushReceiver, "receive">;

/** Adds the push webhook to `app`, answered by `target`. */
export function pushRoutes(app: App, target: PushTarget | undefined): void {
  app.post("/v1/a2a/push/:run_id/:work_item_id/:attempt", async (c) => {
    const attemptText = c.req.param("attempt");
    if (target === undefined || !/^[1-9][0-9]{0,8}$/.test(attemptText)) {
      return errorResponse(
        c,
        new DeliveryError({
          code: "NOT_FOUND",
          message: "No A2A attempt of this service waits for push notifications at this URL.",
        }),
      );
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    const answer = await target.receive(
      c.req.param("run_id"),
      c.req.param("work_item_id"),
      Number(attemptText),
      pushToken(c.req.header("authorization"), c.req.header("x-a2a-notification-token")),
      body,
    );
    if ("refused" in answer) return errorResponse(c, answer.refused);
    return c.json({ status: answer.outcome });
  });
}
