/**
 * `request` with a body that calls `sendContinue` when it is first read: a request sent with
 * `Expect: 100-continue` is invited to send its body only once the service reads it, so one the
 * service refuses first (a body over the limit, no token, an unknown path, …) is refused before
 * any upload.
 */
export function continueWhenRead(request: Request, sendContinue: () => void): Request {
  const source = request.body;
  if (source === null) return request;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (reader === undefined) {
          sendContinue();
          reader = source.getReader();
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      // A body never read is left alone: cancelling it would end the connection before the answer.
      cancel: (reason) => reader?.cancel(reason),
    },
    // Nothing is pulled before the app reads.
    { highWaterMark: 0 },
  );
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
}
