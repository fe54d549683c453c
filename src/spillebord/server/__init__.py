"""The game server: HTTP API, WebSocket sessions, bots, storage (docs/server.md).

``spillebord.server.app:create_app`` is the ASGI factory the ``serve`` command runs.
"""
