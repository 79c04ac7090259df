/**
 * The checks every HTTP request to `trestle mcp --http` passes before the MCP transport sees it
 * (docs/MCP.md "Over HTTP", docs/SECURITY.md): the Host header names this loopback listener
 * (a DNS-rebinding page's requests carry its own host name), an Origin, when present, is this
 * listener's own (a web page's fetch carries the page's origin), and the bearer token this run
 * printed, compared in constant time. A refusal names what failed, never the token.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** A refusal: the HTTP status and a one-line reason. */
export interface Refusal {
  status: 401 | 403;
  reason: string;
}

/** The host names a request may use for this listener: the loopback address and `localhost`, with the port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Checks Host, then Origin, then the bearer token; null when the request may go on. */
export function accessRefusal(headers: IncomingHttpHeaders, port: number, token: string): Refusal | null {
  const hosts = allowedHosts(port);
  if (headers.host === undefined || !hosts.includes(headers.host))
    return {
      status: 403,
      reason: `Host ${JSON.stringify(headers.host ?? "")} is not this server (${hosts.join(" or ")})`,
    };
  const origin = headers.origin;
  if (origin !== undefined && !hosts.some((host) => origin === `http://${host}`))
    return { status: 403, reason: `Origin ${JSON.stringify(origin)} may not call this server` };
  const given = bearerToken(headers.authorization);
  if (given === undefined)
    return { status: 401, reason: "send the bearer token trestle mcp --http printed: Authorization: Bearer <token>" };
  if (!sameSecret(given, token)) return { status: 401, reason: "wrong bearer token (a new one is printed each run)" };
  return null;
}

/** The token of an `Authorization: Bearer <token>` header: the scheme in any case and one or more spaces before the token (RFC 9110 §11.1, §11.4); undefined for any other header. */
function bearerToken(authorization: string | undefined): string | undefined {
  return /^bearer +(\S+)$/i.exec(authorization ?? "")?.[1];
}

/** Constant-time equality of two secrets of any length (compared as SHA-256 digests). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
