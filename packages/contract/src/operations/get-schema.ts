import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { schemaNameParameter } from "../parameters.ts";

/** `GET /v1/schemas/{name}`: one published JSON Schema. */
export const getSchema = defineOperation({
  id: "getSchema",
  method: "GET",
  path: "/v1/schemas/{name}",
  audience: "public",
  summary: "One published JSON Schema (draft 2020-12)",
  description: "The schema file as @task-context/protocols publishes it.",
  tag: "public",
  input: { path: z.strictObject({ name: schemaNameParameter }) },
  output: {
    kind: "text",
    status: 200,
    mediaType: "application/schema+json",
    schema: { type: "object" },
    description: "The schema",
  },
  errors: ["SCHEMA_NOT_FOUND"],
  client: { method: "getSchema" },
});
