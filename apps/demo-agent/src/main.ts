// `npm run demo`: a main agent hands its task context to every recipient, offline by default.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { thrownMessage } from "@task-context/core/internal";
import type { ServingRun } from "./demo-context.ts";
import { hasRealProvider } from "./models.ts";
import { runDemo } from "./run-demo.ts";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

const HELP = `Usage: demo-agent [--output <folder>] [--stand-in] [--keep-serving]

A main agent writes CONTEXT.md for a product launch, calls read_media and generate_media through
the AI SDK, delegates to five subagents (one reads its context only through MCP, one is a
LangGraph subgraph), and lets two remote agents and an A2A agent work a run on the delivery
service; then it shows what every recipient received and writes the whole trace to a file.

Options:
  --output <folder>  where the workspace, subagents, database and trace go
                     (default: apps/demo-agent/.demo-output)
  --stand-in         use the offline stand-in models even when OPENAI_API_KEY is set
  --keep-serving     keep the delivery service up after the demo, until Ctrl-C, so that
                     the run page (the "watch the run" link) can be opened
  -h, --help         show this help

Models: offline, a local stand-in speaks the OpenAI API on 127.0.0.1. With OPENAI_API_KEY (and
optionally OPENAI_BASE_URL for an OpenAI-compatible server) the same demo uses real models:
TASK_CONTEXT_DEMO_CHAT_MODEL (default gpt-5-mini) and TASK_CONTEXT_DEMO_IMAGE_MODEL (default
gpt-image-1).
`;

/** The command line's options; an unknown or incomplete option throws one line with a hint. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      // `pnpm start -- --help` hands the script the "--" itself.
      args: args[0] === "--" ? args.slice(1) : args,
      options: {
        output: { type: "string" },
        "stand-in": { type: "boolean", default: false },
        "keep-serving": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    const message = thrownMessage(error).split(". ")[0] ?? "";
    throw new Error(`${message.replace(/\.$/, "")}. Run it with --help for the options.`);
  }
}

async function main(): Promise<number> {
  const { values } = parseOptions(process.argv.slice(2));
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const started = performance.now();
  const outputRoot = resolve(values.output ?? join(packageRoot, ".demo-output"));
  const outcome = await runDemo({
    outputRoot,
    assetsRoot: join(packageRoot, "assets"),
    output: process.stdout,
    environment: process.env,
    realModels: !values["stand-in"] && hasRealProvider(process.env),
    keepServing: values["keep-serving"],
  });
  process.stdout.write(
    `\nTrace: ${outcome.tracePath}\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`,
  );
  if (outcome.serving !== undefined) await serveUntilInterrupted(outcome.serving);
  return 0;
}

/** Keeps the delivery service up for its run page until Ctrl-C (SIGINT) or SIGTERM. */
async function serveUntilInterrupted(serving: ServingRun): Promise<void> {
  process.stdout.write(
    `\nThe delivery service keeps serving the run page: ${serving.viewUrl}\nPress Ctrl-C to stop it.\n`,
  );
  const signal = await new Promise<string>((resolve) => {
    process.once("SIGINT", () => resolve("SIGINT"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
  });
  await serving.close();
  process.stdout.write(`${signal}: the delivery service stopped.\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${thrownMessage(error)}\n`);
    if (process.env.DEBUG) process.stderr.write(`${(error as Error).stack ?? ""}\n`);
    process.exitCode = 1;
  },
);
