/** Types of favicon.mjs, for the tests that check /favicon.ico against the SVG it is drawn from. */
import type { Page } from "playwright-core";

/** The icon as drawn (worker/site/static/favicon.svg). */
export const FAVICON_SVG: string;
/** The icon file served at /favicon.ico (worker/site/static/favicon.ico). */
export const FAVICON_ICO: string;
/** The sizes the icon file holds, in pixels. */
export const ICON_SIZES: number[];
/** `svg` drawn by `page`'s browser on a `size`-pixel square canvas: RGBA bytes, top row first, not premultiplied. */
export function renderIcon(page: Page, svg: string, size: number): Promise<Uint8Array>;
/** A Windows icon file holding each image as a 32-bit bitmap with its mask. */
export function encodeIco(images: { size: number; rgba: Uint8Array }[]): Uint8Array;
