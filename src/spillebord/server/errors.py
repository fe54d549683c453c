"""Refusals: every "no" the server says carries a machine code and a human reason."""

from __future__ import annotations


class Refusal(Exception):
    """A request that changes nothing.  ``status`` is the HTTP status for the API."""

    def __init__(self, code: str, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.status = status

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "reason": self.reason}
