import type * as OpenTelemetryApi from "@opentelemetry/api";
import type { Attributes, Span } from "@opentelemetry/api";
import { openTelemetryApi } from "#open-telemetry-api";
import { thrownMessage } from "../thrown-message.ts";
import type { Tokenizer } from "../tokenizer.ts";
import { activeContext } from "./active-context.ts";
import {
  DELIVERY_ATTRIBUTES,
  type DeliveryOutcome,
  GEN_AI_ATTRIBUTES,
  type RecipientKind,
} from "./delivery-attributes.ts";

/** What a delivery span records of the context delivered: a `TaskContext` or its parts. */
export interface DeliveredContext {
  content: string;
  sha256: string;
  truncated: boolean;
  originalLength?: number;
  /** Present when secrets were redacted from `content`; read as optional. */
  redactions?: readonly { kind: string }[] | undefined;
}

/** Where and how {@link traceDelivery} opens its span. */
export interface DeliverySpanOptions {
  /** The instrumentation scope: the package that delivers, e.g. `@task-context/media-tools`. */
  tracer: string;
  /** The span's name, e.g. `execute_tool read_media`. */
  name: string;
  /** `internal` (the default), `client` (a call out) or `server` (a request served). */
  kind?: "internal" | "client" | "server";
  /** The recipient; its `id` may be learnt during the delivery (`setAttributes`) when not known before. */
  recipient: { kind: RecipientKind; id?: string | undefined };
  /** Further attributes known before the delivery starts (the GenAI conventions' ones). */
  attributes?: Attributes;
}

/** The open span of one delivery, as {@link traceDelivery} hands it to the delivery. */
export interface DeliverySpan {
  /** False without an OpenTelemetry SDK: then nothing is recorded, and nothing need be computed. */
  readonly recording: boolean;
  /**
   * Records the delivered context: sha256, characters, truncation, redactions, and tokens when a
   * tokenizer is given (counted only while recording).
   */
  recordContext(context: DeliveredContext, tokenizer?: Tokenizer): void;
  /** Adds attributes learnt during the delivery. */
  setAttributes(attributes: Attributes): void;
  /** Ends the delivery with an outcome other than `success` that is no failure (`empty`). */
  setOutcome(outcome: "empty"): void;
  /**
   * Ends the delivery as failed although nothing was thrown (a result that reports the failure):
   * sets `error.type`, the error status with `message`, and the outcome (default `error`).
   */
  fail(errorType: string, message: string, outcome?: Exclude<DeliveryOutcome, "success">): void;
}

/**
 * Where the open delivery sits in the OpenTelemetry context, for {@link currentDelivery}: the key
 * the API's `createContextKey("task-context.delivery")` makes, without loading the API.
 */
const DELIVERY_KEY = Symbol.for("task-context.delivery");

/**
 * The delivery span open in the current (OpenTelemetry) context, for code deep inside a delivery
 * that learns what was delivered — a loader — to record it; `undefined` outside a recording one.
 *
 * @internal
 */
export function currentDelivery(): DeliverySpan | undefined {
  return activeContext().getValue(DELIVERY_KEY) as DeliverySpan | undefined;
}

/** The delivery span when there is nothing to record: every method does nothing. */
const NO_DELIVERY_SPAN: DeliverySpan = {
  recording: false,
  recordContext() {},
  setAttributes() {},
  setOutcome() {},
  fail() {},
};

/** The class of a thrown value for `error.type`: a task-context `code`, else the error's name. */
export function errorTypeOf(thrown: unknown): string {
  try {
    if (typeof thrown === "object" && thrown !== null) {
      const { code, name } = thrown as { code?: unknown; name?: unknown };
      if (typeof code === "string" && code !== "") return code;
      if (typeof name === "string" && name !== "") return name;
    }
  } catch {
    // A getter that throws: fall through to the convention's catch-all.
  }
  return "_OTHER";
}

function deliverySpan(span: Span, api: typeof OpenTelemetryApi): DeliverySpan {
  const recording = span.isRecording();
  return {
    recording,
    recordContext(context, tokenizer) {
      if (!recording) return;
      const attributes: Attributes = {
        [DELIVERY_ATTRIBUTES.contextSha256]: context.sha256,
        [DELIVERY_ATTRIBUTES.contextCharacters]: context.content.length,
        [DELIVERY_ATTRIBUTES.contextTruncated]: context.truncated,
      };
      if (context.originalLength !== undefined)
        attributes[DELIVERY_ATTRIBUTES.contextOriginalCharacters] = context.originalLength;
      if (tokenizer !== undefined)
        attributes[DELIVERY_ATTRIBUTES.contextTokens] = tokenizer.count(context.content);
      const redactions = Array.isArray(context.redactions) ? context.redactions : [];
      if (redactions.length > 0) {
        attributes[DELIVERY_ATTRIBUTES.contextRedactions] = redactions.length;
        attributes[DELIVERY_ATTRIBUTES.contextRedactionKinds] = [
          ...new Set(redactions.map((redaction) => String(redaction.kind))),
        ];
      }
      span.setAttributes(attributes);
    },
    setAttributes(attributes) {
      if (recording) span.setAttributes(attributes);
    },
    setOutcome(outcome) {
      span.setAttribute(DELIVERY_ATTRIBUTES.outcome, outcome);
    },
    fail(errorType, message, outcome = "error") {
      span.setAttributes({
        [GEN_AI_ATTRIBUTES.errorType]: errorType,
        [DELIVERY_ATTRIBUTES.outcome]: outcome,
      });
      span.setStatus({ code: api.SpanStatusCode.ERROR, message });
    },
  };
}

/**
 * Runs one delivery of the task context to a recipient inside an active OpenTelemetry span, so
 * spans started within (the AI SDK's, an HTTP client's) nest under it. The span carries the
 * recipient, whatever the delivery records of the context, and the outcome: `success` when `run`
 * resolves (unless it called `fail`), `error` when it throws — then the exception is recorded,
 * `error.type` set and the status is an error, and the error is rethrown unchanged.
 *
 * Through `@opentelemetry/api` only: until the application registers an OpenTelemetry SDK (or
 * when the API is not installed) the span is a no-op and nothing is recorded or computed.
 *
 * @internal
 */
export async function traceDelivery<Result>(
  options: DeliverySpanOptions,
  run: (span: DeliverySpan) => Result | PromiseLike<Result>,
): Promise<Result> {
  const api = openTelemetryApi;
  if (api === undefined) return run(NO_DELIVERY_SPAN);
  const { SpanKind, context, trace } = api;
  const kinds = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT, server: SpanKind.SERVER };
  const span = trace.getTracer(options.tracer).startSpan(options.name, {
    kind: kinds[options.kind ?? "internal"],
    attributes: {
      ...options.attributes,
      [DELIVERY_ATTRIBUTES.recipientKind]: options.recipient.kind,
      ...(options.recipient.id === undefined
        ? {}
        : { [DELIVERY_ATTRIBUTES.recipientId]: options.recipient.id }),
    },
  });
  // No SDK and no trace to continue: nothing to record, nothing to make active.
  if (!span.isRecording() && !api.isSpanContextValid(span.spanContext())) {
    return run(NO_DELIVERY_SPAN);
  }

  // Whether the delivery settled its outcome itself (fail, setOutcome).
  let settled = false;
  const delivery = deliverySpan(span, api);
  const handle: DeliverySpan = {
    ...delivery,
    fail(errorType, message, outcome) {
      settled = true;
      delivery.fail(errorType, message, outcome);
    },
    setOutcome(outcome) {
      settled = true;
      delivery.setOutcome(outcome);
    },
  };
  let active = trace.setSpan(context.active(), span);
  if (handle.recording) active = active.setValue(DELIVERY_KEY, handle);
  try {
    const result = await context.with(active, () => run(handle));
    if (!settled) span.setAttribute(DELIVERY_ATTRIBUTES.outcome, "success");
    return result;
  } catch (error) {
    if (error instanceof Error) span.recordException(error);
    else span.recordException({ message: thrownMessage(error) });
    if (!settled) delivery.fail(errorTypeOf(error), thrownMessage(error));
    throw error;
  } finally {
    span.end();
  }
}
