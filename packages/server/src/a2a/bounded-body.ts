// Reading a body of an outside party (an agent card) without holding more of it than a limit:
// the declared length is checked first, then the stream is read chunk by chunk and the request
// aborted as soon as it passes the limit, so a huge or endless answer costs at most the limit in
// memory. (Aborting the request, rather than cancelling the body, is what workerd ends quietly.)

/** The body, or `over` when it is longer than `maxBytes` (the request is then aborted). */
export type BoundedBody = { bytes: Uint8Array } | { over: true };

/**
 * Reads `response`'s body up to `maxBytes`: `{ over: true }` as soon as its `Content-Length` or
 * the bytes read pass the limit, having aborted `request` (the controller of the signal the
 * request was sent with): the sender sees the connection end.
 */
export async function readBoundedBody(
  response: Response,
  maxBytes: number,
  request: AbortController,
): Promise<BoundedBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    request.abort();
    return { over: true };
  }
  if (response.body === null) return { bytes: new Uint8Array() };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      reader.releaseLock();
      request.abort();
      return { over: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}
