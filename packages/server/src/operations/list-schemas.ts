import { operations, publishedSchemas } from "@task-context/contract";
import { schemaNames } from "@task-context/protocols";
import { defineHandler } from "../execution/operation-handler.ts";

/** `GET /v1/schemas`: each published schema's name, `$id` and address here. */
export const listSchemas = defineHandler(operations.listSchemas, {
  handle: async () => ({
    schemas: schemaNames.map((name) => ({
      name,
      id: publishedSchemas[name].$id,
      url: `/v1/schemas/${name}`,
    })),
  }),
});
