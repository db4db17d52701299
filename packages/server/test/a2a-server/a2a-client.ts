// What the tests of the service as an A2A agent share, on Node and on workerd alike: the
// official SDK's client of the service, and the messages a client sends it.
import { type Message, Role, type Task } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { createServiceClient, type Fetch, type ServiceClient } from "@task-context/client";
import { dataPart, textPart } from "../../src/a2a/a2a-parts.ts";

/**
 * The official SDK's client of the service at `url` (its card read from
 * `/.well-known/agent-card.json`), sending `token` as a bearer token (none: undefined) through
 * `base` (default: the global fetch; on workerd, the Worker's own).
 */
export async function a2aClientOf(
  url: string,
  token: string | undefined,
  base: typeof fetch = (input, init) => fetch(input, init),
): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
    return base(input, { ...init, headers });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return new ClientFactory(options).createFromUrl(url);
}

/** A user's message: the goal as text, a constraint (marked), the stages as a data part. */
export function stagedTask(messageId: string, stages: unknown): Message {
  const constraint = textPart("Say Lumen, never Lumen Lamp", "text/plain");
  constraint.metadata = { task_context: "constraint" };
  return {
    messageId,
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      textPart("Launch Lumen, a reading lamp", "text/plain"),
      constraint,
      dataPart({ stages }),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * A SendMessage request of `message`, answered at once (`returnImmediately`; by default the
 * service answers when the run ends).
 */
export const request = (message: Message, returnImmediately = true) => ({
  tenant: "",
  message,
  configuration: {
    acceptedOutputModes: [],
    taskPushNotificationConfig: undefined,
    returnImmediately,
  },
  metadata: undefined,
});

/** The task a SendMessage answered (at once, unless `returnImmediately` is false). */
export async function send(
  client: Client,
  message: Message,
  returnImmediately = true,
): Promise<Task> {
  const answer = await client.sendMessage(request(message, returnImmediately));
  if (!("status" in answer)) throw new Error("the service answered a message, not a task");
  return answer as Task;
}

/** The text of a task status's message. */
export const said = (status: Task["status"]) =>
  status?.message?.parts.map((part) => (part.content?.$case === "text" ? part.content.value : ""));

/**
 * What the error `promise` rejects with says: its class name, message and the metadata of the
 * A2A error's `ErrorInfo` (its JSON-RPC `data`), if any.
 */
export async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error("expected a refusal, got an answer");
    },
    (caught: unknown) => caught,
  );
  const { name, message, data } = error as Error & {
    data?: { metadata?: Record<string, string> }[];
  };
  return { name, message, metadata: data?.[0]?.metadata };
}

/**
 * Adds an agent `writer` to the run, which claims the item on offer and completes it with the
 * Markdown `# Lumen` titled "Launch post" (through `fetch`, default the global one); answers the
 * item's id.
 */
export async function completeAsWriter(
  url: string,
  admin: ServiceClient,
  runId: string,
  fetch?: Fetch,
): Promise<string> {
  const { token } = await admin.addAgent(runId, { tag: "writer" });
  const writer = createServiceClient({ url, token, ...(fetch === undefined ? {} : { fetch }) });
  const claim = await writer.claimNext();
  if (claim === undefined) throw new Error(`nothing was on offer in ${runId}`);
  await writer.complete(claim.work_item.id, {
    attempt: claim.lease.attempt,
    artifact: { media_type: "text/markdown", content: "# Lumen", title: "Launch post" },
  });
  return claim.work_item.id;
}
