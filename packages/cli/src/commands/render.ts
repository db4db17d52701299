import {
  DEFAULT_MAX_CHARS,
  injectTaskContext,
  loadO200kTokenizer,
  loadTaskContext,
  memoryWorkspace,
  type TaskContext,
  type Tokenizer,
  type Workspace,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import {
  type ContextBlock,
  parseContextBlock,
  renderContextBlock,
} from "@task-context/protocols/context-block";
import {
  CONTEXT_LIMITS_PATH,
  generateContext,
  type SubagentTaskType,
  type TaskData,
} from "@task-context/protocols/sage";
import { contextReceiverInstructions } from "@task-context/system-prompt";
import { Command, Option } from "commander";
import { CliError, usageError } from "../cli-error.ts";
import { colorsFor } from "../cli-io.ts";
import { explainLibraryError } from "../library-error.ts";
import { parseJsonInput, readInput } from "../read-input.ts";
import { fitToModel } from "../render/fit-to-model.ts";
import { remoteAgentItem } from "../render/remote-agent-item.ts";
import {
  addViewOptions,
  type ViewOptions,
  viewNotes,
  viewOfOptions,
} from "../render/render-view.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { existingWorkspace, shownContextPath } from "../workspace-paths.ts";
import { positiveInteger } from "./lint.ts";
import { SUBAGENT_TYPES } from "./sage-generate.ts";

/** The recipients `render --for` shows. */
export const RECIPIENTS = ["image-tool", "subagent", "reviewer", "remote-agent"] as const;

/** The request an image tool is shown with when `--prompt` is not given. */
export const SAMPLE_IMAGE_REQUEST = "A hero image for the launch page.";

interface RenderOptions extends ViewOptions {
  for: (typeof RECIPIENTS)[number];
  prompt?: string;
  model?: string;
  type?: string;
  input?: string;
  task: string;
  project?: string;
  run?: string;
  stage?: string;
  maxChars?: number;
  json?: boolean;
}

/** One part of what a recipient receives, as `--json` prints it. */
interface RenderedPart {
  title: string;
  tokens: number;
  text: string;
  notes: string[];
}

/** Writes headed parts, each with its token count, and the recipient's receipt. */
class Report {
  private text = "";
  private readonly parts: RenderedPart[] = [];
  private contextSha256 = "";
  private view: TaskContext["view"];
  private readonly tokenizer: Tokenizer;
  private readonly heading: (text: string) => string;

  constructor(tokenizer: Tokenizer, heading: (text: string) => string) {
    this.tokenizer = tokenizer;
    this.heading = heading;
  }
  part(title: string, body: string, notes: readonly string[] = []): void {
    const tokens = this.tokenizer.count(body);
    this.parts.push({ title, tokens, text: body, notes: [...notes] });
    this.text += `${this.heading(`== ${title} (${tokens} tokens) ==`)}\n${body.replace(/\n?$/, "\n")}`;
    for (const note of notes) this.text += `${note}\n`;
    this.text += "\n";
  }
  /**
   * The hash the recipient's result carries, so that what it says it used can be matched: `what`
   * names where it shows up.
   */
  receipt(contextSha256: string, what: string, view?: TaskContext["view"]): void {
    this.contextSha256 = contextSha256;
    this.view = view;
    const viewed =
      view === undefined
        ? ""
        : ` (view "${view.name}"; the whole CONTEXT.md: sha256 ${view.fileSha256})`;
    this.text += `receipt: sha256 ${contextSha256}${viewed}, ${what}\n`;
  }
  toString(): string {
    return this.text;
  }
  toJson(recipient: string): string {
    const { contextSha256, view, parts } = this;
    const json =
      view === undefined
        ? { recipient, contextSha256, parts }
        : { recipient, contextSha256, view, parts };
    return `${JSON.stringify(json, null, 2)}\n`;
  }
}

/**
 * The workspace `generateContext` works in for a rendering: the folder's limits file is read
 * from disk through `nodeWorkspace` (the same bound and refusals as `sage generate`), everything
 * else is read and written in memory, so nothing is written to disk.
 */
function readOnlyLimits(directory: string): Workspace {
  const disk = nodeWorkspace(directory);
  const memory = memoryWorkspace();
  return {
    description: disk.description,
    readFile: (path, options) =>
      path === CONTEXT_LIMITS_PATH ? disk.readFile(path, options) : memory.readFile(path, options),
    writeFile: (path, data) => memory.writeFile(path, data),
  };
}

/** The truncation report of a loaded CONTEXT.md. */
function truncationNotes(context: TaskContext, maxChars: number, warn: (text: string) => string) {
  const what =
    context.view === undefined ? "CONTEXT.md" : `CONTEXT.md's view "${context.view.name}"`;
  const notes = [
    `-- ${what}: ${context.originalLength} characters, delivered ${context.content.length}, limit ${maxChars}; sha256 ${context.sha256}`,
  ];
  notes.push(
    context.truncated
      ? `-- ${warn("truncated")}: ${context.warning ?? "CONTEXT.md was cut to the limit."}`
      : "-- not truncated",
  );
  return notes;
}

/** The context block that starts a subagent's prompt, from `--project` (YAML or a prompt). */
async function projectBlock(
  options: RenderOptions,
  readText: (path: string) => Promise<{ name: string; text: string }>,
) {
  if (options.project === undefined) return undefined;
  const input = await readText(options.project);
  const prompt = input.text.trimStart().startsWith("<context>")
    ? input.text
    : `<context>\n${input.text.replace(/\n?$/, "\n")}</context>\n`;
  const parsed = parseContextBlock(prompt);
  if (parsed.status !== "found") {
    throw new CliError({
      code: "CLI_USAGE",
      exitCode: 1,
      message: `${input.name} is not a valid context block`,
      hint: `run \`task-context validate ${options.project} --schema context-block\` to see why`,
    });
  }
  return parsed.block as ContextBlock;
}

/**
 * `task-context render --for <recipient> [dir]`: prints exactly what a recipient receives, part
 * by part, with o200k token counts and the truncation report. Writes nothing.
 */
export function addRenderCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("render"), io)
    .description(
      "print exactly what a recipient receives, with token counts and a truncation report (writes nothing)",
    )
    .addOption(
      new Option("--for <recipient>", "who receives it").choices(RECIPIENTS).makeOptionMandatory(),
    )
    .argument("[dir]", "the workspace folder with CONTEXT.md (default: the current folder)")
    .option("--prompt <text>", `image-tool: the request (default "${SAMPLE_IMAGE_REQUEST}")`)
    .option(
      "--model <id>",
      "image-tool: the target model as provider/model-id, e.g. openai/dall-e-2: the context fitted to its profile as the media tools fit it (needs @task-context/media-tools)",
    )
    .addOption(
      new Option(
        "--type <subagent-type>",
        "subagent: the Sage subagent type (default implement)",
      ).choices(SUBAGENT_TYPES),
    )
    .option(
      "--input <task.json>",
      "subagent, reviewer: the task data, as for `sage generate` (default: the prompt as description)",
    )
    .option("--task <id>", "subagent, reviewer: the task id", "render")
    .option("--project <file>", "subagent, reviewer: a context block (YAML) that starts the prompt")
    .option("--run <run.json>", "remote-agent: the run, a POST /v1/runs body (required)")
    .option("--stage <id>", "remote-agent: the stage whose work item to show (default: the first)")
    .option(
      "--max-chars <n>",
      `the CONTEXT.md limit (default ${DEFAULT_MAX_CHARS})`,
      positiveInteger,
    );
  addViewOptions(command)
    .option("--json", "print { recipient, contextSha256, view?, parts } as JSON")
    .addHelpText(
      "after",
      `
What each recipient gets:
  image-tool    the prompt of the external model call: [Task Context] CONTEXT.md [Request] --prompt,
                fitted to --model's prompt limit when its profile has one
  subagent      its read-only CONTEXT.md, its Sage XML (.sage/context/<task>.xml, within its type's
                limits), its prompt (the --project context block, then the task), and the receiver
                instructions of its system prompt
  reviewer      the same, for the Sage subagent type "review"
  remote-agent  the work item the delivery service delivers for --stage of --run (Node ≥ 22.18)

A view (--view, or --include/--exclude by heading) delivers only some sections of CONTEXT.md, as
createMediaTools({ views }), a subagent task's view and the MCP tools' view argument do.

Each ends with the recipient's receipt: the sha256 its result carries (contextSha256, or the work
item's context_sha256), to match against the hash a recipient says it worked from.
${examples(
  "task-context render --for image-tool --prompt 'A poster for the Lumen launch'",
  "task-context render --for subagent --input task.json --project context.yaml",
  "task-context render --for reviewer --input task.json agents/launch",
  "task-context render --for remote-agent --run run.json --stage review",
  "task-context render --for image-tool --view media",
  "task-context render --for image-tool --model openai/dall-e-2",
  "task-context render --for subagent --include 'What we are building' --include 'Other details'",
  "task-context render --for image-tool --json | jq -r .contextSha256",
)}`,
    )
    .action(async (dir: string | undefined, options: RenderOptions) => {
      const colors = colorsFor(io.stdout, io.env);
      const tokenizer = await loadO200kTokenizer();
      const report = new Report(tokenizer, (text) => colors.bold(text));
      const readText = (path: string) => readInput(io, path);
      const print = () =>
        io.stdout.write(options.json === true ? report.toJson(options.for) : report.toString());
      try {
        const view = viewOfOptions(options);
        if (options.model !== undefined && options.for !== "image-tool") {
          throw usageError(
            `--model is for --for image-tool, not --for ${options.for}`,
            "drop --model: the profiles fit the prompt of a media tool's model call",
          );
        }
        if (options.for === "remote-agent") {
          if (view !== undefined) {
            throw usageError(
              "--for remote-agent has no CONTEXT.md to take a view of",
              "drop --view, --include, --exclude and --view-max-chars: a work item carries the run context whole",
            );
          }
          if (options.run === undefined) {
            throw usageError(
              "--for remote-agent needs --run <run.json>",
              "pass the run (a POST /v1/runs body) with --run",
            );
          }
          const run = parseJsonInput(await readText(options.run));
          const item = await remoteAgentItem(run, options.stage);
          report.part(
            `work item of stage ${item.stage_id} (${item.kind}), as polled by a remote agent`,
            JSON.stringify(item, null, 2),
            [
              "-- no bound applies: the service delivers the run's goal, constraints and stage context whole",
            ],
          );
          report.receipt(
            item.context_sha256 ?? "",
            "the run context's: the work item's context_sha256, which its completion may quote back",
          );
          print();
          exit(0);
          return;
        }
        const directory = await existingWorkspace(io.cwd, dir);
        const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
        const context = await loadTaskContext(nodeWorkspace(directory), { maxChars, view });
        const contextNotes = [
          ...truncationNotes(context, Math.min(maxChars, view?.maxChars ?? maxChars), (text) =>
            colors.yellow(text),
          ),
          ...viewNotes(context, (text) => colors.yellow(text)),
        ];
        if (options.for === "image-tool") {
          const prompt = options.prompt ?? SAMPLE_IMAGE_REQUEST;
          const fit =
            options.model === undefined
              ? undefined
              : await fitToModel(options.model, context, prompt);
          report.part(
            options.model === undefined
              ? "prompt sent to the image model"
              : `prompt sent to ${options.model}`,
            fit?.prompt ?? injectTaskContext(prompt, context.content),
            [...contextNotes, ...(fit?.notes ?? [])],
          );
          report.receipt(
            fit?.contextSha256 ?? context.sha256,
            fit === undefined || fit.contextSha256 === context.sha256
              ? "CONTEXT.md's as delivered: the tool result's contextSha256"
              : `the fitted context's: the tool result's contextSha256 (CONTEXT.md as loaded: sha256 ${context.sha256}, contextFit.loadedSha256)`,
            context.view,
          );
          print();
          exit(0);
          return;
        }
        if (options.for === "reviewer" && options.type !== undefined && options.type !== "review") {
          throw usageError(
            `--for reviewer is the subagent type "review", not ${JSON.stringify(options.type)}`,
            "drop --type, or use --for subagent",
          );
        }
        const subagentType = (
          options.for === "reviewer" ? "review" : (options.type ?? "implement")
        ) as SubagentTaskType;
        const taskData = (
          options.input === undefined
            ? { description: options.prompt ?? `The ${subagentType} task.` }
            : parseJsonInput(await readText(options.input))
        ) as TaskData;
        const sageWorkspace = readOnlyLimits(directory);
        const generated = await generateContext(
          { taskId: options.task, subagentType, taskData },
          { workspace: sageWorkspace, tokenizer },
        );
        const xml = new TextDecoder().decode((await sageWorkspace.readFile(generated.path)).bytes);
        const block = await projectBlock(options, readText);
        const request = options.prompt ?? taskData.description;
        const prompt = block === undefined ? request : `${renderContextBlock(block)}\n\n${request}`;
        report.part(
          `CONTEXT.md (${shownContextPath(dir)}, ${view === undefined ? "" : `view "${view.name}", `}copied read-only)`,
          context.content,
          contextNotes,
        );
        report.part(`Sage context ${generated.path}`, xml, [
          `-- limit ${generated.limits.max_total} tokens for ${subagentType} (file items ${generated.limits.max_file_content}, prior output ${generated.limits.max_prior_output})`,
          generated.warning === undefined
            ? "-- nothing summarized or cut"
            : `-- ${colors.yellow("cut")}: ${generated.warning}`,
        ]);
        report.part("prompt", prompt, [
          block === undefined
            ? "-- no context block (--project): the subagent reads docs/project.json and docs/CONVENTIONS.md itself"
            : "-- starts with the Context Protocol v1 block",
        ]);
        report.part("system prompt: receiver instructions", contextReceiverInstructions());
        report.receipt(
          context.sha256,
          "CONTEXT.md's as delivered: the result's contextSha256, and the context-sha256 the subagent may quote",
          context.view,
        );
        print();
        exit(0);
      } catch (error) {
        throw explainLibraryError(error);
      }
    });
  program.addCommand(command);
}
