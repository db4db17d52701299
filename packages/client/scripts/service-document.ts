// Where the generator takes the service's contract from: the OpenAPI document and the table of
// error codes, both from @task-context/contract (a development dependency only: the published
// client carries what was generated, not the contract).
import { deliveryErrorStatus, openApiDocument } from "@task-context/contract";
import type { ServiceDocument } from "./client-generation.ts";

export { deliveryErrorStatus as errorStatus };

/** The document the service serves at GET /v1/openapi.json. */
export async function serviceDocument(): Promise<ServiceDocument> {
  return openApiDocument() as unknown as ServiceDocument;
}
