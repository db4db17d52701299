import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { loadTaskContext, memoryWorkspace } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { injectIntoMessages } from "./inject-into-messages.ts";

const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Lumen." }));

describe("injectIntoMessages", () => {
  it("injects into the last human message, keeps its class and id, and restores it in the output", () => {
    const first = new HumanMessage({ content: "Earlier.", id: "h1" });
    const answer = new AIMessage({ content: "Done.", id: "a1" });
    const request = new HumanMessage({ content: "Now this.", id: "h2", name: "lead" });
    const { state, restore, delivered } = injectIntoMessages(
      { messages: [first, answer, request] },
      context,
    );

    const sent = state.messages[2] as HumanMessage;
    expect(delivered).toBe(true);
    expect(sent).toBeInstanceOf(HumanMessage);
    expect([sent.id, sent.name, sent.content]).toStrictEqual([
      "h2",
      "lead",
      "[Task Context]\nLumen.\n\n[Request]\nNow this.",
    ]);
    expect(state.messages.slice(0, 2)).toStrictEqual([first, answer]);
    const reply = new AIMessage({ content: "Ok.", id: "a2" });
    expect(restore({ messages: [...state.messages, reply] })).toStrictEqual({
      messages: [first, answer, request, reply],
    });
  });

  it("injects into the first text block of content blocks, or before an image alone", () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,AA" } };
    const withText = injectIntoMessages(
      {
        messages: [
          new HumanMessage({ content: [image, { type: "text", text: "Describe it." }], id: "h" }),
        ],
      },
      context,
    );
    expect((withText.state.messages[0] as HumanMessage).content).toStrictEqual([
      image,
      { type: "text", text: "[Task Context]\nLumen.\n\n[Request]\nDescribe it." },
    ]);
    const imageOnly = injectIntoMessages(
      { messages: [new HumanMessage({ content: [image], id: "h" })] },
      context,
    );
    expect((imageOnly.state.messages[0] as HumanMessage).content).toStrictEqual([
      { type: "text", text: "[Task Context]\nLumen.\n\n[Request]\n" },
      image,
    ]);
  });

  it("handles message-like objects without an id, and gives the original back", () => {
    const original = { role: "user", content: "Plan it." };
    const { state, restore } = injectIntoMessages({ messages: [original], step: 3 }, context);
    const [sent] = state.messages as { role: string; content: string; id: string }[];
    expect(sent).toStrictEqual({
      role: "user",
      content: "[Task Context]\nLumen.\n\n[Request]\nPlan it.",
      id: expect.stringMatching(/^task-context-request-\d+$/),
    });
    expect(state.step).toBe(3);
    expect(restore({ messages: [sent, { role: "assistant", content: "Planned." }] })).toStrictEqual(
      {
        messages: [original, { role: "assistant", content: "Planned." }],
      },
    );
  });

  it("says nothing was delivered when no message is from a human, and leaves other state alone", () => {
    const ai = injectIntoMessages({ messages: [new AIMessage("Hi.")] }, context);
    expect(ai.delivered).toBe(false);
    expect(ai.state).toStrictEqual({ messages: [new AIMessage("Hi.")] });
    const noMessages = injectIntoMessages({ topic: "vaults" }, context);
    expect([noMessages.delivered, noMessages.state]).toStrictEqual([true, { topic: "vaults" }]);
  });
});
