// Path parameters and query strings arrive percent-encoded: their bytes must be UTF-8 too. The
// router leaves an escape it cannot decode (`%FF`, `%ED%A0%80`, a lone surrogate's bytes) as it
// was sent, so `%FF` would be looked up, or stored, as the three characters "%FF".
import type { ValidationIssue } from "@task-context/protocols";
import { toJsonPointer } from "@task-context/protocols/internal";
import type { Context } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";

const escapes = /(?:%[0-9A-Fa-f]{2})+/g;

/** `run` decoded, or undefined when its bytes are not UTF-8. */
function decoded(run: string): string | undefined {
  try {
    return decodeURIComponent(run);
  } catch {
    return undefined;
  }
}

/**
 * The first run of escapes in `raw` whose bytes are not UTF-8, e.g. `%ED%A0%80`. The decoded text
 * is looked at, not only whether decoding throws: a bundler that holds `decodeURIComponent` free
 * of effects drops a call whose result is unused (rolldown did, inside a try/catch).
 */
function undecodable(raw: string): string | undefined {
  for (const [run] of raw.matchAll(escapes)) {
    if (decoded(run) === undefined) return run;
  }
  return undefined;
}

const advice = "percent-encode the UTF-8 bytes of well-formed Unicode text";

function issue(path: string, what: string, run: string): ValidationIssue {
  return { path, message: `The ${what} holds ${run}, which is not UTF-8: ${advice}.` };
}

/** An issue per path parameter of the matched route (`/v1/runs/:run_id`) that is not UTF-8. */
function pathIssues(routePath: string, pathname: string): ValidationIssue[] {
  const names = routePath.split("/");
  return pathname.split("/").flatMap((segment, index) => {
    const name = names[index];
    const run = undecodable(segment);
    if (run === undefined) return [];
    return name?.startsWith(":")
      ? [issue(toJsonPointer(["path", name.slice(1)]), `path parameter ${name.slice(1)}`, run)]
      : [issue("/path", "path", run)];
  });
}

/** An issue per query parameter (name or value) that is not UTF-8, at the parameter's pointer. */
function queryIssues(search: string): ValidationIssue[] {
  if (search === "") return [];
  return search.split("&").flatMap((pair) => {
    const [rawName = "", ...rest] = pair.split("=");
    const nameRun = undecodable(rawName);
    if (nameRun !== undefined) return [issue("", "name of a query parameter", nameRun)];
    const name = rawName.replaceAll("+", " ").replace(escapes, decodeURIComponent);
    const valueRun = undecodable(rest.join("="));
    return valueRun === undefined
      ? []
      : [issue(toJsonPointer([name]), `query parameter ${name}`, valueRun)];
  });
}

/**
 * Refuses a request whose path parameters or query string are not percent-encoded UTF-8:
 * `INVALID_REQUEST` with an issue per parameter, at `/path/<name>` for a path parameter and at
 * `/<name>` for a query parameter (as the query's schema issues).
 */
export function requireUtf8Url(c: Context): void {
  // Without an escape there is nothing to decode (most requests): no URL to parse.
  if (!c.req.url.includes("%")) return;
  const url = new URL(c.req.url);
  const issues = [
    ...pathIssues(c.req.routePath, url.pathname),
    ...queryIssues(url.search.slice(1)),
  ];
  if (issues.length === 0) return;
  throw new DeliveryError({
    code: "INVALID_REQUEST",
    message:
      "The request's path or query string holds bytes that are not UTF-8. Fix the issues listed.",
    issues,
  });
}
