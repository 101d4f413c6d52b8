// A legacy i.graph schema in the shape older `instant-cli pull` versions wrote.
import { i } from "@instantdb/react";

const INSTANT_APP_ID = "00000000-0000-0000-0000-000000000000";

const graph = i.graph(
  INSTANT_APP_ID,
  {
    "boards": i.entity({
      "name": i.any(),
      "createdAt": i.any(),
    }),
    "cards": i.entity({
      "title": i.any(),
      "position": i.any(),
    }),
  },
  {
    "boardsCards": {
      "forward": {
        "on": "boards",
        "has": "many",
        "label": "cards"
      },
      "reverse": {
        "on": "cards",
        "has": "one",
        "label": "board"
      }
    }
  }
);

export default graph;
