"""Open tables: the lobby, taking a free seat, quick match, bots filling open seats
(issue 15; docs/server.md, "Open tables and quick match")."""
