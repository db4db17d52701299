import type { OperationDefinition } from "@task-context/contract";
import { type Caller, requireAdmin, requireAgent, requireRunAccess } from "../http/auth.ts";
import type { CallerOf } from "./operation-handler.ts";

/**
 * The caller if it may call `operation` on the run `runId` (the path's `run_id`), the one place
 * an operation's audience is checked, for every entry: its own run only (another run is "not
 * found", as a run that does not exist), then the audience's role — 403 `FORBIDDEN` for an agent
 * on an admin's operation and for the admin (or a viewer) on an agent's. A public operation has
 * no caller; a page checks its caller itself.
 */
export function admit<D extends OperationDefinition>(
  operation: D,
  caller: Caller | undefined,
  runId: string | undefined,
): CallerOf<D["audience"]> {
  const { audience } = operation;
  if (audience === "public" || audience === "admin or view link") {
    return undefined as CallerOf<D["audience"]>;
  }
  if (caller === undefined) {
    throw new Error(`${operation.id} was called without a caller: authenticate first.`);
  }
  if (runId !== undefined) requireRunAccess(caller, runId);
  if (audience === "admin") requireAdmin(caller);
  if (audience === "agent") requireAgent(caller);
  return caller as CallerOf<D["audience"]>;
}
