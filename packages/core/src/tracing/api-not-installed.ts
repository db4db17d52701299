/**
 * What the runtimes say when `@opentelemetry/api` is not installed: Node and Bun (`Cannot find
 * package '…'`, or `Cannot find module '…'` from `require`), Deno (`Cannot find module '…'`),
 * workerd (`No such module "…"`). A file missing inside an installed package names that file's
 * path instead, and is not taken for an absent package.
 */
const NOT_INSTALLED = /(?:package|module) ['"]@opentelemetry\/api['"]/i;

/** Whether loading `@opentelemetry/api` failed because it is not installed (and nothing else). */
export function isApiNotInstalled(error: unknown): boolean {
  return error instanceof Error && NOT_INSTALLED.test(error.message);
}
