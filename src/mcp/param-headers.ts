/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` over HTTP (SEP-2243, docs/MCP.md "Over
 * HTTP"): a tool argument its schema marks with `x-mcp-header` (`table`, as `Mcp-Param-Table`) is
 * mirrored by the client in that header, so what routes or logs requests sees it without the body.
 * The server must refuse a call whose body carries such an argument and whose header is missing,
 * not valid Base64 where it says it is (`=?base64?…?=`), or decodes to another value: 400 with
 * JSON-RPC -32020 (HeaderMismatch). The SDK checks this for its McpServer only; this server's
 * tools are its own (decision 0163), so the check is here. Pure: the call and headers in, a
 * refusal out.
 */

/** JSON-RPC's HeaderMismatch code (2026-07-28). */
export const HEADER_MISMATCH = -32020;

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The arguments a tool's listed input schema mirrors in headers: argument name to header name. */
export function mirroredArguments(inputSchema: Record<string, unknown>): Map<string, string> {
  const mirrored = new Map<string, string>();
  for (const [name, property] of Object.entries((inputSchema.properties ?? {}) as Record<string, unknown>)) {
    const header = (property as { "x-mcp-header"?: unknown })["x-mcp-header"];
    if (typeof header === "string") mirrored.set(name, header);
  }
  return mirrored;
}

/** Why a call's `Mcp-Param-*` headers disagree with its arguments, or null when they agree (an argument left out needs no header). */
export function paramHeaderMismatch(
  mirrored: ReadonlyMap<string, string>,
  args: unknown,
  header: (name: string) => string | undefined,
): string | null {
  for (const [name, suffix] of mirrored) {
    const value = typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : undefined;
    if (value === undefined || value === null || typeof value === "object") continue;
    const key = `Mcp-Param-${suffix}`;
    const given = header(key);
    if (given === undefined) return `the body carries ${name}=${JSON.stringify(value)} but the ${key} header is absent`;
    const decoded = decode(given.trim());
    if (decoded === undefined) return `the ${key} header carries an invalid Base64 sentinel value`;
    if (decoded !== String(value))
      return `the ${key} header decodes to ${JSON.stringify(decoded)} but the body carries ${name}=${JSON.stringify(value)}`;
  }
  return null;
}

/** A header value as written: literal, or the UTF-8 text of a canonical Base64 sentinel; undefined for a sentinel that is not. */
function decode(value: string): string | undefined {
  const sentinel = SENTINEL.exec(value);
  if (!sentinel) return value;
  if (!CANONICAL_BASE64.test(sentinel[1]!)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Buffer.from(sentinel[1]!, "base64"));
  } catch {
    return undefined;
  }
}
