// The demo from start to end: five steps, each printing its progress and adding to the trace.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { loadO200kTokenizer } from "@task-context/core";
import { invokeAgent } from "./agent-span.ts";
import type { DemoContext, Recipient, ServingRun } from "./demo-context.ts";
import { recordDemoSpans } from "./demo-spans.ts";
import { startModels } from "./models.ts";
import { prepareOutput } from "./prepare-output.ts";
import { createProgress, type ProgressStream } from "./progress.ts";
import { callMediaTools } from "./steps/call-media-tools.ts";
import { runRemoteAgents } from "./steps/remote-agents.ts";
import { report } from "./steps/report.ts";
import { runSubagents } from "./steps/spawn-subagents.ts";
import { writeContext } from "./steps/write-context.ts";
import { MCP_SERVER_SPANS_FILE, SPANS_FILE } from "./subagents/child-environment.ts";
import { Trace } from "./trace.ts";

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** The output folder (emptied first when an earlier run wrote it). */
  outputRoot: string;
  /** The folder of the shipped files (`assets/`). */
  assetsRoot: string;
  /** Where progress goes (a TTY gets colour, unless NO_COLOR). */
  output: ProgressStream;
  environment: NodeJS.ProcessEnv;
  /** Real models from the environment instead of the stand-in. */
  realModels: boolean;
  /** Keep the delivery service up after the demo, for its run page (default false). */
  keepServing?: boolean;
}

/** What a run produced. */
export interface DemoOutcome {
  tracePath: string;
  recipients: Recipient[];
  /** The delivery service, still up, when `keepServing`: the caller closes it. */
  serving?: ServingRun;
}

/** Runs the demo. */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  await prepareOutput(options.outputRoot);
  const workspaceRoot = join(options.outputRoot, "workspace");
  await mkdir(workspaceRoot);
  const progress = createProgress(options.output, options.environment);
  const models = await startModels(options.environment, options.realModels);
  const demo: DemoContext = {
    outputRoot: options.outputRoot,
    workspaceRoot,
    assetsRoot: options.assetsRoot,
    models,
    progress,
    trace: new Trace(
      "task-context demo trace",
      `Everything each recipient of the main agent received, as it arrived. Models: ${models.settings.kind === "stand-in" ? `the local stand-in at ${models.settings.baseURL}, which answers only from what it received` : `${models.settings.chatModel} and ${models.settings.imageModel} at ${models.settings.baseURL ?? "the provider's default URL"}`}.`,
    ),
    tokenizer: await loadO200kTokenizer(),
    recipients: [],
    keepServing: options.keepServing ?? false,
  };
  progress.line(
    models.settings.kind === "stand-in"
      ? `models: the offline stand-in at ${models.settings.baseURL} (OpenAI API over HTTP; set OPENAI_API_KEY for real models)`
      : `models: ${models.settings.chatModel} and ${models.settings.imageModel} at ${models.settings.baseURL ?? "the provider's default URL"}`,
  );
  const tracePath = join(options.outputRoot, "demo-trace.md");
  const spans = recordDemoSpans();
  try {
    // One trace: the main agent's span is its root; every delivery, subagent (in its own process
    // too), MCP request and remote agent's work item continues it.
    const { subagents, traceId } = await invokeAgent({ name: "main" }, async (span) => {
      const context = await writeContext(demo);
      const media = await callMediaTools(demo, context);
      const subagents = await runSubagents(demo, media);
      await runRemoteAgents(demo, context);
      report(demo, context, tracePath);
      await demo.trace.write(tracePath);
      return { subagents, traceId: span.spanContext().traceId };
    });
    const spansPath = join(options.outputRoot, "demo-spans.json");
    // The spans the child processes recorded: the subagents' own, and the MCP server's.
    const childFiles = subagents.flatMap(({ directory }) => [
      join(directory, SPANS_FILE),
      join(directory, MCP_SERVER_SPANS_FILE),
    ]);
    const count = await spans.write(spansPath, childFiles);
    progress.line(
      `spans: ${count} OpenTelemetry spans in one trace (${traceId}), in ${spansPath} (OTLP/JSON)`,
    );
  } catch (error) {
    await demo.serving?.close();
    throw error;
  } finally {
    await models.close();
    await spans.stop();
  }
  return {
    tracePath,
    recipients: demo.recipients,
    ...(demo.serving === undefined ? {} : { serving: demo.serving }),
  };
}
