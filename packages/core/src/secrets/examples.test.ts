import { memoryWorkspace } from "@task-context/core";
import { describe, expect, it, vi } from "vitest";
import { findExample, loadExample, redactExample } from "../../examples/secrets.ts";

describe("the secrets examples", () => {
  it("findSecrets and redactSecrets return what their comments say", () => {
    expect(findExample("hunter22")).toStrictEqual({
      kind: "url-password",
      label: "a password in a URL",
      line: 2,
      column: 29,
      start: 40,
      end: 48,
    });
    expect(redactExample("hunter22")).toStrictEqual({
      text: "Deploy with\nDATABASE_URL=postgres://app:[redacted: url-password]@db:5432/app",
      redactions: [{ kind: "url-password", line: 2 }],
    });
  });

  it("loads with each policy as the comments say", async () => {
    const key = `sk-proj-${"Ab3d".repeat(10)}`;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { context, asWritten } = await loadExample(
        memoryWorkspace({ "CONTEXT.md": `# Lumen\n\nOPENAI_API_KEY=${key}` }),
      );
      expect(context.content).toBe("# Lumen\n\nOPENAI_API_KEY=[redacted: openai-api-key]");
      expect(warn).toHaveBeenCalledWith(context.warning);
      expect(error).toHaveBeenCalledWith([{ kind: "openai-api-key", line: 3 }]);
      expect(asWritten.content).toBe(`# Lumen\n\nOPENAI_API_KEY=${key}`);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
