// An A2A 1.0 agent the delivery service sends work items to, built with the official SDK's server
// (`@a2a-js/sdk`, served by express). Its card declares one skill, "illustration"; it reads the
// work item from the message's data part and completes the task with one artifact: a text part
// for a task item, a data part { verdict, summary, criteria } for a review item. It listens on
// http://127.0.0.1:41241 (PORT) until stopped; register it with POST /v1/runs/{run_id}/agents.
//#region agent
import { AGENT_CARD_PATH, type AgentCard, type Part, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { WorkItem } from "@task-context/protocols";
import express from "express";

const port = Number(process.env.PORT ?? 41241);
const url = `http://127.0.0.1:${port}`;

// What the service reads at /.well-known/agent-card.json: a name, a JSON-RPC interface, the
// skills (by id or tag) that cover a stage's available_skills, and whether it streams.
const card: AgentCard = {
  name: "Illustrator",
  description: "Draws the illustrations a stage asks for",
  supportedInterfaces: [
    { url: `${url}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
  ],
  provider: undefined,
  version: "1.0.0",
  capabilities: {
    streaming: true, // the service follows its tasks by streaming; false: by tasks/get
    pushNotifications: false,
    extensions: [],
    extendedAgentCard: false,
  },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ["text/plain", "application/json"],
  defaultOutputModes: ["text/markdown", "application/json"],
  skills: [
    {
      id: "illustration",
      name: "Illustration",
      description: "Draws an illustration from a brief",
      tags: ["illustration", "image_generation"],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    },
  ],
  signatures: [],
};
//#endregion

//#region executor
class StageAgent implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { userMessage: message, taskId, contextId } = context; // contextId: the run's id
    // The work item, exactly work-item.v1, is the data part (its metadata names the schema); the
    // text part renders the same context for a model; metadata.task_context names the attempt.
    const item = message.parts.find((p) => p.content?.$case === "data")?.content?.value as WorkItem;
    const sent = message.metadata?.task_context as { attempt: number } | undefined;
    console.log(`${item.kind} ${item.id}, attempt ${sent?.attempt}, stage ${item.stage_id}`);

    const status = (state: TaskState) => ({
      state,
      timestamp: new Date().toISOString(),
      message: undefined,
    });
    // Working: the service renews the item's lease (a heartbeat) when it sees this state.
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_WORKING),
        artifacts: [],
        history: [message],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: crypto.randomUUID(),
          name: `${item.stage_id} by Illustrator`, // a task item's artifact title
          description: "",
          parts: resultOf(item),
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    // Completed: the service completes the work item with the artifact.
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  cancelTask = async (): Promise<void> => {}; // the service cancels a task past its lease
}

/** The stage's work: a text part for a task item, a data part { verdict, summary, criteria } for a review. */
function resultOf(item: WorkItem): Part[] {
  if (item.kind === "task") {
    const text = `# ${item.stage_id}\n\nAn illustration of: ${item.goal}`;
    return [
      {
        content: { $case: "text", value: text },
        mediaType: "text/markdown",
        filename: "",
        metadata: undefined,
      },
    ];
  }
  // One entry per criterion of the review stage, each once.
  const criteria = item.review_context.review_criteria.map((criterion) => ({
    criterion,
    score: 8,
    comment: `${criterion}: fine`,
  }));
  const review = { verdict: "approve", summary: "Fits the brief", criteria };
  return [
    {
      content: { $case: "data", value: review },
      mediaType: "application/json",
      filename: "",
      metadata: undefined,
    },
  ];
}
//#endregion

//#region serve
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new StageAgent());
const app = express();
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(port, "127.0.0.1", () => console.log(`A2A agent "${card.name}" on ${url}`));
//#endregion
