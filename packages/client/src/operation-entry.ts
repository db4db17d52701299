/** Who may call an operation of the delivery service. */
export type Audience = "public" | "admin" | "agent" | "admin or agent" | "admin or view link";

/**
 * One operation of the delivery service's contract, as the generated table
 * (`src/generated/operations.ts`) holds it: what the client needs to call it.
 */
export interface OperationEntry {
  /** `GET`, `POST`, … */
  readonly method: string;
  /** The path template, e.g. `/v1/work-items/{id}/complete`. */
  readonly path: string;
  /** The names of the path template's parameters, in the document's order. */
  readonly pathParameters: readonly string[];
  /** The names of the query parameters. */
  readonly queryParameters: readonly string[];
  /** The names of the request headers the operation reads (e.g. `Idempotency-Key`). */
  readonly headerParameters: readonly string[];
  /** The media type of the request body; absent when the operation takes none. */
  readonly body?: string;
  /** The successful answers: status → the media types of its body (none for `204`, `303`). */
  readonly responses: Readonly<Record<string, readonly string[]>>;
  /** Who may call it. */
  readonly audience: Audience;
  /** The client's methods that call it (none for the HTML pages a browser opens). */
  readonly client: readonly string[];
}
