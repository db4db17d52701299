import { defineOperation } from "../define-operation.ts";
import { schemaList } from "../schemas.ts";

/** `GET /v1/schemas`: the published JSON Schemas. */
export const listSchemas = defineOperation({
  id: "listSchemas",
  method: "GET",
  path: "/v1/schemas",
  audience: "public",
  summary: "The published JSON Schemas",
  description:
    "The JSON Schemas (draft 2020-12) of @task-context/protocols: work items, artifacts, review feedback, collaboration events, …",
  tag: "public",
  output: {
    kind: "json",
    status: 200,
    body: schemaList,
    description: "Their names, $ids and URLs",
  },
  client: { method: "listSchemas" },
});
