// The schema of the demos (`swift run instant-demo`, `todos`, `chat`, `cursors`, `tiles`).
// `todos` and the `chat` room's presence are what `instant-schema sample` writes; the rest adds
// what the other demos need. Regenerate the Swift after a change:
//   swift run instant-schema plugin-generate --from Examples/Schema/instant.schema.ts --to Examples/Schema/Generated
import { i } from "@instantdb/core";

const _schema = i.schema({
  entities: {
    /** Something to do. */
    todos: i.entity({
      title: i.string(),
      done: i.boolean(),
      createdAt: i.number().indexed(),
    }),
    /** A chat message. */
    messages: i.entity({
      text: i.string(),
      author: i.string(),
      createdAt: i.number().indexed(),
    }),
    /** One square of a shared board, in the color of whoever last painted it. */
    tiles: i.entity({
      board: i.string().indexed(),
      x: i.number(),
      y: i.number(),
      color: i.string(),
    }),
  },
  rooms: {
    chat: {
      presence: i.entity({
        name: i.string(),
        color: i.string(),
        isTyping: i.boolean(),
      }),
      topics: {
        emoji: i.entity({
          emoji: i.string(),
          name: i.string(),
        }),
      },
    },
    cursors: {
      presence: i.entity({
        name: i.string(),
        color: i.string(),
        cursorX: i.number(),
        cursorY: i.number(),
      }),
    },
  },
});

type _AppSchema = typeof _schema;
interface AppSchema extends _AppSchema {}
const schema: AppSchema = _schema;

export type { AppSchema };
export default schema;
