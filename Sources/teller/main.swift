print("teller")
