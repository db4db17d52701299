import { jsonResponse } from "../contract/openapi.ts";
import { claimNextQuery, claimView, offersView, pollQuery } from "../contract/schemas.ts";
import { traceContextHeaders } from "../http/trace-context.ts";
import { queryParameters } from "../http/validation.ts";
import { anySignal, waitFor } from "../http/wait.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

/** The agent's inbox: what it may claim now, with long polling. */
export function inboxRoutes(app: App, context: RouteContext): void {
  const { store, timing } = context;

  app.get(
    "/v1/inbox/poll",
    endpoint(context, {
      id: "pollInbox",
      summary: "Work items this agent may claim now",
      description:
        "With `wait`, the request is held until an offer appears or the wait ends (long poll). Review items are never offered to the reviewed artifact's author.",
      tag: "inbox",
      audience: "agent",
      responses: { 200: jsonResponse(offersView, "The offers, oldest first") },
      errors: ["INVALID_REQUEST"],
    }),
    queryParameters(pollQuery),
    async (c) => {
      const { runId, agent } = c.var.caller;
      const { wait = 0, limit = 10 } = c.req.valid("query");
      const signal = anySignal([c.req.raw.signal, context.shutdown]);
      const offers = await waitFor(store, runId, wait * 1000, timing, signal, async () => {
        const found = await store.offers(runId, agent, limit);
        return found.length > 0 ? found : undefined;
      });
      return c.json({ offers: offers ?? [] });
    },
  );

  app.post(
    "/v1/inbox/claim-next",
    endpoint(context, {
      id: "claimNext",
      summary: "Claim the oldest work item on offer to this agent",
      description:
        "Starts a new attempt with a lease. With `wait`, the request is held until an offer appears or the wait ends; 204 when nothing is on offer.",
      tag: "inbox",
      audience: "agent",
      parameters: traceContextHeaders,
      responses: {
        200: jsonResponse(claimView, "The work item and its lease"),
        204: { description: "Nothing on offer" },
      },
      errors: ["INVALID_REQUEST", "PAYLOAD_TOO_LARGE"],
    }),
    queryParameters(claimNextQuery),
    async (c) => {
      const { runId, agent } = c.var.caller;
      const { wait = 0 } = c.req.valid("query");
      const signal = anySignal([c.req.raw.signal, context.shutdown]);
      const claim = await waitFor(store, runId, wait * 1000, timing, signal, () =>
        store.claim(runId, agent, undefined),
      );
      return claim === undefined ? c.body(null, 204) : c.json(claim);
    },
  );
}
