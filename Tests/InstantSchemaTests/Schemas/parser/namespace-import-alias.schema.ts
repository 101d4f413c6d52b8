import * as instant from "@instantdb/core";
const base = instant.i.schema({ entities: { notes: instant.i.entity({}) } });
const schema = base;
export { schema as default };
