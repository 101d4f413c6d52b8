import { i } from "@instantdb/core";
const INSTANT_APP_ID = "abc";
const graph = i.graph(
  INSTANT_APP_ID,
  {
    "goals": i.entity({ "title": i.any() }),
    "todos": i.entity({ "title": i.any() }),
  },
  {
    "goalsTodos": {
      "forward": { "on": "goals", "has": "many", "label": "todos" },
      "reverse": { "on": "todos", "has": "many", "label": "goals" },
    },
  },
);
export default graph;
