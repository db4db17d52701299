// Test support: a stand-in for the Claude Code executable that the Claude Agent SDK starts, given
// to the real SDK through its `spawnClaudeCodeProcess` option. It speaks the SDK's side of the
// stream-JSON control protocol on in-memory streams, as the executable does on stdin and stdout:
// it answers `initialize` (recording the hooks and agents the SDK registered), and when the
// prompt arrives it makes the delegations it was given — for each, a `PreToolUse` hook callback
// of the subagent tool, as Claude Code sends before it starts a subagent — records what the SDK's
// hooks answered, and ends with a `result`. No model and no network: what Claude Code itself
// does with the answers (run the subagent) is not run here.
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";

type Json = Record<string, unknown>;

/** One delegation the stand-in's main agent makes: the subagent tool's name and its input. */
export interface StandInDelegation {
  toolName: string;
  input: Json;
}

/** What the stand-in saw: the initialize request, and each delegation with the hooks' answers. */
export interface StandInRecord {
  /** The command line the SDK started Claude Code with. */
  args: string[];
  initialize: Json | undefined;
  delegations: { input: Json; answers: unknown[] }[];
}

/** The SDK's `spawnClaudeCodeProcess`, and what the stand-in recorded. */
export interface StandInClaudeCode {
  spawn: (options: { args: string[] }) => unknown;
  record: StandInRecord;
}

/** Whether a hook matcher (a tool-name pattern, or none) matches `toolName`, as Claude Code reads it. */
function matches(matcher: unknown, toolName: string): boolean {
  if (typeof matcher !== "string" || matcher === "" || matcher === "*") return true;
  return new RegExp(`^(?:${matcher})$`).test(toolName);
}

/** A stand-in Claude Code that makes `delegations` when it receives the prompt. */
export function standInClaudeCode(delegations: readonly StandInDelegation[]): StandInClaudeCode {
  const record: StandInRecord = { args: [], initialize: undefined, delegations: [] };
  const spawn = ({ args }: { args: string[] }) => {
    record.args = args;
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const events = new EventEmitter();
    const process = {
      stdin,
      stdout,
      killed: false,
      exitCode: null as number | null,
      kill() {
        process.killed = true;
        exit(null);
        return true;
      },
      on: events.on.bind(events),
      once: events.once.bind(events),
      off: events.off.bind(events),
    };
    const exit = (code: number | null) => {
      if (process.exitCode !== null) return;
      process.exitCode = code ?? 0;
      stdout.end();
      queueMicrotask(() => events.emit("exit", code, null));
    };
    const send = (message: Json) => stdout.write(`${JSON.stringify(message)}\n`);
    const pending = new Map<string, (response: Json) => void>();
    let requests = 0;
    const request = (body: Json) =>
      new Promise<Json>((resolve) => {
        const id = `stand-in-${++requests}`;
        pending.set(id, resolve);
        send({ type: "control_request", request_id: id, request: body });
      });

    const delegate = async () => {
      const hooks = ((record.initialize?.hooks as Json | undefined)?.PreToolUse ?? []) as {
        matcher?: unknown;
        hookCallbackIds: string[];
      }[];
      for (const [index, { toolName, input }] of delegations.entries()) {
        const answers: unknown[] = [];
        const toolUseId = `toolu_stand_in_${index + 1}`;
        for (const { matcher, hookCallbackIds } of hooks) {
          if (!matches(matcher, toolName)) continue;
          for (const callbackId of hookCallbackIds) {
            const response = await request({
              subtype: "hook_callback",
              callback_id: callbackId,
              tool_use_id: toolUseId,
              input: {
                hook_event_name: "PreToolUse",
                session_id: "stand-in-session",
                transcript_path: "/dev/null",
                cwd: "/",
                tool_name: toolName,
                tool_input: input,
                tool_use_id: toolUseId,
              },
            });
            answers.push(response.response);
          }
        }
        record.delegations.push({ input, answers });
      }
      send({
        type: "result",
        subtype: "success",
        is_error: false,
        duration_ms: 0,
        duration_api_ms: 0,
        num_turns: 1,
        result: `Delegated ${delegations.length} times.`,
        total_cost_usd: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
        modelUsage: {},
        permission_denials: [],
        uuid: "00000000-0000-4000-8000-000000000000",
        session_id: "stand-in-session",
      });
    };

    let buffered = "";
    stdin.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as Json;
        if (message.type === "control_response") {
          const response = message.response as Json;
          pending.get(response.request_id as string)?.(response);
          pending.delete(response.request_id as string);
        } else if (message.type === "control_request") {
          const body = message.request as Json;
          if (body.subtype === "initialize") record.initialize = body;
          send({
            type: "control_response",
            response: { subtype: "success", request_id: message.request_id, response: {} },
          });
        } else if (message.type === "user") {
          void delegate();
        }
      }
    });
    stdin.on("finish", () => exit(0));
    return process;
  };
  return { spawn, record };
}

/** The prompt a hook's answer rewrote the delegation's to (`updatedInput.prompt`), if any. */
export function rewrittenPrompt(answer: unknown): unknown {
  const output = (answer as { hookSpecificOutput?: { updatedInput?: { prompt?: unknown } } })
    .hookSpecificOutput;
  return output?.updatedInput?.prompt;
}
