import { fromJsonPointer } from "@task-context/protocols/internal";
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { LocatedSource } from "./json-source.ts";
import type { SourcePosition } from "./source-position.ts";

/** Largest YAML document parsed here: context blocks and limits files are a few kilobytes. */
const MAX_YAML_CHARS = 256 * 1024;

/**
 * Parses YAML as untrusted input (no aliases expanded, duplicate keys refused, bounded size),
 * keeping each node's position; `firstLine` is the line the text starts on in its file.
 */
export function parseYamlSource(text: string, firstLine = 1): LocatedSource {
  const lineCounter = new LineCounter();
  const shift = (position: { line: number; col: number }): SourcePosition => ({
    line: position.line + firstLine - 1,
    column: position.col,
  });
  if (text.length > MAX_YAML_CHARS) {
    return {
      value: undefined,
      syntaxErrors: [
        {
          line: firstLine,
          column: 1,
          message: `The YAML has ${text.length} characters, more than the ${MAX_YAML_CHARS} checked.`,
        },
      ],
      locate: () => ({ line: firstLine, column: 1 }),
    };
  }
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const syntaxErrors = document.errors.map((error) => ({
    ...shift(lineCounter.linePos(error.pos[0])),
    message: `YAML syntax error: ${error.message.split("\n")[0]}`,
  }));
  let value: unknown;
  if (syntaxErrors.length === 0) {
    try {
      value = document.toJS({ maxAliasCount: 0 });
    } catch (error) {
      syntaxErrors.push({
        line: firstLine,
        column: 1,
        message: `YAML error: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const offsetOf = (node: unknown) =>
    (node as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
  return {
    value,
    syntaxErrors,
    locate(pointer) {
      let node: unknown = document.contents;
      let offset = offsetOf(node);
      for (const segment of fromJsonPointer(pointer)) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment,
          );
          if (pair === undefined) break;
          offset = offsetOf(pair.key);
          node = pair.value;
        } else if (isSeq(node)) {
          const item = node.items[Number(segment)] as Node | undefined;
          if (item === undefined) break;
          offset = offsetOf(item);
          node = item;
        } else break;
      }
      return shift(lineCounter.linePos(offset));
    },
  };
}
