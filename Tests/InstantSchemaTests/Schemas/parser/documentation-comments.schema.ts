import { i } from "@instantdb/core";

const _schema = i.schema({
  entities: {
    /**
     * People who post.
     */
    profiles: i.entity({
      // The shown name.
      // Not unique.
      name: i.string(), // not documentation
      // title: i.string(),
      handle: i.string(),
      /** Bio. */ bio: i.string(),
    }),
  },
  links: {},
  rooms: {},
});

export default _schema;
