// --quote-back: a real model, asked through the AI SDK's OpenAI-compatible provider, quotes the
// canary back — here a stand-in that speaks the chat completions protocol on loopback.
import { describe, expect, it } from "vitest";
import { probePassed, probePaths, quoteBackCost, quoteBackPath } from "../src/probe/index.ts";
import { startChatCompletionsStandIn } from "./chat-completions-stand-in.ts";
import { CONTEXT, workspace } from "./probe-workspace.ts";
import { runCli } from "./run-cli.ts";

/** A key shaped like a real one, so that the redaction has something to find. */
const KEY = "sk-proj-Fake0123456789abcdefghijklmnopqrstuvwxyzABCD";

describe("quote-back", () => {
  it("passes when the model quotes every canary line back, with the middleware's receipt", async (context) => {
    const standIn = await startChatCompletionsStandIn(KEY);
    context.onTestFinished(standIn.close);
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const path = await quoteBackPath({ baseURL: standIn.baseURL, model: "stand-in", apiKey: KEY });
    const results = await probePaths({
      workspace: directory,
      paths: path === undefined ? [] : [path],
    });
    expect(results).toStrictEqual([
      {
        path: "quote-back (stand-in)",
        received: true,
        verbatim: true,
        truncated: false,
        receipt: expect.stringMatching(/^[0-9a-f]{64}$/),
        sections: { expected: 2, arrived: 2, dropped: [] },
      },
    ]);
    expect(standIn.requests.map((request) => request.model)).toStrictEqual(["stand-in"]);
  });

  it("reports a model that quotes only the first line as cut, and a refused key without the key", async (context) => {
    const standIn = await startChatCompletionsStandIn(KEY, "quotes the first line only");
    context.onTestFinished(standIn.close);
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const cut = await quoteBackPath({ baseURL: standIn.baseURL, model: "cut", apiKey: KEY });
    const wrongKey = `${KEY}-wrong`;
    const refused = await quoteBackPath({
      baseURL: standIn.baseURL,
      model: "refused",
      apiKey: wrongKey,
    });
    const results = await probePaths({
      workspace: directory,
      paths: [cut, refused].flatMap((path) => (path === undefined ? [] : [path])),
    });
    expect(results.map(({ receipt, ...rest }) => rest)).toStrictEqual([
      {
        path: "quote-back (cut)",
        received: true,
        verbatim: false,
        truncated: true,
        sections: { expected: 2, arrived: 0, dropped: ["Goal", "Key terms"] },
        reason:
          'the end of CONTEXT.md did not arrive, only its top; sections dropped: "Goal", "Key terms"',
      },
      {
        path: "quote-back (refused)",
        received: false,
        verbatim: false,
        error: "Incorrect API key provided: [redacted].",
      },
    ]);
    expect(probePassed(results)).toBe(false);
  });

  it("estimates one call's tokens from CONTEXT.md and its canary lines", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const cost = await quoteBackCost(directory);
    expect(cost).toStrictEqual({ calls: 1, inputTokens: 133, outputTokens: 72 });
  });

  it("task-context doctor --probe --quote-back prints the cost, sends nothing without --yes, and never the key", async (context) => {
    const standIn = await startChatCompletionsStandIn(KEY);
    context.onTestFinished(standIn.close);
    const cwd = workspace(context, { "CONTEXT.md": CONTEXT });
    const env = {
      TASK_CONTEXT_PROBE_MODEL: "stand-in",
      TASK_CONTEXT_PROBE_BASE_URL: standIn.baseURL,
      TASK_CONTEXT_PROBE_API_KEY: KEY,
    };
    const cost = `quote-back: 1 call to stand-in at ${standIn.baseURL} (OpenAI-compatible), about 133 input and 72 output tokens (o200k_base)\n`;
    expect(await runCli(["doctor", "--probe", "--quote-back"], { cwd, env })).toStrictEqual({
      stdout: cost,
      stderr: `task-context: --quote-back sends your CONTEXT.md, with the canary, to ${standIn.baseURL}: it is not sent without --yes\nhint: run again with --yes to send it\n`,
      code: 2,
    });
    expect(standIn.requests.length).toBe(0);
    const sent = await runCli(["doctor", "--probe", "--quote-back", "--yes"], { cwd, env });
    expect({ code: sent.code, stderr: sent.stderr }).toStrictEqual({ code: 0, stderr: "" });
    const lines = sent.stdout.split("\n");
    expect(lines[0]).toBe(cost.trimEnd());
    expect(lines.at(-2)).toMatch(
      /^quote-back \(stand-in\) {24}yes {7}yes {7}– {5}2\/2 {7}no {9}sha256 [0-9a-f]{12}…$/,
    );
    expect(standIn.requests.length).toBe(1);
    expect(sent.stdout).not.toContain(KEY);
  });
});
