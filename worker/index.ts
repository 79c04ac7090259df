import { Hono } from "hono";
export { TableDO } from "../durable-objects/table/table.js";
type Env = { TABLES: DurableObjectNamespace };
const app = new Hono<{ Bindings: Env }>();
app.get("/", (c) => c.text("ok"));
app.get("/t/:id", async (c) => {
  const stub = c.env.TABLES.get(c.env.TABLES.idFromName(c.req.param("id")));
  return stub.fetch("https://do/x");
});
export default app;
