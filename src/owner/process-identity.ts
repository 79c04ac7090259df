/**
 * A process as the owner's files name it (Node only): its pid on its host. Whether it has ended can
 * be known only on its own host, and only that it has (no process has its pid now); a pid in use
 * again, or another host's process, counts as running, the side that keeps what it holds.
 */
import { hostname } from "node:os";
import { z } from "zod";

/** A process: its pid on its host. */
export const ReserverSchema = z.strictObject({ pid: z.int().min(0), host: z.string().min(1).max(255) });
export type Reserver = z.infer<typeof ReserverSchema>;

/** The process calling. */
export function thisProcess(): Reserver {
  return { pid: process.pid, host: hostname() };
}

/** Whether the process `p` has certainly ended: it ran on this host and no process has its pid now. */
export function processEnded(p: Reserver): boolean {
  if (p.host !== hostname()) return false;
  try {
    process.kill(p.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
