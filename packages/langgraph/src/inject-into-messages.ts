import { injectTaskContext, type TaskContext } from "@task-context/core";
import { neutraliseForgedHeaders } from "@task-context/core/internal";

/** A LangChain message, or a message-like object (`{ role, content }`), as far as it is read here. */
interface MessageLike {
  id?: unknown;
  role?: unknown;
  type?: unknown;
  content?: unknown;
  getType?: () => string;
  constructor?: unknown;
}

/** The state the target receives with the context injected, and how to take it back out. */
export interface InjectedState<State> {
  state: State;
  /** The original request message in place of the injected one, in the target's output. */
  restore<Output>(output: Output): Output;
  /** 1-based lines of the request that posed as task-context headers, neutralised. */
  forgedHeaderLines: number[];
  /** False when the state has messages but none from a human, so nothing carried the context. */
  delivered: boolean;
}

const isHuman = (message: MessageLike): boolean => {
  const kind = typeof message.getType === "function" ? message.getType() : message.type;
  return kind === "human" || message.role === "user" || message.role === "human";
};

/** The request text injected into `content` (a string, or content blocks), and what was forged. */
function injectIntoContent(
  content: unknown,
  context: TaskContext,
): { content: unknown; lines: number[] } | undefined {
  if (typeof content === "string") {
    const { text, lines } = neutraliseForgedHeaders(content);
    return { content: injectTaskContext(text, context), lines };
  }
  if (!Array.isArray(content)) return undefined;
  const blocks = [...content] as unknown[];
  const index = blocks.findIndex(
    (block) =>
      typeof block === "object" &&
      block !== null &&
      (block as { type?: unknown }).type === "text" &&
      typeof (block as { text?: unknown }).text === "string",
  );
  if (index === -1) {
    // Only images or files: the context goes first, with an empty request.
    return {
      content: [{ type: "text", text: injectTaskContext("", context) }, ...blocks],
      lines: [],
    };
  }
  const block = blocks[index] as { text: string };
  const { text, lines } = neutraliseForgedHeaders(block.text);
  blocks[index] = { ...block, text: injectTaskContext(text, context) };
  return { content: blocks, lines };
}

/** A copy of `message` with `content` (and `id`): a LangChain message of the same class, or an object. */
function withContent(message: MessageLike, content: unknown, id: string): MessageLike {
  const Class = message.constructor;
  if (typeof Class === "function" && Class !== Object) {
    const fields = message as Record<string, unknown>;
    return new (Class as new (fields: Record<string, unknown>) => MessageLike)({
      content,
      id,
      name: fields.name,
      additional_kwargs: fields.additional_kwargs,
      response_metadata: fields.response_metadata,
    });
  }
  return { ...message, content, id };
}

let counter = 0;

/**
 * Injects the task context into the last message from a human in `state.messages`, as
 * `[Task Context]\n{context}\n\n[Request]\n{request}` (lines of the request that pose as those
 * headers neutralised), so that a subgraph built on messages — a prebuilt agent, a node that
 * calls a chat model with the state's messages — sends it to its model. The target's output gets
 * the original message back (matched by id), so the parent's history keeps the request as it was
 * and the context is not stored there. State without a `messages` array is returned unchanged.
 */
export function injectIntoMessages<State>(
  state: State,
  context: TaskContext,
): InjectedState<State> {
  const unchanged: InjectedState<State> = {
    state,
    restore: (output) => output,
    forgedHeaderLines: [],
    delivered: true,
  };
  if (typeof state !== "object" || state === null) return unchanged;
  const messages = (state as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return unchanged;
  let index = messages.length - 1;
  while (index >= 0 && !isHuman((messages[index] ?? {}) as MessageLike)) index--;
  const original = messages[index] as MessageLike | undefined;
  if (original === undefined) return { ...unchanged, delivered: false };
  const injected = injectIntoContent(original.content, context);
  if (injected === undefined) return { ...unchanged, delivered: false };

  const id =
    typeof original.id === "string" && original.id !== ""
      ? original.id
      : `task-context-request-${++counter}`;
  const next = [...messages];
  next[index] = withContent(original, injected.content, id);
  return {
    state: { ...state, messages: next },
    forgedHeaderLines: injected.lines,
    delivered: true,
    restore(output) {
      if (typeof output !== "object" || output === null) return output;
      const returned = (output as { messages?: unknown }).messages;
      if (!Array.isArray(returned)) return output;
      return {
        ...output,
        messages: returned.map((message) =>
          (message as MessageLike | null)?.id === id ? original : message,
        ),
      };
    },
  };
}
