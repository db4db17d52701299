import { collaborationEventSchema } from "@task-context/protocols";
import { eventStreamContent, jsonResponse } from "../contract/openapi.ts";
import { eventPage, eventsQuery } from "../contract/schemas.ts";
import { eventStream, isCompleted, resumeAfter } from "../http/event-stream.ts";
import { queryParameters } from "../http/validation.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

const eventTypes = collaborationEventSchema.def.options.flatMap(
  (option) => option.def.shape.type.def.values,
);

/** The run's collaboration stream: Server-Sent Events, or JSON pages. */
export function eventRoutes(app: App, context: RouteContext): void {
  const { store } = context;

  app.get(
    "/v1/runs/:run_id/events",
    endpoint(context, {
      id: "listEvents",
      summary: "The run's events: a Server-Sent Events stream, or JSON pages",
      description:
        "With `Accept: text/event-stream`, every event from `?after=` (or `Last-Event-ID`, which wins) on, then new ones as they happen: `id: <seq>`, `event: <type>`, `data: <event JSON>`, and a keep-alive comment at least every 15 s. The stream ends after `run.completed`; a client that has already seen it gets 204, which tells an EventSource to stop reconnecting. Otherwise a JSON page `{ events, next_after }`. A view link's token (`?view=`, from POST /v1/runs/{run_id}/view-links) reads its own run's events without Authorization: what the run page's script streams with.",
      tag: "events",
      audience: "admin or agent",
      viewLinks: true,
      responses: {
        200: {
          description: "Events, in seq order with no gaps",
          content: {
            ...jsonResponse(eventPage, "").content,
            ...eventStreamContent("CollaborationEvent", eventTypes),
          },
        },
        204: {
          description: "Stream only: the run is completed and the client has seen its last event",
        },
      },
      errors: ["INVALID_REQUEST", "RUN_NOT_FOUND"],
      parameters: [
        {
          name: "Last-Event-ID",
          in: "header",
          required: false,
          description: "Resume the stream after this seq (what a reconnecting EventSource sends)",
          schema: { type: "string", pattern: "^[0-9]+$" },
        },
      ],
    }),
    queryParameters(eventsQuery),
    async (c) => {
      const runId = c.req.param("run_id");
      const { after, limit = 100 } = c.req.valid("query");
      if ((c.req.header("Accept") ?? "").includes("text/event-stream")) {
        const from = resumeAfter(c, after);
        // 404 now, before the stream starts, for an unknown run.
        const lastSeq = await store.lastSeq(runId);
        if (from >= lastSeq && (await isCompleted(store, runId, lastSeq))) return c.body(null, 204);
        return eventStream(c, store, runId, from, context.timing, context.shutdown);
      }
      return c.json(await store.events(runId, after ?? 0, limit));
    },
  );
}
