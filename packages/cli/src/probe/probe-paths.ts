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
}

/** Decides from what a recipient received whether the canary arrived, whole or cut. */
export function judgeDelivery(
  path: string,
  canary: Pick<CanaryWorkspace, "token" | "first" | "last">,
  delivery: string | ProbeDelivery,
): ProbeResult {
  const { text, view, receipt, truncated, warning } =
    typeof delivery === "string" ? ({ text: delivery } as ProbeDelivery) : delivery;
  // Multipart form fields arrive with CRLF line breaks: the lines count as verbatim there too.
  const lines = text.split(/\r?\n/);
  const first = lines.includes(canary.first);
  const last = lines.includes(canary.last);
  const occurrences = text.split(canary.token).length - 1;
  const received = occurrences > 0;
  // Cut: one end arrived without the other (a line cut through counts as not arrived whole).
  const cut = received && (occurrences < 2 || first !== last);
  const reason = failureReason({ received, first, last, cut, truncated: truncated === true });
  return {
    path,
    received,
    verbatim: first && last,
    ...(view === undefined ? {} : { view }),
    ...(received ? { truncated: cut || truncated === true } : {}),
    ...(receipt === undefined ? {} : { receipt }),
    ...(reason === undefined
      ? {}
      : { reason: warning === undefined ? reason : `${reason}; it warned: ${warning}` }),
  };
}

/** Why a delivery failed, in words; undefined when the canary arrived whole. */
function failureReason(seen: {
  received: boolean;
  first: boolean;
  last: boolean;
  cut: boolean;
  truncated: boolean;
}): string | undefined {
  if (!seen.received) return "the canary did not arrive";
  if (seen.cut && seen.first) return "the end of CONTEXT.md did not arrive, only its top";
  if (seen.cut && seen.last) return "the top of CONTEXT.md did not arrive, only its end";
  if (seen.cut) return "a canary line arrived cut through";
  if (!(seen.first && seen.last)) return "the canary lines arrived changed, not verbatim";
  if (seen.truncated) return "the delivery says it cut the context";
  return undefined;
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
