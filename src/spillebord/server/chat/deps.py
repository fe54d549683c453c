"""The FastAPI dependency for table chat."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from spillebord.server.chat.service import Chat


async def chat(conn: HTTPConnection) -> Chat:
    """The app's Chat (app.py puts it on ``app.state``)."""
    found: Chat = conn.app.state.chat
    return found


ChatDep = Annotated[Chat, Depends(chat)]
