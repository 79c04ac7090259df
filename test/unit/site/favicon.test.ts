/**
 * The icon file served at /favicon.ico by the relay and the principal window (decision 0455): a
 * well-formed Windows icon file (read by test/support/ico.ts, not by the script that writes it)
 * holding the icon at 16 and 32 pixels as 32-bit bitmaps, each the SVG the pages link as Chromium
 * draws it at that size, so the two cannot drift apart unnoticed (`node scripts/favicon.mjs`
 * writes it again).
 */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FAVICON_ICO, FAVICON_SVG, ICON_SIZES, renderIcon } from "../../../scripts/favicon.mjs";
import { sharedChromium } from "../../support/browser.js";
import { readIco } from "../../support/ico.js";

let browser: Browser;
beforeAll(async () => {
  browser = await sharedChromium();
}, 60_000);

describe("favicon.ico", { timeout: 30_000 }, () => {
  it("is a valid icon file with a 32-bit image at each size a tab uses", () => {
    const images = readIco(new Uint8Array(readFileSync(FAVICON_ICO)));
    expect(images.map(({ size, bits, format }) => ({ size, bits, format }))).toEqual(
      ICON_SIZES.map((size) => ({ size, bits: 32, format: "bmp" })),
    );
  });

  it("holds the SVG icon as Chromium draws it at each size", async () => {
    const page = await browser.newPage();
    try {
      const svg = readFileSync(FAVICON_SVG, "utf8");
      for (const image of readIco(new Uint8Array(readFileSync(FAVICON_ICO)))) {
        const drawn = await renderIcon(page, svg, image.size);
        // Another Chromium may smooth edges a little differently; a changed drawing moves whole areas.
        const difference = drawn.reduce((sum, value, i) => sum + Math.abs(value - image.rgba![i]!), 0) / drawn.length;
        expect(difference, `mean difference per channel at ${image.size} px`).toBeLessThan(2);
      }
    } finally {
      await page.close();
    }
  });

  describe("when a file is not an icon file", () => {
    it("the reader says why", () => {
      const ico = new Uint8Array(readFileSync(FAVICON_ICO));
      expect(() => readIco(new Uint8Array(readFileSync(FAVICON_SVG)))).toThrow(/its header is not reserved 0, type 1/);
      expect(() => readIco(ico.subarray(0, ico.length - 1))).toThrow(/entry 1's image lies outside the file/);
      const squashed = ico.slice();
      squashed[6 + 16 + 1] = 16;
      expect(() => readIco(squashed)).toThrow(/entry 1 is not square/);
    });
  });
});
