"""The ``septima-sim`` command line. Each command parses, validates and calls one function; errors on bad input are
one line on stderr with exit code 2 (a traceback only with ``--debug``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from septima_sim import __version__
from septima_sim.content import ContentError, load_content
from septima_sim.engine import ConfigError, GameConfig

app = typer.Typer(
    help="Simulate the board game Septima headlessly and tell designers whether it is balanced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DEBUG = {"on": False}


class UserError(Exception):
    """Bad input: reported as one line, exit code 2."""


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    DEBUG["on"] = debug
    if version:
        typer.echo(__version__)
        raise typer.Exit()


ContentOpt = Annotated[Path | None, typer.Option("--content", help="Content pack folder (default: the built-in pack).")]


@app.command(
    epilog="Examples:\n\n  septima-sim play --players 3 --seed 7\n\n"
    "  septima-sim play --mode basic --format jsonl > game.jsonl"
)
def play(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 2-4.")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Game seed; the same seed gives the same game.")] = 1,
    mode: Annotated[str, typer.Option("--mode", help="full or basic.")] = "full",
    fmt: Annotated[
        str, typer.Option("--format", help="text (readable account) or jsonl (one event per line).")
    ] = "text",
    content: ContentOpt = None,
) -> None:
    """Play one seeded game with random players and print it turn by turn."""
    from septima_sim.players import RandomPolicy
    from septima_sim.playout import play_one

    if fmt not in ("text", "jsonl"):
        raise UserError(f"--format must be text or jsonl, got {fmt!r}")
    config = GameConfig(players=players, mode=mode).validate()
    pack = load_content(content)
    play_one(config, pack, [RandomPolicy() for _ in range(players)], seed, fmt, typer.echo)


@app.command(epilog="Examples:\n\n  septima-sim rules\n\n  septima-sim rules --content my-pack/")
def rules(content: ContentOpt = None) -> None:
    """Show what the content pack holds, with provenance counts (assumed vs printed)."""
    from septima_sim.rules_summary import summary

    typer.echo(summary(load_content(content)))


def main() -> None:
    """Console entry point: maps bad input to exit code 2 with a one-line message."""
    try:
        app(standalone_mode=False)
    except (UserError, ConfigError, ContentError) as exc:
        if DEBUG["on"]:
            raise
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    except Exception as exc:  # click usage errors and anything unexpected
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        if DEBUG["on"]:
            raise
        typer.echo(f"error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
