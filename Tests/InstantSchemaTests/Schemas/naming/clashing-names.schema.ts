import { i } from "@instantdb/core";

const _schema = i.schema({
  entities: {
    tasks: i.entity({ "due-at": i.string(), dueAt: i.string() }),
    task: i.entity({}),
    people: i.entity({}),
    persons: i.entity({}),
  },
  links: {},
  rooms: {},
});

export default _schema;
