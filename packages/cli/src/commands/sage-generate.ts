import { loadO200kTokenizer } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import {
  generateContext,
  type SubagentTaskType,
  subagentTaskTypeSchema,
  type TaskData,
} from "@task-context/protocols/sage";
import { Command, Option } from "commander";
import { colorsFor } from "../cli-io.ts";
import { explainLibraryError } from "../library-error.ts";
import { parseJsonInput, readInput } from "../read-input.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { workspaceDirectory } from "../workspace-paths.ts";

/** The subagent types of the Sage context protocol. */
export const SUBAGENT_TYPES: readonly string[] = subagentTaskTypeSchema.options;

/** `task-context sage generate`: writes `.sage/context/<id>.xml` and prints its token count. */
export function addSageCommand(program: Command, { io, exit }: CommandContext): void {
  const sage = configureCommand(new Command("sage"), io)
    .description("Sage subagent context files")
    .addHelpCommand(false)
    .addHelpText(
      "after",
      examples("task-context sage generate --task T1 --type implement --input task.json"),
    );
  const generate = configureCommand(new Command("generate"), io)
    .description(
      "write .sage/context/<id>.xml for a subagent, within its type's limits, and print its tokens",
    )
    .requiredOption("--task <id>", "the task id: names the file .sage/context/<id>.xml")
    .addOption(
      new Option("--type <subagent-type>", "whose limits apply")
        .choices(SUBAGENT_TYPES)
        .makeOptionMandatory(),
    )
    .requiredOption(
      "--input <task.json>",
      "the task data (description, files, context items); - reads stdin",
    )
    .argument("[dir]", "the workspace folder (default: the current folder)")
    .addHelpText(
      "after",
      `
task.json is Sage's task_data: { "description": "…", "storyRef"?, "instructions"?,
"filesToModify"?, "filesToRead"?, "filesForbidden"?, "context"?: [{ "type", "content" }] }.
Limits come from .sage/config/context-limits.yaml (or the built-in defaults); tokens are counted
with the o200k tokenizer.
${examples(
  "task-context sage generate --task T1 --type implement --input task.json",
  "task-context sage generate --task review-3 --type review --input - agents/launch < task.json",
)}`,
    )
    .action(
      async (dir: string | undefined, options: { task: string; type: string; input: string }) => {
        const taskData = parseJsonInput(await readInput(io, options.input)) as TaskData;
        const workspace = nodeWorkspace(workspaceDirectory(io.cwd, dir));
        try {
          const generated = await generateContext(
            { taskId: options.task, subagentType: options.type as SubagentTaskType, taskData },
            { workspace, tokenizer: await loadO200kTokenizer() },
          );
          const colors = colorsFor(io.stdout, io.env);
          io.stdout.write(`Context generated for ${options.task}: ${generated.tokens} tokens\n`);
          io.stdout.write(
            `wrote ${generated.path} (limit ${generated.limits.max_total} tokens for ${options.type})\n`,
          );
          if (generated.warning !== undefined)
            io.stdout.write(`${colors.yellow("warning")} ${generated.warning}\n`);
        } catch (error) {
          throw explainLibraryError(error);
        }
        exit(0);
      },
    );
  sage.addCommand(generate);
  program.addCommand(sage);
}
