import { i as b } from "@instantdb/admin";
export const schema = b.schema({ entities: { notes: b.entity({ text: b.string() }) } });
