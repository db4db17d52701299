import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/**
 * The inotify watches this process holds, counted by the kernel (Linux): the lines
 * `inotify wd:…` of `/proc/self/fdinfo/<fd>` for each inotify descriptor. Node's own resource
 * lists leave out unreferenced handles (`fs.watch(…, { persistent: false })`) and show a closed
 * one until its close callback ran; the kernel's count is neither.
 */
export function inotifyWatches(): number {
  let watches = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed while listing (the readdir descriptor itself)
    }
    if (target !== "anon_inode:inotify") continue;
    const info = readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
    watches += info.split("\n").filter((line) => line.startsWith("inotify wd:")).length;
  }
  return watches;
}
