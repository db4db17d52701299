export {
  type Artifact,
  type ArtifactReference,
  artifactReferenceSchema,
  artifactSchema,
} from "./schemas/artifact.ts";
export {
  type CollaborationEvent,
  collaborationEventSchema,
} from "./schemas/collaboration-event.ts";
export { type ReviewContext, reviewContextSchema } from "./schemas/review-context.ts";
export { type ReviewFeedback, reviewFeedbackSchema } from "./schemas/review-feedback.ts";
export { type StageContext, stageContextSchema } from "./schemas/stage-context.ts";
export { type WorkItem, workItemSchema } from "./schemas/work-item.ts";
