// What a PostgreSQL URL must look like, checked once for every place that takes one (the store,
// startNodeServer, TASK_CONTEXT_DATABASE_URL). No driver is loaded here.
import { ArgumentError } from "@task-context/core";

/** Returns `value` when it is a `postgres://` or `postgresql://` URL; an ArgumentError naming `argument` otherwise. */
export function requirePostgresUrl(argument: string, value: unknown): string {
  if (typeof value !== "string" || !/^postgres(ql)?:\/\/./.test(value)) {
    throw new ArgumentError({
      argument,
      message: "expected a PostgreSQL URL such as postgres://user:password@host:5432/database.",
    });
  }
  return value;
}
