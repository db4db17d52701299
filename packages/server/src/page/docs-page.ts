// GET /docs: a readable reference of the contract, rendered on the server from the OpenAPI
// document (no script, no external assets: it works offline and under a strict CSP).

type Json = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const methods = ["get", "post", "put", "patch", "delete"] as const;

/** A schema in one line: `WorkItem`, `WorkItem[]`, `string`, or `object`. */
function schemaName(schema: unknown): string {
  if (typeof schema !== "object" || schema === null) return "any";
  const value = schema as Json;
  if (typeof value.$ref === "string") return value.$ref.split("/").at(-1) ?? "object";
  // An error response: the Error schema, narrowed to the codes it answers with.
  if (Array.isArray(value.allOf) && value.allOf.length === 1) return schemaName(value.allOf[0]);
  if (value.type === "array") return `${schemaName(value.items)}[]`;
  return typeof value.type === "string" ? value.type : "object";
}

function schemaLink(schema: unknown): string {
  const name = schemaName(schema);
  const bare = name.replace(/\[\]$/, "");
  return /^[A-Z]/.test(bare)
    ? `<a href="#schema-${escapeHtml(bare)}">${escapeHtml(name)}</a>`
    : escapeHtml(name);
}

function contentSchema(content: unknown): unknown {
  if (typeof content !== "object" || content === null) return undefined;
  const [first] = Object.values(content as Json) as Json[];
  return first?.schema;
}

function renderOperation(path: string, method: string, operation: Json): string {
  const parameters = (operation.parameters as Json[] | undefined) ?? [];
  const body = operation.requestBody as Json | undefined;
  const responses = Object.entries((operation.responses as Json | undefined) ?? {});
  const id = escapeHtml(String(operation.operationId ?? `${method}-${path}`));
  return `<section class="operation" id="${id}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(operation.summary ?? ""))} <small>(${escapeHtml(String(operation["x-audience"] ?? ""))})</small></p>
${operation.description === undefined ? "" : `<p>${escapeHtml(String(operation.description))}</p>`}
${
  parameters.length === 0
    ? ""
    : `<table><tr><th>parameter</th><th>in</th><th>type</th><th>description</th></tr>${parameters
        .map(
          (parameter) =>
            `<tr><td><code>${escapeHtml(String(parameter.name))}</code></td><td>${escapeHtml(String(parameter.in))}</td><td>${schemaLink(parameter.schema)}</td><td>${escapeHtml(String(parameter.description ?? (parameter.schema as Json | undefined)?.description ?? ""))}</td></tr>`,
        )
        .join("")}</table>`
}
${body === undefined ? "" : `<p>Body: ${schemaLink(contentSchema(body.content))}</p>`}
<ul>${responses
    .map(([status, response]) => {
      const value = response as Json;
      const schema = contentSchema(value.content);
      const codes = ((schema as Json | undefined)?.properties as Json | undefined)?.code as
        | Json
        | undefined;
      const codeList = Array.isArray(codes?.enum)
        ? ` <code>${codes.enum.map((code) => escapeHtml(String(code))).join("</code>, <code>")}</code>`
        : "";
      return `<li><b>${escapeHtml(status)}</b> ${escapeHtml(String(value.description ?? ""))}${schema === undefined ? "" : ` — ${schemaLink(schema)}${codeList}`}</li>`;
    })
    .join("")}</ul>
</section>`;
}

/** The HTML reference page of an OpenAPI document. */
export function renderDocsPage(document: Json): string {
  const info = (document.info as Json | undefined) ?? {};
  const paths = Object.entries((document.paths as Json | undefined) ?? {});
  const tags = ((document.tags as Json[] | undefined) ?? []).map((tag) => String(tag.name));
  const schemas = Object.entries(
    ((document.components as Json | undefined)?.schemas as Json | undefined) ?? {},
  );
  const sections = tags.map((tag) => {
    const operations = paths.flatMap(([path, item]) =>
      methods
        .filter((method) => {
          const operation = (item as Json)[method] as Json | undefined;
          return (operation?.tags as string[] | undefined)?.includes(tag) === true;
        })
        .map((method) => renderOperation(path, method, (item as Json)[method] as Json)),
    );
    return `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${operations.join("\n")}`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(info.title ?? "API"))}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1f}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f5f5f7;padding:.75rem;overflow:auto}
.operation{border-top:1px solid #ddd;padding:.5rem 0}.method{display:inline-block;min-width:3.5rem;font-size:.8em;padding:.1rem .4rem;border-radius:.25rem;color:#fff;background:#555}
.get{background:#2b7a3d}.post{background:#1f5fa8}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
</style></head><body>
<h1>${escapeHtml(String(info.title ?? "API"))} <small>${escapeHtml(String(info.version ?? ""))}</small></h1>
<p>${escapeHtml(String(info.description ?? ""))}</p>
<p>The machine-readable contract: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1). Published schemas: <a href="/v1/schemas">/v1/schemas</a>.</p>
${sections.join("\n")}
<h2 id="schemas">Schemas</h2>
${schemas.map(([name, schema]) => `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></section>`).join("\n")}
</body></html>`;
}
