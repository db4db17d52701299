import { type SchemaName, schemaNames, validate } from "@task-context/protocols";
import { renderDocsPage } from "../contract/docs-page.ts";
import { jsonResponse, openApiDocument } from "../contract/openapi.ts";
import { publishedSchemas } from "../contract/published-schemas.ts";
import { health, schemaList, validationView } from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { requireJsonBody, wellFormedJson } from "../http/validation.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

function schemaName(name: string): SchemaName {
  if (!(schemaNames as readonly string[]).includes(name)) {
    throw new DeliveryError({
      code: "SCHEMA_NOT_FOUND",
      message: `No published schema "${name}". GET /v1/schemas lists them: ${schemaNames.join(", ")}.`,
    });
  }
  return name as SchemaName;
}

/** Health, the published schemas, validation, the OpenAPI document and its reference page. */
export function publicRoutes(app: App, context: RouteContext): void {
  let document: Promise<Record<string, unknown>> | undefined;
  const openApi = () => {
    document ??= openApiDocument(app as never) as Promise<Record<string, unknown>>;
    return document;
  };

  app.get(
    "/healthz",
    endpoint(context, {
      id: "health",
      summary: "Whether the service answers",
      description: "For load balancers and uptime checks: no token, no storage.",
      tag: "public",
      audience: "public",
      responses: { 200: jsonResponse(health, "It does") },
    }),
    (c) => c.json({ status: "ok" as const }),
  );

  app.get(
    "/v1/schemas",
    endpoint(context, {
      id: "listSchemas",
      summary: "The published JSON Schemas",
      description:
        "The JSON Schemas (draft 2020-12) of @task-context/protocols: work items, artifacts, review feedback, collaboration events, …",
      tag: "public",
      audience: "public",
      responses: { 200: jsonResponse(schemaList, "Their names, $ids and URLs") },
    }),
    (c) =>
      c.json({
        schemas: schemaNames.map((name) => ({
          name,
          id: publishedSchemas[name].$id,
          url: `/v1/schemas/${name}`,
        })),
      }),
  );

  app.get(
    "/v1/schemas/:name",
    endpoint(context, {
      id: "getSchema",
      summary: "One published JSON Schema (draft 2020-12)",
      description: "The schema file as @task-context/protocols publishes it.",
      tag: "public",
      audience: "public",
      responses: {
        200: {
          description: "The schema",
          content: { "application/schema+json": { schema: { type: "object" } } },
        },
      },
      errors: ["SCHEMA_NOT_FOUND"],
    }),
    (c) => {
      const schema = publishedSchemas[schemaName(c.req.param("name"))];
      return c.body(JSON.stringify(schema, null, 2), 200, {
        "Content-Type": "application/schema+json; charset=utf-8",
      });
    },
  );

  app.post(
    "/v1/validate/:name",
    endpoint(context, {
      id: "validate",
      summary: "Check a JSON value against a published schema",
      description:
        "Runs the same zod schemas as @task-context/protocols' validate(): every issue has the JSON Pointer of its field and says what to write instead.",
      tag: "public",
      audience: "public",
      responses: { 200: jsonResponse(validationView, "The verdict and its issues") },
      requestBody: {
        required: true,
        description: "The value to check",
        content: { "application/json": { schema: { description: "Any JSON value" } } },
      },
      errors: [
        "INVALID_REQUEST",
        "SCHEMA_NOT_FOUND",
        "PAYLOAD_TOO_LARGE",
        "UNSUPPORTED_MEDIA_TYPE",
      ],
    }),
    requireJsonBody,
    async (c) => {
      const name = schemaName(c.req.param("name"));
      const body = await wellFormedJson(c);
      if (body === undefined) {
        throw new DeliveryError({
          code: "INVALID_REQUEST",
          message: "The request body is not valid JSON. Send the value to check as JSON.",
        });
      }
      return c.json(validate(name, body.value));
    },
  );

  app.get(
    "/v1/openapi.json",
    endpoint(context, {
      id: "openApi",
      summary: "This contract as an OpenAPI 3.1 document",
      description: "Generated from the same zod schemas that validate the requests.",
      tag: "public",
      audience: "public",
      responses: { 200: { description: "The document", content: { "application/json": {} } } },
    }),
    async (c) => c.json(await openApi()),
  );

  app.get(
    "/docs",
    endpoint(context, {
      id: "docs",
      summary: "A readable reference of this contract",
      description: "This document as an HTML page, rendered on the server (no script).",
      tag: "public",
      audience: "public",
      responses: { 200: { description: "An HTML page", content: { "text/html": {} } } },
    }),
    async (c) => c.html(renderDocsPage(await openApi())),
  );
}
