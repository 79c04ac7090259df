/**
 * The fetch the A2A client (a2a-agent.ts) makes every request with: a redirect is followed only
 * within the origin the request went to, at most MAX_REDIRECTS times, as fetch itself would follow
 * it (a 303, and a 301 or 302 of a POST, become a GET without a body; 307 and 308 keep the method
 * and body). A redirect to another origin is E_AGENT before anything is sent there: the turn holds
 * the room's text, and only the agent the owner named may read it. The agent's own URL is what
 * counts as its origin; a card that names endpoints elsewhere is the agent's own statement.
 */
import { agentFailed } from "./agent-turn.js";

/** The most redirects one request follows within its origin. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** `base` (the global fetch by default) following redirects only within the request's origin, at most MAX_REDIRECTS; E_AGENT (reason `redirected`) for any other. */
export function sameOriginFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, { ...init, redirect: "manual" });
    const origin = new URL(request.url).origin;
    for (let redirects = 0; ; redirects += 1) {
      const response = await base(request.clone());
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return response;
      await response.body?.cancel();
      const next = new URL(location, request.url);
      if (next.origin !== origin) {
        throw agentFailed(
          "redirected",
          `the A2A agent at ${origin} redirected the request to another origin, ${next.origin}; nothing was sent there and nothing was written (give --a2a that agent's own URL if you trust it)`,
          { to: next.origin },
        );
      }
      if (redirects === MAX_REDIRECTS)
        throw agentFailed(
          "redirected",
          `the A2A agent at ${origin} redirected the request more than ${MAX_REDIRECTS} times; nothing was written`,
          { redirects: MAX_REDIRECTS },
        );
      request = await redirected(request, next, response.status);
    }
  };
}

/** The request fetch sends after a `status` redirect of `request` to `url` (Fetch standard, HTTP-redirect fetch step 12). */
async function redirected(request: Request, url: URL, status: number): Promise<Request> {
  const toGet =
    status === 303 ? request.method !== "HEAD" : (status === 301 || status === 302) && request.method === "POST";
  const headers = new Headers(request.headers);
  if (toGet)
    for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"])
      headers.delete(name);
  const body =
    toGet || request.method === "GET" || request.method === "HEAD" ? undefined : await request.clone().arrayBuffer();
  return new Request(url, {
    method: toGet ? "GET" : request.method,
    headers,
    body,
    redirect: "manual",
    signal: request.signal,
  });
}
