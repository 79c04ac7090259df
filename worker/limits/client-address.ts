/**
 * Who a request comes from, for per-address limits: the address Cloudflare puts in
 * `CF-Connecting-IP` (it overwrites any a client sends). An IPv6 address counts as its /64, the
 * block one subscriber is usually given, so hopping between its addresses buys nothing. Without
 * the header (wrangler dev, tests) every request is the one client "local".
 */

/** The key of the client that sent `request`: an IPv4 address, an IPv6 /64 prefix, or "local". */
export function clientAddress(request: Request): string {
  const raw = request.headers.get("cf-connecting-ip")?.trim().toLowerCase();
  if (!raw) return "local";
  if (!raw.includes(":")) return /^[0-9.]{7,15}$/.test(raw) ? raw : "invalid";
  return ipv6Prefix(raw) ?? "invalid";
}

/** The first four groups of an IPv6 address (expanding `::`), as `a:b:c:d::/64`; null when it is not one. */
function ipv6Prefix(text: string): string | null {
  if (!/^[0-9a-f:.]{2,45}$/.test(text)) return null;
  const [head = "", tail, extra] = text.split("::");
  if (extra !== undefined) return null;
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  if (groups.length < 4) return null;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, "") || "0")
    .join(":")}::/64`;
}
