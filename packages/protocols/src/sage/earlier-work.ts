import { neutralisePosingText, type UntrustedFinding } from "@task-context/core";
import type { ContextItem } from "../schemas/subagent-context.ts";

/**
 * Context item types that are always earlier work: another agent's output, not the parent's own
 * context. `prior-output` (the summary of a previous task's output) is; `story-excerpt`,
 * `code-standards`, `file-content` and `file-reference` are the parent's own context (a story, its
 * standards, files it chose) and are delivered as given, unless the item sets `untrusted: true`.
 */
export const EARLIER_WORK_ITEM_TYPES: readonly string[] = Object.freeze(["prior-output"]);

/** Whether a context item is earlier work: its type is one of them, or it says `untrusted`. */
export function isEarlierWork(item: ContextItem): boolean {
  return item.untrusted === true || EARLIER_WORK_ITEM_TYPES.includes(item.type);
}

/**
 * How findings name a context item: `context item 2 (prior-output from subagent implement-1)`,
 * its 1-based position, type and source.
 */
export function contextItemLabel(item: ContextItem, index: number): string {
  const from = item.source === undefined || item.source === "" ? "" : ` from ${item.source}`;
  return `context item ${index + 1} (${item.type}${from})`;
}

/** A context item delivered as earlier work, and what was neutralised in it. */
export interface FencedContextItem {
  item: ContextItem;
  findings: UntrustedFinding[];
}

/** Neutralises `text` and names its findings after `source`. */
export function neutraliseFrom(
  source: string,
  text: string,
): { text: string; findings: UntrustedFinding[] } {
  const neutralised = neutralisePosingText(text);
  return {
    text: neutralised.text,
    findings: neutralised.findings.map(({ kind, line }) => ({ source, kind, line })),
  };
}

/**
 * A sanitized context item as the document delivers it: earlier work (see {@link isEarlierWork})
 * marked `untrusted: true`, with its content and source neutralised by core's
 * `neutralisePosingText` (each finding made inert and kept visible), and the findings named after
 * the item; any other item unchanged, with no findings. Neutralised text holds no finding, so
 * fencing a fenced item changes nothing.
 */
export function fenceContextItem(item: ContextItem, index: number): FencedContextItem {
  if (!isEarlierWork(item)) return { item, findings: [] };
  const source =
    item.source === undefined
      ? undefined
      : neutraliseFrom(
          `${contextItemLabel({ type: item.type, content: "" }, index)}, its source`,
          item.source,
        );
  const marked: ContextItem = {
    ...item,
    ...(source === undefined ? {} : { source: source.text }),
    untrusted: true,
  };
  const content = neutraliseFrom(contextItemLabel(marked, index), item.content);
  return {
    item: { ...marked, content: content.text },
    findings: [...(source?.findings ?? []), ...content.findings],
  };
}
