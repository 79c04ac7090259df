/**
 * Who may talk to the principal window's local server (docs/SECURITY.md "The principal window").
 * Every request must name this server in its Host header (127.0.0.1 or localhost at its port), so
 * a page on another site that rebinds its DNS name to 127.0.0.1 is refused. A request that carries
 * an Origin must come from this server's own origin. Each API request must also carry the random
 * token from the URL `trestle view` printed, in the `X-Trestle-Token` header: a header no other
 * origin can set without a CORS preflight, which this server never grants, and a value no other
 * local user or page knows; a POST must carry this server's Origin, and a request that says it
 * came from another site (`Sec-Fetch-Site`) is refused. Pure: request facts in, a refusal out.
 */
import { timingSafeEqual } from "node:crypto";
import { TrestleError, utf8 } from "../protocol/index.js";

/** The header the page sends its token in. */
export const TOKEN_HEADER = "x-trestle-token";
/** The header the page opened at one decision sends that decision's credential in (decisions.ts). */
export const DECISION_HEADER = "x-trestle-decision";

/** What is known of a request before it is served. */
export interface RequestFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  /** The Sec-Fetch-Site header browsers send (same-origin, same-site, cross-site, none). */
  fetchSite: string | undefined;
  token: string | undefined;
  /** The decision credential (DECISION_HEADER), for the decision routes. */
  decision?: string | undefined;
}

/** What this server is: its port and its token. */
export interface WindowIdentity {
  port: number;
  token: string;
}

/** The origins this server answers as. */
export function windowOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** The refusal for a request for the page's static files (Host and Origin checked), or null. */
export function pageRefusal(facts: RequestFacts, window: WindowIdentity): TrestleError | null {
  const origins = windowOrigins(window.port);
  if (facts.host === undefined || !origins.includes(`http://${facts.host.toLowerCase()}`)) {
    return new TrestleError("E_FORBIDDEN", `the Host header must name this window (127.0.0.1:${window.port})`);
  }
  if (facts.origin !== undefined && !origins.includes(facts.origin)) {
    return new TrestleError("E_FORBIDDEN", "requests from another origin are refused");
  }
  return null;
}

/** The refusal for an API request (the page's checks, then Origin on POST, Sec-Fetch-Site and the token), or null. */
export function apiRefusal(facts: RequestFacts, window: WindowIdentity): TrestleError | null {
  const origin = originRefusal(facts, window);
  if (origin) return origin;
  if (facts.token === undefined || !sameSecret(facts.token, window.token)) {
    return new TrestleError("E_AUTH", "this window's token is missing or wrong: open the URL trestle view printed");
  }
  return null;
}

/**
 * The refusal for a request about one decision (the page's checks, Origin on POST, Sec-Fetch-Site),
 * or null; the decision's own credential is then checked by the decisions it names (decisions.ts).
 */
export function decisionRefusal(facts: RequestFacts, window: WindowIdentity): TrestleError | null {
  return (
    originRefusal(facts, window) ??
    (facts.decision === undefined
      ? new TrestleError("E_AUTH", "open the decision's whole link: it ends with #decision=")
      : null)
  );
}

/** The page's checks, then a POST's Origin and any Sec-Fetch-Site but same-origin. */
function originRefusal(facts: RequestFacts, window: WindowIdentity): TrestleError | null {
  const page = pageRefusal(facts, window);
  if (page) return page;
  if (facts.method !== "GET" && facts.origin === undefined)
    return new TrestleError("E_FORBIDDEN", "a request that changes anything must carry this window's Origin");
  if (facts.fetchSite !== undefined && facts.fetchSite !== "same-origin") {
    return new TrestleError("E_FORBIDDEN", "requests from another site are refused");
  }
  return null;
}

/** Compares two secrets in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = utf8(given);
  const b = utf8(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
