// `swift run tiles`: the Tile Game case study in a terminal. Arrow keys move your selection (the
// others see it move), space paints the square in your color or clears it (stored: the board is
// there after a restart).
import DemoSupport

let session = await DemoSession.start("tiles", title: TilesDemo.title)
await session.run(TilesDemo(session: session))
