import { z } from "zod";
import { artifactReferenceSchema } from "./artifact.ts";
import { reviewFeedbackSchema } from "./review-feedback.ts";

const eventFields = {
  id: z.string().min(1),
  run_id: z.string().min(1),
  at: z.iso.datetime({ offset: true }),
};

/** An event on a run's collaboration stream (spec 003). */
export const collaborationEventSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("work_item.assigned"),
      ...eventFields,
      work_item_id: z.string().min(1),
      agent_tag: z.string().min(1),
    }),
    z.strictObject({
      type: z.literal("work_item.completed"),
      ...eventFields,
      work_item_id: z.string().min(1),
      agent_tag: z.string().min(1),
    }),
    z.strictObject({
      type: z.literal("artifact.created"),
      ...eventFields,
      artifact: artifactReferenceSchema,
    }),
    z.strictObject({
      type: z.literal("review.feedback"),
      ...eventFields,
      artifact_id: z.string().min(1).describe("The reviewed artifact the feedback is linked to"),
      feedback: reviewFeedbackSchema,
    }),
  ])
  .meta({ title: "Collaboration event" });

/** A collaboration event. */
export type CollaborationEvent = z.infer<typeof collaborationEventSchema>;
