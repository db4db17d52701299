// docs/delivery-service-walkthrough.md shows every answer "as the service gave it". This test makes
// it so: it starts the real service on Node (apps/edge's entry: runFromEnv, as the page's
// `npx task-context-server` runs it), runs the page's shell blocks with bash, curl and jq, in
// order, exactly as written (the page's ids and tokens replaced by the ones this service gave,
// and localhost:8787 by its address), and compares every answer the page shows with the real
// one, modulo ids, tokens, hashes and times (same-answer.ts). The few answers the page shows
// without a command ("add critic-1 the same way", a refusal it describes) are made by the
// requests in IMPLIED, each named by what the page says.
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./documented-pages.ts";
import { type Fence, markdownFences } from "./markdown-fences.ts";
import { compactJson, differenceFrom, IdMap } from "./same-answer.ts";

const PAGE = "docs/delivery-service-walkthrough.md";
const ADMIN_TOKEN = "change-me";
const missingTools = ["bash", "curl", "jq"].filter(
  (tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0,
);

let service: ChildProcess;
let base = "";
const ids = new IdMap();
/** The shell variables the page has set so far, with this service's values. */
const variables: Record<string, string> = {};

/** A request with `authorization`, a header line as the page's variables hold them. */
async function request(
  method: string,
  path: string,
  authorization: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: authorization.replace(/^Authorization: /, ""),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.text();
}

const admin = (method: string, path: string, body?: unknown) =>
  request(method, path, `Bearer ${ADMIN_TOKEN}`, body);

/** `NAME=value` and `NAME="value"` lines of a shell block, as the shell would set them. */
function assignmentsOf(script: string): [string, string][] {
  return [...script.matchAll(/^([A-Z][A-Z0-9_]*)=(?:"([^"]*)"|(\S+))$/gm)].map((match) => [
    match[1] ?? "",
    match[2] ?? match[3] ?? "",
  ]);
}

/** The shown id a page's assignment `NAME=` gives, paired with `real`. */
function pairAssigned(fences: Fence[], name: string, real: string) {
  const assigned = fences
    .flatMap((fence) => assignmentsOf(fence.body))
    .find(([variable]) => variable === name)?.[1];
  const shown = /tc_\S+|\b\w+_[0-9a-z]{26}\b/.exec(assigned ?? "")?.[0];
  expect(shown, `${PAGE} sets ${name}`).toBeDefined();
  expect(ids.pair(shown ?? "", real), `${name} pairs once`).toBe(true);
}

/** Runs a shell block of the page as written, with this service's ids; its standard output. */
function runBlock(fence: Fence): Promise<string> {
  const unknown = ids.unknownIn(fence.body);
  expect(unknown, `${PAGE}:${fence.line} uses ids no earlier answer showed`).toEqual([]);
  const script = ids.toReal(fence.body).replaceAll("localhost:8787", base.slice(7));
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      ["-euo", "pipefail", "-c", script],
      { env: { PATH: process.env.PATH, ...variables }, timeout: 40_000 },
      (error, stdout) => {
        if (error) reject(error);
        else {
          for (const [name, value] of assignmentsOf(script)) variables[name] = value;
          resolve(stdout);
        }
      },
    );
  });
}

const text = (value: unknown) => JSON.stringify(value);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the page does without a command for it: `before` a block whose text contains the key, or
 * as the `answer` to a shown block whose text contains the key.
 */
const IMPLIED: {
  key: string;
  before?: (fences: Fence[]) => Promise<void>;
  answer?: () => Promise<string>;
}[] = [
  {
    key: '"code":"INVALID_STAGES"',
    answer: () =>
      admin("POST", "/v1/runs", {
        goal: "Publish an article about edge runtimes",
        constraints: [],
        stages: [
          {
            id: "draft",
            stage_description: "Write",
            expected_output: "Markdown",
            available_skills: [],
          },
          {
            id: "review",
            kind: "review",
            reviews: "drafts",
            stage_description: "Review",
            expected_output: "A verdict",
            available_skills: [],
          },
        ],
      }),
  },
  {
    key: 'CRITIC="Authorization: Bearer',
    // "Add critic-1 the same way."
    async before(fences) {
      const answer = JSON.parse(
        await admin("POST", `/v1/runs/${variables.RUN}/agents`, { tag: "critic-1" }),
      );
      pairAssigned(fences, "CRITIC", answer.token);
    },
  },
  {
    key: '"code":"IDEMPOTENCY_KEY_REUSED"',
    // "The same key with another body"
    answer: () =>
      request(
        "POST",
        `/v1/work-items/${variables.ITEM}/complete`,
        variables.WRITER ?? "",
        { attempt: 1, artifact: { media_type: "text/markdown", content: "Other." } },
        { "Idempotency-Key": "draft-1-attempt-1" },
      ),
  },
  {
    key: '"code":"ALREADY_COMPLETED"',
    // "and a second completion without a key"
    answer: () =>
      request("POST", `/v1/work-items/${variables.ITEM}/complete`, variables.WRITER ?? "", {
        attempt: 1,
        artifact: { media_type: "text/markdown", content: "# Edge runtimes" },
      }),
  },
  {
    key: '"code":"INVALID_COMPLETION"',
    // "critic-1 claims the review … A review that judges `style` instead of `readability`"
    async answer() {
      const item = ids.toReal("wi_a4gtkwqpe7b3nyfz73k8j44c11");
      await request("POST", `/v1/work-items/${item}/claim`, variables.CRITIC ?? "");
      return request("POST", `/v1/work-items/${item}/complete`, variables.CRITIC ?? "", {
        attempt: 1,
        review: {
          verdict: "approve",
          summary: "Clear and short.",
          criteria: [
            { criterion: "logic", comment: "Sound." },
            { criterion: "style", comment: "Plain." },
          ],
        },
      });
    },
  },
  {
    key: '"type": "review.feedback"',
    // "The review is event 9"
    answer: async () =>
      text(
        JSON.parse(await admin("GET", `/v1/runs/${variables.RUN}/events?after=8&limit=1`))
          .events[0],
      ),
  },
  {
    key: "RUN2=run_",
    // "It answers run_…. Add an agent translator-1 as above"
    async before(fences) {
      const run = JSON.parse(variables.LAST_OUTPUT ?? "{}").run_id;
      pairAssigned(fences, "RUN2", run);
      const agent = JSON.parse(
        await admin("POST", `/v1/runs/${run}/agents`, { tag: "translator-1" }),
      );
      pairAssigned(fences, "TRANSLATOR", agent.token);
    },
  },
  {
    key: '/v1/runs/$RUN2 -H "$ADMIN" | jq -c \'{status',
    // "It claims it again …, sends no heartbeat, and the lease expires 2 s later."
    async before() {
      await request("POST", "/v1/inbox/claim-next", variables.TRANSLATOR ?? "");
      for (let tries = 0; tries < 100; tries++) {
        const run = JSON.parse(await admin("GET", `/v1/runs/${variables.RUN2}`));
        if (run.status === "blocked") return;
        await wait(100);
      }
      throw new Error("blocked: the run was not blocked 10 s after the lease");
    },
  },
  {
    key: '"code":"INVALID_REQUEST"',
    // "An unknown field, or a value out of range"
    answer: () =>
      admin("POST", "/v1/runs", {
        goal: "Translate the article",
        constraints: [],
        lease_ms: 50,
        stages: [
          {
            id: "translate",
            stage_description: "Translate",
            expected_output: "Markdown",
            available_skills: [],
            priority: 1,
          },
        ],
      }),
  },
];

const implied = (fence: Fence) => IMPLIED.find((step) => fence.body.includes(step.key));

beforeAll(async () => {
  if (missingTools.length > 0) return;
  service = spawn(
    process.execPath,
    ["--conditions=@task-context/source", join(root, "apps/edge/src/node.ts")],
    {
      cwd: join(root, "apps/edge"),
      env: {
        PATH: process.env.PATH,
        TASK_CONTEXT_ADMIN_TOKEN: ADMIN_TOKEN,
        PORT: "0",
        TASK_CONTEXT_DB: ":memory:",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  base = await new Promise<string>((resolve, reject) => {
    let printed = "";
    service.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
      const address = /listening on (http:\/\/\S+)/.exec(printed)?.[1];
      if (address !== undefined) resolve(address);
    });
    service.once("exit", (code) => reject(new Error(`the service exited with ${code}`)));
  });
}, 30_000);

afterAll(() => {
  service?.kill();
});

const skip = missingTools.length > 0 ? ` (skipped: ${missingTools.join(", ")} not installed)` : "";

describe.skipIf(missingTools.length > 0)(`the walkthrough against a real service${skip}`, () => {
  it("gets every answer the page shows, in order, modulo ids and times", async () => {
    const fences = markdownFences(join(root, PAGE), PAGE);
    const shells = ["sh", "bash"];
    let last = "";
    let compared = 0;
    for (const fence of fences) {
      const step = implied(fence);
      await step?.before?.(fences);
      if (shells.includes(fence.language)) {
        if (fence.body.includes("npx task-context-server")) continue; // the service this test started
        last = await runBlock(fence);
        variables.LAST_OUTPUT = last;
        continue;
      }
      const real = step?.answer === undefined ? last : await step.answer();
      const [shown, answered] =
        fence.language === "json"
          ? [compactJson(fence.body), compactJson(real)]
          : [fence.body.trimEnd(), real.trimEnd()];
      expect(differenceFrom(shown, answered, ids), `${PAGE}:${fence.line}`).toBeUndefined();
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  }, 60_000);
});
