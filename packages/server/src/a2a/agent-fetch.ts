// The `fetch` an attempt's A2A client sends with: it notes what the agent's last answer was (its
// HTTP status, or that nothing answered), so that a failure can say which, and it reads at most
// `answerBytes` of one answer — of one event, on a stream — so that an agent cannot make the
// service hold an answer of any size.

/** What the attempt's last request to its agent came to. */
export interface AgentExchange {
  /** The answer's HTTP status, once it came. */
  status?: number;
  statusText?: string;
  /** Nothing answered (the connection was refused, reset, …): the error. */
  unreachable?: unknown;
  /** The answer, or one event of its stream, was larger than the limit: reading stopped there. */
  tooLarge?: boolean;
}

/** A `fetch` that keeps its last exchange. */
export interface AgentFetch {
  fetch: typeof fetch;
  /** The last request's exchange, or undefined before the first. */
  last(): AgentExchange | undefined;
}

/** A transform that passes at most `maxBytes` through, then errors (cancelling the source). */
function capBody(maxBytes: number, exchange: AgentExchange): TransformStream<Uint8Array> {
  let length = 0;
  return new TransformStream({
    transform(chunk, controller) {
      length += chunk.byteLength;
      if (length > maxBytes) {
        exchange.tooLarge = true;
        controller.error(new Error(`The answer is larger than ${maxBytes} bytes.`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

const LF = 10;
const CR = 13;

/**
 * A transform for an event stream that passes events of at most `maxBytes` each (an event ends at
 * an empty line: LF, CR or CRLF line ends), then errors at the first larger one.
 */
function capEvents(maxBytes: number, exchange: AgentExchange): TransformStream<Uint8Array> {
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      // Line ends are found with indexOf (native), each looked for again only once passed.
      let nextLf = -2;
      let nextCr = -2;
      for (let index = 0; index < chunk.length; ) {
        if (nextLf !== -1 && nextLf < index) nextLf = chunk.indexOf(LF, index);
        if (nextCr !== -1 && nextCr < index) nextCr = chunk.indexOf(CR, index);
        const ends = [nextLf, nextCr].filter((at) => at !== -1);
        const end = ends.length === 0 ? chunk.length : Math.min(...ends);
        const run = end - index;
        if (run > 0) {
          afterCr = false;
          lineBytes += run;
          eventBytes += run;
          if (eventBytes > maxBytes) {
            exchange.tooLarge = true;
            controller.error(new Error(`An event of the stream is larger than ${maxBytes} bytes.`));
            return;
          }
        }
        if (end === chunk.length) break;
        if (chunk[end] === LF && afterCr) afterCr = false;
        else {
          // A line ends; an empty one ends the event.
          afterCr = chunk[end] === CR;
          if (lineBytes === 0) eventBytes = 0;
          lineBytes = 0;
        }
        index = end + 1;
      }
      controller.enqueue(chunk);
    },
  });
}

/** A `fetch` over `base` that notes each exchange and reads at most `answerBytes` of an answer. */
export function createAgentFetch(
  answerBytes: number,
  // Called as a plain function: Workers refuse a `fetch` called on another object.
  base: typeof fetch = (input, init) => fetch(input, init),
): AgentFetch {
  let last: AgentExchange | undefined;
  const agentFetch: typeof fetch = async (input, init) => {
    const exchange: AgentExchange = {};
    last = exchange;
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      if (!(init?.signal?.aborted ?? false)) exchange.unreachable = error;
      throw error;
    }
    exchange.status = response.status;
    exchange.statusText = response.statusText;
    if (response.body === null) return response;
    const events = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    const capped = response.body.pipeThrough(
      events ? capEvents(answerBytes, exchange) : capBody(answerBytes, exchange),
    );
    return new Response(capped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: agentFetch, last: () => last };
}
