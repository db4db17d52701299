// The service's OpenAPI document, as GET /v1/openapi.json serves it (Node: the app in process).
import type { StartService } from "../contract/harness.ts";
import { inProcess } from "../node/services.ts";
import type { OpenApiDocument } from "./contract-checker.ts";

/** The document a service started by `start` serves. */
export async function servedDocument(
  start: StartService = inProcess,
): Promise<OpenApiDocument & Record<string, unknown>> {
  const service = await start();
  try {
    const answer = await service.fetch(`${service.baseUrl}/v1/openapi.json`);
    if (answer.status !== 200) throw new Error(`GET /v1/openapi.json answered ${answer.status}`);
    return (await answer.json()) as OpenApiDocument & Record<string, unknown>;
  } finally {
    await service.stop();
  }
}
