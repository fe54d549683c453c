"""The room: one actor per live game (session.py) that talks only through small ports
(ports.py), its wire and clock, the bots that play its seats, and parking idle rooms."""
