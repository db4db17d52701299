import { fromJsonPointer } from "@task-context/protocols/internal";
import {
  findNodeAtLocation,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { positionFinder, type SourcePosition } from "./source-position.ts";

/** A parsed JSON document that can say where a JSON Pointer's field is written. */
export interface LocatedSource {
  /** The parsed value, or undefined when the text does not parse. */
  value: unknown;
  /** Syntax errors, with their positions. */
  syntaxErrors: Array<SourcePosition & { message: string }>;
  /** Where the field at `pointer` is written; its nearest written parent for a missing field. */
  locate(pointer: string): SourcePosition;
}

/** Parses strict JSON, keeping offsets (jsonc-parser's tree) to place each issue. */
export function parseJsonSource(text: string): LocatedSource {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const at = positionFinder(text);
  const syntaxErrors = errors.map((error) => ({
    ...at(error.offset),
    message: `JSON syntax error: ${describeJsonError(printParseErrorCode(error.error))}.`,
  }));
  let value: unknown;
  if (syntaxErrors.length === 0) value = JSON.parse(text);
  return {
    value,
    syntaxErrors,
    locate(pointer) {
      if (root === undefined) return { line: 1, column: 1 };
      const path = fromJsonPointer(pointer).map((segment) =>
        /^\d+$/.test(segment) ? Number(segment) : segment,
      );
      let node: Node | undefined;
      for (let length = path.length; length >= 0 && node === undefined; length--) {
        node = findNodeAtLocation(root, path.slice(0, length));
      }
      const target = node ?? root;
      // A property's value: show where its key starts.
      const shown = target.parent?.type === "property" ? target.parent : target;
      return at(shown.offset);
    },
  };
}

/** jsonc-parser's code names in words: `CloseBraceExpected` → `close brace expected`. */
function describeJsonError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
