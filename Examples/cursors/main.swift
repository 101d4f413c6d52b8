// `swift run cursors`: the Cursors case study in a terminal. Arrow keys move your cursor; everyone
// else's moves on your screen as they press theirs (presence only: nothing is stored).
import DemoSupport

let session = await DemoSession.start("cursors", title: CursorsDemo.title)
await session.run(CursorsDemo(session: session))
