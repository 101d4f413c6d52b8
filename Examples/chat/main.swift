// `swift run chat`: the Typing Indicator and Avatar Stack case studies, with messages and emoji
// reactions, in a terminal. Run it in two terminals: while you type in one, the other says so.
import DemoSupport

let session = await DemoSession.start("chat", title: ChatDemo.title)
await session.run(ChatDemo(session: session))
