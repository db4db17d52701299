import { run } from "@task-context/cli";

process.exitCode = await run(["lint", "."], {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
