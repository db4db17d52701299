// A small client of the HTTP contract for the suites. Every answer is checked against the
// contract as it comes back: work items, artifacts, review feedback and events against the
// published schemas (protocols' validate()), errors against { error, code, issues? }.

import type {
  ClaimView,
  CompletionView,
  CreateRunInput,
  DeadLetter,
  ErrorBody,
  EventPage,
  FailureView,
  HeartbeatView,
  RunView,
  StageInput,
} from "@task-context/contract";
import type { Artifact, CollaborationEvent, WorkItem } from "@task-context/protocols";
import { type SchemaName, validate } from "@task-context/protocols";
import { expect } from "vitest";
import type { Service } from "./harness.ts";

/** An answer of the service. */
export interface Answer<Body> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined for 204 and non-JSON answers). */
  body: Body;
  /** The error body, for 4xx and 5xx answers. */
  error: ErrorBody | undefined;
  /** The raw text. */
  text: string;
}

/** Asserts that `value` is valid for a published schema. */
export function expectPublished(schema: SchemaName, value: unknown): void {
  expect(validate(schema, value), `${schema}: ${JSON.stringify(value).slice(0, 300)}`).toEqual({
    valid: true,
    issues: [],
  });
}

/** Checks every published value inside an answer's body. */
export function checkPublished(body: unknown): void {
  if (typeof body !== "object" || body === null) return;
  const value = body as Record<string, unknown>;
  for (const item of (value.offers as unknown[] | undefined) ?? [])
    expectPublished("work-item.v1", item);
  if (value.work_item !== undefined) expectPublished("work-item.v1", value.work_item);
  for (const letter of (value.dead_letters as DeadLetter[] | undefined) ?? []) {
    expectPublished("work-item.v1", letter.work_item);
  }
  for (const event of (value.events as unknown[] | undefined) ?? []) checkEvent(event);
}

/** Checks an event and, for review feedback, its feedback. */
export function checkEvent(event: unknown): void {
  expectPublished("collaboration-event.v1", event);
  const value = event as CollaborationEvent;
  if (value.type === "review.feedback") expectPublished("review-feedback.v1", value.feedback);
}

function checkError(answer: Answer<unknown>): void {
  expect(answer.headers.get("content-type") ?? "", answer.text).toMatch(/^application\/json/);
  const body = answer.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(
    body.issues === undefined ? ["code", "error"] : ["code", "error", "issues"],
  );
  expect(typeof body.error).toBe("string");
  expect(body.code).toMatch(/^[A-Z_]+$/);
  expect(answer.text).not.toMatch(/\n\s+at /); // no stack trace
}

/** Options of one request. */
export interface RequestOptions {
  body?: unknown;
  /** A raw body, sent as is. */
  raw?: BodyInit;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

/** A client acting with one token (or none). */
export class Client {
  readonly service: Service;
  readonly token: string | undefined;

  constructor(service: Service, token: string | undefined) {
    this.service = service;
    this.token = token;
  }

  url(path: string, query?: RequestOptions["query"]): string {
    const search =
      query === undefined || Object.keys(query).length === 0
        ? ""
        : `?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`;
    return `${this.service.baseUrl}${path}${search}`;
  }

  /** Sends a request and checks its answer against the contract. */
  async request<Body = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<Answer<Body>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token !== undefined) headers.Authorization ??= `Bearer ${this.token}`;
    let body: BodyInit | undefined = options.raw;
    if (options.body !== undefined) {
      headers["Content-Type"] ??= "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await this.service.fetch(this.url(path, options.query), {
      method,
      headers,
      // A redirect is an answer to check (the page's Requeue form), not one to follow.
      redirect: "manual",
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    const json = (response.headers.get("content-type") ?? "").includes("json") && text !== "";
    const parsed = json ? (JSON.parse(text) as Body) : (undefined as Body);
    const answer: Answer<Body> = {
      status: response.status,
      headers: response.headers,
      body: parsed,
      error: response.status >= 400 ? (parsed as ErrorBody) : undefined,
      text,
    };
    // The run page's errors are pages; its suite reads them.
    const page = (response.headers.get("content-type") ?? "").startsWith("text/html");
    if (response.status >= 400 && !page) checkError(answer);
    else checkPublished(parsed);
    return answer;
  }

  get<Body = unknown>(path: string, options?: RequestOptions) {
    return this.request<Body>("GET", path, options);
  }

  post<Body = unknown>(path: string, options?: RequestOptions) {
    return this.request<Body>("POST", path, options);
  }

  // The contract's operations.
  createRun(input: CreateRunInput) {
    return this.post<RunView>("/v1/runs", { body: input });
  }
  getRun(runId: string) {
    return this.get<RunView>(`/v1/runs/${runId}`);
  }
  addAgent(runId: string, tag: string) {
    return this.post<{ agent_id: string; tag: string; token: string }>(`/v1/runs/${runId}/agents`, {
      body: { tag },
    });
  }
  poll(query: { wait?: number; limit?: number } = {}) {
    return this.get<{ offers: WorkItem[] }>("/v1/inbox/poll", { query });
  }
  claimNext(query: { wait?: number; max_items?: number } = {}) {
    return this.post<ClaimView>("/v1/inbox/claim-next", { query });
  }
  claim(workItemId: string) {
    return this.post<ClaimView>(`/v1/work-items/${workItemId}/claim`);
  }
  heartbeat(workItemId: string, attempt: number) {
    return this.post<HeartbeatView>(`/v1/work-items/${workItemId}/heartbeat`, {
      body: { attempt },
    });
  }
  complete(workItemId: string, body: Record<string, unknown>, idempotencyKey?: string) {
    return this.post<CompletionView>(`/v1/work-items/${workItemId}/complete`, {
      body,
      ...(idempotencyKey === undefined ? {} : { headers: { "Idempotency-Key": idempotencyKey } }),
    });
  }
  fail(workItemId: string, body: { attempt: number; reason: string }, idempotencyKey?: string) {
    return this.post<FailureView>(`/v1/work-items/${workItemId}/fail`, {
      body,
      ...(idempotencyKey === undefined ? {} : { headers: { "Idempotency-Key": idempotencyKey } }),
    });
  }
  deadLetters(runId: string) {
    return this.get<{ dead_letters: DeadLetter[] }>(`/v1/runs/${runId}/dead-letters`);
  }
  requeue(runId: string, workItemId: string) {
    return this.post<{ work_item: WorkItem }>(`/v1/runs/${runId}/work-items/${workItemId}/requeue`);
  }
  async artifact(runId: string, artifactId: string) {
    const answer = await this.get<Artifact>(`/v1/runs/${runId}/artifacts/${artifactId}`);
    if (answer.status === 200) expectPublished("artifact.v1", answer.body);
    return answer;
  }
  events(runId: string, query: { after?: number; limit?: number } = {}) {
    return this.get<EventPage>(`/v1/runs/${runId}/events`, { query });
  }
}

/** A task stage with defaults for the fields a test does not care about. */
export function taskStage(id: string, fields: Partial<StageInput> = {}): StageInput {
  return {
    id,
    stage_description: `Stage ${id}: do the work`,
    expected_output: "A markdown document",
    available_skills: ["web_search", "write_file"],
    ...fields,
  };
}

/** A review stage of `reviews`. */
export function reviewStage(
  id: string,
  reviews: string,
  criteria: string[] = ["creativity", "logic", "readability"],
): StageInput {
  return {
    id,
    kind: "review",
    reviews,
    review_criteria: criteria,
    stage_description: `Review the ${reviews} stage's artifacts`,
    expected_output: "A verdict and one comment per criterion",
    available_skills: ["read_file"],
  };
}

/** A run's input with defaults. */
export function runInput(
  stages: StageInput[],
  fields: Partial<CreateRunInput> = {},
): CreateRunInput {
  return {
    goal: "Publish an illustrated article about edge runtimes.",
    constraints: ["At most 1200 words", "No vendor comparisons"],
    stages,
    ...fields,
  };
}

/** A run with its admin client and agents. */
export interface RunFixture {
  run: RunView;
  admin: Client;
  /** Adds an agent and returns its client. */
  agent(tag: string): Promise<Client & { agentId: string; tag: string }>;
  events(): Promise<CollaborationEvent[]>;
}

/** Creates a run (201 asserted) on the service. */
export async function createRun(service: Service, input: CreateRunInput): Promise<RunFixture> {
  const admin = new Client(service, service.adminToken);
  const created = await admin.createRun(input);
  expect(created.status, created.text).toBe(201);
  const run = created.body;
  return {
    run,
    admin,
    async agent(tag) {
      const added = await admin.addAgent(run.run_id, tag);
      expect(added.status, added.text).toBe(201);
      return Object.assign(new Client(service, added.body.token), {
        agentId: added.body.agent_id,
        tag,
      });
    },
    async events() {
      const page = await admin.events(run.run_id, { limit: 1000 });
      expect(page.status).toBe(200);
      return page.body.events;
    },
  };
}

/**
 * A run of a draft stage and the stage that reviews it (with `criteria`, or reviewStage's):
 * "writer-1" has claimed the draft and completed it with artifactCompletion(1) (`written` is that
 * answer), and "critic" has joined to review it.
 */
export async function writtenDraft(service: Service, criteria?: string[]) {
  const fixture = await createRun(
    service,
    runInput([taskStage("draft"), reviewStage("review", "draft", criteria)]),
  );
  const writer = await fixture.agent("writer-1");
  const task = await writer.claimNext();
  const written = await writer.complete(task.body.work_item.id, artifactCompletion(1));
  const critic = await fixture.agent("critic");
  return { ...fixture, writer, written, critic };
}

/** A task item's completion body. */
export function artifactCompletion(attempt: number, content = "# Draft\n\nEdge runtimes…") {
  return { attempt, artifact: { media_type: "text/markdown", content, title: "Draft article" } };
}

/** A review item's completion body that judges every criterion. */
export function reviewCompletion(
  attempt: number,
  criteria: string[] = ["creativity", "logic", "readability"],
) {
  return {
    attempt,
    review: {
      verdict: "request_changes",
      summary: "Strong opening; section 2 skips a step.",
      criteria: criteria.map((criterion, index) => ({
        criterion,
        score: 5 + index,
        comment: `About ${criterion}.`,
      })),
    },
  };
}

/** The events of some types, in order. */
export function ofType<Type extends CollaborationEvent["type"]>(
  events: readonly CollaborationEvent[],
  type: Type,
): Extract<CollaborationEvent, { type: Type }>[] {
  return events.filter((event) => event.type === type) as Extract<
    CollaborationEvent,
    { type: Type }
  >[];
}
