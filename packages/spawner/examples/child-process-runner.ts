// One process per subagent: the prompt on stdin, the result as JSON on stdout.
import { childProcessRunner, spawnSubagents } from "@task-context/spawner";

//#region childProcessRunner
const runner = childProcessRunner({
  command: "/usr/local/bin/coder-agent", // run without a shell
  args: ["--json"],
  env: { MODEL: "large", DEBUG: undefined }, // added to the inherited environment; undefined removes
  killGraceMs: 2_000, // default 2 000: SIGTERM, then SIGKILL this much later
  maxOutputBytes: 1_048_576, // default 1 MiB of stdout; more fails the subagent
  maxLogBytes: 16_384, // default 16 KiB: the end of stderr kept for notes
});
const results = await spawnSubagents(
  "/srv/agents/run-42",
  [{ id: "alt-text-3", subagentType: "implement", prompt: "Write alt text for screenshot 3." }],
  { runner, workspacesRoot: "/srv/agents/run-42/subagents" },
);
//#endregion
