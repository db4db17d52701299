/**
 * The delivery service's work items: what an agent receives from its inbox (the run's goal and
 * constraints, the stage's context, earlier artifacts, available skills, review context) and the
 * events of a run's collaboration stream. Field names are the wire's snake_case. See
 * https://github.com/task-context/task-context/blob/main/docs/work-items.md.
 *
 * @module
 */

export { type RunContext, renderRunContext, runContextSha256 } from "./run-context.ts";
export {
  type Artifact,
  type ArtifactReference,
  artifactReferenceSchema,
  artifactSchema,
} from "./schemas/artifact.ts";
export {
  type CollaborationEvent,
  type CollaborationEventType,
  collaborationEventSchema,
} from "./schemas/collaboration-event.ts";
export { type ContentFinding, contentFindingSchema } from "./schemas/content-finding.ts";
export { contextSha256Schema } from "./schemas/context-sha256.ts";
export { type ReviewContext, reviewContextSchema } from "./schemas/review-context.ts";
export { type ReviewFeedback, reviewFeedbackSchema } from "./schemas/review-feedback.ts";
export { type StageContext, stageContextSchema } from "./schemas/stage-context.ts";
export { type TraceContext, traceContextSchema } from "./schemas/trace-context.ts";
export { type WorkItem, workItemSchema } from "./schemas/work-item.ts";
