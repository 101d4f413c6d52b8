import { i } from "@instantdb/core";

const _schema = i.schema({
  entities: {
    a: i.entity({
      one: i.string().optional().indexed(),
      two: i.number().indexed().unique().optional(),
      three: i.date().unique().unique(),
      four: i
        .json()
        .optional(),
    }),
  },
  links: {},
  rooms: {},
});

export default _schema;
