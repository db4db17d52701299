import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { VITEST_RUNNER_MINIFLARE, workerdSuites } from "../../vitest.workerd.shared.ts";

// The main entry inside workerd, through the Workers Vitest integration: createTaskContextServer
// behind the SDK's web-standard handler on a memory workspace. The `workerd` condition picks the
// SDK's Workers build (a JSON Schema validator without code generation).
export default workerdSuites(cloudflareTest({ miniflare: VITEST_RUNNER_MINIFLARE }));
