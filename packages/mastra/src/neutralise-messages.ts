import { neutralisePosingText, type UntrustedFinding } from "@task-context/core";

/** The parts of a Mastra message (`MastraDBMessage`) this package reads and rewrites. */
interface MessageLike {
  role?: unknown;
  content?: unknown;
}

/** Text with its posing passages neutralised, the findings added to `findings` under `source`. */
function neutral(text: string, source: string, findings: UntrustedFinding[]): string {
  const result = neutralisePosingText(text);
  for (const { kind, line } of result.findings) findings.push({ source, kind, line });
  return result.text;
}

/** `parts` with their text parts neutralised; `parts` itself when none posed. */
function neutraliseParts(
  parts: unknown[],
  source: string,
  findings: UntrustedFinding[],
): unknown[] {
  let changed = false;
  const next = parts.map((part) => {
    const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
    if (type !== "text" || typeof text !== "string") return part;
    const replaced = neutral(text, source, findings);
    if (replaced === text) return part;
    changed = true;
    return { ...(part as object), text: replaced };
  });
  return changed ? next : parts;
}

/** A message's content — a string, parts, or Mastra's stored `{ parts, content }` — neutralised. */
function neutraliseContent(
  content: unknown,
  source: string,
  findings: UntrustedFinding[],
): unknown {
  if (typeof content === "string") return neutral(content, source, findings);
  if (Array.isArray(content)) return neutraliseParts(content, source, findings);
  if (typeof content !== "object" || content === null) return content;
  const stored = content as { parts?: unknown; content?: unknown };
  const parts = Array.isArray(stored.parts)
    ? neutraliseParts(stored.parts, source, findings)
    : stored.parts;
  // The stored message's plain-text copy of its parts: neutralised alike, not counted twice.
  const summary =
    typeof stored.content === "string" ? neutral(stored.content, source, []) : stored.content;
  return parts === stored.parts && summary === stored.content
    ? content
    : { ...stored, parts, content: summary };
}

/** `message` with posing text neutralised in its text; `message` itself when none posed. */
function neutraliseMessage<M>(message: M, source: string, findings: UntrustedFinding[]): M {
  const { content } = message as MessageLike;
  const neutralised = neutraliseContent(content, source, findings);
  return neutralised === content ? message : { ...message, content: neutralised };
}

/** Who wrote the message at `position` (1-based, system messages not counted), as a finding names it. */
function sourceOf(message: MessageLike, position: number): string {
  const where = `message ${position} of the conversation`;
  if (message.role === "user") return `${where} (from the user)`;
  if (message.role === "assistant") return `${where} (from an agent)`;
  return `${where} (${String(message.role)})`;
}

/**
 * The conversation a delegation hands its sub-agent, with text that poses as the task-context
 * format, a Context Protocol or Sage tag, a system message or a chat-template turn neutralised
 * (kept visible, `[Request]` → `⟦Request⟧`), copied where changed; and what was found. System
 * messages (the developer's) are left as they are.
 */
export function neutraliseMessages<M>(messages: readonly M[]): {
  messages: M[];
  findings: UntrustedFinding[];
} {
  const findings: UntrustedFinding[] = [];
  let position = 0;
  const neutralised = messages.map((message) => {
    const role = (message as MessageLike).role;
    if (role === "system") return message;
    return neutraliseMessage(message, sourceOf(message as MessageLike, ++position), findings);
  });
  return { messages: neutralised, findings };
}

/** `text` (a prompt, instructions) neutralised, its findings under `source`. */
export function neutraliseText(
  text: string,
  source: string,
): {
  text: string;
  findings: UntrustedFinding[];
} {
  const findings: UntrustedFinding[] = [];
  return { text: neutral(text, source, findings), findings };
}
