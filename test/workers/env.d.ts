/** The test pool's `env` has the Worker's bindings. */
import type { Env as TrestleEnv } from "../../durable-objects/env.js";

declare global {
  namespace Cloudflare {
    interface Env extends TrestleEnv {}
  }
}
