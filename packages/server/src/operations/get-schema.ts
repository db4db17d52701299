import { operations, publishedSchemas } from "@task-context/contract";
import { type SchemaName, schemaNames } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/** `name` as a published schema's name, or `SCHEMA_NOT_FOUND` listing the names there are. */
export function publishedSchemaName(name: string): SchemaName {
  if (!(schemaNames as readonly string[]).includes(name)) {
    throw new DeliveryError({
      code: "SCHEMA_NOT_FOUND",
      message: `No published schema "${name}". GET /v1/schemas lists them: ${schemaNames.join(", ")}.`,
    });
  }
  return name as SchemaName;
}

/** `GET /v1/schemas/{name}`: the schema file as @task-context/protocols publishes it. */
export const getSchema = defineHandler(operations.getSchema, {
  handle: async ({ path }) =>
    JSON.stringify(publishedSchemas[publishedSchemaName(path.name)], null, 2),
});
