import { TaskContextError } from "@task-context/core";

/** The oldest Node with `node:sqlite` built in without a flag (22.13.0; 23.4.0 on the odd line). */
export const SQLITE_NODE = "22.13";

/**
 * The codes of the errors the service's Node entry throws itself, apart from those it answers
 * with over HTTP (`DeliveryErrorCode`).
 */
export type NodeServiceErrorCode = "UNSUPPORTED_RUNTIME";

const marker = "task-context.error.SqliteUnavailableError";
const symbol = Symbol.for(marker);

/**
 * Opening the embedded SQLite store (`startNodeServer` without `databaseUrl`, `openNodeDatabase`,
 * `task-context-server` without `TASK_CONTEXT_DATABASE_URL`) on a Node without `node:sqlite`
 * throws it, naming the Node it needs; PostgreSQL needs no SQLite and runs on Node 20.
 */
export class SqliteUnavailableError extends TaskContextError<NodeServiceErrorCode> {
  protected readonly [symbol] = true;
  override name = "SqliteUnavailableError";
  /** The Node version that was refused, such as "20.20.2". */
  readonly nodeVersion: string;
  /** The oldest Node that has what is missing, such as "22.13". */
  readonly requiredNode: string;

  constructor({ nodeVersion }: { nodeVersion: string }) {
    super({
      code: "UNSUPPORTED_RUNTIME",
      message: `The embedded SQLite store needs node:sqlite, built into Node ${SQLITE_NODE} and later, and this is Node ${nodeVersion}. Run on Node ${SQLITE_NODE} or later (Node 24 is the current LTS), or use PostgreSQL (databaseUrl, TASK_CONTEXT_DATABASE_URL), which runs on Node 20.`,
    });
    this.nodeVersion = nodeVersion;
    this.requiredNode = SQLITE_NODE;
  }

  /** True for an {@link SqliteUnavailableError} from any bundled copy. */
  static override isInstance(error: unknown): error is SqliteUnavailableError {
    return TaskContextError.hasMarker(error, marker);
  }
}
