"""Errors every layer raises: each carries a reason a person understands."""


class SpillebordError(ValueError):
    """Base of the project's errors; always a ValueError with a one-line reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class IllegalActionError(SpillebordError):
    """An action that the rules do not allow in this state (or that does not parse)."""


class NotationError(SpillebordError):
    """A position, action or record text that does not parse or is inconsistent."""
