import { sha256Hex } from "@task-context/core/internal";
import { isId } from "../delivery/ids.ts";

/** Crockford's base32 in lower case, as the service's identifiers use it. */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** Who sent an A2A request: the admin, or a client token (by the SHA-256 of its text). */
export type Sender = { kind: "admin" } | { kind: "client"; tokenSha256: string };

/** A sender as one string, for hashing. */
const senderText = (sender: Sender) =>
  sender.kind === "admin" ? "admin" : `client:${sender.tokenSha256}`;

/**
 * The run an A2A message creates, named by the message: `run_` and 26 characters of base32 from
 * a SHA-256 over a secret of the service, the sender and the message's id. The same message sent
 * again names the same run, on every store and every instance, with nothing more to persist.
 * The first character stays within `0`–`7`, as in a ULID.
 */
export async function runIdOfMessage(
  secret: string,
  sender: Sender,
  messageId: string,
): Promise<string> {
  const hex = await sha256Hex(
    JSON.stringify(["a2a-message", secret, senderText(sender), messageId]),
  );
  let id = alphabet[Number.parseInt(hex.slice(0, 1), 16) % 8] as string;
  // 25 characters of 5 bits each from the next 128 bits.
  let bits = BigInt(`0x${hex.slice(1, 33)}`);
  for (let index = 0; index < 25; index++) {
    id += alphabet[Number(bits & 31n)];
    bits >>= 5n;
  }
  return `run_${id}`;
}

/** The seal of a client's task id: 24 hex digits of a SHA-256 over the secret, client and run. */
async function seal(secret: string, sender: Sender, runId: string): Promise<string> {
  return (await sha256Hex(JSON.stringify(["a2a-task", secret, senderText(sender), runId]))).slice(
    0,
    24,
  );
}

/**
 * The A2A task id of a run, for `sender`: the run's id for the admin (every run is the admin's
 * task); for a client token, the run's id, `.` and a seal only the service can make for that
 * token and run — so a client token reaches the tasks it created and no other.
 */
export async function taskIdOf(secret: string, sender: Sender, runId: string): Promise<string> {
  return sender.kind === "admin" ? runId : `${runId}.${await seal(secret, sender, runId)}`;
}

/**
 * The run a task id names for `sender`, or undefined when it names none the sender may see: the
 * admin may give a run id or any client's task id; a client token only its own task ids.
 */
export async function runIdOfTask(
  secret: string,
  sender: Sender,
  taskId: string,
): Promise<string | undefined> {
  const [runId = "", sealed, ...rest] = taskId.split(".");
  if (!isId("run", runId) || rest.length > 0) return undefined;
  if (sender.kind === "admin")
    return sealed === undefined || /^[0-9a-f]{24}$/.test(sealed) ? runId : undefined;
  return sealed === (await seal(secret, sender, runId)) ? runId : undefined;
}
