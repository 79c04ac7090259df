import { DurableObject } from "cloudflare:workers";
export class TableDO extends DurableObject {
  override async fetch(): Promise<Response> {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (n INTEGER)");
    this.ctx.storage.sql.exec("INSERT INTO t VALUES (1)");
    const n = this.ctx.storage.sql.exec("SELECT count(*) AS c FROM t").one().c;
    const k = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
    return Response.json({ n, alg: (k as CryptoKeyPair).publicKey.algorithm.name });
  }
}
