"""Example games for the headlines: replay pages written next to ``report.html`` and linked from the findings.

For each seat headline (the seat furthest from fair in a setting): a typical game of that seat's usual outcome
(a loss when it wins less than fair, a win when it wins more). For each flagged player-level component: a typical win
of a player who held it (a loss when the component lowers its holder's win rate). "Typical" is the candidate game with
the median winning margin (lowest cell and game index on ties), so the page shows neither a fluke nor a blow-out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from septima_sim.analysis import RunTables
from septima_sim.analysis.components import kinds
from septima_sim.analysis.data import collect
from septima_sim.engine.config import COLOURS

MAX_COMPONENT_EXAMPLES = 5
"""At most this many component findings get an example game (the report's top flagged rows)."""


@dataclass(frozen=True, slots=True)
class Example:
    """One example game: what it shows, where it comes from, and the page written for it (relative to the report)."""

    label: str
    cell_id: str
    game_index: int
    href: str


def _typical(candidates: pl.LazyFrame, games: pl.LazyFrame) -> tuple[str, int] | None:
    """The (cell, game index) of the candidate game with the median winning margin."""
    ranked = collect(
        candidates.select("cell_id", "game_index")
        .unique()
        .join(games.select("cell_id", "game_index", "margin"), on=["cell_id", "game_index"])
        .sort("margin", "cell_id", "game_index")
    )
    if ranked.is_empty():
        return None
    row = ranked.row(ranked.height // 2, named=True)
    return str(row["cell_id"]), int(row["game_index"])


def seat_example(
    run: RunTables, players: int, seat: int, cells: tuple[str, ...], loses: bool
) -> tuple[str, str, int] | None:
    """(label, cell, game index) of a typical game of a seat finding: a loss of that seat when it wins less than
    fair, a win when it wins more, among the games of the finding's cells."""
    if players < 2:
        return None
    candidates = run.players.filter(
        (pl.col("players") == players)
        & (pl.col("seat") == seat)
        & (pl.col("won") != loses)
        & pl.col("cell_id").is_in(list(cells))
    )
    game = _typical(candidates, run.games)
    if game is None:
        return None
    name = f"{COLOURS[seat].title()} (seat {seat})" if seat < len(COLOURS) else f"seat {seat}"
    return (f"a typical {'loss' if loses else 'win'} of {name}", *game)


def component_examples(run: RunTables, comps: pl.DataFrame) -> dict[tuple[str, str], tuple[str, str, int]]:
    """Per flagged player-level component (kind, item): a typical win of a player who held it (a typical loss when
    the component lowers the win rate); a witch: drafted and still in that player's coven at the end."""
    columns = {k.name: k.column for k in kinds(run.modules) if not k.game_level}
    names = run.players.collect_schema().names()
    found: dict[tuple[str, str], tuple[str, str, int]] = {}
    if comps.is_empty():
        return found
    for r in comps.filter(pl.col("flagged") & ~pl.col("game_level")).head(MAX_COMPONENT_EXAMPLES).iter_rows(named=True):
        column = columns.get(r["kind"])
        if column is None or column not in names:
            continue
        wins = (r["win_effect"] or 0) >= 0  # a component that hurts its holder: show a typical loss with it
        held = pl.col(column).list.contains(r["item"])
        if r["kind"] == "witch" and "witches" in names:  # drafted and still in the coven at the end (not lost)
            held = held & pl.col("witches").list.contains(r["item"])
        candidates = run.players.filter((pl.col("won") == wins) & held)
        game = _typical(candidates, run.games)
        if game is not None:
            outcome = "win" if wins else "loss"
            found[(r["kind"], r["item"])] = (f"a typical {outcome} with {r['kind']} {r['item']}", *game)
    return found


def write_examples(run: RunTables, wanted: dict[str, tuple[str, str, int]], out: Path) -> dict[str, list[Example]]:
    """Write one replay page per wanted example into ``out/games/`` and return the links per headline line.

    A game that cannot be replayed (the run's content pack has moved or changed, the page cannot be written) is
    skipped, never fatal to the report; any other error is a bug and surfaces."""
    from septima_sim.content import ContentError
    from septima_sim.replay import write_game_page
    from septima_sim.runner import RunError

    links: dict[str, list[Example]] = {}
    written: dict[tuple[str, int], str] = {}
    for line, (label, cell_id, index) in wanted.items():
        href = written.get((cell_id, index))
        if href is None:
            href = f"games/game-{len(written) + 1}.html"
            try:
                (out / "games").mkdir(parents=True, exist_ok=True)
                write_game_page(run.path, cell_id, index, out / href)
            except (RunError, ContentError, OSError):  # the example is lost, not the report
                continue
            written[(cell_id, index)] = href
        links.setdefault(line, []).append(Example(label, cell_id, index, href))
    return links
