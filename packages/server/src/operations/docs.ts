import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { renderDocsPage } from "../page/docs-page.ts";
import { servedDocument } from "./open-api.ts";

/** `GET /docs`: the OpenAPI document as an HTML page. */
export const docs = defineHandler(operations.docs, {
  handle: async () => renderDocsPage(servedDocument() as Record<string, unknown>),
});
