import * as z from "zod/mini";
import { artifactReferenceSchema } from "./artifact.ts";
import { contentFindingSchema } from "./content-finding.ts";
import { contextSha256Schema } from "./context-sha256.ts";
import { reviewFeedbackSchema } from "./review-feedback.ts";

const identifier = z.string().check(z.minLength(1));
const timestamp = z.iso.datetime({
  offset: true,
  error: "must be an ISO 8601 date-time with seconds and a time zone, such as 2026-11-20T10:15:30Z",
});
const attempt = z.int().check(z.gte(1), z.describe("The delivery attempt the event is about"));

const eventFields = {
  id: identifier,
  seq: z
    .int()
    .check(
      z.gte(1),
      z.describe("Position in the run's stream: 1, 2, 3, … with no gaps; resume a stream after it"),
    ),
  run_id: identifier,
  at: timestamp,
};

/** One branch of the union: the type's literal, the common fields and the type's own fields. */
function event<Type extends string, Shape extends z.core.$ZodLooseShape>(type: Type, shape: Shape) {
  return z.strictObject({ type: z.literal(type), ...eventFields, ...shape });
}

/**
 * An event on a run's collaboration stream: every change of a run's state is one, numbered by
 * `seq` without gaps, so a reader that resumes after the last `seq` it saw misses nothing.
 */
export const collaborationEventSchema = z
  .discriminatedUnion("type", [
    event("run.created", {
      goal: identifier,
      stage_ids: z.array(identifier).check(z.describe("The run's stages, in order")),
    }),
    event("work_item.offered", {
      work_item_id: identifier,
      stage_id: identifier,
      kind: z.enum(["task", "review"]),
      attempt: attempt.check(z.describe("The attempt the next claim starts")),
    }),
    event("work_item.leased", {
      work_item_id: identifier,
      agent_tag: identifier,
      attempt,
      expires_at: timestamp,
    }),
    event("work_item.lease_expired", {
      work_item_id: identifier,
      agent_tag: identifier,
      attempt,
    }),
    event("work_item.completed", {
      work_item_id: identifier,
      agent_tag: identifier,
      attempt,
    }),
    event("work_item.failed", {
      work_item_id: identifier,
      agent_tag: identifier,
      attempt,
      reason: z.string(),
    }),
    event("work_item.dead_lettered", {
      work_item_id: identifier,
      attempts: z.int().check(z.gte(1), z.describe("How many attempts failed or expired")),
    }),
    event("work_item.requeued", {
      work_item_id: identifier,
      attempt: attempt.check(z.describe("The attempt the next claim starts")),
    }),
    event("context.stale", {
      work_item_id: identifier.check(z.describe("The item whose completion quoted a stale hash")),
      agent_tag: identifier,
      attempt,
      quoted_context_sha256: contextSha256Schema.check(
        z.describe("The run-context hash the completion quoted: what the agent worked from"),
      ),
      context_sha256: contextSha256Schema.check(z.describe("The item's current run-context hash")),
    }),
    event("artifact.created", {
      work_item_id: identifier,
      artifact: artifactReferenceSchema,
    }),
    event("review.feedback", {
      artifact_id: identifier.check(z.describe("The reviewed artifact the feedback is linked to")),
      feedback: reviewFeedbackSchema,
    }),
    event("content.flagged", {
      work_item_id: identifier.check(
        z.describe("The item whose completion sent the text: its artifact, or its review"),
      ),
      agent_tag: identifier,
      artifact_id: z.optional(
        identifier.check(z.describe("The artifact flagged; absent when the review was")),
      ),
      findings: z
        .array(contentFindingSchema)
        .check(
          z.minLength(1),
          z.describe(
            "Passages that pose as instructions or as a task-context format; the text is stored exactly as sent",
          ),
        ),
    }),
    event("stage.completed", { stage_id: identifier }),
    event("run.completed", {}),
    event("run.blocked", {
      work_item_id: identifier.check(z.describe("The dead-lettered item that blocks the run")),
    }),
    event("run.resumed", {
      work_item_id: identifier.check(
        z.describe("The item whose requeue or late completion unblocked the run"),
      ),
    }),
    event("run.canceled", {
      reason: z.optional(
        z
          .string()
          .check(z.describe("Why the admin canceled the run, as given; absent when none was")),
      ),
    }),
    event("agent.card_changed", {
      agent_tag: identifier.check(z.describe("The A2A agent whose card the service read again")),
      changes: z
        .array(
          z.strictObject({
            field: z.enum([
              "name",
              "interface_url",
              "protocol_binding",
              "protocol_version",
              "streaming",
              "skills",
              "security",
              "signature",
            ]),
            before: z.string(),
            after: z.string(),
          }),
        )
        .check(
          z.minLength(1),
          z.describe(
            "What changed of what the service uses, each before and after (skills as their ids, security as the scheme names required, signature as its kid)",
          ),
        ),
    }),
    event("agent.card_check_failed", {
      agent_tag: identifier,
      reason: z
        .string()
        .check(
          z.describe(
            "Why the card read again was not taken (unreachable, invalid, a bad signature, its skills or credentials no longer fit): the last good card is kept",
          ),
        ),
    }),
  ])
  .check(z.meta({ title: "Collaboration event" }));

/** A collaboration event. */
export type CollaborationEvent = z.infer<typeof collaborationEventSchema>;

/** The `type` of a collaboration event, e.g. `"work_item.completed"`. */
export type CollaborationEventType = CollaborationEvent["type"];
