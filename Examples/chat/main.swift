print("chat: not yet")
