print("device-smoke: placeholder")
