// The service a suite's tests share: one per describe block, started before its first test and
// stopped after its last.
import { afterAll, beforeAll } from "vitest";
import type { Service, ServiceOptions, StartService } from "./harness.ts";

/**
 * Starts a service with `options` before the enclosing describe block's first test and stops it
 * after its last. The object returned forwards to that service, so the suite can hold it (and make
 * clients of it) where it declares its tests; used before the service starts, it throws.
 */
export function suiteService(start: StartService, options?: ServiceOptions): Service {
  let started: Service | undefined;
  beforeAll(async () => {
    started = await start(options);
  });
  afterAll(() => started?.stop());
  const current = (): Service => {
    if (started === undefined) {
      throw new Error("The suite's service starts before its first test: use it inside a test.");
    }
    return started;
  };
  return {
    fetch: (url, init) => current().fetch(url, init),
    get baseUrl() {
      return current().baseUrl;
    },
    get adminToken() {
      return current().adminToken;
    },
    advance: (milliseconds) => current().advance(milliseconds),
    stop: () => current().stop(),
  };
}
