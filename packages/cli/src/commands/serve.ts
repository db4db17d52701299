import { resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { loadNodeService, SQLITE_NODE, startNodeService } from "../service/load-node-service.ts";

/** Parses a TCP port: 0 (any free port) to 65535. */
function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw new InvalidArgumentError("expected a port from 0 to 65535");
  }
  return parsed;
}

/** Parses a PostgreSQL URL. */
function postgresUrl(value: string): string {
  if (!/^postgres(ql)?:\/\/./.test(value)) {
    throw new InvalidArgumentError(
      "expected a PostgreSQL URL such as postgres://user:password@host:5432/database",
    );
  }
  return value;
}

/** A database URL as it may be printed: its password hidden. */
function shownUrl(url: string): string {
  try {
    const shown = new URL(url);
    if (shown.password !== "") shown.password = "***";
    return shown.href;
  } catch {
    return "postgres://…";
  }
}

/**
 * `task-context serve`: the delivery service on Node with embedded SQLite, or on PostgreSQL
 * (`--database-url`), until SIGINT or SIGTERM. Prints `listening on http://HOST:PORT`, the admin
 * token and the database.
 */
export function addServeCommand(
  program: Command,
  { io, exit, outputClosed }: CommandContext,
): void {
  const command = configureCommand(new Command("serve"), io)
    .description(
      `start the delivery service with embedded SQLite (Node ≥ ${SQLITE_NODE}), or on PostgreSQL`,
    )
    .option("--port <port>", "TCP port, 0 for any free one (default: $PORT or 8787)", port)
    .option("--host <host>", "address to listen on (default: $HOST or 127.0.0.1)")
    .option(
      "--db <file>",
      "SQLite file, or :memory: (default: $TASK_CONTEXT_DB or .data/task-context.db)",
    )
    .option(
      "--database-url <url>",
      "PostgreSQL instead of SQLite, e.g. postgres://user:password@host:5432/db (default: $TASK_CONTEXT_DATABASE_URL); any number of instances may serve one database",
      postgresUrl,
    )
    .addHelpText(
      "after",
      `
The admin token is TASK_CONTEXT_ADMIN_TOKEN, or a new one printed at start. Other settings come
from the environment as for the service itself (TASK_CONTEXT_RATE_LIMIT, TASK_CONTEXT_CORS_ORIGINS).
Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
${examples(
  "task-context serve",
  "task-context serve --port 0 --db :memory:",
  "TASK_CONTEXT_ADMIN_TOKEN=s3cret task-context serve --host 0.0.0.0",
  "task-context serve --database-url postgres://task:secret@db.internal:5432/task_context",
)}`,
    )
    .action(
      async (options: { port?: number; host?: string; db?: string; databaseUrl?: string }) => {
        // Listening before the server starts: a signal that comes early still stops it cleanly.
        let stopListening: (() => void) | undefined;
        const stopSignal = new Promise<string | undefined>((resolveSignal) => {
          stopListening = io.onSignal?.(resolveSignal);
          // Its output's reader went away (`… | head -1`): it stops as on a signal, quietly.
          outputClosed.addEventListener("abort", () => resolveSignal(undefined), { once: true });
        });
        try {
          const service = await loadNodeService("serve");
          const {
            generatedAdminToken: generated,
            databaseUrl: environmentUrl,
            ...settings
          } = service.settingsFromEnv(io.env);
          const database = options.db ?? settings.database;
          // --db chooses SQLite over $TASK_CONTEXT_DATABASE_URL; --database-url PostgreSQL over both.
          const databaseUrl =
            options.databaseUrl ?? (options.db === undefined ? environmentUrl : undefined);
          const server = await startNodeService(
            service,
            {
              ...settings,
              ...(options.port === undefined ? {} : { port: options.port }),
              ...(options.host === undefined ? {} : { host: options.host }),
              database: database === ":memory:" ? database : resolve(io.cwd, database),
              ...(databaseUrl === undefined ? {} : { databaseUrl }),
              onUnexpectedError: (error) => {
                io.stderr.write(
                  `task-context: unexpected error in the service: ${String(error)}\n`,
                );
              },
            },
            {
              command: "serve",
              alternative:
                "serve on PostgreSQL with --database-url postgres://…, which runs on Node 20",
            },
          );
          io.stdout.write(`listening on ${server.url}\n`);
          io.stdout.write(
            generated
              ? `admin token: ${settings.adminToken}\n`
              : "admin token: the value of TASK_CONTEXT_ADMIN_TOKEN\n",
          );
          io.stdout.write(
            `database: ${databaseUrl === undefined ? database : shownUrl(databaseUrl)}\n`,
          );
          const signal = await stopSignal;
          if (signal !== undefined) io.stdout.write(`${signal}: stopping\n`);
          await server.close();
          exit(0);
        } finally {
          stopListening?.();
        }
      },
    );
  program.addCommand(command);
}
