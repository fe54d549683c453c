"""Declared bot accounts and the bot ladder (issue 32; docs/research.md, "A bot at a live
table"): an account whose owner said it is a program, shown as one in the lobby and at
the table, and an OpenSkill ladder of such accounts and the site's own bots that is
kept apart from the players' ratings (server/ratings/service.py)."""
