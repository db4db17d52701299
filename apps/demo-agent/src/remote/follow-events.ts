import type { CollaborationEvent } from "@task-context/protocols/work-item";
import { ServiceRefusal } from "./service-client.ts";

/**
 * Reads a run's event stream (Server-Sent Events) until `run.completed`, which ends it; reconnects
 * after the last event seen if the connection drops. Returns every event in seq order, and the
 * status a reconnect after `run.completed` gets (204: nothing follows).
 */
export async function followEvents(
  url: string,
  token: string,
  runId: string,
  onEvent: (event: CollaborationEvent) => void,
): Promise<{ events: CollaborationEvent[]; afterCompletion: number }> {
  const events: CollaborationEvent[] = [];
  const connect = (last: number) =>
    fetch(new URL(`/v1/runs/${runId}/events`, url), {
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: "text/event-stream",
        "Last-Event-ID": String(last),
      },
    });
  for (let last = 0; ; ) {
    const response = await connect(last);
    if (response.status === 204) break;
    if (!response.ok || response.body === null) {
      throw new ServiceRefusal(
        response.status,
        (await response.json()) as { error?: string; code?: string },
      );
    }
    let buffer = "";
    let completed = false;
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const data = buffer
          .slice(0, end)
          .split("\n")
          .find((line) => line.startsWith("data: "));
        buffer = buffer.slice(end + 2);
        if (data === undefined) continue; // retry:, or a keep-alive comment
        const event = JSON.parse(data.slice("data: ".length)) as CollaborationEvent;
        events.push(event);
        onEvent(event);
        last = event.seq;
        if (event.type === "run.completed") completed = true;
      }
    }
    if (completed) {
      // The stream ended after run.completed: a client that reconnects is told 204, stop.
      const again = await connect(last);
      await again.body?.cancel();
      return { events, afterCompletion: again.status };
    }
  }
  return { events, afterCompletion: 204 };
}
