import { i } from "@instantdb/react";
const graph = i.graph(process.env.INSTANT_APP_ID!, { notes: i.entity({ text: i.any() }) }, {});
export default graph;
