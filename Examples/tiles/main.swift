print("tiles: not yet")
