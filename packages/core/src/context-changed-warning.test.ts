import {
  ArgumentError,
  contextChangedWarning,
  loadTaskContext,
  memoryWorkspace,
} from "@task-context/core";
import { describe, expect, it } from "vitest";

const GIVEN = "fc8d83d4670e8b81eed758493ffa4286e86252985bb99c302fb38a3784c713dc";
const NOW = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

describe("contextChangedWarning", () => {
  it("says nothing when the agent's CONTEXT.md still delivers what was given, in any case", () => {
    expect(contextChangedWarning({ recipient: "x", given: GIVEN, current: GIVEN })).toBeUndefined();
    expect(
      contextChangedWarning({ recipient: "x", given: GIVEN.toUpperCase(), current: GIVEN }),
    ).toBeUndefined();
  });

  it("tells the agent that its own CONTEXT.md changed, from which version, and what to do", () => {
    expect(contextChangedWarning({ recipient: 'subagent "a"', given: GIVEN, current: NOW })).toBe(
      'Your CONTEXT.md changed while subagent "a" ran: it worked from the CONTEXT.md with sha256 fc8d83d4670e…, yours is now sha256 2c26b46b68ff…. Check its result against your current CONTEXT.md, or run it again so that it works from the current one.',
    );
  });

  it("tells the agent that its CONTEXT.md vanished, and to recreate it", () => {
    expect(
      contextChangedWarning({ recipient: "generate_video", given: GIVEN, current: undefined }),
    ).toBe(
      "Your CONTEXT.md was removed or became unusable while generate_video ran: it worked from the CONTEXT.md with sha256 fc8d83d4670e…. Recreate CONTEXT.md before you spawn subagents or use multimodal tools again, and check this result against the task as it is now.",
    );
  });

  it("compares the hashes loadTaskContext gives before and after an edit", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": "Lumen: notes app. Tone: calm." });
    const given = await loadTaskContext(workspace);
    await workspace.writeFile("CONTEXT.md", "Lumen: notes app. Tone: playful.");
    const now = await loadTaskContext(workspace, { required: false });
    expect(
      contextChangedWarning({
        recipient: 'subagent "review-1"',
        given: given.sha256,
        current: now.sha256,
      }),
    ).toBe(
      'Your CONTEXT.md changed while subagent "review-1" ran: it worked from the CONTEXT.md with sha256 fc8d83d4670e…, yours is now sha256 1923bad17287…. Check its result against your current CONTEXT.md, or run it again so that it works from the current one.',
    );
  });

  it("refuses a missing recipient or given hash with ArgumentError", () => {
    expect(() => contextChangedWarning({ recipient: "", given: GIVEN, current: NOW })).toThrow(
      ArgumentError,
    );
    expect(() =>
      contextChangedWarning({
        recipient: "x",
        given: undefined as unknown as string,
        current: NOW,
      }),
    ).toThrow(ArgumentError);
  });
});
