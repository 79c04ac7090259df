/**
 * The witness's HTTP interface (C2SP tlog-witness, docs/SPEC.md §12), one Hono app over a backend:
 * the Worker's backend asks its Durable Object, `trestle witness`'s keeps a file. `POST
 * /add-checkpoint`, the monitor read `GET /<origin hash>/checkpoint`, `GET /evidence` and `GET /`
 * (the witness's name, verifier key and logs).
 */
import { Hono } from "hono";
import { TrestleError } from "../protocol/errors.js";
import type { WitnessEvidence } from "../protocol/tlog/witness-judge.js";
import { ADD_CHECKPOINT_MAX_CHARS, refusalAnswer, type WitnessAnswer } from "../protocol/tlog/witness-service.js";

/** What the witness says about itself at `GET /`. */
export interface WitnessInfo {
  readonly name: string;
  readonly verifier_key: string;
  readonly logs: readonly string[];
}

/** What the app serves; each method answers for one request. */
export interface WitnessBackend {
  add(body: string): Promise<WitnessAnswer>;
  checkpoint(originHash: string): Promise<WitnessAnswer>;
  evidence(): Promise<readonly WitnessEvidence[]>;
  info(): Promise<WitnessInfo>;
}

/** The witness app over `backend(env)`; every refusal is an answer tlog-witness names, never a stack trace. */
export function witnessApp<E extends object>(backend: (env: E) => WitnessBackend): Hono<{ Bindings: E }> {
  const app = new Hono<{ Bindings: E }>();
  app.get("/", async (c) => c.json(await backend(c.env).info()));
  app.post("/add-checkpoint", async (c) => {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: a longer body cannot be one the witness takes.
    if (Number(c.req.header("content-length") ?? 0) > ADD_CHECKPOINT_MAX_CHARS * 3) {
      return send(
        refusalAnswer(
          new TrestleError("E_TOO_LARGE", `an add-checkpoint body is at most ${ADD_CHECKPOINT_MAX_CHARS} characters`),
        ),
      );
    }
    return send(await backend(c.env).add(await c.req.text()));
  });
  app.get("/evidence", async (c) => c.json({ evidence: await backend(c.env).evidence() }));
  app.get("/:hash{[0-9a-f]{64}}/checkpoint", async (c) => send(await backend(c.env).checkpoint(c.req.param("hash"))));
  app.notFound(() => send(refusalAnswer(new TrestleError("E_NOT_FOUND"))));
  app.onError((error) => {
    console.error("witness failed", error);
    return send(refusalAnswer(error instanceof TrestleError ? error : new TrestleError("E_INTERNAL")));
  });
  return app;
}

function send(answer: WitnessAnswer): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { "content-type": answer.contentType, "cache-control": "no-store" },
  });
}
