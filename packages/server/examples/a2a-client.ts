// The delivery service as an A2A agent: an A2A client built with the official SDK
// (`@a2a-js/sdk`) hands the service a staged task and follows it as a polling agent does the
// work. Self-contained: it starts the service on a free port (in memory), streams the task's
// updates as the agent completes its one stage, prints them, and stops.
import { type Part, Role, TaskState } from "@a2a-js/sdk";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { createServiceClient } from "@task-context/client";
import { startNodeServer } from "@task-context/server/node";

const adminToken = "an-admin-token-of-at-least-32-characters";
const service = await startNodeServer({ port: 0, database: ":memory:", adminToken });

// The client reads the service's card (/.well-known/agent-card.json): one JSON-RPC interface at
// /a2a that asks for a bearer token, the admin token or one of TASK_CONTEXT_A2A_TOKENS.
const withToken: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set("Authorization", `Bearer ${adminToken}`);
  return fetch(input, { ...init, headers });
};
const client = await new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: withToken })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: withToken }),
  }),
).createFromUrl(service.url);

// A message's parts (the SDK's types are those of A2A's protocol buffers): text, or JSON data.
const text = (value: string, metadata?: Record<string, string>): Part => ({
  content: { $case: "text", value },
  mediaType: "text/plain",
  filename: "",
  metadata,
});
const data = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});

// Text parts are the goal; a text part marked { task_context: "constraint" } is a constraint;
// one data part holds the stages, checked against the run schema.
const stages = [
  {
    id: "draft",
    stage_description: "Write the launch post",
    expected_output: "Markdown",
    available_skills: ["copywriting"],
  },
];
const updates = client.sendMessageStream({
  tenant: "",
  message: {
    messageId: "launch-lumen-1", // the same id again answers the same task
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      text("Launch Lumen, a reading lamp"),
      text("Say Lumen, never Lumen Lamp", { task_context: "constraint" }),
      data({ stages }),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

// An agent of the run (any polling, MCP or A2A agent) does the stage's work.
async function work(runId: string): Promise<void> {
  const admin = createServiceClient({ url: service.url, token: adminToken });
  const { token } = await admin.addAgent(runId, { tag: "writer" });
  const writer = createServiceClient({ url: service.url, token });
  const claim = await writer.claimNext({ wait: 5 });
  if (claim === undefined) throw new Error("nothing on offer");
  await writer.complete(claim.work_item.id, {
    attempt: claim.lease.attempt,
    artifact: {
      media_type: "text/markdown",
      content: "# Lumen\n\nRead longer.",
      title: "Launch post",
    },
  });
}

const said = (parts: Part[] = []) =>
  parts.map((part) => (part.content?.$case === "text" ? part.content.value : "")).join("");
let working: Promise<void> | undefined;
for await (const { payload } of updates) {
  if (payload?.$case === "task") {
    console.log(`task ${payload.value.id}: ${TaskState[payload.value.status?.state ?? 0]}`);
    working = work(payload.value.id); // the task's id is the run's id
  } else if (payload?.$case === "statusUpdate") {
    const { status } = payload.value;
    console.log(`${TaskState[status?.state ?? 0]}: ${said(status?.message?.parts)}`);
  } else if (payload?.$case === "artifactUpdate") {
    const { artifact } = payload.value;
    console.log(`artifact "${artifact?.name}": ${JSON.stringify(said(artifact?.parts))}`);
  }
}
await working;
await service.close();
