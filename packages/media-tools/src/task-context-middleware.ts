import {
  injectTaskContext,
  type LoadTaskContextOptions,
  loadTaskContext,
  splitTaskContext,
  type TaskContext,
  type Tokenizer,
  type Workspace,
} from "@task-context/core";
import {
  requireLoadOptions,
  requireObject,
  requireWorkspace,
  sha256Hex,
} from "@task-context/core/internal";
import type { LanguageModelMiddleware } from "ai";
import { findModelProfile } from "./find-model-profile.ts";
import {
  type ContextFit,
  type FittedPrompt,
  fitContextToProfile,
} from "./fit-context-to-profile.ts";
import { foldSystemMessages, requestAndAlongside } from "./fold-system-messages.ts";
import { guardWorkspace } from "./guard-workspace.ts";
import { type ModelProfile, requireModelProfiles } from "./model-profile.ts";
import { MODEL_PROFILES } from "./model-profiles.ts";
import { type DeliveredToModel, traceModelCall } from "./trace-model-call.ts";

type TransformParams = NonNullable<LanguageModelMiddleware["transformParams"]>;
type CallOptions = Parameters<TransformParams>[0]["params"];
type Prompt = CallOptions["prompt"];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;
type ProviderMetadata = NonNullable<
  Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>>["providerMetadata"]
>;

/**
 * The provider-metadata key under which the middleware reports its receipt:
 * `providerMetadata.taskContext.contextSha256` on a `generateText` result (and its steps) and on
 * a stream's `finish` part.
 */
export const TASK_CONTEXT_METADATA_KEY = "taskContext";

/**
 * The receipt of the context a call carried: its hash, the view's details when it was one, and
 * the fit to the model's profile when it was fitted.
 */
type Receipt = Pick<TaskContext, "sha256" | "view"> & { fit?: ContextFit };

/** `metadata` with the receipt of the context the call carried. */
function withReceiptMetadata(
  metadata: ProviderMetadata | undefined,
  receipt: Receipt,
): ProviderMetadata {
  const { sha256, view, fit } = receipt;
  return {
    ...metadata,
    [TASK_CONTEXT_METADATA_KEY]: {
      contextSha256: sha256,
      ...(view === undefined
        ? {}
        : {
            contextView: {
              name: view.name,
              sections: [...view.sections],
              fileSha256: view.fileSha256,
            },
          }),
      ...(fit === undefined
        ? {}
        : {
            contextFit: {
              profile: fit.profile,
              limit: { ...fit.limit },
              kept: [...fit.kept],
              dropped: [...fit.dropped],
              cut: fit.cut,
              leftOut: fit.leftOut,
              loadedSha256: fit.loadedSha256,
            },
          }),
    },
  };
}

/** Options of {@link taskContextMiddleware}. */
export interface TaskContextMiddlewareOptions extends LoadTaskContextOptions {
  /** Where CONTEXT.md is read from, on every call. */
  workspace: Workspace;
  /**
   * Profiles of target models, before the built-in ones: for a wrapped model with a profile, the
   * context is fitted to its prompt limit (the goal and key terms first), and a model that
   * refuses system messages gets them at the start of the first user message instead.
   */
  modelProfiles?: readonly ModelProfile[] | undefined;
}

const NO_USER_MESSAGE =
  "The task context was not injected: the prompt has no user message to carry it.";

/**
 * Injects CONTEXT.md into the last user message of a prompt, in the task-context format. Text that
 * already starts with exactly this context, injected (as the media tools send it through a
 * wrapped model), is left alone, so the context never appears twice. Anything else gets the real
 * context in front — also text that merely looks injected: a forged `[Task Context]` header
 * stays part of the request and cannot stand in for CONTEXT.md.
 */
function injectIntoLastUserMessage(prompt: Prompt, context: string): Prompt | undefined {
  let index = prompt.length - 1;
  while (index >= 0 && prompt[index]?.role !== "user") index--;
  const message = prompt[index];
  if (message === undefined || message.role !== "user") return undefined;

  // `[Task Context]\n{context}\n\n[Request]\n`: what injectTaskContext puts before any prompt.
  const header = injectTaskContext("", context);
  const content = [...message.content];
  const textIndex = content.findIndex((part) => part.type === "text");
  const part = content[textIndex];
  if (part?.type === "text") {
    if (part.text.startsWith(header)) return prompt;
    content[textIndex] = { ...part, text: `${header}${part.text}` };
  } else {
    content.unshift({ type: "text", text: header });
  }
  const next = [...prompt];
  next[index] = { ...message, content };
  return next;
}

/**
 * The context fitted to `profile` for this prompt. A last user text that already carries this
 * very fit of the context in front of its request — a media tool's call through a wrapped model,
 * fitted the same way — is marked `injected`, so the context is not put in front of it again.
 */
async function fitToProfile(
  profile: ModelProfile,
  context: TaskContext,
  prompt: Prompt,
  tokenizer: Tokenizer | undefined,
): Promise<FittedPrompt & { injected?: boolean }> {
  const { request, alongside } = requestAndAlongside(prompt);
  const fit = (text: string) =>
    fitContextToProfile({
      context: context.content,
      contextSha256: context.sha256,
      request: text,
      alongside,
      profile,
      tokenizer,
    });
  const inner = splitTaskContext(request);
  if (inner.context !== undefined) {
    const earlier = await fit(inner.prompt);
    if (earlier.prompt === request) return { ...earlier, injected: true };
  }
  return fit(request);
}

/**
 * Language model middleware that gives any AI SDK text call the task context, for code that calls
 * models directly rather than through the media tools: each call loads CONTEXT.md from the
 * workspace and rewrites the last user message's text to
 * `[Task Context]\n{context}\n\n[Request]\n{text}` (a message with only files gets that text
 * part in front, with an empty request). Use it with `wrapLanguageModel`.
 *
 * A text that already starts with this very context, injected, is left as it is (the media tools'
 * calls through a wrapped model); anything else, including a prompt that only looks injected,
 * gets the real context.
 *
 * When CONTEXT.md is missing (or empty) the call fails before reaching the model: the model call
 * rejects with core's `TaskContextMissingError` (`code: "TASK_CONTEXT_MISSING"`) and the guiding
 * message `CONTEXT.md not found in workspace. …` — the same rule as the tools. Pass
 * `required: false` to send the prompt unchanged instead, while agents learn to write CONTEXT.md.
 * When CONTEXT.md was truncated, the truncation warning is added to the call's `warnings` (the
 * result's `warnings`, or the stream's `stream-start` part), where the AI SDK reports and logs it.
 * The receipt of a call that carried the context, the SHA-256 of the CONTEXT.md content sent, is
 * in the result's `providerMetadata.taskContext.contextSha256` (for a stream, on its `finish`
 * part and so on `streamText`'s `providerMetadata`). With a `view` (say
 * `CONTEXT_VIEW_PRESETS.media`) only the view's sections are injected; the receipt is the view's
 * hash, and `providerMetadata.taskContext.contextView` names the view, its sections and the whole
 * file's hash (`fileSha256`). A view that selects nothing rejects the call with
 * `ContextViewEmptyError` (`code: "CONTEXT_VIEW_EMPTY"`).
 * Invalid options throw core's `ArgumentError` (`code: "INVALID_ARGUMENT"`) here. See
 * https://github.com/task-context/task-context/blob/main/docs/media-tools.md#the-middleware.
 *
 * @example
 * ```ts source="../examples/task-context-middleware.ts#taskContextMiddleware"
 * const model = wrapLanguageModel({
 *   model: openai("gpt-5-mini"),
 *   // the workspace is the current directory, which holds CONTEXT.md
 *   middleware: taskContextMiddleware({ workspace: nodeWorkspace(".") }),
 * });
 *
 * const { text, warnings } = await generateText({ model, prompt: "Name three headlines." });
 * // the model received "[Task Context]\n{CONTEXT.md}\n\n[Request]\nName three headlines."
 * const stream = streamText({ model, prompt: "Write the launch tweet." });
 * for await (const part of stream.textStream) process.stdout.write(part);
 * ```
 */
export function taskContextMiddleware(
  options: TaskContextMiddlewareOptions,
): LanguageModelMiddleware {
  requireObject("options", options, "the options object");
  const { workspace: given, modelProfiles, ...load } = options;
  const workspace = guardWorkspace(requireWorkspace("workspace", given));
  requireLoadOptions(load);
  const profiles = [...requireModelProfiles("modelProfiles", modelProfiles), ...MODEL_PROFILES];
  // Warnings for the calls whose parameters this middleware produced (wrapGenerate and
  // wrapStream receive the very object transformParams returned).
  const warnings = new WeakMap<object, string>();
  // The sha256 (and view) of the context each such call carried, for its receipt.
  const receipts = new WeakMap<object, Receipt>();
  // The context each call delivered (and, fitted to the model's profile, as sent), for its span.
  const contexts = new WeakMap<object, DeliveredToModel>();

  return {
    specificationVersion: "v4",

    async transformParams({ params, model }) {
      // A call that fails here never reaches wrapGenerate or wrapStream: its span is opened here.
      const context = await loadTaskContext(workspace, load).catch((error: unknown) =>
        traceModelCall(model, undefined, undefined, () => Promise.reject(error)),
      );
      const profile = findModelProfile(model, profiles);
      const folded =
        profile?.systemMessage === false ? foldSystemMessages(params.prompt) : undefined;
      const given = folded ?? params.prompt;
      const foldWarning =
        folded === undefined
          ? undefined
          : `${profile?.provider}/${profile?.modelId} accepts no system message: its text was sent at the start of the first user message instead.`;
      if (!context.found) {
        // `required: false`: no context, and, when a CONTEXT.md could not be used, say why.
        const warning = [context.warning, foldWarning].filter((text) => text !== undefined);
        if (warning.length === 0 && folded === undefined) return params;
        const unchanged = { ...params, prompt: given };
        if (warning.length > 0) warnings.set(unchanged, warning.join(" "));
        return unchanged;
      }
      const fitted =
        profile === undefined
          ? undefined
          : await fitToProfile(profile, context, given, load.tokenizer);
      const sent = fitted?.context ?? context.content;
      const prompt =
        sent === "" || fitted?.injected === true ? given : injectIntoLastUserMessage(given, sent);
      const next = { ...params, prompt: prompt ?? given };
      const warning = [
        context.warning,
        foldWarning,
        // The media tools' own call through this model already reports its fit.
        fitted?.injected === true ? undefined : fitted?.warning,
        prompt === undefined ? NO_USER_MESSAGE : undefined,
      ]
        .filter((text): text is string => text !== undefined)
        .join(" ");
      if (warning !== "") warnings.set(next, warning);
      const fit =
        fitted?.fit === undefined
          ? undefined
          : { fit: fitted.fit, text: sent, sha256: await sha256Hex(sent) };
      if (prompt !== undefined) {
        receipts.set(
          next,
          fit === undefined
            ? context
            : {
                sha256: fit.sha256,
                ...(context.view === undefined ? {} : { view: context.view }),
                fit: fit.fit,
              },
        );
      }
      contexts.set(next, { context, ...(fit === undefined ? {} : { sent: fit }) });
      return next;
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const result = await traceModelCall(model, contexts.get(params), load.tokenizer, doGenerate);
      const message = warnings.get(params);
      const receipt = receipts.get(params);
      if (message === undefined && receipt === undefined) return result;
      return {
        ...result,
        ...(message === undefined
          ? {}
          : { warnings: [...result.warnings, { type: "other" as const, message }] }),
        ...(receipt === undefined
          ? {}
          : { providerMetadata: withReceiptMetadata(result.providerMetadata, receipt) }),
      };
    },

    async wrapStream({ doStream, params, model }) {
      const result = await traceModelCall(model, contexts.get(params), load.tokenizer, doStream);
      const message = warnings.get(params);
      const receipt = receipts.get(params);
      if (message === undefined && receipt === undefined) return result;
      const stream = result.stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform(part, controller) {
            if (part.type === "stream-start" && message !== undefined) {
              controller.enqueue({
                ...part,
                warnings: [...part.warnings, { type: "other", message }],
              });
            } else if (part.type === "finish" && receipt !== undefined) {
              controller.enqueue({
                ...part,
                providerMetadata: withReceiptMetadata(part.providerMetadata, receipt),
              });
            } else {
              controller.enqueue(part);
            }
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
