// A schema assembled from relative modules, with spreads and `as const` links.
import { i } from "@instantdb/core";
import { accounts } from "./parts/accounts";
import billing from "./parts/billing";

const _schema = i.schema({
  entities: {
    ...accounts.entities,
    ...billing.entities,
  },
  links: {
    ...accounts.links,
    ...billing.links,
  },
  rooms: {},
});

export default _schema;
