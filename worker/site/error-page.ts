/**
 * Refusals at the relay's pages (the viewer's `/view/:id`, and any path no route serves): a browser
 * (a request preferring HTML) gets a readable page with the same status and headers as the JSON
 * answer; a program keeps the one error envelope. Either way `Vary: Accept`.
 */
import type { Context } from "hono";
import { TrestleError, type ErrorCode } from "../../src/protocol/errors.js";
import { TombstoneSchema } from "../../src/protocol/schemas/lifetime.js";
import { errorResponse, toTrestleError } from "../../durable-objects/result.js";
import { escapeHtml, htmlResponse, layout, prefersHtml } from "./html.js";
import { clientCommand } from "./relay-info.js";

/** Headings for the refusals a person meets at a page; any other code is "The relay refused this request". */
const TITLES: Partial<Record<ErrorCode, string>> = {
  E_TABLE_DELETED: "This table was deleted",
  E_TABLE_NOT_FOUND: "No such table",
  E_NOT_FOUND: "Nothing here",
  E_RATE_LIMITED: "Too many requests",
};

/** The answer to `error` at a page: an HTML page for a browser, the JSON envelope otherwise; the status, `Retry-After` included, is the envelope's. */
export function pageError(c: Context, error: unknown): Response {
  const refusal = toTrestleError(error);
  const json = errorResponse(refusal);
  json.headers.set("vary", "Accept");
  if (!prefersHtml(c)) return json;
  const page = htmlResponse(errorHtml(refusal, new URL(c.req.url).origin), json.status, "Accept");
  const wait = json.headers.get("retry-after");
  if (wait !== null) page.headers.set("retry-after", wait);
  return page;
}

/** The page for `error` at the relay at `origin`: its heading, the relay's message, the code and status, and for a deleted table when and why. */
export function errorHtml(error: TrestleError, origin: string): string {
  const title = TITLES[error.code] ?? "The relay refused this request";
  const body = `<main class="error-page">
<p class="crumbs"><a href="/">trestle</a></p>
<h1>${escapeHtml(title)}</h1>
<p id="error-message">${escapeHtml(error.message)}</p>
${deletedLines(error, origin)}<p class="coverage">Code <code id="error-code">${escapeHtml(error.code)}</code>. Programs get the same answer as JSON: send <code>Accept: application/json</code>.</p>
</main>`;
  return layout(`${title}: trestle`, body);
}

/** For E_TABLE_DELETED, the tombstone in words and what still holds (exports people kept verify); nothing otherwise. */
function deletedLines(error: TrestleError, origin: string): string {
  if (error.code !== "E_TABLE_DELETED") return "";
  const tombstone = TombstoneSchema.safeParse(error.details);
  if (!tombstone.success) return "";
  const { deleted_at: at, reason, owner } = tombstone.data;
  const iso = new Date(at).toISOString();
  const why =
    reason === "owner"
      ? `by its creator${owner ? ` <code>${escapeHtml(owner)}</code>` : ""}`
      : "when its lifetime on this relay ended";
  return `<p>Deleted <time datetime="${iso}">${iso.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time> ${why}. The relay keeps none of its entries and never opens this id again.</p>
<p>An export taken before still verifies offline: <code>${escapeHtml(clientCommand(origin))} verify &lt;file&gt;</code>.</p>
`;
}
