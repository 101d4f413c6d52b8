import { i } from "@instantdb/core";
import { base, comments } from "./parts";
const _schema = i.schema({
  entities: { ...base.entities, ...comments.entities },
  links: { ...comments.links },
});
export default _schema;
