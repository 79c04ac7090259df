/** A demo failure to report plainly (no stack): a relay that is missing, a check that failed. */

/** A failure the demo explains in one message; the demo exits 1. */
export class DemoError extends Error {
  override readonly name = "DemoError";
}
