/**
 * What the relay says about itself, in one place for /.well-known/trestle.json, the landing page and
 * the agent card: protocol, version (package.json), relay key, limits (the protocol's and the
 * operator's in effect) and features (docs/SPEC.md §6.1, §10).
 */
import pkg from "../../package.json" with { type: "json" };
import { PUBLISHED_LIMITS, type WellKnown } from "../../src/protocol/schemas/responses.js";
import { relaySigner } from "../../durable-objects/relay/relay-key.js";
import {
  chatAppsAllowed,
  chatPlatforms,
  limitsOf,
  mirrorsAllowed,
  publicDemo,
} from "../../durable-objects/settings.js";

/** The relay's software version, the package's semver. */
export const VERSION: string = pkg.version;

/** Where the relay at `origin` serves its own packed client (scripts/build-pack.mjs, decision 0426). */
export function clientTarball(origin: string): string {
  return `${origin}/${pkg.name}-${VERSION}.tgz`;
}

/** The command that installs the `trestle` CLI served by the relay at `origin`, once (decision 0453): it names no registry package the project does not own. */
export function clientInstall(origin: string): string {
  return `npm install -g ${clientTarball(origin)}`;
}

/** npx's arguments that run that CLI without installing it: `--yes` (no prompt where no terminal answers), `--prefer-offline` (from npx's cache once there, not the relay on every run). */
export function clientNpxArgs(origin: string): string[] {
  return ["--yes", "--prefer-offline", "--package", clientTarball(origin), "trestle"];
}

/** The command that runs that CLI without installing it. */
export function clientCommand(origin: string): string {
  return `npx ${clientNpxArgs(origin).join(" ")}`;
}

/** Features every relay of this version has: the protocol parts beyond tables, seats and the floor, and the discovery documents. */
export const BUILT_IN_FEATURES = [
  "commit_gateway",
  "owner_sessions",
  "requests",
  "votes",
  "subtables",
  "public_tables",
  "agent_card",
] as const;

/** Custody and mirrors (docs/SPEC.md §8.4): tables move here by import, and are mirrored here; on a public demo only where the operator allows it. */
export const MIRROR_FEATURES = ["custody", "mirrors"] as const;

/** `features`: the built-in ones, the mirror features where allowed, `public_demo` on a public demo, then `chat:<platform>` for each chat app whose secrets this deployment set (on a demo, only if chat apps are allowed there). */
export function features(env: Env): string[] {
  const demo = publicDemo(env) ? ["public_demo"] : [];
  const configured = Object.entries(chatPlatforms(env)).filter(([, platform]) => platform.configured);
  const chats = chatAppsAllowed(env) ? configured.map(([name]) => `chat:${name}`) : [];
  const mirrors = mirrorsAllowed(env) ? MIRROR_FEATURES : [];
  return [...BUILT_IN_FEATURES, ...mirrors, ...demo, ...chats];
}

/** The body of /.well-known/trestle.json. */
export async function wellKnownBody(env: Env): Promise<WellKnown> {
  const signer = await relaySigner(env);
  const limits = { ...PUBLISHED_LIMITS, ...limitsOf(env) };
  return {
    protocol: "trestle/0.1",
    relay_key: signer.publicKeyText,
    limits,
    version: VERSION,
    features: features(env),
  };
}
