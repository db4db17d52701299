// Reads the run page as a browser's parser does (parse5, the WHATWG HTML parsing algorithm), so
// that the tests see the elements and text a browser would build, not a regular expression's guess.
import { type DefaultTreeAdapterMap, parse } from "parse5";

/** An element of a parsed page. */
export type Element = DefaultTreeAdapterMap["element"];
type Node = DefaultTreeAdapterMap["node"];

/** The page as a browser's parser builds it. */
export function parsePage(text: string): Element {
  const document = parse(text);
  const html = document.childNodes.find((node): node is Element => "tagName" in node);
  if (html === undefined) throw new Error("The page has no <html> element.");
  return html;
}

/** Every element under `root` (itself included), in document order. */
export function elements(root: Element): Element[] {
  const found: Element[] = [];
  const visit = (node: Node) => {
    if ("tagName" in node) {
      found.push(node);
      // A <template>'s content is a fragment of its own.
      const content = (node as { content?: { childNodes: Node[] } }).content;
      for (const child of content?.childNodes ?? []) visit(child);
    }
    for (const child of "childNodes" in node ? node.childNodes : []) visit(child);
  };
  visit(root);
  return found;
}

/** The value of an attribute, or undefined. */
export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** The text inside an element, as `textContent` reads it. */
export function textOf(node: Node): string {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value;
  return "childNodes" in node ? node.childNodes.map(textOf).join("") : "";
}

/** The elements with that tag name under `root`. */
export function byTag(root: Element, tagName: string): Element[] {
  return elements(root).filter((element) => element.tagName === tagName);
}

/** The one element that `matches`; fails when there is none or more than one. */
export function only(root: Element, matches: (element: Element) => boolean, what: string): Element {
  const found = elements(root).filter(matches);
  if (found.length !== 1) throw new Error(`Expected one ${what}, found ${found.length}.`);
  return found[0] as Element;
}

/** Matches elements by tag and attribute value. */
export const having =
  (tagName: string, name: string, value?: string) =>
  (element: Element): boolean =>
    element.tagName === tagName &&
    (value === undefined
      ? attribute(element, name) !== undefined
      : attribute(element, name) === value);
