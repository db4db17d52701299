// The order of the OpenAPI document: its groups (tags), and its operations by group, path and
// method. The registry (./operations.ts, generated from the folder ./operations/) lists its
// operations in this order, so that the document, the routes and the typed client's table do.
import type { OperationDefinition, OperationTag } from "./define-operation.ts";

/** The document's groups, in its order, each with its description. */
export const operationTags = [
  { name: "runs", description: "Runs, their stages, agents, artifacts and dead letters" },
  { name: "inbox", description: "What an agent may claim" },
  { name: "work items", description: "Claim, heartbeat, complete and fail" },
  { name: "events", description: "The run's collaboration stream" },
  { name: "pages", description: "The run page, for a browser: HTML rendered on the server" },
  { name: "public", description: "Health, published schemas, validation and this document" },
] as const satisfies readonly { name: OperationTag; description: string }[];

// A tag missing from the list above does not compile.
type Listed = (typeof operationTags)[number]["name"];
const everyTagListed: Record<Exclude<OperationTag, Listed>, never> = {};
void everyTagListed;

/** The methods of one path in the order Redocly's rules want them: GET before POST. */
const methodOrder = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];

const tagRank = (tag: OperationTag) => operationTags.findIndex((entry) => entry.name === tag);

/** Orders two operations as the document lists them: by group, then path, then method. */
function compareOperations(left: OperationDefinition, right: OperationDefinition): number {
  return (
    tagRank(left.tag) - tagRank(right.tag) ||
    (left.path < right.path ? -1 : left.path > right.path ? 1 : 0) ||
    methodOrder.indexOf(left.method) - methodOrder.indexOf(right.method)
  );
}

/** `registry` with its operations in the document's order (the same object type). */
export function inDocumentOrder<Registry extends Record<string, OperationDefinition>>(
  registry: Registry,
): Registry {
  const entries = Object.entries(registry).sort(([, left], [, right]) =>
    compareOperations(left, right),
  );
  return Object.fromEntries(entries) as Registry;
}
