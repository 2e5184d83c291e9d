print("scoreboardd")
