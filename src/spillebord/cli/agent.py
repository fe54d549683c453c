"""``spillebord agent``: seat a researcher's agent at a live table as a declared bot
account (research/live.py; docs/research.md, "A bot at a live table")."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Annotated

import typer

from spillebord.cli.common import fail


def command(
        url: Annotated[str, typer.Option(help="the site, http(s)://host[:port]")],
        policy: Annotated[str, typer.Option(help="module:function of the agent")],
        name: Annotated[str, typer.Option(help="the bot account's name")],
        kind: Annotated[str, typer.Option(
            help="view: fn(view, legal) -> action text; pettingzoo: fn(observation, "
                 "agent) -> action index (through the research codec)")] = "view",
        password_file: Annotated[Path | None, typer.Option(
            help="a file holding the password (else $SPILLEBORD_AGENT_PASSWORD)")] = None,
        sign_up: Annotated[bool, typer.Option(
            "--sign-up", help="make the declared bot account first")] = False,
        about: Annotated[str | None, typer.Option(
            help="with --sign-up: who runs the bot, what it is")] = None,
        invite: Annotated[str | None, typer.Option(
            help="take the seat of this invite (code or /join/… link)")] = None,
        game: Annotated[str | None, typer.Option(
            help="with --levels or --quick: the game")] = None,
        seats: Annotated[int, typer.Option(help="the table size")] = 4,
        levels: Annotated[str | None, typer.Option(
            help="a new table against the site's levels, one per other seat: 1,2,3")] = None,
        quick: Annotated[bool, typer.Option(
            "--quick", help="quick match: the oldest open public table, or a new one")]
        = False,
        games: Annotated[int, typer.Option(help="tables to play one after another")] = 1,
) -> None:
    """Play seats at a live table with your own agent, as a declared bot account."""
    from spillebord.research.live import AgentError, LiveAgent, policy_from

    ways = sum([invite is not None, levels is not None, quick])
    try:
        if ways != 1:
            raise AgentError("choose one of --invite, --levels or --quick")
        if (levels is not None or quick) and game is None:
            raise AgentError("--levels and --quick need --game")
        password = (password_file.read_text(encoding="utf-8").strip() if password_file
                    else os.environ.get("SPILLEBORD_AGENT_PASSWORD", ""))
        if not password:
            raise AgentError("no password: --password-file, or $SPILLEBORD_AGENT_PASSWORD")
        factory = policy_from(policy, kind)
        wanted = [int(x) for x in levels.split(",")] if levels else []
    except (AgentError, OSError, ValueError) as exc:
        fail(str(exc))

    async def run() -> None:
        async with LiveAgent(url, factory, name, password) as agent:
            await agent.sign_in(sign_up=sign_up, about=about)
            for i in range(1 if invite else games):
                if invite is not None:
                    seated = await agent.join_invite(invite)
                elif quick:
                    assert game is not None
                    seated = await agent.quick(game, seats)
                else:
                    assert game is not None
                    seated = await agent.create(game, seats, wanted)
                typer.echo(f"game {i + 1}: {seated.game} {seated.match_id}, seat "
                           f"{seated.seat}")
                outcome = await agent.play(seated)
                won = seated.seat in outcome.get("winners", [])
                typer.echo(f"  {'won' if won else 'did not win'} ({outcome.get('reason')})")

    try:
        asyncio.run(run())
    except AgentError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted")
