#!/usr/bin/env node
// `task-context-server`: the delivery service on Node, configured by the environment (see
// settingsFromEnv in node.ts).
import { runFromEnv } from "./node.ts";

runFromEnv(process.env).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
