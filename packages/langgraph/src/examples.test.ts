// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run them as
// written — the real ChatOpenAI against the docs' stand-in for the OpenAI API on loopback, a
// memory workspace in place of the directory — and check that they do what their comments say.
import { loadTaskContext, memoryWorkspace, type Workspace } from "@task-context/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type OpenAiStandIn,
  startOpenAiStandIn,
} from "../../../docs/examples/test/openai-stand-in.ts";
import { BRIEF, CONTEXT } from "./test-support/fixtures.ts";

const standIn = vi.hoisted(() => ({ workspace: undefined as Workspace | undefined }));
vi.mock("@task-context/core/node", () => ({ nodeWorkspace: () => standIn.workspace }));

let endpoint: OpenAiStandIn;
beforeAll(async () => {
  endpoint = await startOpenAiStandIn();
  vi.stubEnv("OPENAI_BASE_URL", endpoint.baseUrl);
  vi.stubEnv("OPENAI_API_KEY", "sk-examples-test");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await endpoint.close();
});
beforeEach(() => {
  standIn.workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
  endpoint.received.length = 0;
  vi.resetModules();
});

/** The first message's text of each request the endpoint received. */
const firstMessages = () =>
  endpoint.received.map(
    ({ body }) => (body as { messages: { content: string }[] }).messages[0]?.content,
  );

describe("examples/research-team.ts", () => {
  it("gives the researcher the brief view and the writer the whole file, and prints the conversation", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/research-team.ts");
    expect(firstMessages()).toStrictEqual([
      `[Task Context]\n${BRIEF}\n\n[Request]\nDraft the App Store description.`,
      `[Task Context]\n${CONTEXT}\n\n[Request]\nDraft the App Store description.`,
    ]);
    expect(logged.mock.calls).toStrictEqual([
      ["human: Draft the App Store description."],
      [`ai: Received ${BRIEF.length} characters of task context.`],
      [`ai: Received ${CONTEXT.length} characters of task context.`],
    ]);
    logged.mockRestore();
  });
});

describe("examples/node-prompt.ts", () => {
  it("puts the subgraph's context before the node's own prompt", async () => {
    const { summarise } = await import("../examples/node-prompt.ts");
    const taskContext = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Lumen." }));
    expect(await summarise({ notes: "two papers" }, { context: { taskContext } })).toStrictEqual({
      summary: "[Task Context]\nLumen.\n\n[Request]\nSummarise: two papers",
    });
  });
});
