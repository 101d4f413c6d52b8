// `swift run todos`: the Sync case study in a terminal. Run it in two terminals: the first hosts
// the server, the second joins it, and every edit shows in both at once.
import DemoSupport

let session = await DemoSession.start("todos", title: TodosDemo.title)
await session.run(TodosDemo(session: session))
