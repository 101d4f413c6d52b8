import { i } from "@instantdb/core";
import { timestamps } from "./shared";

export const accounts = i.schema({
  entities: {
    $users: i.entity({
      email: i.string().unique().indexed(),
    }),
    organizations: i.entity({
      ...timestamps,
      name: i.string(),
      slug: i.string().unique().indexed(),
    }),
  },
  links: {
    organizationMembers: {
      forward: { on: "organizations", has: "many", label: "members" },
      reverse: { on: "$users", has: "many", label: "organizations" },
    },
  },
});
