// The section canaries: a path given a view is owed that view's sections, no more, and a path
// that drops one of them is reported with the sections it dropped.
import { CONTEXT_VIEW_PRESETS, selectContextView } from "@task-context/core";
import { describe, expect, it } from "vitest";
import {
  aiSdkPaths,
  childProcessSubagentPath,
  functionRunnerSubagentPath,
  mcpServerPath,
  type ProbePath,
  probePassed,
  probePaths,
  servicePaths,
} from "../src/probe/index.ts";
import { workspace } from "./probe-workspace.ts";

/** A CONTEXT.md with the headings the media view names, and one it leaves out. */
const CONTEXT = [
  "# Task context",
  "",
  "## What we are building",
  "Lumen, a reading lamp.",
  "",
  "## Key terminology",
  "- **Lumen**: the lamp.",
  "",
  "## Visual and brand guidelines",
  "Warm white, no blue.",
  "",
  "## Other details",
  "Run pnpm test.",
  "",
].join("\n");

const view = CONTEXT_VIEW_PRESETS.media;
const media = { expected: 3, arrived: 3, dropped: [] };

describe("a view's sections", () => {
  it("passes on every path given the media view: each carries exactly its three sections", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const service = await servicePaths({ view });
    const paths = [
      childProcessSubagentPath({ view }),
      functionRunnerSubagentPath({ view }),
      mcpServerPath({ view }),
      ...((await aiSdkPaths({ view })) ?? []),
      ...service.paths,
    ];
    expect(paths.length).toBe(16);
    const results = await probePaths({ workspace: directory, paths });
    expect(results.map(({ path, receipt, ...rest }) => rest)).toStrictEqual(
      paths.map(() => ({
        received: true,
        verbatim: true,
        view: "media",
        truncated: false,
        sections: media,
      })),
    );
    expect(probePassed(results)).toBe(true);
  });

  it("reports a recipient of the media view that drops a section it should carry, by heading", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const dropsTerms: ProbePath = {
      name: "drops key terminology",
      send: async ({ content }) => {
        const selected = selectContextView(content, view).content;
        const terms = /## Key terminology\n[^#]*/.exec(selected)?.[0] ?? "";
        return { text: selected.replace(terms, ""), view: "media", viewDefinition: view };
      },
    };
    const results = await probePaths({ workspace: directory, paths: [dropsTerms] });
    expect(results).toStrictEqual([
      {
        path: "drops key terminology",
        received: true,
        verbatim: false,
        view: "media",
        truncated: true,
        sections: { expected: 3, arrived: 2, dropped: ["Key terminology"] },
        reason: 'sections dropped: "Key terminology"',
      },
    ]);
    expect(probePassed(results)).toBe(false);
  });

  it("judges a view it has no definition of by the whole file: its sections left out are dropped", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const ownView: ProbePath = {
      name: "a view of its own",
      send: async ({ content }) => ({
        text: selectContextView(content, { name: "mine", include: ["What we are building"] })
          .content,
        view: "mine",
      }),
    };
    const [result] = await probePaths({ workspace: directory, paths: [ownView] });
    expect(result).toStrictEqual({
      path: "a view of its own",
      received: true,
      verbatim: false,
      view: "mine",
      truncated: true,
      sections: {
        expected: 5,
        arrived: 1,
        dropped: [
          "Task context",
          "Key terminology",
          "Visual and brand guidelines",
          "Other details",
        ],
      },
      reason:
        'sections dropped: "Task context", "Key terminology", "Visual and brand guidelines", "Other details"',
    });
  });
});
