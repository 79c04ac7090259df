/** Types of build-pack.mjs, for the package tests that pack the checkout as the relay serves it. */

/** The tarball's name, as `npm pack` writes it and the relay serves it. */
export const TARBALL: string;
/** The package.json a consumer installs: `manifest` without scripts, devDependencies and allowScripts. */
export function publishedManifest(manifest: Record<string, unknown>): Record<string, unknown>;
/** Packs the checkout with the published manifest into `destination`; npm's description of the tarball. */
export function packInto(destination: string): { filename: string; files: { path: string }[]; integrity: string };
/** Whether the served tarball or its description is missing or older than what it packs. */
export function packStale(): boolean;
/** Packs the checkout into dist/site and writes dist/site/trestle.json beside it. */
export function buildPack(): void;
