"""``/ws-echo``: a raw WebSocket echo through the server's stack (uvicorn, the app's
middleware, the same permessage-deflate), for bench/server_load.py's comparison of what
the stack costs against what a game adds (docs/benchmarks/server.md)."""

from __future__ import annotations

from starlette.websockets import WebSocket, WebSocketDisconnect

from spillebord.server.room import wire


async def serve_echo(ws: WebSocket) -> None:
    """Raw echo through the same stack, for the load benchmark's comparison.

    ``/ws-echo?answers=1``: the first frame is a JSON array of texts; every later frame
    is answered with the next of them, in turn — the stack's cost of an action's traffic
    (a small message in, a state-sized one out) with no game and no database."""
    await ws.accept()
    try:
        if ws.query_params.get("answers"):
            try:
                answers = wire.loads(await ws.receive_text())
            except wire.JSONDecodeError:
                answers = None
            if not (isinstance(answers, list) and answers
                    and all(isinstance(a, str) for a in answers)):
                await ws.close(code=1003)
                return
            i = 0
            while True:
                await ws.receive_text()
                await ws.send_text(answers[i % len(answers)])
                i += 1
        while True:
            await ws.send_text(await ws.receive_text())
    except (WebSocketDisconnect, RuntimeError):
        pass
