/** An OpenAPI 3.1 document, as `GET /v1/openapi.json` answers it: the service's contract. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [field: string]: unknown;
}
