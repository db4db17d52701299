// Which failed attempts of an A2A agent were transport errors — nothing answered, no answer in
// time, an HTTP error status, an answer that is not A2A — read from the reason the attempt's
// failure recorded (agent-problem.ts and a2a-attempt.ts write those sentences). The agent's own
// failures (a task that ended failed or rejected) and results the service refused are not.

/** A transport error's kind, as the agent list shows it. */
export type TransportErrorKind = "unreachable" | "timeout" | "http_status" | "protocol_error";

/** A failure's reason classified: its kind, and the HTTP status for `http_status`. */
export interface TransportError {
  kind: TransportErrorKind;
  status?: number;
}

/** The sentences of each kind, by how they start. */
const KINDS: [RegExp, TransportErrorKind][] = [
  [/^The A2A agent could not be reached \(/, "unreachable"],
  [/^The A2A agent did not answer /, "timeout"],
  [/^The A2A agent answered \S+ with HTTP \d{3}\b/, "http_status"],
  [/^The A2A agent answered \S+ with /, "protocol_error"],
  [/^The A2A agent's answer to \S+ is larger than /, "protocol_error"],
  [/^The A2A agent's stream ended before /, "protocol_error"],
];

/**
 * The transport error a failed attempt's `reason` says, or undefined when the reason is not one
 * (the agent failed the task itself, the service refused its result, …).
 *
 * @example
 * transportError("The A2A agent answered SendMessage with HTTP 503 Service Unavailable.");
 * // → { kind: "http_status", status: 503 }
 */
export function transportError(reason: string): TransportError | undefined {
  const match = KINDS.find(([pattern]) => pattern.test(reason));
  if (match === undefined) return undefined;
  const [, kind] = match;
  if (kind !== "http_status") return { kind };
  const status = Number(/ with HTTP (\d{3})\b/.exec(reason)?.[1]);
  return { kind, status };
}
