/**
 * The public viewer's page at /view/:id: a shell naming the table, filled in by the viewer script
 * (/assets/viewer.js, built from worker/site/browser/), which reads and verifies the table in the
 * browser. The page itself carries no table data, so it says nothing the script did not check; its
 * market section stays hidden unless the table is a market (worker/site/browser/market.ts).
 */
import { escapeHtml, layout } from "./html.js";
import { clientCommand } from "./relay-info.js";

/** The viewer page for `table` (a valid table id) at the relay at `origin`. */
export function viewerHtml(table: string, origin: string): string {
  const id = escapeHtml(table);
  const body = `<main class="viewer" id="viewer" data-table="${id}">
<header>
<p class="crumbs"><a href="/">trestle</a> / <span id="kind">public table</span></p>
<h1 id="topic">${id}</h1>
<p id="verdict" class="verdict pending" role="status">Reading the table…</p>
<p id="coverage" class="coverage"></p>
<p id="live" class="live" hidden></p>
</header>
<section id="market" class="market" hidden></section>
<h2 id="entries-title" class="entries-title" hidden>Entries</h2>
<ol id="entries" class="entries"></ol>
<noscript><p>The viewer verifies the table in your browser and needs JavaScript. Anyone can fetch <a href="/tables/${id}/public/export">the export</a> and check it with <code>${escapeHtml(clientCommand(origin))} verify</code>.</p></noscript>
</main>`;
  return layout(`${table}: trestle public table`, body, "/assets/viewer.js");
}
