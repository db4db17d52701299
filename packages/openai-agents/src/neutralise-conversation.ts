import { neutralisePosingText, type UntrustedFinding } from "@task-context/core";

/** A conversation's text with what posed as a format neutralised, and what was. */
interface Neutraliser {
  /** The findings so far, across every item. */
  readonly findings: UntrustedFinding[];
  text(text: string, source: string): string;
}

function neutraliser(): Neutraliser {
  const findings: UntrustedFinding[] = [];
  return {
    findings,
    text(text, source) {
      const result = neutralisePosingText(text);
      for (const { kind, line } of result.findings) findings.push({ source, kind, line });
      return result.text;
    },
  };
}

type Item = Record<string, unknown>;

/** `parts` with the text of each text part neutralised; `parts` itself when nothing changed. */
function neutraliseParts(parts: unknown[], source: string, into: Neutraliser): unknown[] {
  let changed = false;
  const next = parts.map((part) => {
    if (typeof part !== "object" || part === null) return part;
    const { text } = part as { text?: unknown };
    if (typeof text !== "string") return part;
    const neutral = into.text(text, source);
    if (neutral === text) return part;
    changed = true;
    return { ...part, text: neutral };
  });
  return changed ? next : parts;
}

/** A string, or the parts of a message or a tool output, neutralised. */
function neutraliseValue(value: unknown, source: string, into: Neutraliser): unknown {
  if (typeof value === "string") return into.text(value, source);
  if (Array.isArray(value)) return neutraliseParts(value, source, into);
  if (typeof value === "object" && value !== null) {
    const [part] = neutraliseParts([value], source, into);
    return part;
  }
  return value;
}

/** Who wrote an item, as a finding names it. */
function sourceOf(item: Item, position: number, agent: string | undefined): string | undefined {
  const where = `message ${position} of the conversation`;
  if (item.role === "user") return `${where} (from the user)`;
  if (item.role === "assistant") {
    return agent === undefined
      ? `${where} (from an agent)`
      : `${where} (from agent ${JSON.stringify(agent)})`;
  }
  if (item.type === "function_call_result") {
    const tool = typeof item.name === "string" ? ` ${JSON.stringify(item.name)}` : "";
    return `${where} (the output of tool${tool})`;
  }
  return undefined;
}

/**
 * `item` with posing text neutralised in what the user, an agent or a tool wrote there (message
 * text, a tool's output); the item itself when nothing was found. Other items (the developer's
 * system messages, tool calls, reasoning) are returned as they are.
 */
function neutraliseItem(
  item: Item,
  position: number,
  agent: string | undefined,
  into: Neutraliser,
): Item {
  const source = sourceOf(item, position, agent);
  if (source === undefined) return item;
  const key = item.type === "function_call_result" ? "output" : "content";
  const value = item[key];
  const neutral = neutraliseValue(value, source, into);
  return neutral === value ? item : { ...item, [key]: neutral };
}

/** A run item of the SDK: a class instance holding the raw item and the agent that produced it. */
interface RunItemLike {
  rawItem?: unknown;
  agent?: { name?: unknown };
}

/** `item` with its raw item neutralised: a copy of the same class, or `item` when nothing changed. */
function neutraliseRunItem<T>(item: T, position: number, into: Neutraliser): T {
  const { rawItem, agent } = item as RunItemLike;
  if (typeof rawItem !== "object" || rawItem === null) return item;
  const name = typeof agent?.name === "string" ? agent.name : undefined;
  const neutral = neutraliseItem(rawItem as Item, position, name, into);
  if (neutral === rawItem) return item;
  // The SDK's run items keep their state in public fields: a copy with the same prototype is the
  // same item, and the run's own record (its session, its result) keeps the original.
  return Object.assign(Object.create(Object.getPrototypeOf(item)), item, { rawItem: neutral });
}

/** A conversation handed over, with its posing passages neutralised. */
export interface NeutralisedConversation<Input, Run> {
  inputHistory: Input[];
  preHandoffItems: Run[];
  newItems: Run[];
  findings: UntrustedFinding[];
}

/**
 * Neutralises text that poses as the task-context format, a Context Protocol or Sage tag, a
 * system message or a chat-template turn in everything a receiving agent is handed: the input
 * items (plain objects) and the run's items (the SDK's classes), copied where changed, never
 * modified. Messages are numbered in order across the three lists, for the findings' sources.
 */
export function neutraliseConversation<Input, Run>(
  inputHistory: readonly Input[],
  preHandoffItems: readonly Run[],
  newItems: readonly Run[],
): NeutralisedConversation<Input, Run> {
  const into = neutraliser();
  let position = 0;
  const inputs = inputHistory.map((item) =>
    typeof item === "object" && item !== null
      ? (neutraliseItem(item as Item, ++position, undefined, into) as Input)
      : item,
  );
  const before = preHandoffItems.map((item) => neutraliseRunItem(item, ++position, into));
  const added = newItems.map((item) => neutraliseRunItem(item, ++position, into));
  return {
    inputHistory: inputs,
    preHandoffItems: before,
    newItems: added,
    findings: into.findings,
  };
}
