import * as z from "zod/mini";
import { artifactReferenceSchema } from "./artifact.ts";
import { reviewFeedbackSchema } from "./review-feedback.ts";

const identifier = z.string().check(z.minLength(1));

const eventFields = {
  id: identifier,
  run_id: identifier,
  at: z.iso.datetime({
    offset: true,
    error:
      "must be an ISO 8601 date-time with seconds and a time zone, such as 2026-11-20T10:15:30Z",
  }),
};

/** An event on a run's collaboration stream. */
export const collaborationEventSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("work_item.assigned"),
      ...eventFields,
      work_item_id: identifier,
      agent_tag: identifier,
    }),
    z.strictObject({
      type: z.literal("work_item.completed"),
      ...eventFields,
      work_item_id: identifier,
      agent_tag: identifier,
    }),
    z.strictObject({
      type: z.literal("artifact.created"),
      ...eventFields,
      artifact: artifactReferenceSchema,
    }),
    z.strictObject({
      type: z.literal("review.feedback"),
      ...eventFields,
      artifact_id: identifier.check(z.describe("The reviewed artifact the feedback is linked to")),
      feedback: reviewFeedbackSchema,
    }),
  ])
  .check(z.meta({ title: "Collaboration event" }));

/** A collaboration event. */
export type CollaborationEvent = z.infer<typeof collaborationEventSchema>;
