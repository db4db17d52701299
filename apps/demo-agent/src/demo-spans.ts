// The demo's OpenTelemetry spans: a real tracer provider that keeps every span of the main process
// in memory while the demo runs, then writes them — with the spans its child processes left in
// their files — to one file as OTLP/JSON: what an OTLP exporter would have sent. One trace: the
// main agent's span is its root, and every hop (child processes, MCP, the delivery service)
// carries the W3C trace context on.
import { readFile, writeFile } from "node:fs/promises";
import { type OtlpTraces, otlpTraces, registerSpanRecording } from "./span-recording.ts";

/** The spans recorded since {@link recordDemoSpans}. */
export interface DemoSpans {
  /**
   * Writes the finished spans and those of `childFiles` (OTLP/JSON files the child processes
   * wrote; a missing one is skipped: that process recorded nothing) to `path` as one OTLP/JSON
   * export request; returns how many spans it holds.
   */
  write(path: string, childFiles?: readonly string[]): Promise<number>;
  /** Unregisters the provider: the API is a no-op again. */
  stop(): Promise<void>;
}

/** The spans of an OTLP/JSON export request. */
function spanCount(traces: OtlpTraces): number {
  return (traces.resourceSpans as { scopeSpans?: { spans?: unknown[] }[] }[])
    .flatMap((resource) => resource.scopeSpans ?? [])
    .reduce((count, scope) => count + (scope.spans?.length ?? 0), 0);
}

/** Registers a tracer provider that records every span of the demo in memory. */
export function recordDemoSpans(): DemoSpans {
  const recording = registerSpanRecording("task-context-demo");
  return {
    async write(path, childFiles = []) {
      const traces = otlpTraces(recording.finished());
      for (const file of childFiles) {
        const text = await readFile(file, "utf8").catch(() => undefined);
        if (text === undefined) continue;
        traces.resourceSpans.push(...(JSON.parse(text) as OtlpTraces).resourceSpans);
      }
      await writeFile(path, `${JSON.stringify(traces, null, 2)}\n`);
      return spanCount(traces);
    },
    stop: () => recording.stop(),
  };
}
