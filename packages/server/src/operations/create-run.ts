import { operations } from "@task-context/contract";
import { newId } from "../delivery/ids.ts";
import { defineHandler } from "../execution/operation-handler.ts";
import { screenRunSecrets } from "../http/run-secrets.ts";
import { requestTraceContext } from "../http/trace-context.ts";

/** `POST /v1/runs`: the run stored (its secrets screened by the policy), its first stage offered. */
export const createRun = defineHandler(operations.createRun, {
  handle: async ({ body }, { service, http }) => {
    const { input, warning } = screenRunSecrets(body, service.secrets);
    // The trace it was created in, for its work items' trace_context (none without an SDK).
    const run = await service.store.createRun(newId("run"), input, {
      traceContext: http === undefined ? undefined : requestTraceContext(http.req.raw),
    });
    return warning === undefined ? run : { ...run, warning };
  },
});
