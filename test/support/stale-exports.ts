/**
 * A relay that serves an older prefix of its ledger, for client tests: a fetch that passes every
 * request through, but once told to, answers every export with the first export it passed (as a
 * relay rolled back to an older copy of its storage would).
 */
import type { FetchLike } from "../../src/client/index.js";

/** The fetch, and the switch that makes it answer exports with the first one it saw. */
export function staleExports(): { fetch: FetchLike; serveStale(): void } {
  let first: string | null = null;
  let stale = false;
  const replaying: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (!input.includes("/export")) return response;
    const text = await response.text();
    first ??= text;
    return new Response(stale ? first : text, { status: response.status, headers: response.headers });
  };
  return { fetch: replaying, serveStale: () => void (stale = true) };
}
