import { requireString } from "@task-context/core/internal";
import { type SaxesOptions, SaxesParser, type SaxesTagPlain } from "saxes";
import {
  InvalidSubagentContextError,
  type SubagentContextIssue,
} from "../errors/invalid-subagent-context-error.ts";
import { type SubagentContext, subagentContextSchema } from "../schemas/subagent-context.ts";
import { checkValue, fromJsonPointer, toJsonPointer } from "../validate/issues.ts";

/** What an open element holds, which decides the children and text it accepts. */
type Role =
  | "root"
  | "task"
  | "scope"
  | "output-format"
  | "list" // instructions, files-to-modify, files-to-read, files-forbidden
  | "items" // context
  | "fields" // required-fields, optional-fields
  | "leaf"; // text only

interface Frame {
  role: Role;
  name: string;
  /** JSON Pointer of the value in the document object, for issues. */
  path: string;
  /** Names of the children seen so far, for elements that may appear once. */
  seen: Set<string>;
  /** For "list": the element name of its entries. */
  entry?: string;
  /** For "task", "scope" and "output-format": the object children are written to. */
  object?: Record<string, unknown>;
  /** For "list", "items" and "fields": the array children are appended to. */
  array?: unknown[];
  /** For "leaf": the text read so far and where it goes when the element closes. */
  text: string;
  assign?: (text: string) => void;
}

const ROOT_ELEMENT = "subagent-context";
const ROOT_SECTIONS = ["task", "instructions", "scope", "context", "output-format"];
const TASK_FIELDS = ["id", "type", "description", "story-ref"];
const SCOPE_LISTS: Record<string, string> = {
  "files-to-modify": "file",
  "files-to-read": "file",
  "files-forbidden": "pattern",
};
const FORMAT_LISTS = ["required-fields", "optional-fields"];
const NOT_WHITESPACE = /[^ \t\n\r]/;

/** A structural problem found while reading; carries no position (the parser's is used). */
class StructureProblem extends Error {}

/**
 * Parses a Sage `<subagent-context version="1.0">` document and returns it as the
 * object `renderSubagentContext` takes. The XML is read by a strict parser (saxes): it must be
 * well-formed, a DOCTYPE is refused (so no DTD, no external or custom entities), namespaces are
 * not processed, comments and processing instructions are ignored, and CDATA sections count as
 * text. Elements and attributes outside Sage's shape are refused; leaf text is kept exactly,
 * whitespace included.
 *
 * See https://github.com/task-context/task-context/blob/main/docs/sage-context.md.
 *
 * @throws {InvalidSubagentContextError} (`code: "INVALID_SUBAGENT_CONTEXT"`) naming the line and
 *   column of the first problem, for ill-formed XML, an unexpected element or attribute, or a
 *   value that does not match `subagentContextSchema` (such as an unknown task type).
 * @throws {ArgumentError} when `xml` is not a string.
 *
 * @example
 * ```ts source="../../examples/parse-subagent-context.ts"
 * import { parseSubagentContext } from "@task-context/protocols/sage";
 *
 * const doc = parseSubagentContext(
 *   '<subagent-context version="1.0"><task><id>T-1</id><type>plan</type><description>Plan the export</description></task><instructions/><scope><files-to-modify/><files-to-read/><files-forbidden/></scope><context/><output-format><required-fields/><optional-fields/></output-format></subagent-context>',
 * );
 * console.log(doc.task); // { id: "T-1", type: "plan", description: "Plan the export" }
 * ```
 */
export function parseSubagentContext(xml: string): SubagentContext {
  requireString("xml", xml);
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  const options = { xmlns: false, position: true } satisfies SaxesOptions;
  const parser = new SaxesParser(options);
  const stack: Frame[] = [];
  const doc: Record<string, unknown> = {};
  const positions = new Map<string, { line: number; column: number }>();
  const here = () => ({ line: parser.line, column: parser.column + 1 });

  const fail = (message: string): never => {
    throw new StructureProblem(message);
  };
  const open = (frame: Omit<Frame, "seen" | "text">) => {
    stack.push({ ...frame, seen: new Set(), text: "" });
    positions.set(frame.path, here());
  };
  const onlyAttributes = (tag: SaxesTagPlain, allowed: readonly string[]) => {
    for (const name of Object.keys(tag.attributes)) {
      if (!allowed.includes(name)) {
        fail(
          allowed.length === 0
            ? `<${tag.name}> takes no attributes, found ${name}="…"`
            : `<${tag.name}> takes only ${allowed.slice(0, -1).join(", ")}${allowed.length > 1 ? " and " : ""}${allowed.at(-1)} attributes, found ${name}="…"`,
        );
      }
    }
  };
  const once = (parent: Frame, name: string, allowed: readonly string[]) => {
    if (!allowed.includes(name)) {
      fail(
        `<${name}> is not allowed inside <${parent.name}>; expected ${allowed.map((child) => `<${child}>`).join(", ")}`,
      );
    }
    if (parent.seen.has(name)) fail(`<${name}> appears more than once inside <${parent.name}>`);
    parent.seen.add(name);
  };
  // Element names hold neither "/" nor "~", so they need no escaping in a JSON Pointer.
  const child = (parent: Frame, key: string) => `${parent.path}/${key}`;

  parser.on("doctype", () => fail("a DOCTYPE is not allowed (no DTDs or custom entities)"));
  parser.on("error", (error) => {
    throw new StructureProblem(error.message.replace(/^\d+:\d+: /, ""));
  });
  parser.on("opentag", (tag) => {
    const parent = stack.at(-1);
    const { name } = tag;
    if (parent === undefined) {
      if (name !== ROOT_ELEMENT)
        fail(`the root element must be <${ROOT_ELEMENT}>, found <${name}>`);
      onlyAttributes(tag, ["version"]);
      doc.version = tag.attributes.version;
      open({ role: "root", name, path: "" });
      return;
    }
    const path = child(parent, name);
    switch (parent.role) {
      case "root": {
        once(parent, name, ROOT_SECTIONS);
        onlyAttributes(tag, []);
        if (name === "task" || name === "scope" || name === "output-format") {
          const object: Record<string, unknown> = {};
          doc[name] = object;
          open({ role: name, name, path, object });
        } else {
          const array: unknown[] = [];
          doc[name] = array;
          if (name === "context") open({ role: "items", name, path, array });
          else open({ role: "list", name, path, array, entry: "instruction" });
        }
        return;
      }
      case "task": {
        once(parent, name, TASK_FIELDS);
        onlyAttributes(tag, []);
        const task = parent.object as Record<string, unknown>;
        open({ role: "leaf", name, path, assign: (text) => (task[name] = text) });
        return;
      }
      case "scope":
      case "output-format": {
        once(parent, name, parent.role === "scope" ? Object.keys(SCOPE_LISTS) : FORMAT_LISTS);
        onlyAttributes(tag, []);
        const array: unknown[] = [];
        (parent.object as Record<string, unknown>)[name] = array;
        if (parent.role === "scope") {
          open({ role: "list", name, path, array, entry: SCOPE_LISTS[name] as string });
        } else open({ role: "fields", name, path, array });
        return;
      }
      case "list":
      case "items":
      case "fields": {
        const entry =
          parent.role === "list" ? parent.entry : parent.role === "items" ? "item" : "field";
        if (name !== entry)
          fail(`<${name}> is not allowed inside <${parent.name}>; expected <${entry}>`);
        const array = parent.array as unknown[];
        const entryPath = child(parent, String(array.length));
        if (parent.role === "list") {
          onlyAttributes(tag, []);
          const index = array.push("") - 1;
          open({ role: "leaf", name, path: entryPath, assign: (text) => (array[index] = text) });
        } else if (parent.role === "items") {
          onlyAttributes(tag, ["type", "untrusted", "source", "path"]);
          const { type, untrusted, source, path: itemPath } = tag.attributes;
          const item: Record<string, unknown> = { type, content: "" };
          if (untrusted !== undefined) item.untrusted = untrusted === "true" ? true : untrusted;
          if (source !== undefined) item.source = source;
          if (itemPath !== undefined) item.path = itemPath;
          array.push(item);
          open({ role: "leaf", name, path: entryPath, assign: (text) => (item.content = text) });
        } else {
          onlyAttributes(tag, ["name"]);
          const field: Record<string, unknown> = { name: tag.attributes.name, description: "" };
          array.push(field);
          open({
            role: "leaf",
            name,
            path: entryPath,
            assign: (text) => (field.description = text),
          });
        }
        return;
      }
      case "leaf":
        fail(`<${name}> is not allowed inside <${parent.name}>, which holds text only`);
    }
  });
  const onText = (content: string) => {
    const frame = stack.at(-1);
    if (frame === undefined) return; // saxes itself refuses non-whitespace outside the root
    if (frame.role === "leaf") frame.text += content;
    else if (NOT_WHITESPACE.test(content))
      fail(`text is not allowed directly inside <${frame.name}>`);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    const frame = stack.pop();
    frame?.assign?.(frame.text);
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (!(error instanceof StructureProblem)) throw error;
    throw new InvalidSubagentContextError({
      issues: [{ path: "", message: error.message, ...here() }],
      cause: error,
    });
  }

  const checked = checkValue(subagentContextSchema, doc);
  if (checked.valid) return checked.data;
  const issues = checked.issues.map((issue): SubagentContextIssue => {
    // The nearest element seen: the value's own element, or the one that should contain it.
    const keys = fromJsonPointer(issue.path);
    for (let length = keys.length; length >= 0; length--) {
      const position = positions.get(toJsonPointer(keys.slice(0, length)));
      if (position !== undefined) return { ...issue, ...position };
    }
    return issue;
  });
  throw new InvalidSubagentContextError({ issues });
}
