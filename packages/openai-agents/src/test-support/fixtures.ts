// Test support: the CONTEXT.md the tests deliver (the adapters' shared one), and what the SDK's
// trace records of a run.
import { setTraceProcessors, setTracingDisabled, type TracingProcessor } from "@openai/agents";
import { BRIEF_VIEW, CONTEXT, sha256 } from "@task-context/adapter-test-kit";
import { afterEach, beforeEach } from "vitest";

export {
  BRIEF_VIEW,
  CONTEXT,
  MEDIA_SECTIONS,
  MEDIA_VIEW,
  sha256,
} from "@task-context/adapter-test-kit";

/** A span or trace of the SDK's tracing, as its `toJSON()` exports it. */
export type Exported = Record<string, unknown>;

/**
 * Records the SDK's traces and spans as its exporters would receive them, with tracing enabled
 * (the SDK disables it under NODE_ENV=test). `stop()` restores the SDK's defaults.
 */
export function recordAgentTraces(): { spans: Exported[]; traces: Exported[]; stop(): void } {
  const spans: Exported[] = [];
  const traces: Exported[] = [];
  const processor: TracingProcessor = {
    async onTraceStart(trace) {
      traces.push(trace.toJSON() as Exported);
    },
    async onTraceEnd() {},
    async onSpanStart() {},
    async onSpanEnd(span) {
      spans.push(span.toJSON() as Exported);
    },
    async shutdown() {},
    async forceFlush() {},
  };
  setTraceProcessors([processor]);
  setTracingDisabled(false);
  return {
    spans,
    traces,
    stop() {
      setTracingDisabled(true);
      setTraceProcessors([]);
    },
  };
}

/** The span data of the spans of `type` (and custom span `name`), in the order they ended. */
export function spanData(spans: readonly Exported[], type: string, name?: string): Exported[] {
  return spans
    .map((span) => span.span_data as Exported)
    .filter((data) => data.type === type && (name === undefined || data.name === name));
}

/** Records the SDK's traces around each test of the file: read `current()` inside a test. */
export function recordAgentTracesInEachTest(): { current(): ReturnType<typeof recordAgentTraces> } {
  let traces: ReturnType<typeof recordAgentTraces> | undefined;
  beforeEach(() => {
    traces = recordAgentTraces();
  });
  afterEach(() => {
    traces?.stop();
  });
  return {
    current() {
      if (traces === undefined) throw new Error("read the traces inside a test");
      return traces;
    },
  };
}

/** The data of the `task_context` span of a delivery of {@link BRIEF_VIEW} to `agent` by handoff. */
export function briefReceiptData(agent: string): Exported {
  return {
    agent,
    route: "handoff",
    context_sha256: sha256(BRIEF_VIEW),
    context_view: {
      name: "brief",
      sections: ["What we are building", "Key terminology"],
      file_sha256: sha256(CONTEXT),
    },
  };
}
