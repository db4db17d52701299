import { type OpenApiDocument, openApiDocument, operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

let document: OpenApiDocument | undefined;

/**
 * The contract's OpenAPI document, built on first use (an isolate that never serves it, or
 * `/docs`, never builds it).
 */
export function servedDocument(): OpenApiDocument {
  document ??= openApiDocument();
  return document;
}

/** `GET /v1/openapi.json`: the contract as an OpenAPI 3.1 document. */
export const openApi = defineHandler(operations.openApi, {
  handle: async () => servedDocument(),
});
