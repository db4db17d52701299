// What the push notification tests share: a free port for a service whose public URL must be
// known before it starts, and a pushing agent whose tasks wait for the test.
import { createServer } from "node:net";
import type { A2aAgentOptions } from "./a2a-agent.ts";
import { cues } from "./harness.ts";
import { pushSender, type SentNotification } from "./push-sender.ts";

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
export function cuedPusher() {
  const cue = cues();
  const sent: SentNotification[] = [];
  const options: A2aAgentOptions = {
    name: "Writer",
    skills: [{ id: "copywriting" }],
    streaming: false,
    push: pushSender("deliver", sent),
    behaviour: async (task) => {
      task.working();
      await cue.wait();
      task.complete();
    },
  };
  return { options, cue, sent };
}
