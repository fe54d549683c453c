"""What the ``spillebord`` commands share: clean errors (status 2, one line on stderr,
never a traceback), variant flags, and the common arguments."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

from spillebord import games
from spillebord.core.protocol import Game

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def clean_errors(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except (ValueError, OSError, KeyError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            fail(reason)
        except KeyboardInterrupt:
            fail("interrupted")

    return wrapper  # type: ignore[return-value]


def parse_flags(game: Game, flags: list[str] | None) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for item in flags or []:
        name, _, value = item.partition("=")
        if value.lower() in ("", "1", "true", "yes", "on"):
            out[name] = True
        elif value.lower() in ("0", "false", "no", "off"):
            out[name] = False
        else:
            raise ValueError(f"flag {name}: {value!r} is not true or false")
    game.check_flags(out)
    return out


GameArg = Annotated[str, typer.Argument(help="game key: " + ", ".join(games.keys()))]
FlagOpt = Annotated[
    list[str] | None, typer.Option("--flag", "-f", help="variant flag NAME or NAME=false")
]
