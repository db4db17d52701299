import { resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { loadNodeService, SERVICE_NODE } from "../service/load-node-service.ts";

/** Parses a TCP port: 0 (any free port) to 65535. */
function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw new InvalidArgumentError("expected a port from 0 to 65535");
  }
  return parsed;
}

/**
 * `task-context serve`: the delivery service on Node with embedded SQLite, until SIGINT or
 * SIGTERM. Prints `listening on http://HOST:PORT` and the admin token.
 */
export function addServeCommand(
  program: Command,
  { io, exit, outputClosed }: CommandContext,
): void {
  const command = configureCommand(new Command("serve"), io)
    .description(`start the delivery service on Node (≥ ${SERVICE_NODE}) with embedded SQLite`)
    .option("--port <port>", "TCP port, 0 for any free one (default: $PORT or 8787)", port)
    .option("--host <host>", "address to listen on (default: $HOST or 127.0.0.1)")
    .option(
      "--db <file>",
      "SQLite file, or :memory: (default: $TASK_CONTEXT_DB or .data/task-context.db)",
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
)}`,
    )
    .action(async (options: { port?: number; host?: string; db?: string }) => {
      // Listening before the server starts: a signal that comes early still stops it cleanly.
      let stopListening: (() => void) | undefined;
      const stopSignal = new Promise<string | undefined>((resolveSignal) => {
        stopListening = io.onSignal?.(resolveSignal);
        // Its output's reader went away (`… | head -1`): it stops as on a signal, quietly.
        outputClosed.addEventListener("abort", () => resolveSignal(undefined), { once: true });
      });
      try {
        const service = await loadNodeService("serve");
        const { generatedAdminToken: generated, ...settings } = service.settingsFromEnv(io.env);
        const database = options.db ?? settings.database;
        const server = await service.startNodeServer({
          ...settings,
          ...(options.port === undefined ? {} : { port: options.port }),
          ...(options.host === undefined ? {} : { host: options.host }),
          database: database === ":memory:" ? database : resolve(io.cwd, database),
          onUnexpectedError: (error) => {
            io.stderr.write(`task-context: unexpected error in the service: ${String(error)}\n`);
          },
        });
        io.stdout.write(`listening on ${server.url}\n`);
        io.stdout.write(
          generated
            ? `admin token: ${settings.adminToken}\n`
            : "admin token: the value of TASK_CONTEXT_ADMIN_TOKEN\n",
        );
        io.stdout.write(`database: ${database}\n`);
        const signal = await stopSignal;
        if (signal !== undefined) io.stdout.write(`${signal}: stopping\n`);
        await server.close();
        exit(0);
      } finally {
        stopListening?.();
      }
    });
  program.addCommand(command);
}
