import { i } from "@instantdb/core";

const _schema = i.schema({
  entities: {
    $users: i.entity({ email: i.string().unique().indexed() }),
    profiles: i.entity({}),
  },
  links: {
    profileUser: {
      forward: { on: "profiles", has: "one", label: "$user", required: true, onDelete: "cascade" },
      reverse: { on: "$users", has: "one", label: "profile", onDelete: "cascade", required: true },
    },
  },
  rooms: {
    doc: {
      presence: i.entity({ cursor: i.json<{ x: number; y: number }>().optional() }),
      topics: { ping: i.entity({ at: i.number() }), empty: i.entity({}) },
    },
  },
});

export default _schema;
