import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2aAgent } from "../../server/test/a2a/a2a-agent.ts";
import {
  CLI,
  HANG_GUARD_MS,
  runCli,
  runCliClosingStdout,
  startServe,
  temporaryFolder,
} from "./run-cli.ts";

const folder = temporaryFolder();
const cwd = folder.path;
let server: ChildProcessWithoutNullStreams;
let serverOutput = "";
let url = "";
let token = "";

const RUN = {
  goal: "Launch Lumen",
  constraints: ["Say Lumen, never Lumen App"],
  stages: [
    {
      id: "draft",
      stage_description: "Write the launch copy",
      expected_output: "Markdown",
      available_skills: ["write"],
    },
    {
      id: "review",
      kind: "review",
      reviews: "draft",
      review_criteria: ["clarity"],
      stage_description: "Review the copy",
      expected_output: "Feedback",
      available_skills: [],
    },
  ],
};
writeFileSync(join(cwd, "run.json"), JSON.stringify(RUN));
writeFileSync(join(cwd, "bad-run.json"), JSON.stringify({ goal: "" }));
/** A run of one stage, which needs the skill "write". */
writeFileSync(join(cwd, "draft-run.json"), JSON.stringify({ ...RUN, stages: [RUN.stages[0]] }));

/** Starts `task-context serve` on a free port and waits for its three lines. */
beforeAll(async () => {
  server = spawn(process.execPath, [CLI, "serve", "--port", "0", "--db", ":memory:"], {
    cwd,
    env: { PATH: process.env.PATH ?? "" },
  });
  server.stdout.setEncoding("utf8");
  await new Promise<void>((resolve, reject) => {
    server.once("exit", () => reject(new Error(`serve exited early: ${serverOutput}`)));
    server.stdout.on("data", (chunk: string) => {
      serverOutput += chunk;
      if (serverOutput.split("\n").length > 3) resolve();
    });
  });
  url = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(serverOutput)?.[1] ?? "";
  token = /\nadmin token: (\S+)\n/.exec(serverOutput)?.[1] ?? "";
});

afterAll(async () => {
  if (server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  folder.remove();
});

const service = () => ({ TASK_CONTEXT_URL: url, TASK_CONTEXT_TOKEN: token });

/** Starts `a2a-agent-process.ts` (an A2A agent asking for `bearerToken`); resolves to its URL. */
async function startAgentProcess(bearerToken: string) {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@task-context/source",
      fileURLToPath(new URL("a2a-agent-process.ts", import.meta.url)),
    ],
    {
      env: { ...process.env, A2A_BEARER_TOKEN: bearerToken },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  return {
    url: line.toString("utf8").trim(),
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** `task-context run create draft-run.json …options` against the test's service. */
const createDraftRun = (...options: string[]) =>
  runCli(["run", "create", "draft-run.json", ...options], { cwd, env: service() });

async function call(path: string, agentToken: string, body?: unknown) {
  const response = await fetch(new URL(path, url), {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${agentToken}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status === 204 ? undefined : response.json();
}

describe("task-context serve", () => {
  it("prints its address, a generated admin token and the database", () => {
    expect(serverOutput).toMatch(
      /^listening on http:\/\/127\.0\.0\.1:\d+\nadmin token: [A-Za-z0-9_-]{43}\ndatabase: :memory:\n$/,
    );
  });

  it("needs Node 22.13 for SQLite: on the machine's Node 20 it says so in one line, with PostgreSQL as the other way, exit 1", async () => {
    const systemNodeScript: string = new URL("../../../scripts/system-node.mjs", import.meta.url)
      .href;
    const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };
    const node = systemNode();
    const version = (await runCli(["--version"], { cwd, node })).stdout;
    expect(version).not.toBe("");
    const result = await runCli(["serve", "--port", "0"], { cwd, node });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^task-context: serve needs Node ≥ 22\.13 for the service's embedded SQLite \(node:sqlite\); this is Node 20\.\d+\.\d+\nhint: install Node 22\.13 or later \(Node 24 is the current LTS\), or serve on PostgreSQL with --database-url postgres:\/\/…, which runs on Node 20; every other command works on Node 20\n$/,
    );
    const render = await runCli(["render", "--for", "remote-agent", "--run", "run.json"], {
      cwd,
      node,
    });
    expect(render.code).toBe(1);
    expect(render.stderr).toMatch(
      /^task-context: render --for remote-agent needs Node ≥ 22\.13 for the service's embedded SQLite \(node:sqlite\); this is Node 20\.\d+\.\d+\nhint: install Node 22\.13 or later \(Node 24 is the current LTS\); every other command works on Node 20\n$/,
    );
  });

  it("refuses a port that is not one, exit 2", async () => {
    expect(await runCli(["serve", "--port", "http"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: option '--port <port>' argument 'http' is invalid. expected a port from 0 to 65535\nhint: run `task-context serve --help` to see the usage\n",
      code: 2,
    });
  });

  it("stops cleanly on SIGTERM", async () => {
    const { child, output } = await startServe(["--port", "0", "--db", ":memory:"], {
      cwd,
      env: { TASK_CONTEXT_ADMIN_TOKEN: "from-the-environment" },
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output().replace(/:\d+\n/, ":PORT\n")).toBe(
      "listening on http://127.0.0.1:PORT\nadmin token: the value of TASK_CONTEXT_ADMIN_TOKEN\ndatabase: :memory:\nSIGTERM: stopping\n",
    );
  });
});

describe("task-context run", () => {
  it("creates a run, adds agents, shows the status and streams the events to run.completed", async () => {
    const created = await runCli(
      ["run", "create", "run.json", "--agent", "writer", "--agent", "reviewer"],
      {
        cwd,
        env: service(),
      },
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const [runLine = "", writerLine = "", reviewerLine = ""] = created.stdout.split("\n");
    expect(runLine).toMatch(/^run_[0-9a-z]{26}$/);
    expect(writerLine).toMatch(/^agent writer: tc_run_\S+$/);
    expect(reviewerLine).toMatch(/^agent reviewer: tc_run_\S+$/);
    const runId = runLine;
    const writer = writerLine.slice("agent writer: ".length);
    const reviewer = reviewerLine.slice("agent reviewer: ".length);

    expect(await runCli(["run", "status", runId], { cwd, env: service() })).toEqual({
      stdout: `run ${runId}: active\ngoal: Launch Lumen\n\nstage   kind    status   total  offered  leased  completed  dead-lettered\ndraft   task    active   1      1        0       0          0\nreview  review  pending  0      0        0       0          0\n`,
      stderr: "",
      code: 0,
    });

    // Follow the stream live while the two agents work.
    const following = runCli(["run", "events", runId, "--json"], { cwd, env: service() });
    const draft = (await call("/v1/inbox/claim-next", writer, {})) as {
      work_item: { id: string };
      lease: { attempt: number };
    };
    await call(`/v1/work-items/${draft.work_item.id}/complete`, writer, {
      attempt: draft.lease.attempt,
      artifact: { media_type: "text/markdown", content: "# Lumen" },
    });
    const review = (await call("/v1/inbox/claim-next", reviewer, {})) as {
      work_item: { id: string };
      lease: { attempt: number };
    };
    await call(`/v1/work-items/${review.work_item.id}/complete`, reviewer, {
      attempt: review.lease.attempt,
      review: {
        verdict: "approve",
        summary: "Clear.",
        criteria: [{ criterion: "clarity", comment: "Clear." }],
      },
    });
    const events = await following;
    expect(events.stderr).toBe("");
    expect(events.code).toBe(0);
    const types = events.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual([
      "run.created",
      "work_item.offered",
      "work_item.leased",
      "artifact.created",
      "work_item.completed",
      "stage.completed",
      "work_item.offered",
      "work_item.leased",
      "review.feedback",
      "work_item.completed",
      "stage.completed",
      "run.completed",
    ]);

    // After the end, the same stream prints every event as a line and ends again.
    const lines = await runCli(["run", "events", runId], { cwd, env: service() });
    expect(lines.code).toBe(0);
    expect(lines.stdout.split("\n")[0]).toBe(
      `1 run.created goal=Launch Lumen stage_ids=["draft","review"]`,
    );
    expect(lines.stdout.trim().split("\n").at(-1)).toBe("12 run.completed");

    const json = await runCli(["run", "status", runId, "--json"], { cwd, env: service() });
    expect(JSON.parse(json.stdout)).toMatchObject({ run_id: runId, status: "completed" });
  });

  it("stops streaming events, connection and all, when the reader of its output goes away: exit 141", async () => {
    const created = await runCli(["run", "create", "run.json", "--agent", "writer"], {
      cwd,
      env: service(),
    });
    const [runId = "", writerLine = ""] = created.stdout.split("\n");
    const writer = writerLine.slice("agent writer: ".length);
    const events = await runCliClosingStdout(["run", "events", runId], {
      cwd,
      env: service(),
      guardMs: HANG_GUARD_MS,
      // New events after the reader went away: the next line written finds the pipe closed.
      whenClosed: async () => {
        await call("/v1/inbox/claim-next", writer, {});
      },
    });
    expect(events.first.split("\n")[0]).toBe(
      `1 run.created goal=Launch Lumen stage_ids=["draft","review"]`,
    );
    expect({ stderr: events.stderr, code: events.code }).toEqual({ stderr: "", code: 141 });
  });

  it("prints the service's error and code with a hint, exit 1", async () => {
    expect(await runCli(["run", "status", "run_nope"], { cwd, env: service() })).toEqual({
      stdout: "",
      stderr:
        "task-context: the service answered 404 RUN_NOT_FOUND: No run run_nope. Check the run id (and that your token belongs to that run)\nhint: check the run id: `task-context run create` prints it\n",
      code: 1,
    });
    const anonymous = await runCli(["run", "status", "run_nope", "--url", url], { cwd });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/^task-context: the service answered 401 UNAUTHORIZED: /);
    expect(anonymous.stderr).toMatch(
      /\nhint: pass the admin token with --token or TASK_CONTEXT_TOKEN \(`task-context serve` prints it\)\n$/,
    );
    const invalid = await runCli(["run", "create", "bad-run.json"], { cwd, env: service() });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^task-context: the service answered 400 INVALID_REQUEST: /);
  });

  it("adds an A2A agent by its URL (--a2a-agent tag=url): its card read, its stages named", async () => {
    // An agent card alone, as an A2A agent serves it (nothing is sent to it in this test).
    const card = {
      name: "Illustrator",
      supportedInterfaces: [{ url: "http://127.0.0.1:9/", protocolBinding: "JSONRPC" }],
      capabilities: { streaming: false },
      skills: [{ id: "write", name: "write" }],
    };
    const cardServer = createServer((request, response) => {
      response.writeHead(request.url === "/.well-known/agent-card.json" ? 200 : 404, {
        "content-type": "application/json",
      });
      response.end(JSON.stringify(card));
    });
    await new Promise<void>((resolve) => cardServer.listen(0, "127.0.0.1", resolve));
    const agentUrl = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}`;
    try {
      const created = await runCli(
        ["run", "create", "run.json", "--a2a-agent", `illustrator=${agentUrl}`],
        { cwd, env: service() },
      );
      expect([created.stderr, created.code]).toEqual(["", 0]);
      expect(created.stdout).toMatch(
        /^run_[0-9a-z]{26}\nagent illustrator: tc_run_\S+ \(A2A agent "Illustrator", stages draft, review\)\n$/,
      );
      const unreadable = await runCli(
        ["run", "create", "run.json", "--a2a-agent", "ghost=http://127.0.0.1:9"],
        { cwd, env: service() },
      );
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toMatch(
        /^task-context: the service answered 422 AGENT_CARD_INVALID: The A2A agent card at http:\/\/127\.0\.0\.1:9\/\.well-known\/agent-card\.json could not be read/,
      );
      const malformed = await runCli(["run", "create", "run.json", "--a2a-agent", "ghost"], {
        cwd,
        env: service(),
      });
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toMatch(
        /^task-context: option '--a2a-agent <tag=url>' argument 'ghost' is invalid\. expected <tag>=<url>, the agent's tag and its http\(s\) URL/,
      );
    } finally {
      await new Promise((resolve) => cardServer.close(resolve));
    }
  });

  it("prints the run and the agents it added before the agent the service refused, and names `run add-agent` for the rest, which adds them", async () => {
    // Real A2A agents (the official SDK's server): one whose card covers the stages, one whose
    // card declares none of their skills.
    const writer = await startA2aAgent({ name: "Writer", skills: [{ id: "write" }] });
    const painter = await startA2aAgent({ name: "Painter", skills: [{ id: "paint" }] });
    try {
      const created = await createDraftRun(
        "--agent",
        "human",
        "--a2a-agent",
        `writer=${writer.url}`,
        "--a2a-agent",
        `painter=${painter.url}`,
      );
      const [runId = "", writerLine = ""] = created.stdout.split("\n");
      expect(runId).toMatch(/^run_[0-9a-z]{26}$/);
      expect(writerLine).toMatch(/^agent writer: tc_run_\S+ \(A2A agent "Writer", stages draft\)$/);
      expect(created).toEqual({
        stdout: `${runId}\n${writerLine}\n`,
        stderr: `task-context: the service answered 422 AGENT_SKILLS_MISMATCH: The skills the agent card of "Painter" declares do not cover the available_skills of any stage of the run. Register an agent whose card declares them, or name other stages (/stages/draft: Stage "draft" needs write, which the agent card of "Painter" does not declare (as a skill id or tag).)\nhint: declare the stages' available_skills in the agent card's skills (as ids or tags); run ${runId} was created (with writer, printed above) and stays (\`task-context run cancel ${runId}\` cancels it): add the rest with \`task-context run add-agent ${runId} --a2a-agent painter=${painter.url} --agent human\`\n`,
        code: 1,
      });
      // The command the hint names, with the painter swapped for an agent that polls.
      const added = await runCli(
        ["run", "add-agent", runId, "--agent", "painter", "--agent", "human"],
        { cwd, env: service() },
      );
      expect([added.stderr, added.code]).toEqual(["", 0]);
      expect(added.stdout).toMatch(/^agent painter: tc_run_\S+\nagent human: tc_run_\S+\n$/);
      const human = added.stdout.split("\n")[1]?.slice("agent human: ".length) ?? "";
      expect(await call(`/v1/runs/${runId}`, human)).toMatchObject({ run_id: runId });
      // A tag the run has: the service's refusal, nothing added, the command for the rest.
      const again = await runCli(["run", "add-agent", runId, "--agent", "human", "--json"], {
        cwd,
        env: service(),
      });
      expect(JSON.parse(again.stdout)).toEqual({ agents: [], not_added: ["human"] });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        new RegExp(
          `^task-context: the service answered 409 AGENT_TAG_TAKEN: .*\nhint: give the agent a tag no other agent of the run has; no agent was added: add the rest with \`task-context run add-agent ${runId} --agent human\`\n$`,
        ),
      );
    } finally {
      await Promise.all([writer.close(), painter.close()]);
    }
  });

  it("--json: the run, the agents added and the tags not added, on stdout, when an agent is refused", async () => {
    const painter = await startA2aAgent({ name: "Painter", skills: [{ id: "paint" }] });
    try {
      const created = await createDraftRun(
        "--agent",
        "human",
        "--a2a-agent",
        `painter=${painter.url}`,
        "--json",
      );
      expect(created.code).toBe(1);
      const printed = JSON.parse(created.stdout) as { run: { run_id: string; status: string } };
      expect(printed).toEqual({
        run: expect.objectContaining({ status: "active", goal: "Launch Lumen" }),
        agents: [],
        not_added: ["painter", "human"],
      });
      expect(created.stderr).toContain(
        `run ${printed.run.run_id} was created (with no agent) and stays (\`task-context run cancel ${printed.run.run_id}\` cancels it): add the rest with \`task-context run add-agent ${printed.run.run_id} --a2a-agent painter=${painter.url} --agent human\``,
      );
    } finally {
      await painter.close();
    }
  });

  it("gives an A2A agent its credentials from a file (--a2a-options tag=file), never printing them", async () => {
    const secret = "illustrator-secret-Qm7Tz2Lx9";
    const illustrator = await startAgentProcess(secret);
    writeFileSync(
      join(cwd, "illustrator.json"),
      JSON.stringify({ credentials: { bearer: { bearer_token: secret } } }),
    );
    writeFileSync(join(cwd, "not-an-object.json"), JSON.stringify(["bearer"]));
    writeFileSync(join(cwd, "with-url.json"), JSON.stringify({ url: illustrator.url }));
    try {
      const agent = `illustrator=${illustrator.url}`;
      const created = await createDraftRun(
        "--a2a-agent",
        agent,
        "--a2a-options",
        "illustrator=illustrator.json",
      );
      expect([created.stderr, created.code]).toEqual(["", 0]);
      expect(created.stdout).toMatch(
        /^run_[0-9a-z]{26}\nagent illustrator: tc_run_\S+ \(A2A agent "Illustrator", stages draft\)\n$/,
      );
      // The agent took the draft with its token: the run completes (the events end there).
      const runId = created.stdout.split("\n")[0] ?? "";
      const events = await runCli(["run", "events", runId, "--json"], { cwd, env: service() });
      expect(events.code).toBe(0);
      expect(events.stdout.trimEnd().split("\n").at(-1)).toMatch(/"type":"run\.completed"/);
      for (const output of [created.stdout, created.stderr, events.stdout, events.stderr]) {
        expect(output).not.toContain(secret);
      }

      const missing = await createDraftRun("--a2a-agent", agent);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(
        /^task-context: the service answered 422 AGENT_CREDENTIALS_MISSING: The A2A agent card of "Illustrator" asks for credentials the registration does not give\./,
      );
      expect(await createDraftRun("--a2a-options", "illustrator=illustrator.json")).toEqual({
        stdout: "",
        stderr:
          'task-context: --a2a-options names "illustrator", which no --a2a-agent adds\nhint: add the agent with --a2a-agent illustrator=<url>, or drop its --a2a-options\n',
        code: 2,
      });
      expect(
        await createDraftRun("--a2a-agent", agent, "--a2a-options", "illustrator=with-url.json"),
      ).toEqual({
        stdout: "",
        stderr: `task-context: with-url.json (--a2a-options illustrator) gives a url\nhint: give the agent's URL with --a2a-agent illustrator=<url> and leave it out of the file\n`,
        code: 2,
      });
      const notObject = await createDraftRun(
        "--a2a-agent",
        agent,
        "--a2a-options",
        "illustrator=not-an-object.json",
      );
      expect([notObject.stderr.split("\n")[0], notObject.code]).toEqual([
        "task-context: not-an-object.json (--a2a-options illustrator) is not a JSON object",
        2,
      ]);
      const malformed = await createDraftRun("--a2a-options", "illustrator");
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toMatch(
        /^task-context: option '--a2a-options <tag=file>' argument 'illustrator' is invalid\. expected <tag>=<file>/,
      );
    } finally {
      await illustrator.close();
    }
  });

  it("refuses a tag given twice, or no agent to add, before sending anything, exit 2", async () => {
    expect(
      await runCli(
        ["run", "create", "run.json", "--agent", "x", "--a2a-agent", "x=http://127.0.0.1:9"],
        {
          cwd,
          env: service(),
        },
      ),
    ).toEqual({
      stdout: "",
      stderr:
        'task-context: the tag "x" is given twice: each agent of a run has its own tag\nhint: give each --agent and --a2a-agent a different tag\n',
      code: 2,
    });
    expect(await runCli(["run", "add-agent", "run_x"], { cwd, env: service() })).toEqual({
      stdout: "",
      stderr:
        "task-context: run add-agent needs an agent to add\nhint: pass --agent <tag> or --a2a-agent <tag>=<url> (each repeatable)\n",
      code: 2,
    });
  });

  it("says when the service cannot be reached, exit 1", async () => {
    const result = await runCli(["run", "events", "run_x", "--url", "http://127.0.0.1:9"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^task-context: cannot reach the delivery service at http:\/\/127\.0\.0\.1:9.*\nhint: start it with `task-context serve`, or pass its address with --url or TASK_CONTEXT_URL\n$/,
    );
  });

  it("exits 2 for a run file it cannot read or parse, and for a bad --url", async () => {
    const missing = await runCli(["run", "create", "nope.json"], { cwd, env: service() });
    expect(missing).toEqual({
      stdout: "",
      stderr:
        "task-context: cannot read nope.json: no such file\nhint: check the path, or pass - to read from stdin\n",
      code: 2,
    });
    const notJson = await runCli(["run", "create", "-"], {
      cwd,
      env: service(),
      stdin: "goal: yaml",
    });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/^task-context: <stdin> is not valid JSON: /);
    const badUrl = await runCli(["run", "status", "run_x", "--url", "nowhere"], { cwd });
    expect(badUrl).toEqual({
      stdout: "",
      stderr:
        'task-context: --url "nowhere" is not a URL\nhint: pass the address `task-context serve` printed, e.g. http://127.0.0.1:8787\n',
      code: 2,
    });
  });
});

describe("task-context run view", () => {
  it("prints one line: a link to the run's page that opens without the admin token, exit 0", async () => {
    const created = await runCli(["run", "create", "run.json"], { cwd, env: service() });
    const runId = created.stdout.trim();
    const printed = await runCli(["run", "view", runId], { cwd, env: service() });
    expect({ stderr: printed.stderr, code: printed.code }).toEqual({ stderr: "", code: 0 });
    const pattern = `^${url}/runs/${runId}\\?view=v1\\.${runId}\\.[0-9]+\\.r\\.[A-Za-z0-9_-]{43}\n$`;
    expect(printed.stdout).toMatch(new RegExp(pattern));
    const page = await fetch(printed.stdout.trim(), { headers: { Accept: "text/html" } });
    expect([page.status, page.headers.get("content-type")]).toEqual([
      200,
      "text/html; charset=utf-8",
    ]);
    expect(await page.text()).toContain("<h1>Launch Lumen</h1>");

    const before = Math.floor(Date.now() / 1000);
    const json = await runCli(["run", "view", runId, "--ttl", "600", "--can-requeue", "--json"], {
      cwd,
      env: service(),
    });
    const after = Math.floor(Date.now() / 1000);
    const link = JSON.parse(json.stdout) as {
      url: string;
      expires_at: string;
      can_requeue: boolean;
    };
    expect(link.can_requeue).toBe(true);
    expect(link.url).toMatch(/\.rq\./);
    // Signed between the two readings of the clock, to live 600 s.
    const expires = Date.parse(link.expires_at) / 1000;
    expect([expires >= before + 600, expires <= after + 600]).toEqual([true, true]);
  });

  it("exits 2 for a --ttl that is not 1 to 86400 seconds, 1 for what the service refuses", async () => {
    for (const ttl of ["0", "86401", "1h", "-5"]) {
      expect(await runCli(["run", "view", "run_x", "--ttl", ttl], { cwd, env: service() })).toEqual(
        {
          stdout: "",
          stderr: `task-context: --ttl ${JSON.stringify(ttl)} is not a number of seconds from 1 to 86400\nhint: pass how long the link works, e.g. --ttl 3600 (one hour, the default)\n`,
          code: 2,
        },
      );
    }
    const unknown = await runCli(["run", "view", "run_nope"], { cwd, env: service() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^task-context: the service answered 404 RUN_NOT_FOUND: /);
    const anonymous = await runCli(["run", "view", "run_nope", "--url", url], { cwd });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/^task-context: the service answered 401 UNAUTHORIZED: /);
  });
});

describe("task-context run cancel", () => {
  it("cancels a run with a reason, prints when; again prints the same; its agent's claim is refused; run events ends", async () => {
    const created = await runCli(["run", "create", "run.json", "--agent", "writer"], {
      cwd,
      env: service(),
    });
    const [runId = "", writerLine = ""] = created.stdout.split("\n");
    const writer = writerLine.slice("agent writer: ".length);
    const canceled = await runCli(["run", "cancel", runId, "--reason", "the brief changed"], {
      cwd,
      env: service(),
    });
    expect({ stderr: canceled.stderr, code: canceled.code }).toEqual({ stderr: "", code: 0 });
    const at = /^run \S+: canceled at (\S+) \(the brief changed\)\n$/.exec(canceled.stdout)?.[1];
    expect(canceled.stdout).toBe(`run ${runId}: canceled at ${at} (the brief changed)\n`);
    const again = await runCli(["run", "cancel", runId, "--json"], { cwd, env: service() });
    expect(JSON.parse(again.stdout)).toMatchObject({
      run_id: runId,
      status: "canceled",
      canceled_at: at,
      cancel_reason: "the brief changed",
    });
    const claim = await fetch(`${url}/v1/inbox/claim-next`, {
      method: "POST",
      headers: { Authorization: `Bearer ${writer}` },
    });
    expect([claim.status, await claim.json()]).toEqual([
      409,
      {
        code: "RUN_CANCELED",
        error: `Run ${runId} was canceled at ${at} (reason: the brief changed): its work items are withdrawn and nothing of it is accepted any more. Stop working on it.`,
      },
    ]);
    const events = await runCli(["run", "events", runId], { cwd, env: service() });
    expect(events.code).toBe(0);
    expect(events.stdout.trimEnd().split("\n").at(-1)).toBe(
      "3 run.canceled reason=the brief changed",
    );
    const status = await runCli(["run", "status", runId], { cwd, env: service() });
    expect(status.stdout.split("\n")[0]).toBe(`run ${runId}: canceled`);
  });

  it("exits 2 for a --reason that is not one line of 1 to 1000 characters, 1 for a run the service does not have", async () => {
    for (const reason of ["", "x".repeat(1001), "two\nlines"]) {
      expect(
        await runCli(["run", "cancel", "run_x", "--reason", reason], { cwd, env: service() }),
      ).toEqual({
        stdout: "",
        stderr: `task-context: --reason must be one line of 1 to 1000 characters (this one has ${reason.length})\nhint: say briefly why, e.g. --reason "the brief changed"\n`,
        code: 2,
      });
    }
    const unknown = await runCli(["run", "cancel", "run_nope"], { cwd, env: service() });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^task-context: the service answered 404 RUN_NOT_FOUND: /);
  });
});

describe("task-context run events across a restart of the service", () => {
  /** Starts `serve` on `port` and the database file; resolves with its process and address. */
  async function serve(port: string) {
    return startServe(["--port", port, "--db", "restart.db"], {
      cwd,
      env: { TASK_CONTEXT_ADMIN_TOKEN: "restart-admin-token" },
    });
  }

  it("resumes after the last event it printed: nothing missed or repeated, ends at run.completed", {
    timeout: 30_000,
  }, async () => {
    let first = await serve("0");
    const address = first.url;
    const env = { TASK_CONTEXT_URL: address, TASK_CONTEXT_TOKEN: "restart-admin-token" };
    const created = await runCli(["run", "create", "run.json", "--agent", "worker"], { cwd, env });
    const [runId = "", workerLine = ""] = created.stdout.split("\n");
    const worker = workerLine.slice("agent worker: ".length);
    const agentCall = async (path: string, body: unknown) => {
      const response = await fetch(new URL(path, address), {
        method: "POST",
        headers: { Authorization: `Bearer ${worker}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { work_item: { id: string }; lease: { attempt: number } };
    };

    const follower = spawn(process.execPath, [CLI, "run", "events", runId], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    let printed = "";
    follower.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      printed += chunk;
    });
    const ended = new Promise<number | null>((resolve) => follower.once("exit", resolve));
    const claimed = await agentCall("/v1/inbox/claim-next", {});
    await agentCall(`/v1/work-items/${claimed.work_item.id}/complete`, {
      attempt: claimed.lease.attempt,
      artifact: { media_type: "text/markdown", content: "# Lumen" },
    });
    await expect.poll(() => printed.split("\n").length, { timeout: 10_000 }).toBe(8);

    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("exit", resolve));
    first = await serve(new URL(address).port);
    // The review of the worker's artifact is never offered to the worker: another agent does it.
    const added = await fetch(new URL(`/v1/runs/${runId}/agents`, address), {
      method: "POST",
      headers: { Authorization: "Bearer restart-admin-token", "Content-Type": "application/json" },
      body: JSON.stringify({ tag: "reviewer" }),
    });
    const reviewerToken = ((await added.json()) as { token: string }).token;
    const review = await fetch(new URL("/v1/inbox/claim-next", address), {
      method: "POST",
      headers: { Authorization: `Bearer ${reviewerToken}` },
    });
    const reviewItem = (await review.json()) as {
      work_item: { id: string };
      lease: { attempt: number };
    };
    await fetch(new URL(`/v1/work-items/${reviewItem.work_item.id}/complete`, address), {
      method: "POST",
      headers: { Authorization: `Bearer ${reviewerToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        attempt: reviewItem.lease.attempt,
        review: {
          verdict: "approve",
          summary: "Clear.",
          criteria: [{ criterion: "clarity", comment: "Clear." }],
        },
      }),
    });

    expect(await ended).toBe(0);
    first.child.kill("SIGTERM");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const seqs = printed
      .trim()
      .split("\n")
      .map((line) => Number(line.split(" ")[0]));
    expect(seqs).toEqual([...Array(13).keys()].slice(1));
    expect(printed.trim().split("\n").at(-1)).toBe("12 run.completed");
  });
});

describe("--help", () => {
  it.each([
    ["serve"],
    ["run"],
    ["run", "create"],
    ["run", "add-agent"],
    ["run", "status"],
    ["run", "events"],
    ["run", "view"],
    ["run", "cancel"],
  ])("task-context %s %s --help", async (...command) => {
    const { stdout, stderr, code } = await runCli([...command, "--help"], { cwd });
    expect({ stderr, code }).toEqual({ stderr: "", code: 0 });
    expect(stdout).toMatchSnapshot();
  });
});
