import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { eventStream, isCompleted, resumeAfter } from "../http/event-stream.ts";

/**
 * `GET /v1/runs/{run_id}/events`: a JSON page of the run's events, or, over HTTP with `Accept:
 * text/event-stream`, the stream from `?after=` (or `Last-Event-ID`) on; 204 to a client that
 * has seen the end of a completed run.
 */
export const listEvents = defineHandler(operations.listEvents, {
  handle: async ({ path, query }, { service, http }) => {
    const { store } = service;
    const runId = path.run_id;
    const { after, limit = 100 } = query;
    if (http !== undefined && (http.req.header("Accept") ?? "").includes("text/event-stream")) {
      const from = resumeAfter(http, after);
      // 404 now, before the stream starts, for an unknown run.
      const lastSeq = await store.lastSeq(runId);
      if (from >= lastSeq && (await isCompleted(store, runId, lastSeq))) {
        return http.body(null, 204);
      }
      return eventStream(http, service.feeds, runId, from, service.shutdown);
    }
    return store.events(runId, after ?? 0, limit);
  },
});
