// The handler of every operation of the contract's registry: a route, an MCP tool and an A2A
// outcome run the same one through the executor (execution/execute-operation.ts). An operation
// without a handler, or a handler without an operation, does not compile.
import type { OperationId, Operations } from "@task-context/contract";
import type { OperationHandler } from "./execution/operation-handler.ts";
import { addAgent } from "./operations/add-agent.ts";
import { claimNext } from "./operations/claim-next.ts";
import { claimWorkItem } from "./operations/claim-work-item.ts";
import { completeWorkItem } from "./operations/complete-work-item.ts";
import { createRun } from "./operations/create-run.ts";
import { createViewLink } from "./operations/create-view-link.ts";
import { docs } from "./operations/docs.ts";
import { failWorkItem } from "./operations/fail-work-item.ts";
import { getArtifact } from "./operations/get-artifact.ts";
import { getRun } from "./operations/get-run.ts";
import { getSchema } from "./operations/get-schema.ts";
import { health } from "./operations/health.ts";
import { heartbeat } from "./operations/heartbeat.ts";
import { listAgents } from "./operations/list-agents.ts";
import { listDeadLetters } from "./operations/list-dead-letters.ts";
import { listEvents } from "./operations/list-events.ts";
import { listRuns } from "./operations/list-runs.ts";
import { listSchemas } from "./operations/list-schemas.ts";
import { openApi } from "./operations/open-api.ts";
import { pollInbox } from "./operations/poll-inbox.ts";
import { requeueFromPage } from "./operations/requeue-from-page.ts";
import { requeueWorkItem } from "./operations/requeue-work-item.ts";
import { runPage } from "./operations/run-page.ts";
import { validate } from "./operations/validate.ts";

/** Every operation's handler, by the operation's id. */
export const handlers = {
  health,
  listSchemas,
  getSchema,
  validate,
  openApi,
  docs,
  listRuns,
  createRun,
  getRun,
  listAgents,
  addAgent,
  getArtifact,
  listDeadLetters,
  requeueWorkItem,
  pollInbox,
  claimNext,
  claimWorkItem,
  heartbeat,
  completeWorkItem,
  failWorkItem,
  listEvents,
  createViewLink,
  runPage,
  requeueFromPage,
} satisfies { [Id in OperationId]: OperationHandler<Operations[Id], unknown> };
