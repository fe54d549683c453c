"""Server tests against the real app over real sockets (see docs/server.md, "Tests")."""
