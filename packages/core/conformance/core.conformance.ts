// Conformance of @task-context/core's built main entry on Node 20, Node 24, Bun, Deno and workerd.
import {
  ArgumentError,
  approximateTokenizer,
  CONTEXT_MISSING_MESSAGE,
  defineContextTool,
  injectTaskContext,
  loadO200kTokenizer,
  loadTaskContext,
  memoryWorkspace,
  splitTaskContext,
  TaskContextError,
  TaskContextMissingError,
} from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import { assert, defineSuite } from "@task-context/runtime-matrix/harness";

const SAMPLE =
  "Lumen is a note-taking app. ルーメンはノートアプリです。Люмен — приложение. 👨‍👩‍👧‍👦🇯🇵 e\u0301 1234567";
const bytes = (...values: number[]) => new Uint8Array(values);

export default defineSuite({
  package: "@task-context/core",
  cases: [
    {
      name: "CONTEXT.md exists: returns the file content with its sha256",
      async run() {
        const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }));
        assert.deepEqual(context, {
          content: "Building Lumen.",
          truncated: false,
          originalLength: 15,
          originalLengthIsExact: true,
          originalBytes: 15,
          sha256: "4bf958303164409557de1922853a95f225851ab6521ff91c59f6d947856b6c40",
          found: true,
        });
      },
    },
    {
      name: "CONTEXT.md missing: TaskContextMissingError with the guiding message",
      async run() {
        const error = await assert.rejects(
          () => loadTaskContext(memoryWorkspace()),
          "TASK_CONTEXT_MISSING",
        );
        assert.ok(TaskContextMissingError.isInstance(error));
        assert.ok(TaskContextError.isInstance(error));
        assert.equal(
          (error as Error).message,
          `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
        );
      },
    },
    {
      name: "required: false yields no context",
      async run() {
        const context = await loadTaskContext(memoryWorkspace(), { required: false });
        assert.equal(context.found, false);
        assert.equal(injectTaskContext("prompt", context), "prompt");
      },
    },
    {
      name: "truncates at 10 000 characters with the warning",
      async run() {
        const context = await loadTaskContext(
          memoryWorkspace({ "CONTEXT.md": "a".repeat(12_000) }),
        );
        assert.equal(context.content.length, 10_000);
        assert.equal(
          context.warning,
          "CONTEXT.md was truncated from 12000 to 10000 characters (limit 10000). Consider shortening it.",
        );
      },
    },
    {
      name: "never cuts a grapheme cluster",
      async run() {
        const family = "👨‍👩‍👧‍👦";
        const cases: Array<[string, number, string]> = [
          [`ab${family}cd`, 5, "ab"],
          ["ab🇫🇷🇩🇪", 7, "ab🇫🇷"],
          ["abe\u0301\u0301f", 4, "ab"],
        ];
        for (const [text, maxChars, expected] of cases) {
          const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
            maxChars,
          });
          assert.equal(context.content, expected);
        }
      },
    },
    {
      name: "strips a BOM and repairs invalid UTF-8 with a warning",
      async run() {
        const bom = await loadTaskContext(
          memoryWorkspace({ "CONTEXT.md": bytes(0xef, 0xbb, 0xbf, 0x4c) }),
        );
        assert.equal(bom.content, "L");
        const invalid = await loadTaskContext(
          memoryWorkspace({ "CONTEXT.md": bytes(0x4c, 0xff, 0x6d) }),
        );
        assert.equal(invalid.content, "L\uFFFDm");
        assert.equal(
          invalid.warning,
          "CONTEXT.md is not valid UTF-8: invalid bytes were replaced with U+FFFD. Save it as UTF-8.",
        );
      },
    },
    {
      name: "a directory path needs a file system the default build does not have, or is read on Node-like runtimes",
      async run() {
        try {
          await loadTaskContext("/definitely/not/a/workspace");
          assert.ok(false, "expected an error");
        } catch (error) {
          // Node, Bun and Deno resolve the `node` condition and look on disk; workerd refuses paths.
          assert.ok(
            TaskContextMissingError.isInstance(error) || ArgumentError.isInstance(error),
            `unexpected ${String(error)}`,
          );
        }
      },
    },
    {
      name: "injects in the exact format and splits back byte for byte",
      run() {
        const context = "Notes\n\n[Request]\nnot the request";
        const injected = injectTaskContext("Describe it.", context);
        assert.equal(
          injected,
          "[Task Context]\nNotes\n\n\\[Request]\nnot the request\n\n[Request]\nDescribe it.",
        );
        assert.deepEqual(splitTaskContext(injected), { context, prompt: "Describe it." });
      },
    },
    {
      name: "o200k counts and truncates identically on every runtime",
      run() {
        assert.equal(o200kTokenizer.count(SAMPLE), 47);
        assert.equal(o200kTokenizer.truncate(SAMPLE, 10), "Lumen is a note-taking app. ル");
      },
    },
    {
      name: "the o200k tokenizer also loads lazily from the main entry point",
      async run() {
        const tokenizer = await loadO200kTokenizer();
        assert.equal(tokenizer, o200kTokenizer);
        assert.equal(tokenizer.count(SAMPLE), 47);
      },
    },
    {
      name: "the approximate tokenizer counts identically on every runtime",
      run() {
        assert.equal(approximateTokenizer.count(SAMPLE), 39);
        assert.equal(
          approximateTokenizer.truncate(SAMPLE, 10),
          "Lumen is a note-taking app. ルーメンは",
        );
      },
    },
    {
      name: "Tool receives task context / fails without it / returns the truncation warning",
      async run() {
        const sent: string[] = [];
        const tool = defineContextTool({
          name: "understand_image",
          description: "",
          parameters: { type: "object", properties: { prompt: { type: "string" } } },
          execute(input: { prompt: string }, { prependTaskContext }) {
            sent.push(prependTaskContext(input.prompt));
            return { text: "ok" };
          },
        });
        assert.deepEqual(
          await tool.execute(
            { prompt: "Describe." },
            { workspace: memoryWorkspace({ "CONTEXT.md": "Lumen." }) },
          ),
          { success: true, text: "ok" },
        );
        assert.deepEqual(sent, ["[Task Context]\nLumen.\n\n[Request]\nDescribe."]);
        const missing = await tool.execute({ prompt: "x" }, { workspace: memoryWorkspace() });
        assert.equal(missing.success, false);
        assert.equal(sent.length, 1);
        const long = await tool.execute(
          { prompt: "x" },
          { workspace: memoryWorkspace({ "CONTEXT.md": "c".repeat(10_001) }) },
        );
        assert.deepEqual(long, {
          success: true,
          text: "ok",
          warning:
            "CONTEXT.md was truncated from 10001 to 10000 characters (limit 10000). Consider shortening it.",
        });
      },
    },
    {
      name: "memory workspaces refuse paths that leave the workspace",
      async run() {
        const workspace = memoryWorkspace({ "CONTEXT.md": "x" });
        for (const path of ["../CONTEXT.md", "/etc/passwd", "a\\..\\b", "x\0y", ""]) {
          await assert.rejects(() => workspace.readFile(path), "INVALID_WORKSPACE_PATH");
        }
      },
    },
  ],
});
