// A remote agent: polls the delivery service's inbox, claims the items its skills cover, works
// them with a model through the AI SDK — the work item's task context injected into the prompt —
// and completes them over HTTP.
import { injectTaskContext } from "@task-context/core";
import type { WorkItem } from "@task-context/protocols/work-item";
import { generateText, type LanguageModel } from "ai";
import { parseReview, reviewRequest } from "../subagents/review-request.ts";
import type { ServiceCall } from "./service-client.ts";

/** What a remote agent received and did for one work item. */
export interface RemoteWork {
  agent: string;
  item: WorkItem;
  /** The prompt it sent its model, task context included. */
  prompt: string;
  /** The artifact id it created, or the one it reviewed. */
  artifactId: string;
  verdict?: string;
  /** The receipt it quoted on completion: the `context_sha256` of the context it worked from. */
  quotedContextSha256: string | undefined;
  /** The service's warning on the completion: a stale receipt. */
  warning?: string;
}

interface Claim {
  work_item: WorkItem;
  lease: { attempt: number; expires_at: string };
}

/** The prompt for a task item: the stage's task, the run's goal and constraints, earlier artifacts. */
function taskPrompt(item: WorkItem, earlier: { id: string; content: string }[]): string {
  return [
    `${item.stage_context.stage_description}.`,
    `Goal: ${item.goal}`,
    `Expected output: ${item.stage_context.expected_output}`,
    "Constraints:",
    ...item.constraints.map((constraint) => `- ${constraint}`),
    ...earlier.map(
      (artifact) => `\n<artifact id="${artifact.id}">\n${artifact.content}\n</artifact>`,
    ),
  ].join("\n");
}

/**
 * Works items until `signal` aborts: polls (long poll), claims the first offer whose
 * `available_skills` it has, and completes it. Returns what it worked, in order.
 */
export async function runRemoteAgent(options: {
  tag: string;
  skills: readonly string[];
  call: ServiceCall;
  model: LanguageModel;
  signal: AbortSignal;
  onWork: (work: RemoteWork) => void;
  /**
   * Works every item with the context of its first one, and quotes that one's receipt: an agent
   * that cached its run context. The service then warns of a stale receipt (`context.stale`).
   */
  reusesFirstContext?: boolean;
}): Promise<RemoteWork[]> {
  const { call, signal } = options;
  const worked: RemoteWork[] = [];
  let first: { background: string | undefined; contextSha256: string | undefined } | undefined;
  while (!signal.aborted) {
    let offers: WorkItem[];
    try {
      ({ offers } = await call<{ offers: WorkItem[] }>(
        "GET",
        "/v1/inbox/poll?wait=2",
        undefined,
        signal,
      ));
    } catch (error) {
      if (signal.aborted) break;
      throw error;
    }
    const offer = offers.find((item) =>
      item.available_skills.every((skill) => options.skills.includes(skill)),
    );
    if (offer === undefined) {
      // Offers for other skills only: wait for the next stage.
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const { work_item: item, lease } = await call<Claim>(
      "POST",
      `/v1/work-items/${offer.id}/claim`,
    );
    const own = { background: item.stage_context.background, contextSha256: item.context_sha256 };
    first ??= own;
    const { background: context, contextSha256: receipt } = options.reusesFirstContext
      ? (first ?? own)
      : own;
    let work: RemoteWork;
    if (item.kind === "review") {
      const target = item.review_context.target_artifact_id;
      const artifact = await call<{ content: string }>(
        "GET",
        `/v1/runs/${item.run_id}/artifacts/${target}`,
      );
      const prompt = injectTaskContext(
        reviewRequest({
          instruction: `${item.stage_context.stage_description}. Goal: ${item.goal}\nConstraints:\n${item.constraints.map((constraint) => `- ${constraint}`).join("\n")}`,
          criteria: item.review_context.review_criteria,
          artifact: artifact.content,
          artifactId: target,
        }),
        context,
      );
      const { text } = await generateText({
        model: options.model,
        prompt,
        maxRetries: 0,
        abortSignal: signal,
      });
      const review = parseReview(text, item.review_context.review_criteria);
      const done = await call<{ warning?: string }>("POST", `/v1/work-items/${item.id}/complete`, {
        attempt: lease.attempt,
        context_sha256: receipt,
        review: { ...review, target_artifact_id: target },
      });
      work = {
        agent: options.tag,
        item,
        prompt,
        artifactId: target,
        verdict: review.verdict,
        quotedContextSha256: receipt,
        ...(done.warning !== undefined && { warning: done.warning }),
      };
    } else {
      const earlier = await Promise.all(
        item.previous_artifacts.map(async (reference) => ({
          id: reference.artifact_id,
          content: (
            await call<{ content: string }>(
              "GET",
              `/v1/runs/${item.run_id}/artifacts/${reference.artifact_id}`,
            )
          ).content,
        })),
      );
      const prompt = injectTaskContext(taskPrompt(item, earlier), context);
      const { text } = await generateText({
        model: options.model,
        prompt,
        maxRetries: 0,
        abortSignal: signal,
      });
      const done = await call<{ artifact_id: string; warning?: string }>(
        "POST",
        `/v1/work-items/${item.id}/complete`,
        {
          attempt: lease.attempt,
          context_sha256: receipt,
          artifact: {
            media_type: "text/markdown",
            title: item.stage_context.stage_description,
            content: text,
          },
        },
      );
      work = {
        agent: options.tag,
        item,
        prompt,
        artifactId: done.artifact_id,
        quotedContextSha256: receipt,
        ...(done.warning !== undefined && { warning: done.warning }),
      };
    }
    worked.push(work);
    options.onWork(work);
  }
  return worked;
}
