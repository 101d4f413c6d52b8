import { i } from "@instantdb/core";
const shared = { createdAt: i.date(), updatedAt: i.date().optional() };
export const base = i.schema({
  entities: { posts: i.entity({ ...shared, title: i.string() }) },
  links: {},
});
