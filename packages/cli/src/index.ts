/**
 * The `task-context` command, and the function it runs: `run(argv, io)` for embedding the CLI
 * in another tool or a test. See https://github.com/task-context/task-context/blob/main/docs/cli.md.
 *
 * @module
 */
export { CliError, type CliErrorCode } from "./cli-error.ts";
export type { CliIo, OutputStream } from "./cli-io.ts";
export { run } from "./run.ts";
