import { defineOperation } from "../define-operation.ts";
import { createRunBody, runCreated } from "../schemas.ts";

/** `POST /v1/runs`: a new run, its first stage's items on offer. */
export const createRun = defineOperation({
  id: "createRun",
  method: "POST",
  path: "/v1/runs",
  audience: "admin",
  summary: "Create a run and offer its first stage's work items",
  description:
    "Stages run in order: when every item of a stage is completed, the next stage's items are offered. A review stage (`kind: review`) reviews an earlier task stage (`reviews`) by its `review_criteria` and gets one review item per artifact of that stage. A stage graph the service cannot run is refused with `INVALID_STAGES` and an issue per problem.",
  tag: "runs",
  input: { body: createRunBody },
  traceContext: true,
  output: {
    kind: "json",
    status: 201,
    body: runCreated,
    description: "The run, with a warning when secrets were redacted",
  },
  errors: [
    "INVALID_REQUEST",
    "INVALID_STAGES",
    "SECRET_IN_CONTEXT",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "createRun" },
});
