print("cursors: not yet")
