// Follows a run's collaboration stream (Server-Sent Events) with the client, which resumes after
// the last event it handled whenever the connection drops: no event is missed or repeated.
import { admin } from "./client.ts";

const run = process.argv[2] ?? "";

//#region follow
// Every event of the run in seq order; the iteration ends after run.completed.
for await (const event of admin.followEvents(run)) {
  console.log(event.seq, event.type);
}
// 1 run.created
// 2 work_item.offered
// 3 work_item.offered
// …
//#endregion
