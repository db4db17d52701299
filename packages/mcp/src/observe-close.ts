import type { JSONRPCMessage, MessageExtraInfo, Transport } from "@modelcontextprotocol/server";

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
  const transport: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    setSupportedProtocolVersions: (versions) => inner.setSupportedProtocolVersions?.(versions),
    get sessionId() {
      return inner.sessionId;
    },
  };
  inner.onmessage = ((message: JSONRPCMessage, extra?: MessageExtraInfo) =>
    transport.onmessage?.(message, extra)) as Transport["onmessage"];
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onclose = () => {
    try {
      transport.onclose?.();
    } finally {
      resolveClosed();
    }
  };
  return { transport, closed };
}
