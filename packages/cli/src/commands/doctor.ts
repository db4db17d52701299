import type { ContextView } from "@task-context/core";
import { Command, InvalidArgumentError } from "commander";
import { CliError, usageError } from "../cli-error.ts";
import { AI_SDK_PATHS, aiSdkPaths } from "../probe/ai-sdk-paths.ts";
import {
  childProcessSubagentPath,
  functionRunnerSubagentPath,
  mcpServerPath,
} from "../probe/built-in-paths.ts";
import { renderProbeTable, renderSkippedPaths } from "../probe/format-probe-table.ts";
import type { PosedModels } from "../probe/media-tool-paths.ts";
import { probePassed, probePaths, type SkippedPaths } from "../probe/probe-paths.ts";
import {
  type QuoteBackCost,
  type QuoteBackOptions,
  quoteBackCost,
  quoteBackPath,
} from "../probe/quote-back.ts";
import { servicePaths } from "../probe/service-paths.ts";
import { addViewOptions, type ViewOptions, viewOfOptions } from "../render/render-view.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { existingWorkspace } from "../workspace-paths.ts";

interface DoctorOptions extends ViewOptions {
  probe?: boolean;
  workspace?: string;
  quoteBack?: boolean;
  quoteBackModel?: string;
  quoteBackUrl?: string;
  yes?: boolean;
  asModel?: PosedModels;
}

/** The model kinds whose stand-ins `--as-model` can make pose as another model. */
const POSED_KINDS = ["understanding", "image", "video", "speech", "transcription"] as const;

/**
 * Parses one `--as-model <kind>=<provider>/<model id>` (the model id may hold more `/`) into the
 * models given so far.
 */
function asModel(value: string, previous: PosedModels | undefined): PosedModels {
  const match = /^([a-z]+)=([^/\s]+)\/(\S+)$/.exec(value);
  const kind = match?.[1] as (typeof POSED_KINDS)[number] | undefined;
  if (match === null || kind === undefined || !POSED_KINDS.includes(kind)) {
    throw new InvalidArgumentError(
      `expected <kind>=<provider>/<model id>, e.g. image=openai/dall-e-2, with a kind of ${POSED_KINDS.join(", ")}`,
    );
  }
  return { ...previous, [kind]: { provider: match[2] ?? "", modelId: match[3] ?? "" } };
}

/** The variables the quote-back reads when its flags are not given. */
const QUOTE_BACK_ENV = {
  model: "TASK_CONTEXT_PROBE_MODEL",
  baseURL: "TASK_CONTEXT_PROBE_BASE_URL",
  apiKey: "TASK_CONTEXT_PROBE_API_KEY",
} as const;

/**
 * The quote-back's model, endpoint and key, from the flags or the environment; a usage error
 * (exit 2) names what is missing.
 */
function quoteBackOptions(
  options: DoctorOptions,
  env: Readonly<Record<string, string | undefined>>,
  view: ContextView | undefined,
): QuoteBackOptions {
  const model = options.quoteBackModel ?? env[QUOTE_BACK_ENV.model];
  const baseURL = options.quoteBackUrl ?? env[QUOTE_BACK_ENV.baseURL];
  if (model === undefined || model === "" || baseURL === undefined || baseURL === "") {
    throw usageError(
      "--quote-back needs a model and the base URL of an endpoint that speaks OpenAI's chat completions",
      `pass --quote-back-model <id> and --quote-back-url <url>, or set ${QUOTE_BACK_ENV.model} and ${QUOTE_BACK_ENV.baseURL} (the key: ${QUOTE_BACK_ENV.apiKey})`,
    );
  }
  if (!/^https?:\/\/./.test(baseURL)) {
    throw usageError(
      `--quote-back-url must be an http(s) URL, such as https://api.openai.com/v1; got ${JSON.stringify(baseURL)}`,
      "pass the endpoint's base URL, without /chat/completions",
    );
  }
  const apiKey = env[QUOTE_BACK_ENV.apiKey];
  return {
    model,
    baseURL,
    ...(apiKey === undefined || apiKey === "" ? {} : { apiKey }),
    ...(view === undefined ? {} : { view }),
  };
}

/** The line that says what the quote-back costs, printed before anything is sent. */
function costLine({ model, baseURL }: QuoteBackOptions, cost: QuoteBackCost): string {
  return `quote-back: ${cost.calls} call to ${model} at ${baseURL} (OpenAI-compatible), about ${cost.inputTokens} input and ${cost.outputTokens} output tokens (o200k_base)\n`;
}

/**
 * `task-context doctor --probe [--workspace DIR]`: plants a canary in a throwaway copy of the
 * workspace's CONTEXT.md, sends it down every path that runs here and prints per path whether it
 * arrived verbatim; exit 1 when a path dropped or cut it.
 */
export function addDoctorCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("doctor"), io)
    .description("check that the task context reaches every recipient")
    .option(
      "--probe",
      "plant a canary in a copy of CONTEXT.md and report per delivery path whether it arrived",
    )
    .option(
      "--workspace <dir>",
      "the workspace folder that holds CONTEXT.md (default: the current one)",
    )
    .option(
      "--quote-back",
      `also ask a real model to quote the canary back (one call; off by default): --quote-back-model, --quote-back-url or ${QUOTE_BACK_ENV.model}, ${QUOTE_BACK_ENV.baseURL}; the key in ${QUOTE_BACK_ENV.apiKey}`,
    )
    .option("--quote-back-model <id>", "--quote-back: the model id")
    .option(
      "--quote-back-url <url>",
      "--quote-back: the base URL of an endpoint that speaks OpenAI's chat completions",
    )
    .option("--yes", "--quote-back: send without asking; it prints what it costs first")
    .option(
      "--as-model <kind>=<provider>/<model id>",
      "make the recording model of a kind pose as that model, e.g. transcription=openai/whisper-1: the media tools fit the context to its profile (repeat it for more kinds)",
      asModel,
    );
  addViewOptions(command)
    .addHelpText(
      "after",
      `
The paths: a subagent of @task-context/spawner as a child process and in process, the workspace MCP server
(inject_task_context, through the official MCP client); when @task-context/media-tools and ai are
installed (Node >= 22), each media tool that takes a prompt through a recording model of its kind
and the AI SDK middleware around a recording language model; when @task-context/server is
installed (Node >= 22.13), a work item of the delivery service, started in process, claimed by a
polling agent and sent to an A2A agent (which needs express). A canary goes first, last and below
each heading of CONTEXT.md; with a view, every path is given it and is owed its sections only.
Nothing is sent to a model provider unless --quote-back asks one, with --yes, to quote the canary
back; it prints first what that costs. The workspace is not changed.
${examples(
  "task-context doctor --probe",
  "task-context doctor --probe --workspace agents/launch",
  "task-context doctor --probe --view media",
  "task-context doctor --probe --as-model image=openai/dall-e-2",
  "TASK_CONTEXT_PROBE_API_KEY=… task-context doctor --probe --quote-back --quote-back-model gpt-5-mini --quote-back-url https://api.openai.com/v1 --yes",
)}`,
    )
    .action(async (options: DoctorOptions) => {
      if (options.probe !== true) {
        throw new CliError({
          code: "CLI_USAGE",
          message: "doctor needs a check to run: --probe is the one it has",
          hint: "run `task-context doctor --probe`",
        });
      }
      const workspace = await existingWorkspace(io.cwd, options.workspace);
      const view = viewOfOptions(options);
      const given = view === undefined ? {} : { view };
      let quoteBack: QuoteBackOptions | undefined;
      if (options.quoteBack === true) {
        quoteBack = quoteBackOptions(options, io.env, view);
        io.stdout.write(costLine(quoteBack, await quoteBackCost(workspace, given)));
        if (options.yes !== true) {
          throw usageError(
            `--quote-back sends your CONTEXT.md, with the canary, to ${quoteBack.baseURL}: it is not sent without --yes`,
            "run again with --yes to send it",
          );
        }
      }
      const quoteBackProbe = quoteBack === undefined ? undefined : await quoteBackPath(quoteBack);
      const ai = await aiSdkPaths({
        ...given,
        ...(options.asModel === undefined ? {} : { models: options.asModel }),
      });
      const service = await servicePaths(given);
      const skipped: SkippedPaths[] = [
        ...(ai === undefined
          ? [
              {
                names: AI_SDK_PATHS,
                reason: "install @task-context/media-tools and ai, on Node >= 22",
              },
            ]
          : []),
        ...service.skipped,
        ...(quoteBack !== undefined && quoteBackProbe === undefined
          ? [
              {
                names: [`quote-back (${quoteBack.model})`],
                reason:
                  "install @task-context/media-tools, ai and @ai-sdk/openai-compatible, on Node >= 22",
              },
            ]
          : []),
      ];
      const results = await probePaths({
        workspace,
        paths: [
          childProcessSubagentPath(given),
          functionRunnerSubagentPath(given),
          mcpServerPath(given),
          ...(ai ?? []),
          ...service.paths,
          ...(quoteBackProbe === undefined ? [] : [quoteBackProbe]),
        ],
      });
      io.stdout.write(renderProbeTable(results));
      io.stdout.write(renderSkippedPaths(skipped));
      exit(probePassed(results) ? 0 : 1);
    });
  program.addCommand(command);
}
