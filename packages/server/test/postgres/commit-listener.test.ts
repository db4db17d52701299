// The connection that hears other instances' commits, lost while PostgreSQL refuses new
// connections: postgres.js's own listen() tries once to listen again, fails and gives up (the
// chaos `pool` scenario found an instance deaf for good); CommitListener keeps trying.
import postgres from "postgres";
import { describe, expect, it, onTestFinished } from "vitest";
import { CommitListener } from "../../src/postgres/commit-listener.ts";
import { newDatabase, reason, title } from "./services.ts";

/** Polls `holds` until it is true, every 20 ms (30 s at most: it bounds a hang). */
async function until(holds: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`blocked: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(reason !== undefined)(title("CommitListener"), () => {
  it("listens again once its lost connection can be made again, however many attempts fail before", async () => {
    const database = await newDatabase();
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    // Connections to the database are refused from another database's session.
    const server = new URL(database.url);
    server.pathname = "/postgres";
    const owner = postgres(server.href, { max: 1, onnotice: () => {} });
    const heard: string[] = [];
    let listenedAgain = 0;
    const listener = await CommitListener.start(database.url, { onnotice: () => {} }, "runs", {
      notified: (payload) => heard.push(payload),
      listeningAgain: () => {
        listenedAgain += 1;
      },
    });
    const name = new URL(database.url).pathname.slice(1);
    onTestFinished(async () => {
      await owner.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await listener.end(1000);
      await Promise.all([admin.end(), owner.end()]);
      await database.drop();
    });
    await admin`NOTIFY runs, 'before'`;
    await until(() => heard.length === 1, "the first notification was not heard");
    expect(listenedAgain).toBe(0);

    await owner.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    const terminated = await owner<{ pid: number }[]>`
      SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
      WHERE datname = ${name} AND query ILIKE 'listen %'`;
    expect(terminated.length).toBe(1);
    await until(() => listener.failedAttempts >= 2, "no attempt to listen again failed");
    expect(listener.relistening).toBe(true);

    await owner.unsafe(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    await until(() => !listener.relistening, "the listener did not listen again");
    // What was notified while it was not listening was not heard: its waiters are told to look.
    expect(listenedAgain).toBe(1);
    await admin`NOTIFY runs, 'after'`;
    await until(() => heard.length === 2, "the notification after was not heard");
    expect(heard).toEqual(["before", "after"]);
  });

  it("rejects when it cannot listen at first, and ends its connection", async () => {
    const database = await newDatabase();
    onTestFinished(() => database.drop());
    const url = new URL(database.url);
    url.pathname = "/no_such_database";
    await expect(
      CommitListener.start(url.href, { onnotice: () => {} }, "runs", { notified: () => {} }),
    ).rejects.toMatchObject({ code: "3D000" });
  });
});
