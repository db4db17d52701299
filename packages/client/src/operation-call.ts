import { operations } from "./generated/operations.ts";
import type { operations as Operations } from "./generated/schemas.ts";
import type { Call } from "./transport.ts";

/** The operationId of an operation of the contract, e.g. `completeWorkItem`. */
export type OperationId = keyof typeof operations & keyof Operations;

type ParametersOf<Id extends OperationId> = NonNullable<Operations[Id]["parameters"]>;

/** What every method takes besides its own arguments. */
export interface CallOptions {
  /** Aborts this request: the method rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The query parameters an operation takes, from the generated types. */
export type QueryOf<Id extends OperationId> = NonNullable<ParametersOf<Id>["query"]>;

/** The JSON body an operation takes, from the generated types (`never` when it takes none). */
export type RequestBodyOf<Id extends OperationId> = Operations[Id] extends {
  requestBody: { content: { "application/json": infer Body } };
}
  ? Body
  : Operations[Id] extends { requestBody?: { content: { "application/json": infer Body } } }
    ? Body
    : never;

/** The JSON body of an operation's successful answer (200 or 201), from the generated types. */
export type AnswerOf<Id extends OperationId> = {
  [Status in keyof Operations[Id]["responses"]]: Status extends 200 | 201
    ? Operations[Id]["responses"][Status] extends { content: { "application/json": infer Body } }
      ? Body
      : never
    : never;
}[keyof Operations[Id]["responses"]];

/** What one call of an operation sends besides what the table says. */
export interface OperationRequest<Id extends OperationId> {
  /** The path template's parameters, each encoded here as one segment (any text: the service judges it). */
  path?: { [Name in keyof NonNullable<ParametersOf<Id>["path"]>]: string };
  query?: ParametersOf<Id>["query"];
  headers?: ParametersOf<Id>["header"];
  body?: RequestBodyOf<Id>;
  /** @default "application/json" */
  accept?: string;
  /** Whether a network failure may be answered by sending the request again. */
  resend?: boolean;
  signal?: AbortSignal | undefined;
}

/** Sends operation `id`'s request (the call's signal from `options`) and reads its JSON answer. */
export type OperationCaller = <Id extends OperationId>(
  id: Id,
  request: OperationRequest<Id>,
  options: CallOptions | undefined,
) => Promise<AnswerOf<Id>>;

/**
 * The request of operation `id`: the method and path template from the generated table, the
 * path's parameters filled in (each encoded as one segment), the rest as given.
 */
export function operationCall<Id extends OperationId>(id: Id, request: OperationRequest<Id>): Call {
  const operation = operations[id];
  const values = (request.path ?? {}) as Record<string, string>;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_template, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`${id}: no value for {${name}}.`);
    return encodeURIComponent(value);
  });
  return {
    method: operation.method,
    path,
    ...(request.query === undefined
      ? {}
      : { query: request.query as Record<string, string | number | undefined> }),
    ...(request.headers === undefined
      ? {}
      : { headers: request.headers as Record<string, string> }),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.accept === undefined ? {} : { accept: request.accept }),
    ...(request.resend === undefined ? {} : { resend: request.resend }),
    signal: request.signal,
  };
}
