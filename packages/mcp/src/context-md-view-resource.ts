import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  UriTemplate,
} from "@modelcontextprotocol/server";
import { checkValue } from "@task-context/protocols/internal";
import { readContextMd } from "./context-md-resource.ts";
import { CONTEXT_MD_VIEW_URI_TEMPLATE } from "./resource-uris.ts";
import { viewArgumentSchema, viewOfArgument } from "./view-argument.ts";
import type { ViewLoader } from "./view-loader.ts";

/** The view URI without its query. */
const BASE = CONTEXT_MD_VIEW_URI_TEMPLATE.slice(0, CONTEXT_MD_VIEW_URI_TEMPLATE.indexOf("{"));

const PARAMETERS = ["name", "include", "exclude", "max_chars"] as const;

/**
 * The view template, matched more leniently than the SDK's matcher, which wants every query
 * parameter of a template present and in order: here each is optional, in any order, and a list
 * parameter may repeat (`include=A&include=B`, as RFC 6570 expands `{?include*}`).
 */
class ViewUriTemplate extends UriTemplate {
  override match(uri: string): Record<string, string | string[]> | null {
    if (!uri.startsWith(BASE)) return null;
    const query = uri.slice(BASE.length);
    if (query !== "" && !query.startsWith("?")) return null;
    const parameters = new URLSearchParams(query.slice(1));
    const variables: Record<string, string[]> = {};
    for (const [key, value] of parameters) {
      const values = variables[key] ?? [];
      values.push(value);
      variables[key] = values;
    }
    return variables;
  }
}

/** The view a URI's query asks for, checked like the tools' `view` argument. */
function viewOfVariables(uri: string, variables: Record<string, string | string[]>) {
  const unknown = Object.keys(variables).filter(
    (key) => !(PARAMETERS as readonly string[]).includes(key),
  );
  const list = (key: string) => {
    const value = variables[key];
    return value === undefined ? undefined : Array.isArray(value) ? value : [value];
  };
  const single = (key: string) => {
    const values = list(key);
    if (values !== undefined && values.length > 1) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${key} is given ${values.length} times in ${uri}; give it once.`,
        { uri },
      );
    }
    return values?.[0];
  };
  if (unknown.length > 0) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Unknown parameter ${JSON.stringify(unknown[0])} in ${uri}: a view takes ${PARAMETERS.join(", ")}.`,
      { uri },
    );
  }
  const maxChars = single("max_chars");
  const argument = {
    name: single("name"),
    include: list("include"),
    exclude: list("exclude"),
    max_chars: maxChars === undefined || !/^\d{1,15}$/.test(maxChars) ? maxChars : Number(maxChars),
  };
  const checked = checkValue(
    viewArgumentSchema,
    Object.fromEntries(Object.entries(argument).filter(([, value]) => value !== undefined)),
    { root: "view" },
  );
  if (!checked.valid) {
    const problems = checked.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid view in ${uri}: ${problems}.`,
      {
        uri,
        code: "INVALID_ARGUMENT",
      },
    );
  }
  try {
    return viewOfArgument(checked.data);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, message, {
      uri,
      code: "INVALID_ARGUMENT",
    });
  }
}

/**
 * Registers the views of CONTEXT.md as a resource template ({@link CONTEXT_MD_VIEW_URI_TEMPLATE}):
 * `…/CONTEXT.md/view?name=media` is the media preset's sections, `…/view?include=Key%20terminology`
 * that section, each with the CONTEXT.md resource's `_meta` plus `task-context/view` (name,
 * sections, the whole file's hash). A view that selects nothing, like a missing CONTEXT.md, is a
 * resource-not-found error with core's message.
 */
export function registerContextMdViewResource(server: McpServer, loadView: ViewLoader): void {
  server.registerResource(
    "CONTEXT.md view",
    new ResourceTemplate(new ViewUriTemplate(CONTEXT_MD_VIEW_URI_TEMPLATE), { list: undefined }),
    {
      title: "A view of the task context (CONTEXT.md)",
      description:
        "Only some sections of CONTEXT.md: a preset by name (media: what we are building, key terminology, brand guidelines) or headings to include or exclude. _meta holds its sha256, the view's sections and the whole file's sha256.",
      mimeType: "text/markdown",
    },
    (uri, variables) => {
      const view = viewOfVariables(uri.href, variables);
      return readContextMd(uri.href, () => loadView(view));
    },
  );
}
