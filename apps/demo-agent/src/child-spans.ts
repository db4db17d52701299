// The demo's processes other than the main one — its child-process subagents and the MCP server
// one of them starts — record their spans too, continue the trace their parent handed them, and
// leave their spans in a file the main process adds to demo-spans.json.
import { writeFileSync } from "node:fs";
import { type Context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { invokeAgent } from "./agent-span.ts";
import { otlpTraces, registerSpanRecording } from "./span-recording.ts";

/**
 * Records this process's spans as `service` and writes them to `path` (OTLP/JSON) when it exits.
 * Synchronous at exit: nothing of the process runs after it.
 */
export function recordChildSpans(service: string, path: string): void {
  const recording = registerSpanRecording(service);
  process.once("exit", () => {
    writeFileSync(path, `${JSON.stringify(otlpTraces(recording.finished()), null, 2)}\n`);
  });
}

/**
 * The context that continues the trace the parent process handed over as `TRACEPARENT` and
 * `TRACESTATE` (the OpenTelemetry environment-variable carrier: the header names in upper case),
 * read with the registered propagator; the root context when there is none.
 */
export function parentTraceContext(environment: NodeJS.ProcessEnv = process.env): Context {
  //#region parentTraceContext
  // TRACEPARENT and TRACESTATE: the header names in upper case, read with the propagator.
  const parent = propagation.extract(ROOT_CONTEXT, environment, {
    keys: (carrier) => Object.keys(carrier).map((name) => name.toLowerCase()),
    get: (carrier, key) => carrier[key.toUpperCase()],
  });
  //#endregion
  return parent;
}

/**
 * Runs a child subagent's `work` as `invoke_agent {name}`, continuing the trace its parent handed
 * it, and records its spans into `spansFile` — when the parent handed it one (`TRACEPARENT`);
 * otherwise runs `work` as it is, recording nothing.
 */
export function asChildAgent<Result>(
  agent: { name: string; id?: string },
  spansFile: string,
  work: () => Promise<Result>,
): Promise<Result> {
  if (process.env.TRACEPARENT === undefined) return work();
  recordChildSpans(`task-context-demo subagent ${agent.name}`, spansFile);
  return invokeAgent({ ...agent, kind: "server", parent: parentTraceContext() }, work);
}
