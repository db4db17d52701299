// What only an HTTP request has: streams, pages and the addresses of the service an answer gives
// are made from it. An operation that needs one, called by another entry, is a mistake of the
// service's own (no entry but HTTP calls it): an Error, not a refusal.
import type { OperationDefinition } from "@task-context/contract";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import type { HandlerContext } from "./operation-handler.ts";

/** The HTTP request `operationId` was called with. */
export function httpRequest<D extends OperationDefinition>(
  context: HandlerContext<D>,
  operationId: string,
): Context<AppEnv> {
  if (context.http === undefined) {
    throw new Error(`${operationId} answers an HTTP request only: call it over HTTP.`);
  }
  return context.http;
}

/**
 * The origin the caller reached the service at (`https://service.example`): the addresses an
 * answer gives (a view link, an A2A agent's earlier artifacts) are under it.
 */
export function requestOrigin<D extends OperationDefinition>(
  context: HandlerContext<D>,
  operationId: string,
): string {
  return new URL(httpRequest(context, operationId).req.url).origin;
}
