import type * as z from "zod/mini";
import { artifactReferenceSchema, artifactSchema } from "./artifact.ts";
import { collaborationEventSchema } from "./collaboration-event.ts";
import { contextBlockSchema } from "./context-block.ts";
import { contextLimitsConfigSchema } from "./context-limits.ts";
import { reviewContextSchema } from "./review-context.ts";
import { reviewFeedbackSchema } from "./review-feedback.ts";
import { stageContextSchema } from "./stage-context.ts";
import { subagentContextSchema } from "./subagent-context.ts";
import { subagentOutputSchema } from "./subagent-output.ts";
import { workItemSchema } from "./work-item.ts";

/**
 * Every published schema: its versioned name (the file `schemas/{name}.schema.json` and the
 * export `@task-context/protocols/schemas/{name}.schema.json`) and its zod source.
 */
export const schemaRegistry = {
  "context-block.v1": contextBlockSchema,
  "subagent-context.v1": subagentContextSchema,
  "context-limits.v1": contextLimitsConfigSchema,
  "subagent-output.v1": subagentOutputSchema,
  "work-item.v1": workItemSchema,
  "stage-context.v1": stageContextSchema,
  "review-context.v1": reviewContextSchema,
  "artifact.v1": artifactSchema,
  "artifact-reference.v1": artifactReferenceSchema,
  "review-feedback.v1": reviewFeedbackSchema,
  "collaboration-event.v1": collaborationEventSchema,
} as const satisfies Record<string, z.ZodMiniType>;

/** The name of a published schema, e.g. `"context-block.v1"`. */
export type SchemaName = keyof typeof schemaRegistry;

/** The names of every published schema, the names {@link validate} accepts. */
export const schemaNames: readonly SchemaName[] = Object.freeze(
  Object.keys(schemaRegistry) as SchemaName[],
);

/** The stable `$id` of a published schema: `urn:task-context:schema:{name}`. */
export function schemaIdOf(name: SchemaName): string {
  return `urn:task-context:schema:${name}`;
}
