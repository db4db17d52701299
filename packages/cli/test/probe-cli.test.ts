// `task-context doctor --probe` end to end: the built binary on a correct and a broken workspace.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import { HANG_GUARD_MS, runCli, temporaryFolder } from "./run-cli.ts";

// The root script that finds the machine's own Node (Node 20 here), as the runtime tests use it.
const systemNodeScript: string = new URL("../../../scripts/system-node.mjs", import.meta.url).href;
const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };

const HEADER =
  "path                                         received  verbatim  view  sections  truncated  receipt";
const MISSING =
  "CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.\nThere is no CONTEXT.md at the workspace root.";

/** A folder of its own for each test, with `files`; removed when the test finishes. */
function project({ onTestFinished }: TestContext, files: Record<string, string>): string {
  const folder = temporaryFolder();
  onTestFinished(folder.remove);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder.path, name), text);
  return folder.path;
}

/** `task-context doctor --probe …args` in `cwd`, on `node` (default the toolchain's). */
const probe = (cwd: string, args: string[] = [], node?: string) =>
  runCli(["doctor", "--probe", ...args], {
    cwd,
    guardMs: HANG_GUARD_MS,
    ...(node === undefined ? {} : { node }),
  });

/** The table's lines with each receipt's digits as `<receipt>`: they change with the canary. */
const masked = (stdout: string) => stdout.replace(/sha256 [0-9a-f]{12}…/g, "<receipt>");

describe.concurrent("task-context doctor --probe", () => {
  it("passes on every path of a correct project, one receipt on each, exit 0", async (context) => {
    const cwd = project(context, { "CONTEXT.md": "# Goal\nShip the export menu.\n" });
    const result = await probe(cwd);
    expect({ stderr: result.stderr, code: result.code }).toStrictEqual({ stderr: "", code: 0 });
    expect(masked(result.stdout)).toBe(
      [
        HEADER,
        "subagent (child process)                     yes       yes       –     1/1       no         <receipt>",
        "subagent (function runner)                   yes       yes       –     1/1       no         <receipt>",
        "MCP server (inject_task_context)             yes       yes       –     1/1       no         <receipt>",
        "media tool understand_image                  yes       yes       –     1/1       no         <receipt>",
        "media tool understand_audio (transcription)  yes       yes       –     1/1       no         <receipt>",
        "media tool understand_audio (understanding)  yes       yes       –     1/1       no         <receipt>",
        "media tool understand_video                  yes       yes       –     1/1       no         <receipt>",
        "media tool understand_file                   yes       yes       –     1/1       no         <receipt>",
        "media tool read_media                        yes       yes       –     1/1       no         <receipt>",
        "media tool generate_media                    yes       yes       –     1/1       no         <receipt>",
        "media tool generate_image                    yes       yes       –     1/1       no         <receipt>",
        "media tool generate_video                    yes       yes       –     1/1       no         <receipt>",
        "media tool generate_audio                    yes       yes       –     1/1       no         <receipt>",
        "AI SDK middleware                            yes       yes       –     1/1       no         <receipt>",
        "work item (delivery service)                 yes       yes       –     1/1       no         <receipt>",
        "A2A agent (delivery service)                 yes       yes       –     1/1       no         <receipt>",
        "",
      ].join("\n"),
    );
    // One receipt of CONTEXT.md on fourteen paths, one of the run context on the service's two.
    const receipts = result.stdout.match(/sha256 [0-9a-f]{12}…/g) ?? [];
    expect(receipts.length).toBe(16);
    expect(new Set(receipts.slice(0, 14)).size).toBe(1);
    expect(new Set(receipts.slice(14)).size).toBe(1);
  });

  it("reports every path that dropped the canary of a workspace without CONTEXT.md, with why, exit 1", async (context) => {
    const cwd = project(context, { "notes.md": "no context here" });
    const workspace = project(context, {});
    const result = await probe(cwd, ["--workspace", workspace]);
    expect(result).toStrictEqual({
      stdout: [
        HEADER,
        "subagent (child process)                     no        no        –     –         –          –",
        "subagent (function runner)                   no        no        –     –         –          –",
        "MCP server (inject_task_context)             no        no        –     –         –          –",
        "media tool understand_image                  no        no        –     –         –          –",
        "media tool understand_audio (transcription)  no        no        –     –         –          –",
        "media tool understand_audio (understanding)  no        no        –     –         –          –",
        "media tool understand_video                  no        no        –     –         –          –",
        "media tool understand_file                   no        no        –     –         –          –",
        "media tool read_media                        no        no        –     –         –          –",
        "media tool generate_media                    no        no        –     –         –          –",
        "media tool generate_image                    no        no        –     –         –          –",
        "media tool generate_video                    no        no        –     –         –          –",
        "media tool generate_audio                    no        no        –     –         –          –",
        "AI SDK middleware                            no        no        –     –         –          –",
        "work item (delivery service)                 no        no        –     –         –          –",
        "A2A agent (delivery service)                 no        no        –     –         –          –",
        "",
        `subagent (child process): ${MISSING}`,
        `subagent (function runner): ${MISSING}`,
        `MCP server (inject_task_context): TASK_CONTEXT_MISSING: ${MISSING}`,
        `media tool understand_image: understand_image: ${MISSING}`,
        `media tool understand_audio (transcription): understand_audio: ${MISSING}`,
        `media tool understand_audio (understanding): understand_audio: ${MISSING}`,
        `media tool understand_video: understand_video: ${MISSING}`,
        `media tool understand_file: understand_file: ${MISSING}`,
        `media tool read_media: read_media: ${MISSING}`,
        `media tool generate_media: generate_media: ${MISSING}`,
        `media tool generate_image: generate_image: ${MISSING}`,
        `media tool generate_video: generate_video: ${MISSING}`,
        `media tool generate_audio: generate_audio: ${MISSING}`,
        `AI SDK middleware: ${MISSING}`,
        `work item (delivery service): ${MISSING}`,
        `A2A agent (delivery service): ${MISSING}`,
        "",
      ].join("\n"),
      stderr: "",
      code: 1,
    });
  });

  it("on the machine's Node 20 runs the paths that apply and names the skipped ones", async (context) => {
    const cwd = project(context, { "CONTEXT.md": "# Goal\nShip the export menu.\n" });
    const result = await probe(cwd, [], systemNode());
    expect({ stderr: result.stderr, code: result.code }).toStrictEqual({ stderr: "", code: 0 });
    expect(masked(result.stdout)).toBe(
      [
        "path                              received  verbatim  view  sections  truncated  receipt",
        "subagent (child process)          yes       yes       –     1/1       no         <receipt>",
        "subagent (function runner)        yes       yes       –     1/1       no         <receipt>",
        "MCP server (inject_task_context)  yes       yes       –     1/1       no         <receipt>",
        "skipped: media tool understand_image, media tool understand_audio (transcription), media tool understand_audio (understanding), media tool understand_video, media tool understand_file, media tool read_media, media tool generate_media, media tool generate_image, media tool generate_video, media tool generate_audio, AI SDK middleware (install @task-context/media-tools and ai, on Node >= 22)",
        "skipped: work item (delivery service), A2A agent (delivery service) (the service's embedded SQLite needs Node >= 22.13)",
        "",
      ].join("\n"),
    );
  });

  it("with --view media gives every path the view, each owed and carrying its three sections, exit 0", async (context) => {
    const cwd = project(context, {
      "CONTEXT.md":
        "## What we are building\nLumen.\n\n## Key terminology\n- **Lumen**: a lamp.\n\n## Visual and brand guidelines\nWarm.\n\n## Other details\nRun tests.\n",
    });
    const result = await probe(cwd, ["--view", "media"]);
    expect({ stderr: result.stderr, code: result.code }).toStrictEqual({ stderr: "", code: 0 });
    const rows = result.stdout.split("\n").slice(1, -1);
    expect(rows.length).toBe(16);
    for (const row of rows) {
      expect(row).toMatch(/ {2}yes {7}yes {7}media {2}3\/3 {7}no {9}sha256 [0-9a-f]{12}…$/);
    }
  });

  it("with --as-model image=openai/dall-e-2 reports the image paths as cut by its profile, exit 1", async (context) => {
    const terms = Array.from({ length: 40 }, (_, index) => `- **Term ${index}**: a word of ours.`);
    const cwd = project(context, {
      "CONTEXT.md": `# Goal\nShip the export menu.\n\n# Key terms\n${terms.join("\n")}\n`,
    });
    const result = await probe(cwd, ["--as-model", "image=openai/dall-e-2"]);
    expect({ stderr: result.stderr, code: result.code }).toStrictEqual({ stderr: "", code: 1 });
    const cut = result.stdout
      .split("\n")
      .filter((line) => / {2}yes {7}no {8}– {5}1\/2 {7}yes /.test(line))
      .map((line) => line.split("  ")[0]);
    expect(cut).toStrictEqual(["media tool generate_media", "media tool generate_image"]);
    expect(result.stdout).toContain(
      'media tool generate_image: the end of CONTEXT.md did not arrive, only its top; sections dropped: "Key terms"; it warned: The task context was fitted to openai/dall-e-2\'s prompt limit',
    );
  });

  it("refuses an --as-model that is not <kind>=<provider>/<model id>, exit 2", async (context) => {
    const cwd = project(context, { "CONTEXT.md": "# Goal\nShip.\n" });
    const result = await probe(cwd, ["--as-model", "poster=openai.image/dall-e-2"]);
    expect(result).toStrictEqual({
      stdout: "",
      stderr: expect.stringContaining(
        "expected <kind>=<provider>/<model id>, e.g. image=openai/dall-e-2, with a kind of understanding, image, video, speech, transcription",
      ),
      code: 2,
    });
  });

  it("refuses doctor without --probe and a workspace that does not exist, exit 2", async (context) => {
    const cwd = project(context, {});
    expect(await runCli(["doctor"], { cwd })).toStrictEqual({
      stdout: "",
      stderr:
        "task-context: doctor needs a check to run: --probe is the one it has\nhint: run `task-context doctor --probe`\n",
      code: 2,
    });
    expect(await probe(cwd, ["--workspace", "nowhere"])).toStrictEqual({
      stdout: "",
      stderr:
        "task-context: the folder nowhere does not exist\nhint: check the path, or write the folder and its CONTEXT.md with `task-context init nowhere`\n",
      code: 2,
    });
  });
});
