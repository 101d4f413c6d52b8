import { i, init, InstaQLEntity } from "@instantdb/react";
import "dotenv/config";
export type Todo = InstaQLEntity<AppSchema, "todos">;
function helper(x: number) { return x > 1 ? "a" : `b${x}`; }
const _schema = i.schema({ entities: { todos: i.entity({ title: i.string() }) }, rooms: {} });
type _AppSchema = typeof _schema;
interface AppSchema extends _AppSchema {}
const schema: AppSchema = _schema;
const db = init({ appId: process.env.APP_ID!, schema });
db.transact(db.tx.todos[id()].update({ title: "x" }));
export type { AppSchema };
export default schema;
