// Asking validate() for a schema that is not published.
import { UnknownSchemaError, validate } from "@task-context/protocols";

try {
  validate("context-block.v9", {});
} catch (error) {
  if (!UnknownSchemaError.isInstance(error)) throw error;
  console.error(error.knownSchemas); // ["context-block.v1", "subagent-context.v1", …, "collaboration-event.v1"]
}
