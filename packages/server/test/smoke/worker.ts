// The Worker of the wrangler dev smoke test: the package's built ./workers entry as a user's
// worker.ts re-exports it, plus one path that tells whether code generation from strings is
// allowed. Production Workers refuse it; the Workers Vitest integration allows it, so only a real
// workerd shows what validation runs without it.
import worker, { type WorkerEnv } from "@task-context/server/workers";

export { RunObject } from "@task-context/server/workers";

/** Whether `generate` ran, or the error it threw. */
function codeGeneration(generate: () => unknown) {
  try {
    return { allowed: true, value: generate() };
  } catch (error) {
    return { allowed: false, name: (error as Error).name, message: (error as Error).message };
  }
}

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname !== "/__smoke/code-generation") {
      return worker.fetch(request, env, ctx);
    }
    return Response.json({
      function: codeGeneration(() => new Function("return 1")()),
      // biome-ignore lint/security/noGlobalEval: eval is the probe
      eval: codeGeneration(() => globalThis.eval("1")),
    });
  },
} satisfies ExportedHandler<WorkerEnv>;
