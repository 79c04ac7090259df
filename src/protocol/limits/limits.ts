/**
 * Published size and count limits; the relay enforces each one and serves them at
 * /.well-known/trestle.json so clients can check before sending (docs/SPEC.md §10). The values,
 * units and where each is enforced are rows of registry.ts; this is their served view.
 */
import { LIMIT_TABLE, limitsOf, type LimitNameOf } from "./registry.js";

/** Every published limit by name, in characters (UTF-16 code units), bytes, counts or milliseconds as registry.ts names its unit; the order is the one served. */
export const LIMITS: { readonly [K in LimitNameOf<"published">]: (typeof LIMIT_TABLE)[K]["value"] } = limitsOf(
  "published",
  (row) => row.value,
);
