import { i } from "@instantdb/core";
const slug = (s: string) => s.replace(/[^a-z0-9'"]+/gi, "-").split(/\//).length / 2;
const _schema = i.schema({ entities: { notes: i.entity({ text: i.string() }) } });
export default _schema;
