/**
 * A reader of Windows icon files for the tests of /favicon.ico, written from the format rather
 * than from scripts/favicon.mjs's writer: the directory (reserved 0, type 1, a count), each
 * entry's size, planes, bit depth, length and offset inside the file without overlap, and each
 * image either a PNG or a BITMAPINFOHEADER bitmap (height doubled for the mask) whose pixels and
 * mask fill exactly the length its entry names. Anything else throws, naming what is wrong.
 */

/** One image of an icon file: its size and, for a 32-bit bitmap, its pixels as RGBA from the top row. */
export interface IconImage {
  size: number;
  bits: number;
  format: "bmp" | "png";
  /** Present for 32-bit bitmaps. */
  rgba?: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The images of the icon file `bytes`; throws when it is not a well-formed one. */
export function readIco(bytes: Uint8Array): IconImage[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (why: string): never => {
    throw new Error(`not a valid icon file: ${why}`);
  };
  if (bytes.length < 6) fail("shorter than its 6-byte header");
  if (view.getUint16(0, true) !== 0 || view.getUint16(2, true) !== 1)
    fail("its header is not reserved 0, type 1 (icon)");
  const count = view.getUint16(4, true);
  if (count === 0) fail("it holds no image");
  if (bytes.length < 6 + 16 * count) fail(`too short for its ${count} directory entries`);
  const spans: [number, number][] = [];
  const images: IconImage[] = [];
  for (let i = 0; i < count; i += 1) {
    const entry = 6 + 16 * i;
    const size = view.getUint8(entry) || 256;
    if ((view.getUint8(entry + 1) || 256) !== size) fail(`entry ${i} is not square`);
    const planes = view.getUint16(entry + 4, true);
    const bits = view.getUint16(entry + 6, true);
    const length = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (planes > 1) fail(`entry ${i} has ${planes} planes`);
    if (offset < 6 + 16 * count || offset + length > bytes.length) fail(`entry ${i}'s image lies outside the file`);
    if (spans.some(([from, to]) => offset < to && from < offset + length)) fail(`entry ${i}'s image overlaps another`);
    spans.push([offset, offset + length]);
    const data = bytes.subarray(offset, offset + length);
    if (PNG_SIGNATURE.every((b, k) => data[k] === b)) {
      images.push({ size, bits, format: "png" });
      continue;
    }
    images.push(readBitmap(data, size, bits, (why) => fail(`entry ${i}: ${why}`)));
  }
  return images;
}

/** A bitmap image of `size` pixels at `bits` per pixel, its pixels for 32 bits. */
function readBitmap(data: Uint8Array, size: number, bits: number, fail: (why: string) => never): IconImage {
  if (data.length < 40) fail("shorter than a BITMAPINFOHEADER");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== 40) fail("its header is not a BITMAPINFOHEADER (40 bytes)");
  if (view.getInt32(4, true) !== size || view.getInt32(8, true) !== size * 2)
    fail("its bitmap's size is not the entry's (height doubled for the mask)");
  if (view.getUint16(12, true) !== 1) fail("its bitmap has other than one plane");
  if (view.getUint16(14, true) !== bits) fail("its bitmap's depth is not the entry's");
  if (view.getUint32(16, true) !== 0) fail("its bitmap is compressed");
  if (bits !== 32) fail(`a ${bits}-bit bitmap (these tests read 32-bit ones)`);
  const pixels = size * size * 4;
  const mask = Math.ceil(size / 32) * 4 * size;
  if (data.length !== 40 + pixels + mask)
    fail(`its length ${data.length} is not header, pixels and mask (${40 + pixels + mask})`);
  const rgba = new Uint8Array(pixels);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const from = 40 + ((size - 1 - y) * size + x) * 4;
      const to = (y * size + x) * 4;
      rgba[to] = data[from + 2]!;
      rgba[to + 1] = data[from + 1]!;
      rgba[to + 2] = data[from]!;
      rgba[to + 3] = data[from + 3]!;
    }
  }
  return { size, bits, format: "bmp", rgba };
}
