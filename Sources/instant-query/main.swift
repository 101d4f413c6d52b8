print("instant-query: not built yet")
