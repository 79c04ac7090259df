/**
 * The icon at /favicon.ico (decision 0455): the relay's and the principal window's icon,
 * worker/site/static/favicon.svg, drawn by Chromium at 16 and 32 pixels and stored as a Windows
 * icon file of 32-bit bitmaps (BGRA, bottom-up, with the 1-bit mask older readers use), the one
 * format every browser, crawler and bookmark tool reads at that address. `node
 * scripts/favicon.mjs` writes worker/site/static/favicon.ico again after the SVG changes (it
 * needs /usr/bin/chromium, as the tests do); test/unit/site/favicon.test.ts fails while the two
 * differ. Types: favicon.d.mts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The icon as drawn. */
export const FAVICON_SVG = join(ROOT, "worker/site/static/favicon.svg");
/** The icon file served at /favicon.ico, made from FAVICON_SVG. */
export const FAVICON_ICO = join(ROOT, "worker/site/static/favicon.ico");
/** The sizes the icon file holds, in pixels: a tab's at 1x and 2x. */
export const ICON_SIZES = [16, 32];

/** `svg` drawn by the browser `page` is open in on a `size`-pixel square canvas: RGBA bytes, row by row from the top, not premultiplied. */
export async function renderIcon(page, svg, size) {
  const rgba = await page.evaluate(
    async ({ svg, size }) => {
      const image = new Image();
      image.src = `data:image/svg+xml;base64,${btoa(svg)}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = size;
      canvas.height = size;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0, size, size);
      return Array.from(context.getImageData(0, 0, size, size).data);
    },
    { svg, size },
  );
  return Uint8Array.from(rgba);
}

/** A Windows icon file holding each of `images` ({ size, rgba } as renderIcon gives) as a 32-bit bitmap with its mask. */
export function encodeIco(images) {
  const bitmaps = images.map(({ size, rgba }) => bitmap(size, rgba));
  const header = new DataView(new ArrayBuffer(6 + 16 * images.length));
  header.setUint16(2, 1, true); // type 1: icon
  header.setUint16(4, images.length, true);
  let offset = header.byteLength;
  images.forEach(({ size }, i) => {
    const entry = 6 + 16 * i;
    header.setUint8(entry, size % 256); // 0 means 256
    header.setUint8(entry + 1, size % 256);
    header.setUint16(entry + 4, 1, true); // planes
    header.setUint16(entry + 6, 32, true); // bits per pixel
    header.setUint32(entry + 8, bitmaps[i].length, true);
    header.setUint32(entry + 12, offset, true);
    offset += bitmaps[i].length;
  });
  const out = new Uint8Array(offset);
  out.set(new Uint8Array(header.buffer), 0);
  let at = header.byteLength;
  for (const b of bitmaps) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** One image as an icon file stores it: BITMAPINFOHEADER (height doubled for the mask), BGRA rows from the bottom, then the mask (1 = transparent), rows padded to 4 bytes. */
function bitmap(size, rgba) {
  const maskRow = Math.ceil(size / 32) * 4;
  const pixels = size * size * 4;
  const out = new Uint8Array(40 + pixels + maskRow * size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, size, true);
  view.setInt32(8, size * 2, true);
  view.setUint16(12, 1, true);
  view.setUint16(14, 32, true);
  view.setUint32(20, pixels + maskRow * size, true);
  for (let y = 0; y < size; y += 1) {
    const row = size - 1 - y;
    for (let x = 0; x < size; x += 1) {
      const from = (y * size + x) * 4;
      const to = 40 + (row * size + x) * 4;
      out[to] = rgba[from + 2];
      out[to + 1] = rgba[from + 1];
      out[to + 2] = rgba[from];
      out[to + 3] = rgba[from + 3];
      if (rgba[from + 3] === 0) out[40 + pixels + row * maskRow + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    const svg = readFileSync(FAVICON_SVG, "utf8");
    const images = [];
    for (const size of ICON_SIZES) images.push({ size, rgba: await renderIcon(page, svg, size) });
    writeFileSync(FAVICON_ICO, encodeIco(images));
  } finally {
    await browser.close();
  }
}
