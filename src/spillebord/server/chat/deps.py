"""The FastAPI dependency for table chat."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from spillebord.server.appstate import from_state
from spillebord.server.chat.service import Chat

ChatDep = Annotated[Chat, Depends(from_state("chat", Chat))]
