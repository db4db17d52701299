// Test support: the CONTEXT.md the tests deliver, and what the SDK's trace records of a run.
import { createHash } from "node:crypto";
import { setTraceProcessors, setTracingDisabled, type TracingProcessor } from "@openai/agents";
import { afterEach, beforeEach } from "vitest";

const BUILDING = "## What we are building\nLumen, a note-taking app.";
const TERMS = "## Key terminology\n- **Vault**: a folder of notes.";
const BRAND = "## Visual and brand guidelines\nCalm blues, no exclamation marks.";

/** A CONTEXT.md with the headings the view presets name, and one they leave out. */
export const CONTEXT = [
  "# Task context",
  BUILDING,
  TERMS,
  BRAND,
  "## Other details\nRun pnpm test before a commit.",
].join("\n\n");

/** What the view `CONTEXT_VIEW_PRESETS.brief` delivers of {@link CONTEXT}. */
export const BRIEF_VIEW = [BUILDING, TERMS].join("\n\n");

/** What the view `CONTEXT_VIEW_PRESETS.media` delivers of {@link CONTEXT}. */
export const MEDIA_VIEW = [BUILDING, TERMS, BRAND].join("\n\n");

/** The sections of the media view, as a receipt names them. */
export const MEDIA_SECTIONS = [
  "What we are building",
  "Key terminology",
  "Visual and brand guidelines",
];

/** Hex SHA-256 of `text`'s UTF-8 bytes: a receipt. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

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
