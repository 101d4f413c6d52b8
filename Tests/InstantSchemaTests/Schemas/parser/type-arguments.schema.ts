import { i } from "@instantdb/core";
import type { Remote } from "./types";
type Status = "open" | "closed";
const _schema = i.schema({
  entities: {
    items: i.entity({
      status: i.string<Status>(),
      inline: i.string<'a' | "b">(),
      list: i.json<Array<Array<number>>>(),
      map: i.json<{ [key: string]: boolean }>(),
      shape: i.json<{
        // comment inside a type
        a?: string | null;
        b: { c: number }[],
      }>(),
      remote: i.json<Remote>(),
      fn: i.json<(x: number) => string>(),
    }),
  },
});
export default _schema;
