import { i } from "@instantdb/core";
const graph = i.graph({ a: i.entity({}).asType<{ x: string }>() }, {}).withRoomSchema<Rooms>();
export default graph;
