"""A player's games from the server (issue 27, "Dine spil"): the list a signed-in
player sees on any device, and the API route that serves it."""
