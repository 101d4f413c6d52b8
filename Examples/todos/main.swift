print("todos: not yet")
