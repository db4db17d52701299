// Node-only: @task-context/client as a browser runs it — its built dist/, bundled for the browser
// by rolldown (the packages' bundler), in Debian's chromium, against the Node service on
// loopback: a page of the service's own origin (served by the test, so no CORS is involved)
// works a run through with the browser's fetch, streams and AbortSignal.
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { rolldown } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NodeServer, startNodeServer } from "../../src/node.ts";
import { runInput, taskStage } from "../contract/client.ts";
import { browserVerdict, launchChromium, suiteTitle } from "./chromium.ts";

const verdict = browserVerdict();
const adminToken = "browser-client-admin-token-0123456789";
/** The client as it ships: its dist/, as a browser's bundler resolves it. */
const clientDist = fileURLToPath(new URL("../../../client/dist/index.js", import.meta.url));

/** The built client in one script that puts it on `globalThis.taskContextClient`. */
async function clientBundle(): Promise<string> {
  const bundle = await rolldown({
    input: "entry.js",
    platform: "browser",
    resolve: { conditionNames: ["browser", "import", "default"] },
    plugins: [
      {
        name: "entry",
        resolveId: (id) => (id === "entry.js" ? id : undefined),
        load: (id) =>
          id === "entry.js"
            ? `import * as client from ${JSON.stringify(clientDist)}; globalThis.taskContextClient = client;`
            : undefined,
      },
    ],
  });
  // An ES module, as browsers load bundles today: core's OpenTelemetry loader awaits at its top
  // level outside Node, which a classic script (iife) cannot.
  const { output } = await bundle.generate({ format: "es", codeSplitting: false });
  return output[0].code;
}

describe.skipIf(!verdict.available)(suiteTitle("@task-context/client in chromium", verdict), () => {
  let browser: Browser;
  let server: NodeServer;
  let bundle: string;

  beforeAll(async () => {
    [browser, server, bundle] = await Promise.all([
      launchChromium(),
      startNodeServer({ port: 0, host: "127.0.0.1", database: ":memory:", adminToken }),
      clientBundle(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("works a run through: create, add an agent, claim-next, complete, a refusal, the event stream", async () => {
    const page = await browser.newPage();
    // A blank page of the service's origin, answered by the test: the client's requests are
    // same-origin, and reach the real service.
    await page.route(`${server.url}/client-test`, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>client</title>" }),
    );
    await page.goto(`${server.url}/client-test`);
    await page.addScriptTag({ content: bundle, type: "module" });
    await page.waitForFunction(() => "taskContextClient" in globalThis);
    const input = runInput([taskStage("draft")]);
    const result = await page.evaluate(
      async ({ token, input }) => {
        const { createServiceClient, ServiceError } = (
          globalThis as unknown as { taskContextClient: typeof import("@task-context/client") }
        ).taskContextClient;
        const admin = createServiceClient({ url: location.origin, token });
        const run = await admin.createRun(input);
        const agent = createServiceClient({
          url: location.origin,
          token: (await admin.addAgent(run.run_id, { tag: "writer" })).token,
        });
        const claim = await agent.claimNext({ wait: 5 });
        if (claim === undefined) throw new Error("nothing was offered");
        const done = await agent.complete(claim.work_item.id, {
          attempt: claim.lease.attempt,
          artifact: { media_type: "text/markdown", content: "# Lumen" },
        });
        const refusal = await agent.heartbeat(claim.work_item.id, { attempt: 1 }).then(
          () => "no refusal",
          (error: unknown) =>
            ServiceError.isInstance(error) ? `${error.status} ${error.code}` : String(error),
        );
        const events: string[] = [];
        for await (const event of admin.followEvents(run.run_id)) {
          events.push(`${event.seq} ${event.type}`);
        }
        const aborted = new AbortController();
        aborted.abort(new Error("stopped"));
        const abort = await agent.poll({ wait: 30, signal: aborted.signal }).then(
          () => "not aborted",
          (error: unknown) => (error as Error).message,
        );
        return { status: done.status, refusal, events, abort };
      },
      { token: adminToken, input },
    );
    expect(result).toEqual({
      status: "completed",
      refusal: "409 ALREADY_COMPLETED",
      events: [
        "1 run.created",
        "2 work_item.offered",
        "3 work_item.leased",
        "4 artifact.created",
        "5 work_item.completed",
        "6 stage.completed",
        "7 run.completed",
      ],
      abort: "stopped",
    });
    await page.close();
  });
});
