import type { Transport } from "@modelcontextprotocol/server";
import { wrapTransport } from "./wrap-transport.ts";

/**
 * Wraps a transport so that its end can be awaited: `closed` resolves once the transport closes
 * (the client closed stdin, or the server closed it). The SDK's entry owns the wrapper as it would
 * own the transport itself: every call and callback passes straight through.
 */
export function observeClose(inner: Transport): { transport: Transport; closed: Promise<void> } {
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  return { transport: wrapTransport(inner, { closed: () => resolveClosed() }), closed };
}
