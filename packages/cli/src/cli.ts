#!/usr/bin/env node
// The `task-context` executable: runs the command line against the process's streams.
import { run } from "./run.ts";

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  onSignal(handler) {
    const listener = (signal: NodeJS.Signals) => handler(signal);
    process.on("SIGINT", listener);
    process.on("SIGTERM", listener);
    return () => {
      process.off("SIGINT", listener);
      process.off("SIGTERM", listener);
    };
  },
});
