// Does the task context help? Two stand-in recipients, one task, three conditions, 20 trials each.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTranscriptionStandIn,
  createVisionStandIn,
  parseEvalSpec,
  renderHtmlReport,
  renderSummaryTable,
  runEval,
} from "@task-context/cli/eval";

// A workspace whose CONTEXT.md names the product and keeps its capitals for the wordmark.
const directory = await mkdtemp(join(tmpdir(), "eval-example-"));
await writeFile(
  join(directory, "CONTEXT.md"),
  `# Task context

## What we are building
Lumen, a note-taking app for researchers. We are preparing the App Store listing.

## Key terminology
- **Lumen**: the product; "LUMEN" on screenshots is the wordmark, not a hospital or a lamp.

## Visual and brand guidelines
In running text never write "LUMEN": the capitals belong to the wordmark.
`,
);

//#region runEval
const spec = parseEvalSpec({
  recipients: { vision: {}, transcriber: {} },
  tasks: [
    {
      id: "wordmark",
      prompt: "What does the large text on the launch screenshot say or name?",
      checks: [{ regex: "the product's wordmark|^LUMEN$" }],
    },
  ],
  conditions: ["none", "full", "view:brief"],
  trials: 20,
});
const run = await runEval(spec, {
  recipients: {
    // Reads the wordmark right when the context defines it; takes it for a hospital without.
    vision: createVisionStandIn({ wordmark: "LUMEN", misreading: "a hospital or a clinic" }),
    // Copies text exactly, unless the context's writing rules make it "correct" the capitals.
    transcriber: createTranscriptionStandIn({ text: "LUMEN" }),
  },
  directory, // the workspace (its CONTEXT.md) and the tasks' inputs are found here
  resultsPath: join(directory, "results.jsonl"), // run again: recorded trials are not repeated
});
process.stdout.write(renderSummaryTable(run.summary));
// vision       full        90% (18/20)  70%–97%       114     1 ms  helps (p < 0.0001)
// transcriber  full        0% (0/20)    0%–16%        102     0 ms  hurts (p < 0.0001)
await writeFile(join(directory, "report.html"), renderHtmlReport(run));
//#endregion
console.log(`report: ${join(directory, "report.html")}`);
