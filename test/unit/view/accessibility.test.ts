/**
 * The principal window in real Chromium, checked with axe-core at a phone's size (390x844) and a
 * desktop's: no serious or critical violation, with a transcript long enough to scroll (a region
 * that scrolls must be reachable by keyboard and named).
 */
import { describe, expect, it } from "vitest";
import { expectAccessible } from "../../support/axe.js";
import { roomPages } from "./window-fixture.js";

const pages = roomPages();

// Sixteen entries written, then axe-core over the whole page at two sizes: seconds of CPU on a busy machine.
describe("the principal window", { timeout: 60_000 }, () => {
  it("has no serious or critical axe-core violation, with a transcript that scrolls", async () => {
    const { page, table, k, bots } = await pages.open("a11y");
    for (let i = 1; i <= 16; i += 1)
      await bots.submit(i % 2 ? k.botTao : k.botJenny, i % 2 ? "bot-tao" : "bot-jenny", {
        kind: "say",
        body: `Line ${i} of a long exchange about the Saturday delivery.`,
      });
    const scrolls = `(() => { const list = document.querySelector("#table-${table} .transcript"); return list.scrollHeight > list.clientHeight; })()`;
    await page.waitForSelector(`#table-${table} .transcript li[data-seq="19"]`);
    await expectAccessible(page, "the principal window", async () => {
      expect(await page.evaluate(scrolls)).toBe(true);
    });
  });
});
