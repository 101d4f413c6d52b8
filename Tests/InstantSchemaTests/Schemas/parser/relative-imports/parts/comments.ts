import { i } from "@instantdb/core";
export default {
  entities: { comments: i.entity({ body: i.string() }) },
  links: {
    postComments: {
      forward: { on: "comments", has: "one", label: "post" },
      reverse: { on: "posts", has: "many", label: "comments" },
    },
  } as const,
};
