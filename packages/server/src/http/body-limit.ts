// The request body limit, decided from the headers whenever they suffice. Hono's `bodyLimit`
// asks for the request's `body` stream first; on Node that makes @hono/node-server build a full
// WHATWG Request around the connection for every request (about a tenth of the instance's CPU
// per request) and then read the body through a web stream instead of straight from the socket.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./app-env.ts";

/**
 * Refuses a request whose body is larger than `maxSize` bytes with `onError`: at once when its
 * `Content-Length` says so (without `Transfer-Encoding`), as Hono's `bodyLimit` does; a GET or
 * HEAD (whose body the app never sees) passes; any other body (chunked, or without a length) is
 * counted as it is read, by Hono's `bodyLimit` itself.
 */
export function requestBodyLimit(options: {
  maxSize: number;
  onError: () => never;
}): MiddlewareHandler<AppEnv> {
  const counted = bodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD") return next();
    const length = c.req.header("Content-Length");
    if (length !== undefined && c.req.header("Transfer-Encoding") === undefined) {
      return Number.parseInt(length, 10) > options.maxSize ? options.onError() : next();
    }
    return counted(c, next);
  };
}
