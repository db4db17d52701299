import { Ajv2020 } from "ajv/dist/2020.js";
import artifactSchema from "../../schemas/artifact.v1.schema.json" with { type: "json" };
import artifactReferenceSchema from "../../schemas/artifact-reference.v1.schema.json" with {
  type: "json",
};
import collaborationEventSchema from "../../schemas/collaboration-event.v1.schema.json" with {
  type: "json",
};
import contextBlockSchema from "../../schemas/context-block.v1.schema.json" with { type: "json" };
import contextLimitsSchema from "../../schemas/context-limits.v1.schema.json" with { type: "json" };
import reviewContextSchema from "../../schemas/review-context.v1.schema.json" with { type: "json" };
import reviewFeedbackSchema from "../../schemas/review-feedback.v1.schema.json" with {
  type: "json",
};
import stageContextSchema from "../../schemas/stage-context.v1.schema.json" with { type: "json" };
import subagentContextSchema from "../../schemas/subagent-context.v1.schema.json" with {
  type: "json",
};
import subagentOutputSchema from "../../schemas/subagent-output.v1.schema.json" with {
  type: "json",
};
import workItemSchema from "../../schemas/work-item.v1.schema.json" with { type: "json" };
import { UnknownSchemaError } from "../errors/unknown-schema-error.ts";
import type { SchemaName } from "../schemas/registry.ts";
import { schemaValidatorFrom } from "./ajv-issues.ts";
import { ajvOptions } from "./ajv-options.ts";
import { getValidator as getStandaloneValidator } from "./standalone-validators.ts";
import type { SchemaValidator } from "./validation-result.ts";

/** The published JSON Schemas, exactly as committed and shipped in `schemas/`. */
const publishedSchemas: Record<SchemaName, object> = {
  "context-block.v1": contextBlockSchema,
  "subagent-context.v1": subagentContextSchema,
  "context-limits.v1": contextLimitsSchema,
  "subagent-output.v1": subagentOutputSchema,
  "work-item.v1": workItemSchema,
  "stage-context.v1": stageContextSchema,
  "review-context.v1": reviewContextSchema,
  "artifact.v1": artifactSchema,
  "artifact-reference.v1": artifactReferenceSchema,
  "review-feedback.v1": reviewFeedbackSchema,
  "collaboration-event.v1": collaborationEventSchema,
};

let ajv: Ajv2020 | undefined;
const cache = new Map<SchemaName, SchemaValidator>();

/**
 * The validator of a published schema, compiled by ajv from the committed JSON Schema on first
 * use and cached. ajv compiles with `new Function`, which Node, Bun and Deno allow; `validate()`
 * picks this module through the `#validators` import there. Its answers are the standalone
 * validators' answers: same schemas, same ajv options, same generated code.
 *
 * @example
 * ```ts
 * const check = getValidator("work-item.v1");
 * check(workItem).valid; // true
 * ```
 */
export function getValidator(name: SchemaName): SchemaValidator {
  const cached = cache.get(name);
  if (cached) return cached;
  if (!Object.hasOwn(publishedSchemas, name))
    throw new UnknownSchemaError({ schema: name, knownSchemas: Object.keys(publishedSchemas) });
  ajv ??= new Ajv2020({ ...ajvOptions, logger: false });
  let validateFunction: ReturnType<Ajv2020["compile"]>;
  try {
    validateFunction = ajv.compile(publishedSchemas[name]);
  } catch (error) {
    // Code generation from strings disabled (`--disallow-code-generation-from-strings`, a hardened
    // runtime): the precompiled validators give the same answers.
    if (!(error instanceof EvalError)) throw error;
    const standalone = getStandaloneValidator(name);
    cache.set(name, standalone);
    return standalone;
  }
  const validator = schemaValidatorFrom(validateFunction);
  cache.set(name, validator);
  return validator;
}
