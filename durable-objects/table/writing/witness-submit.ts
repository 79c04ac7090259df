/**
 * How the relay reaches a witness (decision 0396): one narrow function, `submit(url, body)`, that
 * POSTs a C2SP tlog-witness add-checkpoint body to `<url>/add-checkpoint` and answers the
 * witness's Response as is. The table object holds one; tests and the end-to-end wiring swap it.
 */

/** POSTs an add-checkpoint body to the witness whose submission prefix is `url`. */
export type WitnessSubmit = (url: string, body: string) => Promise<Response>;

/** The submitter over the network: fetch, with the witness's own time limit left to the runtime. */
export const fetchWitness: WitnessSubmit = (url, body) =>
  fetch(`${url.replace(/\/+$/, "")}/add-checkpoint`, {
    method: "POST",
    headers: { "content-type": "text/plain; charset=utf-8" },
    body,
  });
