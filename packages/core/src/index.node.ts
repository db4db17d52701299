// The entry point for Node, Bun and Deno: everything in index.ts, with a loadTaskContext that
// also accepts a directory path. An explicit export wins over the same name from `export *`.
export * from "./index.ts";
export { loadTaskContext } from "./load-task-context.node.ts";
