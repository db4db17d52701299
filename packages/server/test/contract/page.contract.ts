import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  Client,
  createRun,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
} from "./client.ts";
import type { StartService } from "./harness.ts";
import { attribute, byTag, elements, having, only, parsePage, textOf } from "./html.ts";
import { openEventStream } from "./sse.ts";
import { suiteService } from "./suite-service.ts";

/** What a view-link request answers. */
interface ViewLink {
  url: string;
  expires_at: string;
  can_requeue: boolean;
}

const html = { Accept: "text/html" };

/** The hostile content an agent could write: each must come out as text, inert. */
const hostile = [
  "<script>window.pwned = 1</script>",
  '<img src="x" onerror="window.pwned = 2">',
  '<a href="javascript:window.pwned = 3">click</a>',
  "</pre><script>window.pwned = 4</script><pre>",
  '</textarea></style></title><svg onload="window.pwned = 5">',
  '"><iframe srcdoc="<script>parent.pwned = 6</script>">',
].join("\n");

/** The run page, its view links and its Requeue form. */
export function pageSuite(start: StartService): void {
  describe("the run page", () => {
    const service = suiteService(start);

    const viewLink = async (admin: Client, runId: string, body: object = {}) => {
      const answer = await admin.post<ViewLink>(`/v1/runs/${runId}/view-links`, { body });
      expect(answer.status, answer.text).toBe(201);
      return answer.body;
    };
    const tokenOf = (link: ViewLink) => new URL(link.url).searchParams.get("view") ?? "";
    const page = (client: Client, runId: string, view?: string, headers = html) =>
      client.get(`/runs/${runId}`, { headers, ...(view === undefined ? {} : { query: { view } }) });
    const anonymous = () => new Client(service, undefined);

    it("a view link is an absolute URL to the page that expires after ttl_seconds (default 3600)", async () => {
      const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
      const link = await viewLink(admin, run.run_id);
      const url = new URL(link.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${service.baseUrl}/runs/${run.run_id}`);
      expect(tokenOf(link)).toMatch(
        new RegExp(`^v1\\.${run.run_id}\\.[0-9]+\\.r\\.[A-Za-z0-9_-]{43}$`),
      );
      expect(link.can_requeue).toBe(false);
      expect(Date.parse(link.expires_at) - Date.parse("2026-11-20T10:00:00Z")).toBe(3_600_000);
      const short = await viewLink(admin, run.run_id, { ttl_seconds: 60, can_requeue: true });
      expect(short).toMatchObject({ expires_at: "2026-11-20T10:01:00.000Z", can_requeue: true });
      for (const body of [{ ttl_seconds: 0 }, { ttl_seconds: 86_401 }, { can_requeue: "yes" }]) {
        const refused = await admin.post(`/v1/runs/${run.run_id}/view-links`, { body });
        expect([refused.status, refused.error?.code]).toEqual([400, "INVALID_REQUEST"]);
      }
      const unknown = await admin.post("/v1/runs/run_00000000000000000000000000/view-links", {
        body: {},
      });
      expect(unknown.status).toBe(404);
    });

    it("shows the goal, constraints, stages with counts, items with their receipts, artifacts with reviews, events", async () => {
      const { run, admin, agent, events } = await createRun(
        service,
        runInput([taskStage("draft"), reviewStage("review", "draft", ["logic", "tone"])]),
      );
      const writer = await agent("writer");
      const reviewer = await agent("reviewer");
      const drafted = await writer.claimNext();
      const draftId = drafted.body.work_item.id;
      await writer.complete(draftId, artifactCompletion(1, "# Edge\n\nIt runs near users."));
      const claimed = await reviewer.claimNext();
      const link = tokenOf(await viewLink(admin, run.run_id));

      const answer = await page(anonymous(), run.run_id, link);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const root = parsePage(answer.text);
      expect(textOf(only(root, (e) => e.tagName === "h1", "h1"))).toBe(run.goal);
      const constraints = only(root, having("h2", "id", "constraints-heading"), "heading");
      expect(textOf(constraints)).toBe("Constraints");
      const list = byTag(constraints.parentNode as never, "ul")[0];
      expect(byTag(list as never, "li").map(textOf)).toEqual(run.constraints);
      expect(textOf(only(root, having("strong", "data-run-status"), "status"))).toBe("active");

      const stages = only(root, having("ol", "aria-label", "Stages"), "stage list");
      const draft = only(stages, having("li", "data-stage-id", "draft"), "draft stage");
      const counts = (stage: typeof draft) =>
        elements(stage)
          .filter(having("li", "data-count"))
          .map((item) => textOf(item).trim());
      expect(counts(draft)).toEqual(["0 offered", "0 leased", "1 completed", "0 dead-lettered"]);
      const review = only(stages, having("li", "data-stage-id", "review"), "review stage");
      expect(counts(review)).toEqual(["0 offered", "1 leased", "0 completed", "0 dead-lettered"]);

      const table = only(
        root,
        (e) => e.tagName === "table" && byTag(e, "caption").some((c) => textOf(c) === "Work items"),
        "items table",
      );
      const headers = byTag(byTag(table, "thead")[0] as never, "th").map(textOf);
      expect(headers).toEqual([
        "Item",
        "Stage",
        "Kind",
        "State",
        "Attempt",
        "Holder",
        "Lease",
        "Context",
      ]);
      const cells = (id: string) =>
        elements(only(table, having("tr", "data-work-item-id", id), id))
          .filter((e) => e.tagName === "td" || e.tagName === "th")
          .map((cell) => textOf(cell).trim());
      const draftHash = drafted.body.work_item.context_sha256 ?? "";
      expect(cells(draftId)).toEqual([
        draftId,
        "draft",
        "task",
        "completed",
        "1",
        "writer",
        "",
        draftHash.slice(0, 12),
      ]);
      const reviewItem = claimed.body.work_item;
      const reviewRow = only(table, having("tr", "data-work-item-id", reviewItem.id), "review row");
      expect(attribute(reviewRow, "data-state")).toBe("leased");
      const lease = only(reviewRow, (e) => e.tagName === "time", "lease");
      expect(attribute(lease, "datetime")).toBe(claimed.body.lease.expires_at);
      expect(textOf(lease)).toBe("in 1 min 0 s");
      const hash = only(
        reviewRow,
        (e) => e.tagName === "code" && attribute(e, "title") !== undefined,
        "hash",
      );
      expect(attribute(hash, "title")).toBe(reviewItem.context_sha256);
      expect(textOf(hash)).toBe(reviewItem.context_sha256?.slice(0, 12));

      await reviewer.complete(reviewItem.id, reviewCompletion(1, ["logic", "tone"]));
      const after = parsePage((await page(anonymous(), run.run_id, link)).text);
      const article = only(after, having("article", "data-artifact-id"), "artifact");
      expect(textOf(byTag(article, "h3")[0] as never)).toBe("Draft article");
      expect(textOf(only(article, (e) => e.tagName === "pre", "content"))).toBe(
        "# Edge\n\nIt runs near users.",
      );
      const feedback = only(
        article,
        having("section", "aria-label", "Review by reviewer"),
        "review",
      );
      expect(textOf(feedback)).toContain("request changes");
      const scores = byTag(byTag(feedback, "tbody")[0] as never, "tr").map((row) =>
        elements(row)
          .filter((e) => e.tagName === "td" || e.tagName === "th")
          .map(textOf),
      );
      expect(scores).toEqual([
        ["logic", "5 / 10", "About logic."],
        ["tone", "6 / 10", "About tone."],
      ]);
      expect(textOf(only(after, having("strong", "data-run-status"), "status"))).toBe("completed");

      const all = await events();
      const listed = only(after, having("ol", "id", "events"), "events");
      expect(attribute(listed, "aria-live")).toBe("polite");
      const items = byTag(listed, "li");
      expect(items.map((item) => Number(attribute(item, "data-seq")))).toEqual(
        all.map((e) => e.seq),
      );
      expect(items.map((item) => attribute(item, "data-type"))).toEqual(all.map((e) => e.type));
      const body = only(after, (e) => e.tagName === "body", "body");
      expect(attribute(body, "data-after")).toBe(String(all.at(-1)?.seq));
      expect(attribute(body, "data-completed")).toBe("true");
    });

    it("sends a strict CSP whose nonce is the one of its only script and style", async () => {
      const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
      const answer = await page(admin, run.run_id);
      expect(answer.status).toBe(200);
      const policy = answer.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1];
      expect(policy).toBe(
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      );
      const root = parsePage(answer.text);
      expect(byTag(root, "script").map((script) => attribute(script, "nonce"))).toEqual([nonce]);
      expect(byTag(root, "style").map((style) => attribute(style, "nonce"))).toEqual([nonce]);
      const again = await page(admin, run.run_id);
      expect(again.headers.get("content-security-policy")).not.toContain(`'nonce-${nonce}'`);
      // The JSON API keeps its own policy.
      const json = await admin.getRun(run.run_id);
      expect(json.headers.get("content-security-policy")).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      );
    });

    it("renders a hostile artifact, review, goal and failure reason as inert text", async () => {
      const { run, admin, agent } = await createRun(
        service,
        runInput([taskStage("draft"), reviewStage("review", "draft", ["logic"])], {
          goal: `Ship it ${hostile}`,
          constraints: [hostile],
          max_attempts: 2,
        }),
      );
      const writer = await agent("writer");
      const reviewer = await agent("reviewer");
      const first = await writer.claimNext();
      await writer.fail(first.body.work_item.id, { attempt: 1, reason: hostile });
      const second = await writer.claimNext();
      const done = await writer.complete(second.body.work_item.id, {
        attempt: 2,
        artifact: { media_type: "text/html", content: hostile, title: hostile },
      });
      expect(done.status).toBe(200);
      const claimed = await reviewer.claimNext();
      await reviewer.complete(claimed.body.work_item.id, {
        attempt: 1,
        review: {
          verdict: "comment",
          summary: hostile,
          criteria: [{ criterion: "logic", score: 1, comment: hostile }],
        },
      });
      const answer = await page(admin, run.run_id);
      expect(answer.status).toBe(200);
      const root = parsePage(answer.text);
      const all = elements(root);
      // One script (the page's own, nonce'd), no element an artifact could have added.
      expect(byTag(root, "script")).toHaveLength(1);
      for (const tag of ["img", "iframe", "svg", "textarea", "a"]) {
        expect(
          all.filter((e) => e.tagName === tag && attribute(e, "class") !== "skip"),
          tag,
        ).toEqual([]);
      }
      expect(all.flatMap((e) => e.attrs.filter((attr) => /^on/i.test(attr.name)))).toEqual([]);
      expect(all.flatMap((e) => e.attrs.filter((attr) => /javascript:/i.test(attr.value)))).toEqual(
        [],
      );
      // Each hostile text is there, whole, as text.
      const article = only(root, having("article", "data-artifact-id"), "artifact");
      expect(textOf(only(article, (e) => e.tagName === "pre", "content"))).toBe(hostile);
      expect(textOf(byTag(article, "h3")[0] as never)).toBe(hostile);
      expect(textOf(only(root, (e) => e.tagName === "h1", "h1"))).toBe(`Ship it ${hostile}`);
      const feedback = only(
        article,
        having("section", "aria-label", "Review by reviewer"),
        "review",
      );
      expect(textOf(feedback)).toContain(hostile);
      expect(textOf(only(root, having("ol", "id", "events"), "events"))).toContain(
        `reason ${hostile}`,
      );
    });

    it("refuses no token, a forged or expired token, an agent token (401) and a token of another run (404)", async () => {
      const mine = await createRun(service, runInput([taskStage("draft")]));
      const theirs = await createRun(service, runInput([taskStage("draft")]));
      const runId = mine.run.run_id;
      const link = tokenOf(await viewLink(mine.admin, runId, { ttl_seconds: 60 }));
      const other = tokenOf(await viewLink(theirs.admin, theirs.run.run_id));
      const worker = await mine.agent("worker");
      const forged = `${link.slice(0, -4)}AAAA`;
      const lengthened = link.replace(
        /\.([0-9]+)\./,
        (_, expiry: string) => `.${Number(expiry) + 3600}.`,
      );
      const upgraded = link.replace(".r.", ".rq.");
      for (const [client, view] of [
        [anonymous(), undefined],
        [anonymous(), forged],
        [anonymous(), lengthened],
        [anonymous(), upgraded],
        [anonymous(), "v1.nonsense"],
        [worker, undefined],
        [new Client(service, "wrong"), undefined],
      ] as const) {
        const answer = await page(client, runId, view);
        expect([answer.status, answer.headers.get("content-type")]).toEqual([
          401,
          "text/html; charset=utf-8",
        ]);
        expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(textOf(only(parsePage(answer.text), (e) => e.tagName === "h1", "h1"))).toBe(
          "This page needs a valid link",
        );
      }
      const stranger = await page(anonymous(), runId, other);
      expect(stranger.status).toBe(404);
      expect(stranger.text).toContain(`No run ${runId}.`);
      const unknown = await page(mine.admin, "run_00000000000000000000000000");
      expect(unknown.status).toBe(404);
      // An API client that asks for JSON gets the JSON error of every endpoint.
      const json = await page(anonymous(), runId, other, { Accept: "application/json" });
      expect([json.status, json.error?.code]).toEqual([404, "RUN_NOT_FOUND"]);

      expect((await page(anonymous(), runId, link)).status).toBe(200);
      await service.advance(60_000);
      const expired = await page(anonymous(), runId, link);
      expect(expired.status).toBe(401);
      expect(expired.text).toContain("This view link has expired.");
    });

    it("a view token reads its run's event stream and JSON events, nothing else", async () => {
      const mine = await createRun(service, runInput([taskStage("draft")]));
      const theirs = await createRun(service, runInput([taskStage("draft")]));
      const runId = mine.run.run_id;
      const view = tokenOf(await viewLink(mine.admin, runId));
      const reader = await openEventStream(anonymous(), runId, { view });
      expect(reader.status).toBe(200);
      expect(await reader.nextEvent()).toMatchObject({ id: "1", event: "run.created" });
      await reader.close();
      const pageOfEvents = await anonymous().get(`/v1/runs/${runId}/events`, { query: { view } });
      expect(pageOfEvents.status).toBe(200);
      const elsewhere = await anonymous().get(`/v1/runs/${theirs.run.run_id}/events`, {
        query: { view },
      });
      expect([elsewhere.status, elsewhere.error?.code]).toEqual([404, "RUN_NOT_FOUND"]);
      // Read-only: the run itself and every other endpoint want a bearer token.
      const run = await anonymous().get(`/v1/runs/${runId}`, { query: { view } });
      expect(run.status).toBe(401);
      const forged = await anonymous().get(`/v1/runs/${runId}/events`, {
        query: { view: `${view}x` },
      });
      expect(forged.status).toBe(401);
    });

    it("dead letters are marked with their history; with requeue rights a form requeues and redirects back", async () => {
      const { run, admin, agent } = await createRun(
        service,
        runInput([taskStage("draft")], { max_attempts: 1 }),
      );
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const id = claimed.body.work_item.id;
      await worker.fail(id, { attempt: 1, reason: "the model timed out" });
      const readOnly = tokenOf(await viewLink(admin, run.run_id));
      const requeuer = tokenOf(await viewLink(admin, run.run_id, { can_requeue: true }));

      const plain = parsePage((await page(anonymous(), run.run_id, readOnly)).text);
      const row = only(plain, having("tr", "data-work-item-id", id), "row");
      expect(attribute(row, "data-state")).toBe("dead_lettered");
      expect(textOf(row)).toContain("⚠ dead-lettered");
      expect(textOf(row)).toContain("Attempt 1 by worker: failed — the model timed out");
      expect(byTag(row, "form")).toEqual([]);
      expect(textOf(only(plain, having("strong", "data-run-status"), "status"))).toBe("blocked");

      const rights = parsePage((await page(anonymous(), run.run_id, requeuer)).text);
      const form = only(rights, (e) => e.tagName === "form", "form");
      const action = `/runs/${run.run_id}/work-items/${id}/requeue`;
      expect([attribute(form, "method"), attribute(form, "action")]).toEqual(["post", action]);
      const hidden = only(form, (e) => e.tagName === "input", "input");
      expect([
        attribute(hidden, "type"),
        attribute(hidden, "name"),
        attribute(hidden, "value"),
      ]).toEqual(["hidden", "view", requeuer]);
      expect(textOf(only(form, (e) => e.tagName === "button", "button"))).toBe("Requeue");

      const post = (view: string) =>
        anonymous().post(action, {
          raw: new URLSearchParams({ view }).toString(),
          headers: { ...html, "Content-Type": "application/x-www-form-urlencoded" },
        });
      const refused = await post(readOnly);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain("--can-requeue");
      const requeued = await post(requeuer);
      expect(requeued.status).toBe(303);
      expect(requeued.headers.get("location")).toBe(
        `/runs/${run.run_id}?view=${encodeURIComponent(requeuer)}#item-${id}`,
      );
      expect((await admin.getRun(run.run_id)).body.status).toBe("active");
      const twice = await post(requeuer);
      expect(twice.status).toBe(409);
      const back = only(
        parsePage(twice.text),
        having("a", "href", requeued.headers.get("location")?.split("#")[0]),
        "link back",
      );
      expect(textOf(back)).toBe("Back to the run");
      const missing = await anonymous().post(
        `/runs/${run.run_id}/work-items/wi_00000000000000000000000000/requeue`,
        {
          raw: new URLSearchParams({ view: requeuer }).toString(),
          headers: { ...html, "Content-Type": "application/x-www-form-urlencoded" },
        },
      );
      expect(missing.status).toBe(404);
    });

    it("the admin's page carries a fresh view token with requeue rights for its script and forms", async () => {
      const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
      const root = parsePage((await page(admin, run.run_id)).text);
      const body = only(root, (e) => e.tagName === "body", "body");
      const view = attribute(body, "data-view") ?? "";
      expect(view).toMatch(new RegExp(`^v1\\.${run.run_id}\\.[0-9]+\\.rq\\.`));
      expect(attribute(body, "data-run-id")).toBe(run.run_id);
      expect(attribute(body, "data-after")).toBe("2");
      expect((await page(anonymous(), run.run_id, view)).status).toBe(200);
    });
  });
}
