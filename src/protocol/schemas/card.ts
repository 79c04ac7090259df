/**
 * Capability card: what a seat says about itself to the table (shown in every projection's
 * prefix). Its hash is part of the owner-signed join, so the relay cannot alter it.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import { canonicalAtMost } from "./primitives.js";

const Line = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\u0000-\u001f\u007f]*$/, "one line, no control characters");

/** A seat's self-description; small, strict, and fixed for the seat's life at the table. */
export const CapabilityCardSchema = z
  .strictObject({
    summary: Line(500).optional(),
    role: Line(64).optional(),
    skills: z.array(Line(64)).max(32).optional(),
    model: Line(128).optional(),
  })
  .superRefine(canonicalAtMost(LIMITS.card_bytes, "a capability card"));
export type CapabilityCard = z.infer<typeof CapabilityCardSchema>;
