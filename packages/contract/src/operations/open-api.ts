import { defineOperation } from "../define-operation.ts";

/** `GET /v1/openapi.json`: this contract as an OpenAPI 3.1 document. */
export const openApi = defineOperation({
  id: "openApi",
  method: "GET",
  path: "/v1/openapi.json",
  audience: "public",
  summary: "This contract as an OpenAPI 3.1 document",
  description: "Generated from the same zod schemas that validate the requests.",
  tag: "public",
  output: { kind: "json", status: 200, description: "The document" },
  client: { method: "getOpenApiDocument" },
});
