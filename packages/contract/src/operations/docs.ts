import { defineOperation } from "../define-operation.ts";

/** `GET /docs`: the contract as a readable HTML page. */
export const docs = defineOperation({
  id: "docs",
  method: "GET",
  path: "/docs",
  audience: "public",
  summary: "A readable reference of this contract",
  description: "This document as an HTML page, rendered on the server (no script).",
  tag: "public",
  output: { kind: "text", status: 200, mediaType: "text/html", description: "An HTML page" },
});
