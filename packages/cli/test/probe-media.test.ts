// The media tools' paths of the probe: a recipient that drops the context, and a profiled target
// model the tools fit a long CONTEXT.md to.
import { describe, expect, it } from "vitest";
import { aiSdkPaths, probePassed, probePaths } from "../src/probe/index.ts";
import { CONTEXT, workspace } from "./probe-workspace.ts";

/** The AI SDK paths of `names`, built with `options`. */
async function pathsNamed(names: string[], options: Parameters<typeof aiSdkPaths>[0]) {
  const paths = (await aiSdkPaths(options)) ?? [];
  return paths.filter((path) => names.includes(path.name));
}

describe("the media tool paths", () => {
  it("reports generate_audio through a speech model that ignores instructions as not received, with its warning", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const paths = await pathsNamed(["media tool generate_audio", "media tool generate_video"], {
      media: { speechIgnoresInstructions: true },
    });
    const results = await probePaths({ workspace: directory, paths });
    expect(results.map(({ receipt, ...rest }) => rest)).toStrictEqual([
      {
        path: "media tool generate_video",
        received: true,
        verbatim: true,
        truncated: false,
        sections: { expected: 2, arrived: 2, dropped: [] },
      },
      {
        path: "media tool generate_audio",
        received: false,
        verbatim: false,
        reason:
          "the canary did not arrive; it warned: Provider warnings: The model does not support instructions, so the task context (sent as instructions) did not reach it.",
      },
    ]);
    expect(probePassed(results)).toBe(false);
  });

  it("reports understand_audio through whisper-1 as cut: a long CONTEXT.md fitted to its 224 tokens, the top kept", async (context) => {
    const terms = Array.from({ length: 80 }, (_, index) => `- **Term ${index}**: a word of ours.`);
    const directory = workspace(context, {
      "CONTEXT.md": `# Goal\nShip the export menu.\n\n# Key terms\n${terms.join("\n")}\n`,
    });
    const paths = await pathsNamed(
      [
        "media tool understand_audio (transcription)",
        "media tool understand_audio (understanding)",
      ],
      { models: { transcription: { provider: "openai.transcription", modelId: "whisper-1" } } },
    );
    const results = await probePaths({ workspace: directory, paths });
    expect(results.map(({ receipt, reason, ...rest }) => rest)).toStrictEqual([
      {
        path: "media tool understand_audio (transcription)",
        received: true,
        verbatim: false,
        truncated: true,
        sections: { expected: 2, arrived: 1, dropped: ["Key terms"] },
      },
      {
        path: "media tool understand_audio (understanding)",
        received: true,
        verbatim: true,
        truncated: false,
        sections: { expected: 2, arrived: 2, dropped: [] },
      },
    ]);
    expect(results[0]?.reason).toMatch(
      /^the end of CONTEXT\.md did not arrive, only its top; sections dropped: "Key terms"; it warned: .*whisper-1/,
    );
  });
});
