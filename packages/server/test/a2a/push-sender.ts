// The push sender of the test agents: the official SDK's DefaultPushNotificationSender (it POSTs
// each update to the webhook of the task's push configuration, with its Authorization header),
// wrapped to be hostile on demand — drop every notification (lost), send each twice (duplicated)
// — and recording each notification (its webhook, token and body), for replays (late, forged).
import type { StreamResponse } from "@a2a-js/sdk";
import {
  DefaultPushNotificationSender,
  type InMemoryPushNotificationStore,
  type PushNotificationSender,
  type ServerCallContext,
  V1PushNotificationSerializer,
} from "@a2a-js/sdk/server";

/** One notification as the SDK's sender sends it (or would have, when lost). */
export interface SentNotification {
  url: string;
  token: string;
  /** The body: the update as JSON (a StreamResponse). */
  body: string;
  /** The update's task state (`TASK_STATE_…`), when it says one. */
  state: string | undefined;
}

/** How the sender behaves: deliver each notification once, never (lost), or twice. */
export type PushMode = "deliver" | "lose" | "duplicate";

const serializer = new V1PushNotificationSerializer();

function taskIdOf(response: StreamResponse): string {
  const payload = response.payload;
  if (payload === undefined) return "";
  return payload.$case === "task" ? payload.value.id : payload.value.taskId;
}

/** A sender over the SDK's own that behaves as `mode` says and records into `sent`. */
export function pushSender(mode: PushMode, sent: SentNotification[]) {
  return (store: InMemoryPushNotificationStore): PushNotificationSender => {
    const sender = new DefaultPushNotificationSender(store);
    const send = sender.send.bind(sender) as (...args: unknown[]) => Promise<void>;
    return {
      async send(response: StreamResponse, context: ServerCallContext, ...rest: unknown[]) {
        const configs = await store.load(taskIdOf(response), context);
        const { body } = serializer.serialize(response);
        const json = JSON.parse(body) as Record<string, { status?: { state?: string } }>;
        const state = Object.values(json)[0]?.status?.state;
        for (const config of configs)
          sent.push({ url: config.url, token: config.token, body, state });
        if (mode === "lose") return;
        await send(response, context, ...rest);
        if (mode === "duplicate") await send(response, context, ...rest);
      },
    };
  };
}
