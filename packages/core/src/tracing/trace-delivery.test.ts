import { trace } from "@opentelemetry/api";
import {
  approximateTokenizer,
  CONTEXT_MISSING_MESSAGE,
  loadTaskContext,
  memoryWorkspace,
  type Tokenizer,
} from "@task-context/core";
import { currentDelivery, traceDelivery } from "@task-context/core/tracing";
import { recordSpans, type SpanRecorder } from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const CONTEXT = "We are building Lumen, a note-taking app for researchers.";

const MEDIA_TOOL = {
  tracer: "@task-context/test",
  name: "execute_tool read_media",
  recipient: { kind: "media-tool", id: "read_media" },
  attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "read_media" },
} as const;

const RECIPIENT = {
  "gen_ai.operation.name": "execute_tool",
  "gen_ai.tool.name": "read_media",
  "task_context.recipient.kind": "media-tool",
  "task_context.recipient.id": "read_media",
};

/** A tokenizer that counts its calls, to show when tokens are (not) counted. */
function countingTokenizer(): Tokenizer & { calls: number } {
  const counting = {
    name: "counting",
    calls: 0,
    count(text: string) {
      counting.calls++;
      return approximateTokenizer.count(text);
    },
    truncate: (text: string, maxTokens: number) => approximateTokenizer.truncate(text, maxTokens),
  };
  return counting;
}

describe("traceDelivery with an OpenTelemetry SDK registered", () => {
  let recorder: SpanRecorder;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(async () => {
    await recorder.stop();
  });

  it("records one span with the recipient, the context and the outcome success", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": CONTEXT }));
    const tokenizer = countingTokenizer();
    const result = await traceDelivery(MEDIA_TOOL, (span) => {
      span.recordContext(context, tokenizer);
      return "delivered";
    });

    expect(result).toBe("delivered");
    expect(recorder.records()).toStrictEqual([
      {
        name: "execute_tool read_media",
        scope: "@task-context/test",
        kind: "internal",
        parent: null,
        status: { code: "unset" },
        attributes: {
          ...RECIPIENT,
          "task_context.context.sha256": context.sha256,
          "task_context.context.characters": CONTEXT.length,
          "task_context.context.original_characters": CONTEXT.length,
          "task_context.context.truncated": false,
          "task_context.context.tokens": approximateTokenizer.count(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
    ]);
    expect(tokenizer.calls).toBe(1);
  });

  it("records a truncated context and its redactions, read defensively", async () => {
    const long = `${"Lumen is a note-taking app. ".repeat(20)}`.trim();
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": long }), {
      maxChars: 100,
    });
    const redacted = {
      ...context,
      redactions: [
        { kind: "openai-api-key", line: 1 },
        { kind: "jwt", line: 2 },
        { kind: "openai-api-key", line: 3 },
      ],
    };
    await traceDelivery(MEDIA_TOOL, (span) => span.recordContext(redacted));

    expect(recorder.records()[0]?.attributes).toStrictEqual({
      ...RECIPIENT,
      "task_context.context.sha256": context.sha256,
      "task_context.context.characters": 100,
      "task_context.context.original_characters": long.length,
      "task_context.context.truncated": true,
      "task_context.context.redactions": 3,
      "task_context.context.redaction_kinds": ["openai-api-key", "jwt"],
      "task_context.outcome": "success",
    });
  });

  it("records a thrown task-context error with its code, and rethrows it unchanged", async () => {
    const loading = traceDelivery(MEDIA_TOOL, () => loadTaskContext(memoryWorkspace({})));

    const error = await loading.catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    const message = `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`;
    expect(recorder.records()).toStrictEqual([
      {
        name: "execute_tool read_media",
        scope: "@task-context/test",
        kind: "internal",
        parent: null,
        status: { code: "error", message },
        attributes: {
          ...RECIPIENT,
          "error.type": "TASK_CONTEXT_MISSING",
          "task_context.outcome": "error",
        },
        exceptions: [message],
      },
    ]);
  });

  it("names a thrown non-Error _OTHER and records what it said", async () => {
    const error = await traceDelivery(MEDIA_TOOL, () => {
      throw "the provider hung up";
    }).catch((thrown: unknown) => thrown);

    expect(error).toBe("the provider hung up");
    const [record] = recorder.records();
    expect(record?.status).toStrictEqual({ code: "error", message: "the provider hung up" });
    expect(record?.attributes["error.type"]).toBe("_OTHER");
    expect(record?.exceptions).toStrictEqual(["the provider hung up"]);
  });

  it("records a failure the delivery reports without throwing, with its own outcome", async () => {
    await traceDelivery(
      { ...MEDIA_TOOL, name: "invoke_agent writer", recipient: { kind: "subagent", id: "w" } },
      (span) => span.fail("timeout", "Subagent w timed out after 50 ms.", "timeout"),
    );

    const [record] = recorder.records();
    expect(record?.status).toStrictEqual({
      code: "error",
      message: "Subagent w timed out after 50 ms.",
    });
    expect(record?.attributes).toMatchObject({
      "error.type": "timeout",
      "task_context.outcome": "timeout",
      "task_context.recipient.kind": "subagent",
    });
  });

  it("lets code deep inside the delivery record the context through currentDelivery", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": CONTEXT }));
    const load = async () => {
      await Promise.resolve();
      currentDelivery()?.recordContext(context);
      return context;
    };
    await traceDelivery(MEDIA_TOOL, () => load());

    expect(currentDelivery()).toBeUndefined();
    expect(recorder.records()[0]?.attributes).toMatchObject({
      "task_context.context.sha256": context.sha256,
      "task_context.context.characters": CONTEXT.length,
    });
  });

  it("is the active span inside the delivery, so spans started there nest under it", async () => {
    await traceDelivery({ ...MEDIA_TOOL, kind: "client" }, async () => {
      await Promise.resolve();
      trace.getTracer("ai").startActiveSpan("chat gpt-5-mini", (span) => span.end());
    });

    expect(
      recorder.records().map(({ name, kind, parent }) => ({ name, kind, parent })),
    ).toStrictEqual([
      { name: "chat gpt-5-mini", kind: "internal", parent: "execute_tool read_media" },
      { name: "execute_tool read_media", kind: "client", parent: null },
    ]);
  });
});

describe("traceDelivery without an OpenTelemetry SDK", () => {
  it("runs the delivery, records nothing and counts no tokens", async () => {
    const recorder = recordSpans();
    await recorder.stop();
    const tokenizer = countingTokenizer();
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": CONTEXT }));

    const result = await traceDelivery(MEDIA_TOOL, (span) => {
      span.recordContext(context, tokenizer);
      return span.recording;
    });

    expect(result).toBe(false);
    expect(tokenizer.calls).toBe(0);
    expect(recorder.finished()).toStrictEqual([]);
  });

  it("still rethrows what the delivery throws", async () => {
    const thrown = new Error("boom");
    await expect(
      traceDelivery(MEDIA_TOOL, () => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
  });
});
