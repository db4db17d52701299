// The typed client (@task-context/client) against the real Node server on loopback, on
// an in-memory SQLite database with a clock the tests move: every method with its exact answer,
// the errors it maps, 429 with Retry-After, the idempotent resend of completions, the event
// stream resuming after its connection ends or breaks, and aborts.
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CollaborationEvent,
  type CreateRunInput,
  createServiceClient,
  type Fetch,
  type ServiceClient,
  ServiceError,
  type StageInput,
} from "@task-context/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Limits } from "../../src/app.ts";
import { type NodeServer, startNodeServer } from "../../src/node.ts";
import { EVENTUALLY, manualClock } from "../contract/harness.ts";
import { startProxy } from "../sse/proxy.ts";

const adminToken = "client-test-admin-token-0123456789";

/** A server on 127.0.0.1:0 with an in-memory database and a clock the test moves. */
async function start(limits: Limits = { rateLimit: false }, database = ":memory:") {
  const clock = manualClock();
  const server = await startNodeServer({
    port: 0,
    database,
    adminToken,
    clock: clock.now,
    limits,
  });
  return { server, clock };
}

const draft: StageInput = {
  id: "draft",
  stage_description: "Write the launch post",
  expected_output: "Markdown",
  available_skills: ["write"],
};

const run: CreateRunInput = {
  goal: "Launch Lumen",
  constraints: ["Say Lumen, never Lumen App"],
  stages: [
    draft,
    {
      id: "review",
      kind: "review",
      reviews: "draft",
      review_criteria: ["clarity"],
      stage_description: "Review the post",
      expected_output: "A verdict",
      available_skills: [],
    },
  ],
};

/** The run without its review stage: it completes with its one item. */
const draftOnly: CreateRunInput = { ...run, stages: [draft] };

/** A `fetch` that records what it sent and what came back. */
function recordingFetch(
  onAnswer: (request: Request, response: Response) => void = () => undefined,
) {
  const sent: { method: string; path: string; headers: Headers }[] = [];
  const statuses: number[] = [];
  const fetch: Fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: request.headers,
    });
    const response = await globalThis.fetch(request);
    statuses.push(response.status);
    onAnswer(request, response);
    return response;
  };
  return { fetch, sent, statuses };
}

/** The error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

/** The fields of a ServiceError a caller branches on. */
async function refusal(promise: Promise<unknown>) {
  const error = await rejection(promise);
  if (!ServiceError.isInstance(error)) throw error;
  return {
    name: error.name,
    status: error.status,
    code: error.code,
    message: error.message,
    issues: error.issues,
    retryAfter: error.retryAfter,
  };
}

/** Every event of an iteration. */
async function collect(events: AsyncIterable<CollaborationEvent>) {
  const collected: CollaborationEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe("the typed client", () => {
  let server: NodeServer;
  let clock: ReturnType<typeof manualClock>;
  let admin: ServiceClient;

  beforeAll(async () => {
    ({ server, clock } = await start());
    admin = createServiceClient({ url: server.url, token: adminToken });
  });
  afterAll(() => server.close());

  /** The service's time `ms` from now, as it writes times. */
  const iso = (ms = 0) => new Date(clock.now() + ms).toISOString();

  /** A new run (two stages) with an agent "writer". */
  async function newRun(input: CreateRunInput = run) {
    const created = await admin.createRun(input);
    const added = await admin.addAgent(created.run_id, { tag: "writer" });
    const writer = createServiceClient({ url: server.url, token: added.token });
    return { created, added, writer };
  }

  it("answers the public endpoints without a token", async () => {
    const anonymous = createServiceClient({ url: server.url });
    expect(await anonymous.health()).toEqual({ status: "ok" });
    const { schemas } = await anonymous.listSchemas();
    expect(schemas).toContainEqual({
      name: "work-item.v1",
      id: "urn:task-context:schema:work-item.v1",
      url: "/v1/schemas/work-item.v1",
    });
    expect(schemas).toHaveLength(11);
    const schema = await anonymous.getSchema("work-item.v1");
    expect([schema.$id, schema.$schema]).toEqual([
      "urn:task-context:schema:work-item.v1",
      "https://json-schema.org/draft/2020-12/schema",
    ]);
    expect(await anonymous.validate("review-feedback.v1", { verdict: "approve" })).toMatchObject({
      valid: false,
      issues: expect.arrayContaining([
        { path: "/summary", message: expect.stringMatching(/^summary is required/) },
      ]),
    });
    const context = {
      stage_description: "Write",
      expected_output: "Markdown",
      available_skills: [],
    };
    expect(await anonymous.validate("stage-context.v1", context)).toEqual({
      valid: true,
      issues: [],
    });
    const document = await anonymous.getOpenApiDocument();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/v1/inbox/claim-next");
  });

  it("creates a run, adds an agent and reads the run back", async () => {
    const { created, added } = await newRun();
    const runId = created.run_id;
    expect(runId).toMatch(/^run_[0-9a-z]{26}$/);
    expect(created).toEqual({
      run_id: runId,
      status: "active",
      goal: "Launch Lumen",
      constraints: ["Say Lumen, never Lumen App"],
      lease_ms: 60_000,
      max_attempts: 5,
      created_at: iso(),
      stages: [
        {
          ...draft,
          kind: "task",
          items: 1,
          status: "active",
          counts: { total: 1, offered: 1, leased: 0, completed: 0, dead_lettered: 0 },
        },
        {
          ...run.stages[1],
          status: "pending",
          counts: { total: 0, offered: 0, leased: 0, completed: 0, dead_lettered: 0 },
        },
      ],
    });
    expect(await admin.getRun(runId)).toEqual(created);
    expect(added).toEqual({
      agent_id: expect.stringMatching(/^agt_[0-9a-z]{26}$/),
      tag: "writer",
      token: expect.stringMatching(new RegExp(`^tc_${runId}_${added.agent_id}_[A-Za-z0-9_-]+$`)),
    });
  });

  it("works an item through: poll, claim-next, heartbeat, complete, artifact, events", async () => {
    const { created, added, writer } = await newRun();
    const runId = created.run_id;
    const { offers } = await writer.poll({ limit: 5 });
    const item = offers[0];
    expect(offers).toHaveLength(1);
    expect(item).toEqual({
      kind: "task",
      id: expect.stringMatching(/^wi_[0-9a-z]{26}$/),
      run_id: runId,
      stage_id: "draft",
      goal: run.goal,
      constraints: run.constraints,
      stage_context: {
        stage_description: "Write the launch post",
        expected_output: "Markdown",
        available_skills: ["write"],
      },
      previous_artifacts: [],
      available_skills: ["write"],
      attempt: 1,
      context_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const claim = await writer.claimNext({ wait: 1 });
    expect(claim).toEqual({ work_item: item, lease: { attempt: 1, expires_at: iso(60_000) } });
    expect(await writer.claimNext()).toBeUndefined(); // 204: nothing else on offer
    clock.advance(30_000);
    expect(await writer.heartbeat(item?.id ?? "", { attempt: 1 })).toEqual({
      expires_at: iso(60_000),
    });
    const done = await writer.complete(item?.id ?? "", {
      attempt: 1,
      artifact: { media_type: "text/markdown", content: "# Lumen", title: "Launch" },
    });
    expect(done).toEqual({
      work_item_id: item?.id,
      status: "completed",
      artifact_id: expect.stringMatching(/^art_[0-9a-z]{26}$/),
      event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
    });
    const artifact = await writer.getArtifact(runId, done.artifact_id ?? "");
    expect(artifact).toEqual({
      id: done.artifact_id,
      run_id: runId,
      stage_id: "draft",
      work_item_id: item?.id,
      author_tag: "writer",
      title: "Launch",
      media_type: "text/markdown",
      content: "# Lumen",
      created_at: iso(),
    });
    const page = await admin.listEvents(runId, { after: 2, limit: 3 });
    expect(page.events.map((event) => [event.seq, event.type])).toEqual([
      [3, "work_item.leased"],
      [4, "artifact.created"],
      [5, "work_item.completed"],
    ]);
    expect(page.next_after).toBe(5);
    expect(page.events[2]).toEqual({
      type: "work_item.completed",
      id: done.event_id,
      seq: 5,
      run_id: runId,
      at: iso(),
      work_item_id: item?.id,
      agent_tag: added.tag,
      attempt: 1,
    });
  });

  it("claims an item by its id, fails it, dead-letters it, and the admin requeues it", async () => {
    const { created, writer } = await newRun({ ...run, max_attempts: 1 });
    const runId = created.run_id;
    const [offer] = (await writer.poll()).offers;
    const id = offer?.id ?? "";
    const claim = await writer.claim(id);
    expect(claim.lease).toEqual({ attempt: 1, expires_at: iso(60_000) });
    const failed = await writer.fail(id, { attempt: 1, reason: "The model refused." });
    expect(failed).toEqual({
      work_item_id: id,
      status: "dead_lettered",
      attempts_left: 0,
      event_id: expect.stringMatching(/^evt_/),
    });
    expect((await admin.getRun(runId)).status).toBe("blocked");
    expect(await admin.listDeadLetters(runId)).toEqual({
      dead_letters: [
        {
          work_item: offer,
          dead_lettered_at: iso(),
          attempts: [
            {
              attempt: 1,
              agent_tag: "writer",
              leased_at: iso(),
              ended_at: iso(),
              outcome: "failed",
              reason: "The model refused.",
            },
          ],
        },
      ],
    });
    expect(await admin.requeue(runId, id)).toEqual({ work_item: { ...offer, attempt: 2 } });
    expect((await admin.getRun(runId)).status).toBe("active");
    const link = await admin.createViewLink(runId, { ttl_seconds: 600, can_requeue: true });
    expect(link).toEqual({
      url: expect.stringMatching(
        new RegExp(`^${server.url}/runs/${runId}\\?view=v1\\.${runId}\\.\\d+\\.rq\\.[\\w-]{43}$`),
      ),
      expires_at: iso(600_000),
      can_requeue: true,
    });
    expect((await admin.createViewLink(runId)).can_requeue).toBe(false);
  });

  it("completes with an Idempotency-Key: made once per call, or the caller's", async () => {
    const recorder = recordingFetch();
    const { created, added } = await newRun();
    const writer = createServiceClient({
      url: server.url,
      token: added.token,
      fetch: recorder.fetch,
    });
    const claim = await writer.claimNext();
    const id = claim?.work_item.id ?? "";
    const body = { attempt: 1, artifact: { media_type: "text/plain", content: "Lumen" } };
    const first = await writer.complete(id, body, { idempotencyKey: "lumen-1" });
    expect(await writer.complete(id, body, { idempotencyKey: "lumen-1" })).toEqual(first);
    expect(await refusal(writer.complete(id, body))).toMatchObject({
      status: 409,
      code: "ALREADY_COMPLETED",
    });
    const keys = recorder.sent
      .filter((request) => request.path.endsWith("/complete"))
      .map((request) => request.headers.get("idempotency-key"));
    expect(keys.slice(0, 2)).toEqual(["lumen-1", "lumen-1"]);
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/);
    expect((await admin.getRun(created.run_id)).stages[0]?.counts.completed).toBe(1);
  });

  it("sends a completion again with the same key when its answer was lost, and gets that answer", async () => {
    const { added } = await newRun();
    let lose = true;
    const recorder = recordingFetch();
    // The service applies the first completion, then the connection drops before its answer.
    const losing: Fetch = async (input, init) => {
      const response = await recorder.fetch(input, init);
      if (lose && new URL(response.url).pathname.endsWith("/complete")) {
        lose = false;
        await response.body?.cancel();
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }),
        });
      }
      return response;
    };
    const writer = createServiceClient({
      url: server.url,
      token: added.token,
      fetch: losing,
      retry: { backoffMs: 1 },
    });
    const claim = await writer.claimNext();
    const id = claim?.work_item.id ?? "";
    const done = await writer.complete(id, {
      attempt: 1,
      artifact: { media_type: "text/plain", content: "Lumen" },
    });
    expect(done.status).toBe("completed");
    const completes = recorder.sent.filter((request) => request.path.endsWith("/complete"));
    expect(recorder.statuses.slice(-2)).toEqual([200, 200]);
    expect(completes).toHaveLength(2);
    expect(completes[1]?.headers.get("idempotency-key")).toBe(
      completes[0]?.headers.get("idempotency-key"),
    );
  });

  describe("refusals are ServiceErrors with the answer's status, code, message and issues", () => {
    it("401 without a token or with a wrong one", async () => {
      const expected = {
        name: "ServiceError",
        status: 401,
        code: "UNAUTHORIZED",
        message:
          "This endpoint needs a token: send Authorization: Bearer <token> (the admin token, or an agent token from POST /v1/runs/{run_id}/agents).",
        issues: undefined,
        retryAfter: undefined,
      };
      expect(await refusal(createServiceClient({ url: server.url }).getRun("run_x"))).toEqual(
        expected,
      );
      const wrong = createServiceClient({ url: server.url, token: "nope" });
      expect(await refusal(wrong.createRun(run))).toMatchObject({
        status: 401,
        code: "UNAUTHORIZED",
      });
    });

    it("403 for an agent token on an admin endpoint", async () => {
      const { writer } = await newRun();
      expect(await refusal(writer.createRun(run))).toMatchObject({
        status: 403,
        code: "FORBIDDEN",
      });
    });

    it("404 for a run that does not exist, with the service's message", async () => {
      expect(await refusal(admin.getRun("run_nope"))).toEqual({
        name: "ServiceError",
        status: 404,
        code: "RUN_NOT_FOUND",
        message: "No run run_nope. Check the run id (and that your token belongs to that run).",
        issues: undefined,
        retryAfter: undefined,
      });
      expect(await refusal(admin.getSchema("nope.v1"))).toMatchObject({
        status: 404,
        code: "SCHEMA_NOT_FOUND",
      });
    });

    it("400 with the issues that name the fields", async () => {
      const bad = { goal: "", constraints: [], stages: [] } as unknown as CreateRunInput;
      expect(await refusal(admin.createRun(bad))).toEqual({
        name: "ServiceError",
        status: 400,
        code: "INVALID_REQUEST",
        message: "The request body does not match the contract. Fix the issues listed.",
        issues: [
          { path: "/goal", message: "goal must not be empty." },
          { path: "/stages", message: "stages must have at least 1 entry, not 0." },
        ],
        retryAfter: undefined,
      });
    });

    it("409 LEASE_LOST for an attempt that is no longer current", async () => {
      const { writer } = await newRun();
      const first = await writer.claimNext();
      const id = first?.work_item.id ?? "";
      clock.advance(61_000); // the lease expires: the item is offered again
      const second = await writer.claim(id);
      expect(second.lease.attempt).toBe(2);
      expect(await refusal(writer.heartbeat(id, { attempt: 1 }))).toMatchObject({
        status: 409,
        code: "LEASE_LOST",
        issues: undefined,
      });
      const stale = { attempt: 1, reason: "late" };
      expect(await refusal(writer.fail(id, stale))).toMatchObject({ code: "LEASE_LOST" });
    });

    it("NETWORK_ERROR when nothing answers, without sending a read again", async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const url = `http://127.0.0.1:${port}`;
      const calls: string[] = [];
      const client = createServiceClient({
        url,
        token: adminToken,
        retry: { backoffMs: 1 },
        fetch: (input, init) => {
          calls.push(String(input));
          return globalThis.fetch(input, init);
        },
      });
      expect(await refusal(client.getRun("run_x"))).toEqual({
        name: "ServiceError",
        status: undefined,
        code: "NETWORK_ERROR",
        message: `No answer from the delivery service at ${url} (ECONNREFUSED). Check that it runs and that the URL is right.`,
        issues: undefined,
        retryAfter: undefined,
      });
      expect(calls).toHaveLength(1);
      // A completion carries its key: it is sent again, 3 more times by default.
      const body = { attempt: 1, reason: "x" };
      expect(await refusal(client.fail("wi_x", body))).toMatchObject({ code: "NETWORK_ERROR" });
      expect(calls).toHaveLength(5);
    });
  });

  describe("the event stream", () => {
    it("gives every event in seq order and ends after run.completed; after it, nothing", async () => {
      const { created, writer } = await newRun(draftOnly);
      const claim = await writer.claimNext();
      await writer.complete(claim?.work_item.id ?? "", {
        attempt: 1,
        artifact: { media_type: "text/plain", content: "Lumen" },
      });
      const events = await collect(admin.followEvents(created.run_id));
      expect(events).toEqual((await admin.listEvents(created.run_id)).events);
      expect(events.map((event) => event.type).at(-1)).toBe("run.completed");
      // Resuming after the last event: 204, the iteration ends at once.
      expect(await collect(admin.followEvents(created.run_id, { after: 7 }))).toEqual([]);
      expect((await collect(writer.followEvents(created.run_id, { after: 5 }))).length).toBe(2);
    });

    it("throws a refusal of the service, and a first connection that gets no answer", async () => {
      expect(await refusal(collect(admin.followEvents("run_nope")))).toMatchObject({
        status: 404,
        code: "RUN_NOT_FOUND",
      });
      const nowhere = createServiceClient({ url: "http://127.0.0.1:1", token: adminToken });
      expect(await refusal(collect(nowhere.followEvents("run_x")))).toMatchObject({
        code: "NETWORK_ERROR",
      });
    });

    it("resumes after a connection that breaks mid-frame: nothing missed or repeated", {
      timeout: 15_000,
    }, async () => {
      const port = Number(new URL(server.url).port);
      const proxy = await startProxy(() => port);
      try {
        const { created, added } = await newRun(draftOnly);
        const recorder = recordingFetch();
        const watcher = createServiceClient({
          url: proxy.url,
          token: adminToken,
          fetch: recorder.fetch,
        });
        const writer = createServiceClient({ url: server.url, token: added.token });
        const cut = proxy.cutNextFrame();
        const following = collect(watcher.followEvents(created.run_id));
        const partial = await cut; // the first frame's fields, without its blank line
        expect(partial).toMatch(/id: 1\n$/);
        const claim = await writer.claimNext();
        await writer.complete(claim?.work_item.id ?? "", {
          attempt: 1,
          artifact: { media_type: "text/plain", content: "Lumen" },
        });
        const events = await following;
        expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(events).toEqual((await admin.listEvents(created.run_id)).events);
        expect(recorder.sent.map((request) => request.headers.get("last-event-id"))).toEqual([
          "0",
          "0",
        ]);
      } finally {
        await proxy.close();
      }
    });

    it("resumes after the server closes the connection and comes back", {
      timeout: 20_000,
    }, async () => {
      const folder = mkdtempSync(join(tmpdir(), "task-context-client-"));
      const database = join(folder, "service.db");
      let { server: first } = await start({ rateLimit: false }, database);
      try {
        const url = first.url;
        const admin = createServiceClient({ url, token: adminToken });
        const created = await admin.createRun(draftOnly);
        const { token } = await admin.addAgent(created.run_id, { tag: "writer" });
        const seen: number[] = [];
        const recorder = recordingFetch();
        const watcher = createServiceClient({ url, token: adminToken, fetch: recorder.fetch });
        const following = (async () => {
          for await (const event of watcher.followEvents(created.run_id)) seen.push(event.seq);
        })();
        await expect.poll(() => seen.length, EVENTUALLY).toBe(2);
        await first.close(); // ends the stream; the watcher finds nobody there for a while
        first = await startNodeServer({
          port: Number(new URL(url).port),
          database,
          adminToken,
          limits: { rateLimit: false },
        });
        const writer = createServiceClient({ url, token });
        const claim = await writer.claimNext();
        await writer.complete(claim?.work_item.id ?? "", {
          attempt: 1,
          artifact: { media_type: "text/plain", content: "Lumen" },
        });
        await following;
        expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
        const resumed = recorder.sent.map((request) => request.headers.get("last-event-id"));
        expect([resumed[0], resumed.at(-1)]).toEqual(["0", "2"]);
      } finally {
        await first.close();
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe("abort", () => {
    it("a call's signal ends a long poll at once with the signal's reason", async () => {
      const { writer } = await newRun();
      // Nothing else on offer, and the server's clock does not move: only an abort ends these waits.
      await writer.claimNext();
      const reason = new Error("stop");
      const waiting = writer.claimNext({ wait: 30, signal: AbortSignal.timeout(200) });
      expect(await rejection(waiting)).toMatchObject({ name: "TimeoutError" });
      const controller = new AbortController();
      const polling = writer.poll({ wait: 30, signal: controller.signal });
      setTimeout(() => controller.abort(reason), 100);
      expect(await rejection(polling)).toBe(reason);
    });

    it("the client's signal aborts every call; an aborted event stream throws and closes", async () => {
      const controller = new AbortController();
      const client = createServiceClient({
        url: server.url,
        token: adminToken,
        signal: controller.signal,
      });
      const { created } = await newRun();
      const seen: number[] = [];
      const following = (async () => {
        for await (const event of client.followEvents(created.run_id)) {
          seen.push(event.seq);
          if (seen.length === 2) controller.abort(new Error("enough"));
        }
      })();
      expect(await rejection(following)).toEqual(new Error("enough"));
      expect(seen).toEqual([1, 2]);
      expect(await rejection(client.health())).toEqual(new Error("enough"));
    });

    it("break ends the iteration and closes the stream", async () => {
      const { created } = await newRun();
      const seen: number[] = [];
      for await (const event of admin.followEvents(created.run_id)) {
        seen.push(event.seq);
        break;
      }
      expect(seen).toEqual([1]);
    });
  });
});

describe("429 RATE_LIMITED", () => {
  /** A server that takes 2 requests per second, and a fetch that moves its clock after a 429. */
  async function limited() {
    const { server, clock } = await start({ rateLimit: { requests: 2, windowMs: 1000 } });
    const recorder = recordingFetch((_request, response) => {
      if (response.status === 429) clock.advance(1000); // as the client waits, so does the window
    });
    return { server, recorder };
  }

  it("waits Retry-After and sends the request again", async ({ onTestFinished }) => {
    const { server, recorder } = await limited();
    onTestFinished(() => server.close());
    const client = createServiceClient({
      url: server.url,
      token: adminToken,
      fetch: recorder.fetch,
    });
    const started = Date.now();
    for (let index = 0; index < 3; index++) expect(await client.listSchemas()).toBeDefined();
    expect(recorder.statuses).toEqual([200, 200, 429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("throws it with retryAfter when retries are off, or the wait is longer than maxDelayMs", async ({
    onTestFinished,
  }) => {
    const { server } = await start({ rateLimit: { requests: 1, windowMs: 60_000 } });
    onTestFinished(() => server.close());
    const off = createServiceClient({ url: server.url, token: adminToken, retry: false });
    await off.getOpenApiDocument();
    const expected = {
      name: "ServiceError",
      status: 429,
      code: "RATE_LIMITED",
      message:
        "Too many requests from this token or address. Wait 60 s (Retry-After) and slow down.",
      issues: undefined,
      retryAfter: 60,
    };
    expect(await refusal(off.health())).toEqual(expected);
    const impatient = createServiceClient({
      url: server.url,
      token: adminToken,
      retry: { maxDelayMs: 5000 },
    });
    // A client that waited the 60 s would be stopped by this guard, with another error.
    const guard = AbortSignal.timeout(20_000);
    expect(await refusal(impatient.listSchemas({ signal: guard }))).toEqual(expected);
  });

  it("gives up after retries, and an abort ends the wait", async ({ onTestFinished }) => {
    const { server } = await start({ rateLimit: { requests: 1, windowMs: 1000 } });
    onTestFinished(() => server.close());
    const calls: number[] = [];
    const client = createServiceClient({
      url: server.url,
      token: adminToken,
      retry: { retries: 1 },
      fetch: async (input, init) => {
        const response = await globalThis.fetch(input, init);
        calls.push(response.status);
        return response;
      },
    });
    await client.listSchemas();
    // The server's clock does not move: every retry is refused again.
    expect(await refusal(client.listSchemas())).toMatchObject({ code: "RATE_LIMITED" });
    expect(calls).toEqual([200, 429, 429]);
    const controller = new AbortController();
    const waiting = client.listSchemas({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error("no more")), 100);
    expect(await rejection(waiting)).toEqual(new Error("no more"));
  });
});
