// The A2A client of docs/a2a.md (examples/a2a-client.ts), run as the page says, in a process of
// its own: it starts its own service, so this file starts none.
import { describe, expect, it } from "vitest";
import { a2aHarness, waitFor } from "../a2a/harness.ts";

const { example } = a2aHarness("unused-admin-token-0123456789");

describe("the A2A client of docs/a2a.md", () => {
  it("starts a service, streams its staged task while an agent completes it, and prints each update", async () => {
    const printed = example("a2a-client.ts", {});
    const lines = await waitFor(
      "the example's last line",
      () => printed().split("\n"),
      (all) => all.some((line) => line.startsWith("TASK_STATE_COMPLETED")),
    );
    expect(lines.filter((line) => line !== "")).toEqual([
      // The run's id is named by the message's id (and the service's admin token).
      "task run_0t5k6dkebsgcbzya99hfxemvw0: TASK_STATE_SUBMITTED",
      expect.stringMatching(
        /^TASK_STATE_WORKING: Agent "writer" took work item wi_[0-9a-z]{26}\.$/,
      ),
      'artifact "Launch post": "# Lumen\\n\\nRead longer."',
      'TASK_STATE_WORKING: Stage "draft" completed.',
      "TASK_STATE_COMPLETED: The run completed its 1 stage(s).",
    ]);
  });
});
