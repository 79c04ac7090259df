/** Waiting for Ctrl-C in the CLI's long-running verbs (`view`, `witness`). */

/** Resolves on the first SIGINT or SIGTERM, then listens no more. */
export function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
}
