// Why a call to an A2A agent failed, as the sentence an attempt's failure records: nothing
// answered, the answer was an HTTP error or a JSON-RPC error (with its code and message), it was
// too large, or it was something that is not an A2A answer at all.
import { wellFormedQuote } from "../http/lone-surrogates.ts";
import type { AgentExchange } from "./agent-fetch.ts";
import { CredentialError } from "./credential-error.ts";

/** The A2A 1.0 operations the service calls, by their JSON-RPC method names. */
export type AgentCall = "SendMessage" | "SendStreamingMessage" | "GetTask";

/** The most characters of an agent's own words quoted in a reason. */
const QUOTED_CHARACTERS = 500;

/** An outsider's text for a reason: well-formed, at most 500 characters, a cut said as such. */
export function quoted(text: string): string {
  const shown = wellFormedQuote(text.slice(0, QUOTED_CHARACTERS));
  const more = text.length - QUOTED_CHARACTERS;
  return more > 0 ? `${shown}… (${more} more characters not shown)` : shown;
}

/** An error's message with its causes', e.g. `fetch failed: connect ECONNREFUSED 127.0.0.1:9`. */
export function errorMessages(error: unknown): string {
  const parts: string[] = [];
  for (let at = error; at instanceof Error && parts.length < 4; at = at.cause) {
    parts.push(at.message);
  }
  return parts.length === 0 ? String(error) : parts.join(": ");
}

/** The JSON-RPC error an SDK error carries (its code, `envelopeCode`, and message), if any. */
export function jsonRpcError(error: unknown): { code: number; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { envelopeCode?: unknown }).envelopeCode;
  return typeof code === "number" ? { code, message: error.message } : undefined;
}

function httpStatus(exchange: AgentExchange): string {
  const { status, statusText } = exchange;
  return `HTTP ${status}${statusText === undefined || statusText === "" ? "" : ` ${statusText}`}`;
}

/**
 * The sentence that says why `call` failed, from the SDK's `error` and what the exchange saw:
 * - `The A2A agent could not be reached (GetTask): fetch failed: connect ECONNREFUSED …`
 * - `The A2A agent answered SendMessage with JSON-RPC error -32601: Method not found.`
 * - `The A2A agent answered GetTask with HTTP 404 Not Found.`
 * - `The A2A agent answered SendMessage with something that is not an A2A response (…).`
 * - `The A2A agent's answer to GetTask is larger than … bytes, …`
 */
export function agentProblem(
  call: AgentCall,
  error: unknown,
  exchange: AgentExchange | undefined,
  answerBytes: number,
  bodyBytes: number,
): string {
  if (exchange?.tooLarge === true) {
    return `The A2A agent's answer to ${call} is larger than ${answerBytes} bytes, the most the service reads of one answer or stream event (4 × its ${bodyBytes}-byte request body limit, room for the task and its history): it stopped reading there. A result may be at most ${bodyBytes} bytes as a completion (PAYLOAD_TOO_LARGE, as over HTTP).`;
  }
  const credential = CredentialError.within(exchange?.unreachable ?? error);
  if (credential !== undefined) {
    return `The service could not authenticate ${call} to the A2A agent: ${quoted(credential.message)}.`;
  }
  if (exchange === undefined || exchange.unreachable !== undefined) {
    return `The A2A agent could not be reached (${call}): ${quoted(errorMessages(exchange?.unreachable ?? error))}.`;
  }
  const rpc = jsonRpcError(error);
  const failed = exchange.status !== undefined && (exchange.status < 200 || exchange.status > 299);
  if (rpc !== undefined) {
    const status = failed ? ` (${httpStatus(exchange)})` : "";
    return `The A2A agent answered ${call} with JSON-RPC error ${rpc.code}${status}: ${quoted(rpc.message)}.`;
  }
  if (failed) return `The A2A agent answered ${call} with ${httpStatus(exchange)}.`;
  return `The A2A agent answered ${call} with something that is not an A2A response (${quoted(errorMessages(error))}).`;
}
