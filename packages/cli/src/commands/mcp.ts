import { Readable, Writable } from "node:stream";
import { Command, InvalidArgumentError } from "commander";
import { usageError } from "../cli-error.ts";
import { addViewOptions, type ViewOptions, viewOfOptions } from "../render/render-view.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { existingWorkspace } from "../workspace-paths.ts";
import { positiveInteger } from "./lint.ts";

/** The options of `task-context mcp`, as parsed: the view options set the server's default view. */
interface McpCommandOptions extends ViewOptions {
  maxChars?: number;
  secrets?: "redact" | "refuse" | "allow";
}

/** `--secrets <policy>`: one of core's secret policies. */
function secretPolicy(value: string): McpCommandOptions["secrets"] {
  if (value === "redact" || value === "refuse" || value === "allow") return value;
  throw new InvalidArgumentError("expected redact, refuse or allow");
}

/**
 * `task-context mcp [dir]`: the workspace MCP server of `@task-context/mcp` over stdio, until the
 * client closes stdin or SIGINT/SIGTERM. Stdout carries the protocol only; nothing else is printed
 * there.
 */
export function addMcpCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("mcp"), io)
    .description(
      "serve the folder's task context to MCP clients over stdio (Claude Code, Codex, Cursor)",
    )
    .argument("[dir]", "the workspace folder that holds CONTEXT.md (default: the current one)")
    .option(
      "--max-chars <n>",
      "most characters of CONTEXT.md delivered (default 10000)",
      positiveInteger,
    )
    .option(
      "--secrets <policy>",
      "secrets in CONTEXT.md: redact (default), refuse or allow",
      secretPolicy,
    );
  addViewOptions(command)
    .addHelpText(
      "after",
      `
Resources: CONTEXT.md as loaded (sha256 and truncation in its metadata, change notifications to
subscribers), .sage/context/{task_id}.xml, and the Context Protocol block of docs/project.json.
Tools: get_task_context, inject_task_context, validate, lint_context_md. Prompt: with_task_context.
A view (--view, or --include/--exclude by heading) makes the deliveries that name no view of their
own — the CONTEXT.md resource, the tools, the prompt — only those sections of CONTEXT.md.
Read-only: nothing it serves writes into the folder. Configure a client to run it, e.g.
{ "command": "npx", "args": ["-y", "@task-context/cli", "mcp", "."] } — see docs/mcp.md.
${examples(
  "task-context mcp",
  "task-context mcp agents/launch --max-chars 4000",
  "task-context mcp --secrets refuse",
  "task-context mcp --view media",
)}`,
    )
    .action(async (dir: string | undefined, options: McpCommandOptions) => {
      if (!(io.stdin instanceof Readable) || !(io.stdout instanceof Writable)) {
        throw usageError(
          "mcp needs the process's stdin and stdout (the MCP stdio transport)",
          "run `task-context mcp` as a command, as an MCP client configuration does",
        );
      }
      const view = viewOfOptions(options);
      // Loaded here: every other command starts without the MCP SDK.
      const { serveStdio } = await import("@task-context/mcp/stdio");
      const directory = await existingWorkspace(io.cwd, dir);
      const server = await serveStdio({
        directory,
        maxChars: options.maxChars,
        secrets: options.secrets,
        view,
        input: io.stdin,
        output: io.stdout,
        onerror: (error) => io.stderr.write(`task-context mcp: ${error.message}\n`),
      });
      const stopListening = io.onSignal?.(() => void server.close());
      try {
        await server.closed;
      } finally {
        stopListening?.();
      }
      exit(0);
    });
  program.addCommand(command);
}
