/// The schema `instant-schema sample` writes: a todo list with a chat room, as in the README.
public enum SampleSchema {
  /// The suggested file name.
  public static let fileName = "instant.schema.ts"

  /// The sample `instant.schema.ts`.
  public static let source = """
    // Docs: https://www.instantdb.com/docs/modeling-data
    import { i } from "@instantdb/core";

    const _schema = i.schema({
      entities: {
        /** Something to do. */
        todos: i.entity({
          title: i.string(),
          done: i.boolean(),
          createdAt: i.number().indexed(),
        }),
      },
      rooms: {
        chat: {
          presence: i.entity({
            name: i.string(),
            color: i.string(),
            isTyping: i.boolean(),
          }),
        },
      },
    });

    type _AppSchema = typeof _schema;
    interface AppSchema extends _AppSchema {}
    const schema: AppSchema = _schema;

    export type { AppSchema };
    export default schema;

    """
}
