/** The trestle client library for Node: everything in ./index.ts plus key files, the pin store and the head store. */
export * from "./index.js";
export * from "./home.js";
export * from "./keys.js";
export * from "./pins.js";
export * from "./head-store.js";
export * from "./open.js";
