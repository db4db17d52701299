// The pieces operations share: the path parameters of the contract's paths and the headers the
// operations read, each described once for every operation that takes it.
import { schemaNames } from "@task-context/protocols";
import * as z from "zod";
import type { HeaderParameter } from "./define-operation.ts";

const id = (description: string, example: string) =>
  z.string().min(1).describe(description).meta({ example });

/** `{run_id}`: a run's id. */
export const runIdParameter = id(
  "The run's id, as POST /v1/runs returned it",
  "run_qy78f9c66491mvp55vcr65r66m",
);

/** `{artifact_id}`: an artifact's id. */
export const artifactIdParameter = id(
  "An artifact's id, from a completion, a work item's previous_artifacts or an artifact.created event",
  "art_r04nrkd4cy0qpbhxyh41w9z3z3",
);

/** `{id}`: a work item's id. */
export const workItemIdParameter = id(
  "The work item's id, from the inbox",
  "wi_ffnxz1cg6f1qz0jh5rzj9twwqt",
);

/**
 * `{name}`: a published schema's name. Any text is taken: a name that is not published is
 * answered `SCHEMA_NOT_FOUND` (404), as an unknown id is, not a malformed request.
 */
export const schemaNameParameter = z
  .string()
  .describe("A published schema's name (GET /v1/schemas lists them)")
  .meta({ enum: [...schemaNames], example: "work-item.v1" });

/** What an idempotency key may be: 1 to 255 visible ASCII characters (a UUID is a good choice). */
export const idempotencyKeyPattern: RegExp = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header of an idempotent operation. */
export const idempotencyKeyHeader: HeaderParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "The same key with the same body answers the first answer again; with another body, 422.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

/** The W3C trace context headers, on the operations whose spans continue the caller's trace. */
export const traceContextHeaders: readonly HeaderParameter[] = [
  {
    name: "traceparent",
    in: "header",
    required: false,
    description:
      "W3C trace context: the caller's span. The request's spans continue its trace (when the service has an OpenTelemetry SDK); on POST /v1/runs it is stored with the run, and every work item of the run carries it as trace_context.",
    schema: { type: "string", pattern: "^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$" },
    example: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  },
  {
    name: "tracestate",
    in: "header",
    required: false,
    description: "W3C trace context: vendors' entries that come with traceparent.",
    schema: { type: "string" },
    example: "vendor=opaque",
  },
];

/** `Last-Event-ID`: where a reconnecting event stream resumes. */
export const lastEventIdHeader: HeaderParameter = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  description: "Resume the stream after this seq (what a reconnecting EventSource sends)",
  schema: { type: "string", pattern: "^[0-9]+$" },
};
