// What the push notification tests share: a free port for a service whose public URL must be
// known before it starts, and a pushing agent whose tasks wait for the test.
import { createServer } from "node:net";
import { DatabaseSync } from "node:sqlite";
import type { A2aAgentOptions } from "./a2a-agent.ts";
import { cues, waitFor } from "./harness.ts";
import { type PushMode, pushSender, type SentNotification } from "./push-sender.ts";

/** A free loopback port: a service's public URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The options of a pushing "Writer" agent (copywriting) whose every task says `working`, then
 * waits for the test to open `cue` before it completes; what it sends is recorded in `sent`.
 */
export function cuedPusher(mode: PushMode = "deliver") {
  const cue = cues();
  const sent: SentNotification[] = [];
  const options: A2aAgentOptions = {
    name: "Writer",
    skills: [{ id: "copywriting" }],
    streaming: false,
    push: pushSender(mode, sent),
    behaviour: async (task) => {
      task.working();
      await cue.wait();
      task.complete();
    },
  };
  return { options, cue, sent };
}

/**
 * Waits until the service's SQLite file holds the A2A task's id of its one push attempt: the
 * agent's answer to the message was taken (a test that stops the service waits for it).
 */
export async function untilTaskStored(database: string): Promise<void> {
  const file = new DatabaseSync(database, { readOnly: true });
  try {
    await waitFor(
      "the attempt's task in the database",
      () => file.prepare("SELECT task_id FROM a2a_push_tasks").get()?.task_id,
      (taskId) => typeof taskId === "string",
    );
  } finally {
    file.close();
  }
}
