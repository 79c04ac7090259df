/**
 * Accessibility checks in real Chromium: axe-core (the npm package's node_modules/axe-core/axe.min.js,
 * a devDependency) injected into a page as it is, run over the whole document, and its serious and
 * critical violations listed one line each, so a failing test names the rule and the elements.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { z } from "zod";

const AXE_SOURCE = readFileSync(
  fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url)),
  "utf8",
);

/** The sizes every page is checked at: a phone's (390x844) and a desktop's. */
export const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/** The part of axe's results these checks read. */
const ViolationsSchema = z.array(
  z.object({
    id: z.string(),
    impact: z.string().nullable().optional(),
    help: z.string(),
    nodes: z.array(z.object({ target: z.array(z.unknown()) })),
  }),
);

/** The serious and critical violations axe-core finds in `page` now, as "rule (impact): help: elements". */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the pages' Content-Security-Policy (no inline script) stays on.
  if ((await page.evaluate("typeof axe")) === "undefined") await page.evaluate(AXE_SOURCE);
  const raw: unknown = await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  );
  return ViolationsSchema.parse(raw)
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
}

/** Checks `page` at each of VIEWPORTS in turn (after `settle`, which waits for what the page shows at that size): no serious or critical violation. */
export async function expectAccessible(
  page: Page,
  label: string,
  settle: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await settle();
    expect(
      await seriousViolations(page),
      `axe-core: serious or critical violations on ${label} at ${viewport.name} size`,
    ).toEqual([]);
  }
}
