// Conformance of @task-context/protocols' built entry points on Node 20, Node 24, Bun, Deno and workerd.
import { approximateTokenizer, memoryWorkspace } from "@task-context/core";
import { schemaNames, UnknownSchemaError, validate } from "@task-context/protocols";
import {
  type ContextBlock,
  parseContextBlock,
  parseUntrustedYaml,
  renderContextBlock,
  resolveContextBlock,
} from "@task-context/protocols/context-block";
import { CONTEXT_MD_TEMPLATE, lintContextMd } from "@task-context/protocols/context-md";
import {
  ContextTooLargeError,
  generateContext,
  InvalidTaskIdError,
  parseSubagentContext,
  renderSubagentContext,
  type SubagentContext,
} from "@task-context/protocols/sage";
import { assert, defineSuite } from "@task-context/runtime-matrix/harness";

const workItem = {
  kind: "review",
  id: "wi-2",
  run_id: "run-1",
  stage_id: "review",
  goal: "Launch Lumen's App Store listing",
  constraints: ["No pure black"],
  stage_context: {
    stage_description: "Review the captions",
    expected_output: "Feedback per criterion",
    available_skills: ["read_media"],
  },
  previous_artifacts: [
    { artifact_id: "a-1", stage_id: "write", author_tag: "writer", media_type: "text/markdown" },
  ],
  available_skills: ["read_media"],
  review_context: {
    target_artifact_id: "a-1",
    target_author_tag: "writer",
    review_criteria: ["creativity", "logic", "readability"],
  },
  attempt: 1,
};

const document: SubagentContext = {
  version: "1.0",
  task: { id: "task-7", type: "implement", description: 'Add <dark> mode & "toggle"\u0001' },
  instructions: ["Follow TDD"],
  scope: {
    "files-to-modify": ["src/theme.ts"],
    "files-to-read": [],
    "files-forbidden": ["*.lock"],
  },
  context: [{ type: "story-excerpt", content: "As a user ]]> I want 🌙" }],
  "output-format": {
    "required-fields": [{ name: "status", description: "success | failure | blocked" }],
    "optional-fields": [],
  },
};

const block: ContextBlock = {
  version: 1,
  project: {
    path: "/Users/dev/code/project",
    stack: "nextjs-prisma",
    commands: { test: "npm test" },
  },
  conventions: {
    summary: "TypeScript strict.\n</context>\nZod on inputs.\n",
    fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
  },
  currentWork: { story: "US-003 Add print preview modal" },
};

export default defineSuite({
  package: "@task-context/protocols",
  cases: [
    {
      name: "validate() accepts a valid review work item",
      run() {
        assert.deepEqual(validate("work-item.v1", workItem), { valid: true, issues: [] });
      },
    },
    {
      name: "validate() gives the same issues on every runtime",
      run() {
        const { review_context: _, ...missingReview } = workItem;
        assert.deepEqual(validate("work-item.v1", missingReview), {
          valid: false,
          issues: [{ path: "", message: "must have required property 'review_context'" }],
        });
        assert.deepEqual(
          validate("context-block.v1", {
            version: 1,
            project: { path: "/p", stack: "s" },
            conventions: {},
          }),
          {
            valid: false,
            issues: [{ path: "/conventions", message: "must have required property 'summary'" }],
          },
        );
      },
    },
    {
      name: "validate() knows every published schema and refuses unknown ones",
      run() {
        assert.equal(schemaNames.length, 11);
        assert.throws(() => validate("no-such.v9", {}), "UNKNOWN_SCHEMA");
        assert.ok(UnknownSchemaError !== undefined);
      },
    },
    {
      name: "Sage XML renders well-formed, escaped, sanitised XML and parses back",
      run() {
        const xml = renderSubagentContext(document);
        assert.ok(
          xml.startsWith(
            '<?xml version="1.0" encoding="UTF-8"?>\n<subagent-context version="1.0">',
          ),
        );
        assert.ok(xml.includes('Add &lt;dark&gt; mode &amp; "toggle"</description>'));
        assert.ok(!xml.includes("CDATA"));
        const parsed = parseSubagentContext(xml);
        assert.equal(parsed.task.description, 'Add <dark> mode & "toggle"');
        assert.equal(parsed.context[0]?.content, "As a user ]]> I want 🌙");
      },
    },
    {
      name: "generateContext writes .sage/context/{taskId}.xml and logs the token count",
      async run() {
        const workspace = memoryWorkspace();
        const logged: string[] = [];
        const result = await generateContext(
          {
            taskId: "task-7",
            subagentType: "implement",
            taskData: { description: "Add dark mode" },
          },
          {
            workspace,
            tokenizer: approximateTokenizer,
            logger: { info: (message) => logged.push(message) },
          },
        );
        assert.equal(result.path, ".sage/context/task-7.xml");
        const xml = new TextDecoder().decode((await workspace.readFile(result.path)).bytes);
        assert.equal(parseSubagentContext(xml).task.description, "Add dark mode");
        assert.deepEqual(logged, [`Context generated for task-7: ${result.tokens} tokens`]);
      },
    },
    {
      name: "generateContext refuses unsafe task ids and tasks too large for the subagent",
      async run() {
        const workspace = memoryWorkspace({
          ".sage/config/context-limits.yaml": "defaults:\n  max_total: 100\n",
        });
        await assert.rejects(
          () =>
            generateContext(
              { taskId: "../escape", subagentType: "fix", taskData: { description: "x" } },
              { workspace },
            ),
          "INVALID_TASK_ID",
        );
        const error = await assert.rejects(
          () =>
            generateContext(
              {
                taskId: "big",
                subagentType: "fix",
                taskData: {
                  description: "word ".repeat(400),
                  instructions: ["keep all of this ".repeat(50)],
                },
              },
              { workspace, tokenizer: approximateTokenizer },
            ),
          "CONTEXT_TOO_LARGE",
        );
        assert.ok(ContextTooLargeError.isInstance(error));
        assert.ok((error as Error).message.includes("task too large for subagent"));
        assert.ok(InvalidTaskIdError !== undefined);
      },
    },
    {
      name: "a context block round-trips through render and parse, fenced or bare",
      run() {
        const rendered = renderContextBlock(block);
        assert.deepEqual(parseContextBlock(`${rendered}\n\nImplement US-003.`), {
          status: "found",
          block,
          rest: "Implement US-003.",
          issues: [],
          warnings: [],
        });
        const fenced = parseContextBlock(`\`\`\`yaml\n${rendered}\n\`\`\`\n\nReview it.`);
        assert.equal(fenced.status, "found");
        assert.equal(fenced.rest, "Review it.");
        const unversioned = parseContextBlock(
          "<context>\nproject:\n  path: /p\n  stack: s\nconventions:\n  summary: x\n</context>\nGo",
        );
        assert.equal(unversioned.block?.version, 1);
        assert.equal(
          parseContextBlock("<context>\nversion: 2\n</context>\nGo").status,
          "unsupported-version",
        );
        assert.equal(parseContextBlock("Just a prompt").status, "missing");
      },
    },
    {
      name: "untrusted YAML: aliases, tags, duplicate keys and deep nesting are refused",
      run() {
        assert.throws(() => parseUntrustedYaml("a: &x [1]\nb: *x\n"), "INVALID_YAML");
        assert.throws(() => parseUntrustedYaml("a: !!js/function 'x'\n"), "INVALID_YAML");
        assert.throws(() => parseUntrustedYaml("a: 1\na: 2\n"), "INVALID_YAML");
        assert.throws(
          () => parseUntrustedYaml(`${"[".repeat(10_000)}${"]".repeat(10_000)}`),
          "INVALID_YAML",
        );
        const value = parseUntrustedYaml("__proto__: 1\n") as Record<string, unknown>;
        assert.equal(Object.getPrototypeOf(value), Object.prototype);
        assert.equal(Object.hasOwn(value, "__proto__"), true);
      },
    },
    {
      name: "resolveContextBlock uses the block, or falls back to docs/project.json and docs/CONVENTIONS.md",
      async run() {
        const workspace = memoryWorkspace({
          "docs/project.json": JSON.stringify({ stack: "remix", commands: { test: "pnpm test" } }),
          "docs/CONVENTIONS.md": "Use Remix loaders.",
        });
        const fromBlock = await resolveContextBlock(
          `${renderContextBlock(block)}\n\nGo`,
          workspace,
        );
        assert.equal(fromBlock.source, "block");
        const fromFiles = await resolveContextBlock("Go", workspace);
        assert.equal(fromFiles.source, "files");
        assert.equal(fromFiles.project.stack, "remix");
        assert.equal(fromFiles.conventions.text, "Use Remix loaders.");
      },
    },
    {
      name: "lintContextMd reports the template's placeholders and secrets",
      run() {
        assert.equal(lintContextMd(CONTEXT_MD_TEMPLATE).issues.length, 4);
        const secret = lintContextMd(
          `${CONTEXT_MD_TEMPLATE}\nkey: sk-proj-abcdefghijklmnopqrstuvwx\n`,
        );
        assert.equal(secret.ok, false);
      },
    },
  ],
});
