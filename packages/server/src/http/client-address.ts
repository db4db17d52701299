/**
 * The client's address as the per-address rate limit counts it, on every runtime: an IPv6 client
 * by its /64 prefix, since one client holds a whole /64; `"unknown"` without an address. Node
 * passes the socket's remote address; Workers pass `CF-Connecting-IP` (which Cloudflare's edge
 * sets; `wrangler dev` passes a client's own header through).
 */
export function clientAddress(connectingIp: string | undefined): string {
  const address = connectingIp?.trim().toLowerCase() ?? "";
  if (address === "") return "unknown";
  if (!address.includes(":")) return address;
  // An IPv4 address in IPv6 form (::ffff:192.0.2.1) is that IPv4 address.
  if (address.includes(".")) return address.slice(address.lastIndexOf(":") + 1);
  const [head = "", tail] = address.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : Array(Math.max(0, 8 - left.length - right.length));
  const groups = [...left, ...zeros.fill("0"), ...right].slice(0, 4);
  return `${groups.map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
