print("instant-demo")
