// The delivery service on Cloudflare Workers: the router Worker and the Durable Object class that
// holds each run (wrangler.jsonc binds RUNS to it).
export { default, RunObject } from "@task-context/server/workers";
