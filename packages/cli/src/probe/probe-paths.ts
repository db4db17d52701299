import { CONTEXT_VIEW_PRESETS, type ContextView, selectContextView } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";
import { type CanaryWorkspace, plantCanary } from "./plant-canary.ts";

/** What a recipient received, as a path reports it: the text, and what its delivery said. */
export interface ProbeDelivery {
  /** Everything the recipient received (its prompt, instructions or tool result text). */
  text: string;
  /** The view the delivery names, if any. */
  view?: string;
  /** The delivery's receipt: the SHA-256 it reports for the context it sent. */
  receipt?: string;
  /** Whether the delivery itself says it cut the context. */
  truncated?: boolean;
  /** What the delivery warned of (a provider warning, a fitted profile): shown with a failure. */
  warning?: string;
  /**
   * The view the path was configured with: the recipient is then expected to receive exactly the
   * canary lines of that view's selection (core's `selectContextView`), not the whole file.
   * Without it, a `view` that names a preset (`media`, `brief`) is judged by the preset.
   */
  viewDefinition?: ContextView;
}

/** One way the context travels: sends a request from the canary workspace, returns what arrived. */
export interface ProbePath {
  /** Its name in the report, e.g. `"subagent (child process)"`. */
  name: string;
  send: (workspace: CanaryWorkspace) => Promise<string | ProbeDelivery>;
}

/** Paths that cannot run here, by name, and why (what to install, the Node they need). */
export interface SkippedPaths {
  names: string[];
  reason: string;
}

/** Per path: did the canary arrive, whole, in which view, cut or not, with which receipt. */
export interface ProbeResult {
  path: string;
  /** The canary's token is in what the recipient received. */
  received: boolean;
  /** Both canary lines arrived exactly as planted. */
  verbatim: boolean;
  view?: string;
  /**
   * One end of the context arrived without the other, or the delivery says it cut it; present
   * when the canary was received.
   */
  truncated?: boolean;
  receipt?: string;
  /** Why the path failed to deliver at all: what it threw. */
  error?: string;
  /** Why the path failed when it did deliver: what did not arrive, and what the delivery warned. */
  reason?: string;
  /**
   * The sections of CONTEXT.md (by heading) the recipient should have received, of the file or of
   * its view, how many of them arrived, and the headings of those that did not; present when the
   * canary was received and CONTEXT.md has headings.
   */
  sections?: { expected: number; arrived: number; dropped: string[] };
}

/** The view a delivery is judged by: the one its path was configured with, or a preset it names. */
function viewOf(delivery: ProbeDelivery): ContextView | undefined {
  if (delivery.viewDefinition !== undefined) return delivery.viewDefinition;
  const presets: Record<string, ContextView> = CONTEXT_VIEW_PRESETS;
  return delivery.view === undefined ? undefined : presets[delivery.view];
}

/**
 * Decides from what a recipient received whether the canary arrived: every canary line of the
 * whole file — or, when the delivery names its view, of that view's selection — verbatim, or cut
 * (some arrived whole, others not), and which sections were dropped.
 */
export function judgeDelivery(
  path: string,
  canary: Pick<CanaryWorkspace, "token" | "first" | "last"> &
    Partial<Pick<CanaryWorkspace, "sections" | "content">>,
  delivery: string | ProbeDelivery,
): ProbeResult {
  const given: ProbeDelivery = typeof delivery === "string" ? { text: delivery } : delivery;
  const { text, view, receipt, truncated, warning } = given;
  const sections = canary.sections ?? [];
  const planted = [canary.first, ...sections.map((section) => section.line), canary.last];
  // With a view, only the canary lines inside its selection are owed to the recipient.
  const definition = viewOf(given);
  const selected =
    definition === undefined || canary.content === undefined
      ? undefined
      : selectContextView(canary.content, definition).content;
  const expected = planted.filter((line) => selected === undefined || selected.includes(line));
  // Multipart form fields arrive with CRLF line breaks: the lines count as verbatim there too.
  const arrived = new Set(text.split(/\r?\n/));
  const missing = expected.filter((line) => !arrived.has(line));
  const occurrences = text.split(canary.token).length - 1;
  const received = occurrences > 0;
  const verbatim = received && missing.length === 0;
  // Cut: some canary lines arrived whole and others not, or fewer tokens arrived than were owed
  // (a line cut through). Every line arriving changed (quoted, reflowed) is not verbatim, not cut.
  const cut =
    received &&
    missing.length > 0 &&
    (missing.length < expected.length || occurrences < expected.length);
  // A token outside every whole canary line: a line arrived cut through (or changed).
  const partial = occurrences > planted.filter((line) => arrived.has(line)).length;
  const expectedSections = sections.filter((section) => expected.includes(section.line));
  const dropped = expectedSections
    .filter((section) => missing.includes(section.line))
    .map((section) => section.heading);
  const reason = failureReason({
    received,
    verbatim,
    cut,
    truncated: truncated === true,
    topMissing: missing.includes(canary.first),
    endMissing: missing.includes(canary.last),
    topOwed: expected.includes(canary.first),
    endOwed: expected.includes(canary.last),
    partial,
    dropped,
  });
  return {
    path,
    received,
    verbatim,
    ...(view === undefined ? {} : { view }),
    ...(received ? { truncated: cut || truncated === true } : {}),
    ...(receipt === undefined ? {} : { receipt }),
    ...(received && expectedSections.length > 0
      ? {
          sections: {
            expected: expectedSections.length,
            arrived: expectedSections.length - dropped.length,
            dropped,
          },
        }
      : {}),
    ...(reason === undefined
      ? {}
      : { reason: warning === undefined ? reason : `${reason}; it warned: ${warning}` }),
  };
}

/** Why a delivery failed, in words; undefined when the canary arrived whole. */
function failureReason(seen: {
  received: boolean;
  verbatim: boolean;
  cut: boolean;
  truncated: boolean;
  topMissing: boolean;
  endMissing: boolean;
  topOwed: boolean;
  endOwed: boolean;
  partial: boolean;
  dropped: string[];
}): string | undefined {
  if (!seen.received) return "the canary did not arrive";
  const parts: string[] = [];
  if (seen.cut) {
    if (seen.topOwed && seen.endOwed && seen.topMissing && !seen.endMissing) {
      parts.push("the top of CONTEXT.md did not arrive, only its end");
    } else if (seen.topOwed && seen.endOwed && seen.endMissing && !seen.topMissing) {
      parts.push("the end of CONTEXT.md did not arrive, only its top");
    } else if (seen.partial || seen.dropped.length === 0) {
      parts.push("a canary line arrived cut through");
    }
    if (seen.dropped.length > 0) {
      parts.push(`sections dropped: ${seen.dropped.map((heading) => `"${heading}"`).join(", ")}`);
    }
  } else if (!seen.verbatim) {
    parts.push("the canary lines arrived changed, not verbatim");
  } else if (seen.truncated) {
    parts.push("the delivery says it cut the context");
  }
  return parts.length === 0 ? undefined : parts.join("; ");
}

/** What {@link probePaths} takes. */
export interface ProbePathsOptions {
  /** The project's workspace: its CONTEXT.md is copied with the canary, never changed. */
  workspace: string;
  paths: readonly ProbePath[];
}

/**
 * Plants a canary in a throwaway copy of `workspace` ({@link plantCanary}), sends a request
 * down each path in turn and reports per path whether the recipient received the canary
 * verbatim. A path that throws is reported with `received: false` and its error. The copy is
 * removed afterwards.
 */
export async function probePaths(options: ProbePathsOptions): Promise<ProbeResult[]> {
  const canary = await plantCanary(options.workspace);
  try {
    const results: ProbeResult[] = [];
    for (const path of options.paths) {
      try {
        results.push(judgeDelivery(path.name, canary, await path.send(canary)));
      } catch (error) {
        results.push({
          path: path.name,
          received: false,
          verbatim: false,
          error: thrownMessage(error, "the path threw a value that is not an error"),
        });
      }
    }
    return results;
  } finally {
    await canary.remove();
  }
}

/** Whether every path delivered the canary whole: the probe passes. */
export function probePassed(results: readonly ProbeResult[]): boolean {
  return results.every((result) => result.verbatim && result.truncated !== true);
}
