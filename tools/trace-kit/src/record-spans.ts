// Test support: records the spans a test produces with the real OpenTelemetry SDK
// (BasicTracerProvider, an in-memory exporter, the AsyncLocalStorage context manager for nesting,
// the W3C trace context propagator for the hops between processes), and describes them as plain
// objects that tests compare exactly.
import { createHash } from "node:crypto";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach } from "vitest";

/** One finished span, as tests assert it. */
export interface SpanRecord {
  name: string;
  /** The instrumentation scope (the tracer's name). */
  scope: string;
  kind: "internal" | "server" | "client" | "producer" | "consumer";
  /** The name of the parent span when it was recorded too, `null` for a root span. */
  parent: string | null;
  status: { code: "unset" | "ok" | "error"; message?: string };
  attributes: Record<string, unknown>;
  /** The messages of the exceptions recorded on the span. */
  exceptions: string[];
}

/** What {@link recordSpans} returns: the finished spans, and how to stop recording. */
export interface SpanRecorder {
  /** The raw finished spans, oldest first. */
  finished(): ReadableSpan[];
  /** The finished spans as {@link SpanRecord}s, oldest first. */
  records(): SpanRecord[];
  /** Unregisters the provider, the context manager and the propagator: the API is a no-op again. */
  stop(): Promise<void>;
}

const KINDS: Record<SpanKind, SpanRecord["kind"]> = {
  [SpanKind.INTERNAL]: "internal",
  [SpanKind.SERVER]: "server",
  [SpanKind.CLIENT]: "client",
  [SpanKind.PRODUCER]: "producer",
  [SpanKind.CONSUMER]: "consumer",
};

const STATUSES: Record<SpanStatusCode, SpanRecord["status"]["code"]> = {
  [SpanStatusCode.UNSET]: "unset",
  [SpanStatusCode.OK]: "ok",
  [SpanStatusCode.ERROR]: "error",
};

/** Describes finished spans as plain records, each naming its parent among them. */
export function describeSpans(spans: readonly ReadableSpan[]): SpanRecord[] {
  const names = new Map(spans.map((span) => [span.spanContext().spanId, span.name]));
  return spans.map((span) => {
    const parentId = span.parentSpanContext?.spanId;
    return {
      name: span.name,
      scope: span.instrumentationScope.name,
      kind: KINDS[span.kind],
      parent: parentId === undefined ? null : (names.get(parentId) ?? `(unrecorded ${parentId})`),
      status:
        span.status.message === undefined
          ? { code: STATUSES[span.status.code] }
          : { code: STATUSES[span.status.code], message: span.status.message },
      attributes: { ...span.attributes },
      exceptions: span.events
        .filter((event) => event.name === "exception")
        .map((event) => String(event.attributes?.["exception.message"])),
    };
  });
}

/**
 * Registers a real tracer provider with an in-memory exporter as the global one, a context
 * manager so active spans propagate across `await`, and the W3C trace context propagator (as an
 * SDK's default setup does) so `traceparent` crosses hops. Call `stop()` after each test.
 */
export function recordSpans(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    finished: () => exporter.getFinishedSpans(),
    records: () => describeSpans(exporter.getFinishedSpans()),
    async stop() {
      trace.disable();
      context.disable();
      propagation.disable();
      await provider.shutdown();
    },
  };
}

/**
 * The `task_context.context.*` attributes a delivery of `content` records, cut from a text of
 * `originalLength` UTF-16 units (tokens and redactions aside).
 */
export function deliveredContext(content: string, originalLength = content.length) {
  return {
    "task_context.context.sha256": createHash("sha256").update(content, "utf8").digest("hex"),
    "task_context.context.characters": content.length,
    "task_context.context.original_characters": originalLength,
    "task_context.context.truncated": content.length < originalLength,
  };
}

/**
 * Records the spans of each test of the file that calls it (at its top level or in a `describe`):
 * {@link recordSpans} before each test, `stop()` after it. The recorder it returns reads the
 * current test's spans.
 */
export function recordSpansInEachTest(): Omit<SpanRecorder, "stop"> {
  let recorder: SpanRecorder | undefined;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(async () => {
    await recorder?.stop();
    recorder = undefined;
  });
  const current = (): SpanRecorder => {
    if (recorder === undefined) throw new Error("read the recorded spans inside a test");
    return recorder;
  };
  return { finished: () => current().finished(), records: () => current().records() };
}

/**
 * Runs `fn` inside the application's own span, `invoke_agent main` of the tracer `app`, active
 * while it runs and ended after it, also when it throws — as an instrumented application wraps
 * the agent it runs, so that the deliveries' spans join its trace.
 */
export function inApplicationSpan<T>(fn: () => Promise<T>): Promise<T> {
  return trace.getTracer("app").startActiveSpan("invoke_agent main", async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });
}

/**
 * The span of an agent framework adapter's delegation to `agent` that delivered nothing
 * (`required: false` and no usable CONTEXT.md) inside {@link inApplicationSpan}: the recipient,
 * no context attributes, no error, and the outcome `empty` — the same for every adapter.
 */
export function emptyDelegationSpan(scope: string, agent: string): SpanRecord {
  return {
    name: `invoke_agent ${agent}`,
    scope,
    kind: "internal",
    parent: "invoke_agent main",
    status: { code: "unset" },
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": agent,
      "task_context.recipient.kind": "subagent",
      "task_context.recipient.id": agent,
      "task_context.outcome": "empty",
    },
    exceptions: [],
  };
}
