// Node-only: the runs the browser tests look at, set up through the HTTP API as agents would.
import type { WorkItem } from "@task-context/protocols";
import { expect } from "vitest";
import {
  artifactCompletion,
  createRun,
  type RunFixture,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
} from "../contract/client.ts";
import type { PageService } from "./page-service.ts";

/** An agent of a run, as {@link RunFixture.agent} returns it. */
export type Agent = Awaited<ReturnType<RunFixture["agent"]>>;

/** The review criteria of the article runs. */
export const CRITERIA = ["accuracy", "tone"];

/** Claims the oldest offer; fails the test when there is none. */
export async function claim(agent: Agent): Promise<{ item: WorkItem; attempt: number }> {
  const claimed = await agent.claimNext();
  expect(claimed.status, claimed.text).toBe(200);
  return { item: claimed.body.work_item, attempt: claimed.body.lease.attempt };
}

/** Claims the next offer and completes it with an artifact; returns the artifact's id. */
export async function writeNext(
  agent: Agent,
  content: string,
  mediaType = "text/markdown",
): Promise<{ item: WorkItem; artifactId: string }> {
  const { item, attempt } = await claim(agent);
  const body = artifactCompletion(attempt, content);
  const completed = await agent.complete(item.id, {
    ...body,
    artifact: { ...body.artifact, media_type: mediaType },
  });
  expect(completed.status, completed.text).toBe(200);
  return { item, artifactId: completed.body.artifact_id as string };
}

/** Claims the next review and completes it with a score per criterion. */
export async function reviewNext(agent: Agent): Promise<WorkItem> {
  const { item, attempt } = await claim(agent);
  const completed = await agent.complete(item.id, reviewCompletion(attempt, CRITERIA));
  expect(completed.status, completed.text).toBe(200);
  return item;
}

/** A run of a task stage of `items` items and a review stage of it, not yet worked. */
export async function articleRun(service: PageService, items = 1) {
  const fixture = await createRun(
    service,
    runInput([taskStage("draft", { items }), reviewStage("review", "draft", CRITERIA)]),
  );
  return {
    ...fixture,
    writer: await fixture.agent("writer"),
    reviewer: await fixture.agent("reviewer"),
  };
}

/** A run whose only item was dead-lettered (one attempt, failed). */
export async function deadLetterRun(service: PageService) {
  const fixture = await createRun(service, runInput([taskStage("draft")], { max_attempts: 1 }));
  const writer = await fixture.agent("writer");
  const { item, attempt } = await claim(writer);
  const failed = await writer.fail(item.id, { attempt, reason: "The sources did not load." });
  expect(failed.status, failed.text).toBe(200);
  expect(failed.body.status).toBe("dead_lettered");
  return { ...fixture, item };
}
