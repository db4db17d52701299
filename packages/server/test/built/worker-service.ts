// The contract suites' service as a Worker is deployed: test/built/worker.ts over this package's
// built ./workers entry, bundled by wrangler, under one `wrangler dev` shared by every service of a
// test file. Each service is a router of its own inside that Worker, named by a header on each of
// its requests, with its own options and clock (test/built/worker.ts).
import { afterAll, beforeAll } from "vitest";
import type { Service, StartService } from "../contract/harness.ts";
import { startWranglerDev, type WranglerDev } from "../smoke/wrangler-dev.ts";

const adminToken = "built-worker-admin-token-0123456789abcdef";
const SERVICE_HEADER = "x-test-service";

let wrangler: WranglerDev | undefined;
// Once for the file that imports this, before its suites' own hooks: wrangler bundles the Worker
// and starts workerd, which takes longer than a suite's hook may.
beforeAll(async () => {
  wrangler = await startWranglerDev("test/built/wrangler.jsonc", {
    TASK_CONTEXT_ADMIN_TOKEN: adminToken,
  });
}, 120_000);
afterAll(() => wrangler?.stop());

/** The built Worker under wrangler dev, started for the file. */
export const builtWorkerService: StartService = async (options = {}) => {
  if (wrangler === undefined) throw new Error("wrangler dev did not start (see beforeAll)");
  const { url } = wrangler;
  const started = await fetch(`${url}/__test/services`, {
    method: "POST",
    body: JSON.stringify(options),
  });
  if (!started.ok) throw new Error(`the test Worker refused a service: ${await started.text()}`);
  const { id } = (await started.json()) as { id: string };
  const withService = (init: RequestInit = {}): RequestInit => {
    const headers = new Headers(init.headers);
    headers.set(SERVICE_HEADER, id);
    return { ...init, headers };
  };
  return {
    baseUrl: url,
    adminToken,
    fetch: (target, init) => fetch(target, withService(init)),
    async advance(milliseconds) {
      const moved = await fetch(
        `${url}/__test/advance`,
        withService({ method: "POST", body: JSON.stringify({ milliseconds }) }),
      );
      if (moved.status !== 204) throw new Error(`the clock did not move: ${await moved.text()}`);
    },
    async stop() {},
  } satisfies Service;
};
