// The server's registries, made from folders of definitions: the handlers (src/operations.ts,
// from src/operations/: typed so that an operation of the contract without a handler, or a
// handler without an operation, does not compile) and the store's reads (src/sql/reads.ts, from
// src/sql/reads/). `generate.ts` writes them; the drift test
// (test/operations/registry-drift.test.ts) compares them with the committed files.
import { fileURLToPath } from "node:url";
import type { GeneratedFile } from "../../../scripts/generated-files.ts";
import {
  definitionFiles,
  generateCommand,
  generatedHeader,
  importLines,
  memberLines,
} from "../../../scripts/operation-registry.ts";

export { generateCommand };

/** The generated registry's path, relative to the package root. */
export const registryPath = "src/operations.ts";

const handlersFolder = fileURLToPath(new URL("../src/operations/", import.meta.url));
const readsFolder = fileURLToPath(new URL("../src/sql/reads/", import.meta.url));

/** The generated registry of reads' path, relative to the package root. */
export const readsPath = "src/sql/reads.ts";

/** The registry's text, from the files of src/operations/ as they are now. */
export function registryFile(): GeneratedFile {
  const files = definitionFiles(handlersFolder);
  const content = `${generatedHeader("the registry of handlers", "operations", "server")}// A route, an MCP tool and an A2A outcome run the same handler through the executor
// (execution/execute-operation.ts). An operation of the contract without a handler, or a handler
// without an operation, does not compile.
import type { OperationId, Operations } from "@task-context/contract";
import type { OperationHandler } from "./execution/operation-handler.ts";
${importLines("operations", files)}

/** Every operation's handler, by the operation's id. */
export const handlers = {
${memberLines(files)}
} satisfies { [Id in OperationId]: OperationHandler<Operations[Id], unknown> };
`;
  return { path: registryPath, content };
}

/** The registry of reads' text, from the files of src/sql/reads/ as they are now. */
export function readsFile(): GeneratedFile {
  const files = definitionFiles(readsFolder);
  const content = `${generatedHeader("the registry of reads", "sql/reads", "server")}// A read is found here by its name, by every store: SQLite, PostgreSQL, a run's Durable Object
// (for a read of one run) and the Workers runs directory (for a read across runs).
import type { ReadDefinition } from "./define-read.ts";
${importLines("reads", files)}

/** Every read of the store (\`DeliveryStore.query\`), by name. */
export const reads = {
${memberLines(files)}
} satisfies Record<string, ReadDefinition<never, unknown>>;

/** The registry's type: each read with its input and output. */
export type Reads = typeof reads;

/** A read's name, e.g. \`"agentList"\`. */
export type ReadName = keyof Reads;
`;
  return { path: readsPath, content };
}
