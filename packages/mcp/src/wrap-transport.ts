import type { JSONRPCMessage, MessageExtraInfo, Transport } from "@modelcontextprotocol/server";

/** What {@link wrapTransport} lets its user see or stop on the way through. */
export interface TransportHooks {
  /**
   * Sees each inbound message first: call `deliver` to pass it on (or not, to answer it
   * yourself through the inner transport).
   */
  message?: (
    message: JSONRPCMessage,
    extra: MessageExtraInfo | undefined,
    deliver: () => void,
  ) => void;
  /** Called once the inner transport has closed, after the owner's `onclose`. */
  closed?: () => void;
}

/**
 * A transport that passes every call and callback straight through to `inner`, for whoever owns
 * it (the SDK's `Protocol`, its stdio entry), with {@link TransportHooks} on the way: the owner
 * sets `onmessage`/`onclose`/`onerror` on the wrapper as it would on the transport itself.
 */
export function wrapTransport(inner: Transport, hooks: TransportHooks): Transport {
  const transport: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
    setSupportedProtocolVersions: (versions) => inner.setSupportedProtocolVersions?.(versions),
    get sessionId() {
      return inner.sessionId;
    },
    get hasPerRequestStream() {
      return inner.hasPerRequestStream === true;
    },
  };
  const deliver = (message: JSONRPCMessage, extra?: MessageExtraInfo) =>
    transport.onmessage?.(message, extra);
  inner.onmessage = ((message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if (hooks.message === undefined) deliver(message, extra);
    else hooks.message(message, extra, () => deliver(message, extra));
  }) as Transport["onmessage"];
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onclose = () => {
    try {
      transport.onclose?.();
    } finally {
      hooks.closed?.();
    }
  };
  return transport;
}
