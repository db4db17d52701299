import { collaborationEventSchema } from "@task-context/protocols";
import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { lastEventIdHeader, runIdParameter } from "../parameters.ts";
import { eventPage, eventsQuery } from "../schemas.ts";

/** The `type` of every collaboration event, as an event stream's `event:` field names them. */
const eventTypes = collaborationEventSchema.def.options.flatMap(
  (option) => option.def.shape.type.def.values,
);

/** `GET /v1/runs/{run_id}/events`: the run's events, as JSON pages or a stream. */
export const listEvents = defineOperation({
  id: "listEvents",
  method: "GET",
  path: "/v1/runs/{run_id}/events",
  audience: "admin or agent",
  viewLinks: true,
  summary: "The run's events: a Server-Sent Events stream, or JSON pages",
  description:
    "With `Accept: text/event-stream`, every event from `?after=` (or `Last-Event-ID`, which wins) on, then new ones as they happen: `id: <seq>`, `event: <type>`, `data: <event JSON>`, and a keep-alive comment at least every 15 s. The stream ends after `run.completed`; a client that has already seen it gets 204, which tells an EventSource to stop reconnecting. Otherwise a JSON page `{ events, next_after }`. A view link's token (`?view=`, from POST /v1/runs/{run_id}/view-links) reads its own run's events without Authorization: what the run page's script streams with.",
  tag: "events",
  input: { path: z.strictObject({ run_id: runIdParameter }), query: eventsQuery },
  headers: [lastEventIdHeader],
  output: {
    kind: "json",
    status: 200,
    body: eventPage,
    description: "Events, in seq order with no gaps",
    stream: {
      component: "CollaborationEvent",
      events: eventTypes,
      empty: "Stream only: the run is completed and the client has seen its last event",
    },
  },
  errors: ["INVALID_REQUEST", "RUN_NOT_FOUND"],
  client: { method: "listEvents", streamMethod: "followEvents" },
});
