// The delivery service on Cloudflare Workers: the router Worker and the Durable Object class that
// holds each run (wrangler.jsonc binds RUNS to it), and the runs directory (RUN_DIRECTORY).
export { default, RunDirectory, RunObject } from "@task-context/server/workers";
