import { Command } from "commander";
import { CliError } from "../cli-error.ts";
import { AI_SDK_PATHS, aiSdkPaths } from "../probe/ai-sdk-paths.ts";
import {
  childProcessSubagentPath,
  functionRunnerSubagentPath,
  mcpServerPath,
} from "../probe/built-in-paths.ts";
import { renderProbeTable, renderSkippedPaths } from "../probe/format-probe-table.ts";
import { probePassed, probePaths, type SkippedPaths } from "../probe/probe-paths.ts";
import { servicePaths } from "../probe/service-paths.ts";
import { addViewOptions, type ViewOptions, viewOfOptions } from "../render/render-view.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { existingWorkspace } from "../workspace-paths.ts";

interface DoctorOptions extends ViewOptions {
  probe?: boolean;
  workspace?: string;
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
Nothing is sent to a model provider; the workspace is not changed.
${examples(
  "task-context doctor --probe",
  "task-context doctor --probe --workspace agents/launch",
  "task-context doctor --probe --view media",
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
      const ai = await aiSdkPaths(given);
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
      ];
      const results = await probePaths({
        workspace,
        paths: [
          childProcessSubagentPath(given),
          functionRunnerSubagentPath(given),
          mcpServerPath(given),
          ...(ai ?? []),
          ...service.paths,
        ],
      });
      io.stdout.write(renderProbeTable(results));
      io.stdout.write(renderSkippedPaths(skipped));
      exit(probePassed(results) ? 0 : 1);
    });
  program.addCommand(command);
}
