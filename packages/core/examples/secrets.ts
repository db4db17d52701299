// Finding and redacting secrets; loading CONTEXT.md with a secrets policy. Run by
// src/secrets/examples.test.ts.
import {
  findSecrets,
  loadTaskContext,
  redactSecrets,
  SecretInContextError,
  type Workspace,
} from "@task-context/core";

/** What `findSecrets` reports for a password in a URL. */
export function findExample(password: string) {
  //#region findSecrets
  const [finding] = findSecrets(`Deploy with\nDATABASE_URL=postgres://app:${password}@db:5432/app`);
  // { kind: "url-password", label: "a password in a URL", line: 2, column: 29, start: 40, end: 48 }
  //#endregion
  return finding;
}

/** What `redactSecrets` makes of the same text. */
export function redactExample(password: string) {
  //#region redactSecrets
  const { text, redactions } = redactSecrets(
    `Deploy with\nDATABASE_URL=postgres://app:${password}@db:5432/app`,
  );
  // text: "Deploy with\nDATABASE_URL=postgres://app:[redacted: url-password]@db:5432/app"
  // redactions: [{ kind: "url-password", line: 2 }]
  //#endregion
  return { text, redactions };
}

/** Loading with each policy. */
export async function loadExample(workspace: Workspace) {
  //#region secretsPolicy
  // The default, "redact": secrets become [redacted: <kind>]; `warning` and `redactions` say so.
  const context = await loadTaskContext(workspace);
  if (context.redactions) console.warn(context.warning);

  // "refuse": nothing is delivered while CONTEXT.md holds a secret.
  try {
    await loadTaskContext(workspace, { secrets: "refuse" });
  } catch (error) {
    if (!SecretInContextError.isInstance(error)) throw error;
    console.error(error.redactions); // [{ kind: "openai-api-key", line: 3 }]: kinds and lines, never values
  }

  // "allow": the text as written (only for recipients you trust with it).
  const asWritten = await loadTaskContext(workspace, { secrets: "allow" });
  //#endregion
  return { context, asWritten };
}
