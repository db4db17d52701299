// A remote agent: polls the delivery service's inbox, claims the items its skills cover, works
// them with a model through the AI SDK — the work item's task context injected into the prompt —
// and completes them over HTTP.
import { propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { fenceUntrustedText, injectTaskContext, untrustedContentWarning } from "@task-context/core";
import type { WorkItem } from "@task-context/protocols/work-item";
import { generateText, type LanguageModel } from "ai";
import { invokeAgent } from "../agent-span.ts";
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
  /** The service's warning on the completion: a stale receipt, text posing as instructions. */
  warning?: string;
  /**
   * What fencing the earlier artifacts it received neutralised before its model read them (core's
   * `untrustedContentWarning`); its work item's `previous_artifacts` carry the service's warning.
   */
  earlierWorkWarning?: string;
}

/**
 * An earlier artifact as the agent hands it to its model: fenced as data with its source (core's
 * `fenceUntrustedText`), passages that pose as instructions neutralised.
 */
function fenceArtifact(artifactId: string, author: string, content: string) {
  return fenceUntrustedText({ source: `artifact ${artifactId} by ${author}`, text: content });
}

interface Claim {
  work_item: WorkItem;
  lease: { attempt: number; expires_at: string };
}

/**
 * The prompt for a task item: the stage's task, the run's goal and constraints, earlier artifacts
 * fenced as data.
 */
function taskPrompt(item: WorkItem, earlier: { fenced: string }[]): string {
  return [
    `${item.stage_context.stage_description}.`,
    `Goal: ${item.goal}`,
    `Expected output: ${item.stage_context.expected_output}`,
    "Constraints:",
    ...item.constraints.map((constraint) => `- ${constraint}`),
    ...earlier.map((artifact) => `\n${artifact.fenced}`),
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
  /**
   * Text appended to every artifact it writes: what an agent that read a poisoned page passes on.
   * The service flags it; the next agents receive it fenced.
   */
  appendsToArtifacts?: string;
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
    // Its work continues the run's trace, which the item carries (trace_context): the claim's and
    // the completion's spans on the service join it through the traceparent header.
    //#region continueTrace
    const runTrace = propagation.extract(ROOT_CONTEXT, offer.trace_context ?? {});
    //#endregion
    const work = await invokeAgent(
      { name: options.tag, id: offer.id, kind: "server", parent: runTrace },
      async (): Promise<RemoteWork> => {
        const { work_item: item, lease } = await call<Claim>(
          "POST",
          `/v1/work-items/${offer.id}/claim`,
        );
        const own = {
          background: item.stage_context.background,
          contextSha256: item.context_sha256,
        };
        first ??= own;
        const { background: context, contextSha256: receipt } = options.reusesFirstContext
          ? (first ?? own)
          : own;
        let work: RemoteWork;
        if (item.kind === "review") {
          const target = item.review_context.target_artifact_id;
          const artifact = await call<{ content: string; author_tag: string }>(
            "GET",
            `/v1/runs/${item.run_id}/artifacts/${target}`,
          );
          const fenced = fenceArtifact(target, artifact.author_tag, artifact.content);
          const received = untrustedContentWarning(fenced.findings);
          const prompt = injectTaskContext(
            reviewRequest({
              instruction: `${item.stage_context.stage_description}. Goal: ${item.goal}\nConstraints:\n${item.constraints.map((constraint) => `- ${constraint}`).join("\n")}`,
              criteria: item.review_context.review_criteria,
              artifact: fenced.text,
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
          const done = await call<{ warning?: string }>(
            "POST",
            `/v1/work-items/${item.id}/complete`,
            {
              attempt: lease.attempt,
              context_sha256: receipt,
              review: { ...review, target_artifact_id: target },
            },
          );
          work = {
            agent: options.tag,
            item,
            prompt,
            artifactId: target,
            verdict: review.verdict,
            quotedContextSha256: receipt,
            ...(done.warning !== undefined && { warning: done.warning }),
            ...(received !== undefined && { earlierWorkWarning: received }),
          };
        } else {
          const earlier = await Promise.all(
            item.previous_artifacts.map(async (reference) => {
              const { content } = await call<{ content: string }>(
                "GET",
                `/v1/runs/${item.run_id}/artifacts/${reference.artifact_id}`,
              );
              const fenced = fenceArtifact(reference.artifact_id, reference.author_tag, content);
              return { fenced: fenced.text, findings: fenced.findings };
            }),
          );
          const received = untrustedContentWarning(
            earlier.flatMap((artifact) => artifact.findings),
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
                content: `${text}${options.appendsToArtifacts ?? ""}`,
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
            ...(received !== undefined && { earlierWorkWarning: received }),
          };
        }
        return work;
      },
    );
    worked.push(work);
    options.onWork(work);
  }
  return worked;
}
