// A deployable Worker: wrangler.jsonc binds RUNS to RunObject (see apps/edge).
//#region worker
// src/worker.ts
export { default, RunObject } from "@task-context/server/workers";
//#endregion
