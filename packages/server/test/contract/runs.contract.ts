import type { RunList, RunSummary } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { artifactCompletion, Client, createRun, runInput, taskStage } from "./client.ts";
import type { Service, StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const DAY_MS = 86_400_000;

/** The newest first order of GET /v1/runs: created_at, then run_id, both descending. */
const newestFirst = (a: RunSummary, b: RunSummary) =>
  b.created_at.localeCompare(a.created_at) || (b.run_id < a.run_id ? -1 : 1);

/**
 * GET /v1/runs: every run of the service, newest first, a page at a time, filtered by status;
 * the admin token's only. A store may hold other suites' runs (one runs directory per workerd
 * test file): each test moves the clock a day on first, so that its runs are the newest.
 */
export function runsSuite(start: StartService): void {
  describe("listing runs (GET /v1/runs)", () => {
    const service = suiteService(start);
    const admin = () => new Client(service, service.adminToken);
    const list = (query: Record<string, string | number> = {}) =>
      admin().get<RunList>("/v1/runs", { query });

    /** A new run with one stage, as GET /v1/runs lists it. */
    async function listed(on: Service, goal = "Launch Lumen"): Promise<RunSummary> {
      const { run } = await createRun(on, { ...runInput([taskStage("draft")]), goal });
      return {
        run_id: run.run_id,
        status: "active",
        created_at: run.created_at,
        goal,
        current_stage: "draft",
      };
    }

    it("lists runs newest first, then by run_id, a page after another with no run twice", async () => {
      await service.advance(DAY_MS);
      const oldest = await listed(service, "The oldest");
      await service.advance(1000);
      // Created in the same millisecond: run_id orders them.
      const together = [await listed(service), await listed(service), await listed(service)];
      const expected = [...together.sort(newestFirst), oldest];
      const first = await list({ limit: 2 });
      expect([first.status, first.body.runs]).toEqual([200, expected.slice(0, 2)]);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await list({ limit: 2, cursor: first.body.next_cursor as string });
      expect([second.status, second.body.runs]).toEqual([200, expected.slice(2, 4)]);
      expect((await list()).body.runs.slice(0, 4)).toEqual(expected);
    });

    it("a page follows the one before it exactly while runs are created", async () => {
      await service.advance(DAY_MS);
      const first = await listed(service);
      await service.advance(1000);
      const second = await listed(service);
      const top = await list({ limit: 1 });
      expect(top.body.runs).toEqual([second]);
      await service.advance(1000);
      const newer = await listed(service);
      const next = await list({ limit: 1, cursor: top.body.next_cursor as string });
      expect(next.body.runs).toEqual([first]);
      expect((await list({ limit: 1 })).body.runs).toEqual([newer]);
    });

    it("pages through every run to a last page whose next_cursor is null, none twice", async () => {
      const ids: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 100; pages += 1) {
        const page: Awaited<ReturnType<typeof list>> = await list(
          cursor === null ? { limit: 200 } : { limit: 200, cursor },
        );
        expect(page.status).toBe(200);
        ids.push(...page.body.runs.map((run) => run.run_id));
        cursor = page.body.next_cursor;
        if (cursor === null) break;
      }
      expect(cursor).toBeNull();
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("filters by status, comma-separated; a completed run is at no stage", async () => {
      await service.advance(DAY_MS);
      const done = await createRun(service, {
        ...runInput([taskStage("draft")]),
        goal: "Done",
      });
      const writer = await done.agent("writer");
      const claimed = await writer.claimNext();
      await writer.complete(claimed.body.work_item.id, artifactCompletion(1));
      await service.advance(1000);
      const active = await listed(service, "Still going");
      const completed: RunSummary = {
        run_id: done.run.run_id,
        status: "completed",
        created_at: done.run.created_at,
        goal: "Done",
        current_stage: null,
      };
      expect((await list({ status: "completed", limit: 1 })).body.runs).toEqual([completed]);
      expect((await list({ status: "active,blocked", limit: 1 })).body.runs).toEqual([active]);
      expect((await list({ limit: 2 })).body.runs).toEqual([active, completed]);
      const blocked = await list({ status: "blocked" });
      expect(blocked.body.runs.every((run) => run.status === "blocked")).toBe(true);
    });

    it("shows a goal's first line, at most 200 characters, … where it is cut", async () => {
      await service.advance(DAY_MS);
      const goals = ["Short goal", "First line\nSecond line", "x".repeat(300), "é".repeat(200)];
      for (const goal of goals) await createRun(service, { ...runInput([taskStage("d")]), goal });
      const shown = (await list({ limit: 4 })).body.runs.map((run) => run.goal).sort();
      expect(shown).toEqual(
        ["Short goal", "First line…", `${"x".repeat(199)}…`, "é".repeat(200)].sort(),
      );
    });

    it("refuses a limit outside 1 to 200, an unknown status and a cursor it did not give (400)", async () => {
      const refusals = [
        [{ limit: 201 }, "/limit", 'limit must be at most 200, not the string "201".'],
        [{ limit: 0 }, "/limit", 'limit must be at least 1, not the string "0".'],
        [
          { status: "active,paused" },
          "/status",
          'status must list run statuses separated by commas (active, blocked, completed, canceled), not the string "active,paused".',
        ],
      ] as const;
      for (const [query, path, message] of refusals) {
        const refused = await list(query);
        expect([refused.status, refused.error?.code]).toEqual([400, "INVALID_REQUEST"]);
        expect(refused.error?.issues).toEqual([{ path, message }]);
      }
      const { run } = await createRun(service, runInput([taskStage("draft")]));
      const created = Date.parse(run.created_at);
      const cursorOf = (text: string) => btoa(text).replaceAll("=", "");
      for (const cursor of [
        "not a cursor!",
        "djEu",
        cursorOf(`v1.${created}.run_00000000000000000000000000`),
        cursorOf(`v1.${created + 1}.${run.run_id}`),
      ]) {
        const refused = await list({ cursor });
        expect([refused.status, refused.error]).toEqual([
          400,
          {
            error:
              "cursor is not one this service gave: pass next_cursor of the previous page as it was, or leave cursor out to start from the newest run.",
            code: "INVALID_REQUEST",
            issues: [{ path: "/cursor", message: "Not a cursor of GET /v1/runs." }],
          },
        ]);
      }
    });

    it("answers the service's admin token only: 401 without a token, 403 for an agent's", async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const anonymous = await new Client(service, undefined).get("/v1/runs");
      expect([anonymous.status, anonymous.error?.code]).toEqual([401, "UNAUTHORIZED"]);
      const forbidden = await worker.get("/v1/runs");
      expect([forbidden.status, forbidden.error?.code]).toEqual([403, "FORBIDDEN"]);
    });
  });
}
