// Follows a run's collaboration stream (Server-Sent Events) with plain fetch, and resumes after
// the last event it handled whenever the connection drops: no event is missed or repeated.
import type { CollaborationEvent } from "@task-context/protocols/work-item";
import { type ErrorBody, ServiceError, service, sleep } from "./client.ts";

const token = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "change-me";
const run = process.argv[2] ?? "";

//#region follow
/** Calls `onEvent` for every event of the run, in seq order, until the run completes. */
async function follow(runId: string, onEvent: (event: CollaborationEvent) => void) {
  let last = 0; // the seq of the last event handled
  for (;;) {
    try {
      const response = await fetch(new URL(`/v1/runs/${runId}/events`, service), {
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "text/event-stream",
          "Last-Event-ID": String(last), // resume after it (0: from the start)
        },
      });
      if (response.status === 204) return; // the run completed, and `last` was its last event
      if (!response.ok || response.body === null) {
        throw new ServiceError(response.status, (await response.json()) as ErrorBody);
      }
      let buffer = "";
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const frame = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const data = frame.find((line) => line.startsWith("data: "));
          if (data === undefined) continue; // a comment, such as the keep-alive
          const event = JSON.parse(data.slice("data: ".length)) as CollaborationEvent;
          onEvent(event);
          last = event.seq;
          if (event.type === "run.completed") return; // nothing follows it: the stream ends
        }
      }
    } catch (error) {
      if (error instanceof ServiceError && error.status !== 429) throw error; // 401, 404
    }
    await sleep(1000); // the connection ended: connect again, after `last`
  }
}
//#endregion

//#region print
await follow(run, (event) => console.log(event.seq, event.type));
// 1 run.created
// 2 work_item.offered
// 3 work_item.offered
// …
//#endregion
