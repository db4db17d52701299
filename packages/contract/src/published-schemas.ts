// The JSON Schemas @task-context/protocols publishes, as committed in its schemas/ folder:
// served as they are by GET /v1/schemas/{name}. A test checks this list against schemaNames.
import type { SchemaName } from "@task-context/protocols";
import artifactV1 from "@task-context/protocols/schemas/artifact.v1.schema.json" with {
  type: "json",
};
import artifactReferenceV1 from "@task-context/protocols/schemas/artifact-reference.v1.schema.json" with {
  type: "json",
};
import collaborationEventV1 from "@task-context/protocols/schemas/collaboration-event.v1.schema.json" with {
  type: "json",
};
import contextBlockV1 from "@task-context/protocols/schemas/context-block.v1.schema.json" with {
  type: "json",
};
import contextLimitsV1 from "@task-context/protocols/schemas/context-limits.v1.schema.json" with {
  type: "json",
};
import reviewContextV1 from "@task-context/protocols/schemas/review-context.v1.schema.json" with {
  type: "json",
};
import reviewFeedbackV1 from "@task-context/protocols/schemas/review-feedback.v1.schema.json" with {
  type: "json",
};
import stageContextV1 from "@task-context/protocols/schemas/stage-context.v1.schema.json" with {
  type: "json",
};
import subagentContextV1 from "@task-context/protocols/schemas/subagent-context.v1.schema.json" with {
  type: "json",
};
import subagentOutputV1 from "@task-context/protocols/schemas/subagent-output.v1.schema.json" with {
  type: "json",
};
import workItemV1 from "@task-context/protocols/schemas/work-item.v1.schema.json" with {
  type: "json",
};

/** Every published JSON Schema, by name. */
export const publishedSchemas: Readonly<Record<SchemaName, { $id: string }>> = {
  "context-block.v1": contextBlockV1,
  "subagent-context.v1": subagentContextV1,
  "context-limits.v1": contextLimitsV1,
  "subagent-output.v1": subagentOutputV1,
  "work-item.v1": workItemV1,
  "stage-context.v1": stageContextV1,
  "review-context.v1": reviewContextV1,
  "artifact.v1": artifactV1,
  "artifact-reference.v1": artifactReferenceV1,
  "review-feedback.v1": reviewFeedbackV1,
  "collaboration-event.v1": collaborationEventV1,
};
