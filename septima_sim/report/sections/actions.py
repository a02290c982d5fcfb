"""Actions: the card mix and how often cards match."""

from __future__ import annotations

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import Column, ci_pct, col, num, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> None:
    mix = analysis.card_mix(run.players, run.events)
    matches = analysis.match_rates(run.players if run.events is not None else run.seated, run.events)
    per = "per season" if run.events is not None else "over the whole game (run with --events for seasons)"
    sec = b.section(
        "actions",
        "Actions",
        f"Which action cards are played {per}, and how often a card matches another player's card or the Septima's.",
    )
    sec.charts.append(Chart("Card mix", "card_mix.png", charts.card_mix(mix)))
    if run.events is not None:
        cols: list[Column] = [
            ("players", col("players")),
            ("card", col("action")),
            ("played", col("n", "{:,}".format)),
            ("matched a player", lambda r: ci_pct(r, "with_players", "players_lo", "players_hi")),
            ("matched the Septima", lambda r: ci_pct(r, "with_septima", "septima_lo", "septima_hi")),
        ]
    else:
        cols = [
            ("players", col("players")),
            ("player-games", col("n", "{:,}".format)),
            ("matches with players per turn", col("with_players", lambda v: num(v, 3))),
            ("matches with the Septima per turn", col("with_septima", lambda v: num(v, 3))),
        ]
    sec.tables.append(table("Match rates", matches, cols, b.data("match_rates", matches)))
    b.data("card_mix", mix)
