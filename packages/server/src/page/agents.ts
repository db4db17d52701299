import type { AgentView } from "@task-context/contract";
import { type Markup, markup } from "./markup.ts";

type A2aStatus = NonNullable<AgentView["a2a"]>;

function signatureCell({ card_signature: signature }: A2aStatus): Markup {
  if (!signature.verified) return markup`<td>unsigned</td>`;
  const from = signature.key_source === "jwks" ? "pinned key set" : (signature.jku ?? "");
  return markup`<td>✓ verified: key <code>${signature.kid ?? ""}</code> (${signature.alg ?? ""}, ${from})</td>`;
}

function checkCell({ card_check: check }: A2aStatus): Markup {
  if (check === null) return markup`<td class="muted">not recorded</td>`;
  const when = markup`<time datetime="${check.at}">${check.at}</time>`;
  if (check.outcome !== "failed") return markup`<td>${check.outcome} · ${when}</td>`;
  return markup`<td data-check="failed"><span class="dead">⚠ failed</span> · ${when}<br>${check.reason ?? ""}<br><span class="muted">The last good card is used.</span></td>`;
}

function errorsCell({ transport_errors: errors }: A2aStatus): Markup {
  if (errors.length === 0) return markup`<td class="muted">none</td>`;
  return markup`<td><ul>${errors.map(
    (error) =>
      markup`<li>${error.kind.replace("_", " ")}${error.status === undefined ? "" : ` ${error.status}`} · attempt ${error.attempt} of <code>${error.work_item_id}</code> · <time datetime="${error.at}">${error.at}</time></li>`,
  )}</ul></td>`;
}

/**
 * The run's A2A agents as a table: the interface each is sent to and its protocol version, its
 * card's signature and last check (a failed one marked, with why), its recent transport errors;
 * nothing when the run has no A2A agent.
 */
export function renderAgents(agents: readonly AgentView[]): Markup | string {
  const rows = agents.flatMap(({ tag, a2a }) =>
    a2a === undefined
      ? []
      : [
          markup`<tr data-agent-tag="${tag}">
<th scope="row">${tag}<br><span class="muted">${a2a.agent_name}</span></th>
<td><code>${a2a.interface_url}</code><br>${a2a.protocol_binding} · A2A ${a2a.protocol_version ?? "1.0"}</td>
${signatureCell(a2a)}
${checkCell(a2a)}
${errorsCell(a2a)}
</tr>`,
        ],
  );
  if (rows.length === 0) return "";
  return markup`<section aria-labelledby="agents-heading">
<h2 id="agents-heading">A2A agents</h2>
<div class="table-scroll" data-region="agents" tabindex="0" role="region" aria-label="A2A agents (scrolls sideways)">
<table>
<caption class="visually-hidden">A2A agents</caption>
<thead><tr><th scope="col">Agent</th><th scope="col">Interface</th><th scope="col">Card signature</th><th scope="col">Last card check</th><th scope="col">Recent transport errors</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
</section>`;
}
