/**
 * The relay's HTML pages share one layout and one response: every interpolated value escaped, a
 * Content-Security-Policy that lets a page load scripts, styles and connections only from this
 * relay (so a page can reach nothing else), and no framing by other sites. Whether a request gets a
 * page at all is decided here too: only when its `Accept` prefers HTML (a browser).
 */
import type { Context } from "hono";
import { accepts } from "hono/accepts";

/** Whether the request prefers `text/html` over JSON (a browser navigating); no `Accept`, a wildcard or JSON first is a program. */
export function prefersHtml(c: Context): boolean {
  return (
    accepts(c, { header: "Accept", supports: ["application/json", "text/html"], default: "application/json" }) ===
    "text/html"
  );
}

/** `text` with the five HTML-special characters escaped, safe in element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The policy every page is served with: this origin only, no inline script or style. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** A whole page: `body` is trusted HTML built with escapeHtml; `script` an asset path under /assets/. */
export function layout(title: string, body: string, script?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.ico" sizes="16x16 32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${script ? `<script type="module" src="${escapeHtml(script)}"></script>\n` : ""}</head>
<body>
${body}
</body>
</html>
`;
}

/** An HTML response with the page headers; `vary` names the request headers the choice of HTML depended on. */
export function htmlResponse(html: string, status = 200, vary?: string): Response {
  const headers: Record<string, string> = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
  };
  if (vary) headers.vary = vary;
  return new Response(html, { status, headers });
}
