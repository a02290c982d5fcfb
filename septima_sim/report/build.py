"""Assemble the designer's report of a run: analysis tables -> charts, headline findings, sections -> HTML, Markdown
and CSV files in one output folder."""

from __future__ import annotations

import base64
import platform
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape as html_escape
from pathlib import Path
from typing import Any

import polars as pl
from jinja2 import Environment, PackageLoader, select_autoescape

from septima_sim import __version__, analysis
from septima_sim.analysis import RunTables, Settings
from septima_sim.content import ContentError, load_content
from septima_sim.report import charts

Row = dict[str, Any]
Column = tuple[str, Callable[[Row], str]]


@dataclass(slots=True)
class Table:
    """A display table: title, headers and rows of formatted strings, and the CSV file that holds its numbers."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    csv: str | None = None


@dataclass(slots=True)
class Chart:
    title: str
    file: str
    data: bytes

    @property
    def uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.data).decode()


@dataclass(slots=True)
class Section:
    id: str
    title: str
    intro: str
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    """What ``build_report`` wrote."""

    out_dir: Path
    html: Path
    markdown: Path
    charts: list[Path]
    csvs: list[Path]
    headlines: list[str]


# ------------------------------------------------------------------------------------------------ formatting
def pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or x != x else f"{x * 100:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or x != x else f"{x:,.{digits}f}"


def ci_pct(r: Row, rate: str = "win_rate", lo: str = "lo", hi: str = "hi") -> str:
    if r[lo] is None or r[lo] != r[lo]:
        return pct(r[rate])
    return f"{pct(r[rate])} [{r[lo] * 100:.1f}, {r[hi] * 100:.1f}]"


def ci_num(r: Row, value: str = "mean", lo: str = "lo", hi: str = "hi", scale: float = 1.0, sign: bool = False) -> str:
    fmt = "+,.1f" if sign else ",.1f"
    v = r[value]
    if v is None or v != v:
        return "n/a"
    if r[lo] is None or r[lo] != r[lo]:
        return f"{v * scale:{fmt}}"
    return f"{v * scale:{fmt}} [{r[lo] * scale:.1f}, {r[hi] * scale:.1f}]"


def pval(x: float | None) -> str:
    return "n/a" if x is None or x != x else ("<0.001" if x < 0.001 else f"{x:.3f}")


def table(title: str, df: pl.DataFrame, columns: list[Column], csv: str | None = None) -> Table:
    """Format ``df`` row by row with (header, formatter) pairs."""
    rows = [[f(r) for _, f in columns] for r in df.iter_rows(named=True)]
    return Table(title, [h for h, _ in columns], rows, csv)


def col(name: str, fmt: Callable[[Any], str] = str) -> Callable[[Row], str]:
    return lambda r: fmt(r[name])


SEAT_COLUMNS: list[Column] = [
    ("games", col("games", lambda v: f"{v:,}")),
    ("win rate [95% CI]", ci_pct),
    ("fair", col("fair", pct)),
    ("vs fair (points)", col("delta", lambda v: f"{v * 100:+.1f}")),
    ("p (Holm)", col("p_adj", pval)),
    ("verdict", col("verdict")),
]


# ------------------------------------------------------------------------------------------------ headlines
def _seat_line(r: Row, who: str, note: str = "") -> str:
    return (
        f"{who} wins {ci_pct(r)} at {r['players']} players (fair {pct(r['fair'])}; {r['games']:,} games{note}): "
        f"{r['verdict']}"
    )


def headlines(
    pooled: pl.DataFrame,
    order: pl.DataFrame,
    cells: pl.DataFrame,
    comps: pl.DataFrame,
    mods: pl.DataFrame,
    solo: dict[str, pl.DataFrame] | None,
) -> list[str]:
    """Plain-language findings, each with its interval, game count and verdict."""
    lines = []
    for (_,), grp in pooled.group_by("players", maintain_order=True):
        worst = grp.sort(pl.col("delta").abs(), descending=True).row(0, named=True)
        lines.append(_seat_line(worst, f"Seat {worst['seat']}", "; the seat furthest from fair"))
    lines += [_seat_line(r, "The start player") for r in order.filter(pl.col("order") == 0).iter_rows(named=True)]
    if cells["cell_id"].n_unique() > pooled["players"].n_unique():
        flagged = cells.filter(pl.col("verdict") == "flagged")
        lines.append(
            f"{flagged.height} of {cells.height} seat x cell combinations flagged across "
            f"{cells['cell_id'].n_unique()} cells (Holm-adjusted; see Seat balance)"
        )
    if not comps.is_empty():
        top = comps.filter(pl.col("flagged")).head(5)
        for r in top.iter_rows(named=True):
            lines.append(_component_line(r) + ": flagged")
        if top.is_empty():
            r = comps.row(0, named=True)
            lines.append(f"No component stands out; the largest effect is {_component_line(r)}: ok")
    if not mods.is_empty():
        for r in mods.filter(pl.col("metric") == "winning_score").iter_rows(named=True):
            verdict = "changed" if r["p_adj"] < 0.05 else "no clear change"
            other = "Omens" if r["module"] == "shapeshifting" else "Shapeshifting"
            state = r["other_module_on"]
            context = "" if state is None else f" (with {other} {'on' if state else 'off'})"
            lines.append(
                f"{r['module'].capitalize()} on vs off at {r['players']} players{context}: winning score "
                f"{ci_num(r, 'delta', sign=True)} points (paired, {int(r['pairs']):,} seeds): {verdict}"
            )
    if solo is not None:
        for r in solo["win"].iter_rows(named=True):
            lines.append(
                f"Solo ({r['cell_id']}): the player beats the Widow in {ci_pct(r, 'rate')} of "
                f"{r['games']:,} games: {r['verdict']}"
            )
    return lines


def _component_line(r: Row) -> str:
    n = f"{r['present']:,} of {r['present'] + r['absent']:,} player-games"
    if r["game_level"]:
        return (
            f"{r['kind']} {r['item']}: {ci_num(r, 'wisdom_effect', 'wisdom_lo', 'wisdom_hi', sign=True)} Wisdom "
            f"for every player when in play ({n})"
        )
    return (
        f"{r['kind']} {r['item']}: win rate {ci_num(r, 'win_effect', 'win_lo', 'win_hi', 100, True)} points "
        f"when present ({n})"
    )


# ------------------------------------------------------------------------------------------------ sections
class _Builder:
    """Collects sections, charts and CSV tables while the report is assembled."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sections: list[Section] = []
        self.csv: dict[str, pl.DataFrame] = {}

    def section(self, id: str, title: str, intro: str) -> Section:
        sec = Section(id, title, intro)
        self.sections.append(sec)
        return sec

    def data(self, name: str, df: pl.DataFrame) -> str:
        """Keep a numeric table for CSV export; returns its file name."""
        flat = df.select(c for c in df.columns if not isinstance(df.schema[c], pl.List))
        self.csv[name] = flat
        return f"{name}.csv"


def _seats(b: _Builder, run: RunTables) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    s = b.settings
    cells = analysis.seat_balance(run.players, s)
    pooled = analysis.seat_balance(run.players, s, by=("players",))
    order = analysis.seat_balance(run.players, s, by=("players",), position="order")
    sec = b.section(
        "seats",
        "Seat balance",
        f"Win rate per seat against fair share (1 / players). Ties count as a win for each tied seat. Verdict: "
        f"flagged = significantly off fair by at least {s.seat_tolerance * 100:.0f} points (Holm-adjusted exact "
        f"binomial test); ok = the 95% interval lies within fair ± {s.seat_tolerance * 100:.0f} points; unclear = "
        f"more games needed. Turn order counts seats from the start player (0).",
    )
    sec.charts += [
        Chart("Win rate by seat and cell", "seat_heatmap.png", charts.seat_heatmap(cells)),
        Chart("Win rate by seat (all cells pooled)", "seat_winrate.png", charts.seat_bars(pooled, "seat", "seat")),
        Chart("Win rate by turn order", "turn_order.png", charts.seat_bars(order, "order", "pos")),
    ]
    sec.tables += [
        table(
            "By seat, all cells pooled",
            pooled,
            [("players", col("players")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_pooled", pooled),
        ),
        table(
            "By turn order (0 = start player)",
            order,
            [("players", col("players")), ("position", col("order")), *SEAT_COLUMNS],
            b.data("turn_order", order),
        ),
        table(
            "By cell and seat",
            cells,
            [("cell", col("cell_id")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_by_cell", cells),
        ),
    ]
    return pooled, order, cells


def _by_metric(long: pl.DataFrame, index: list[str]) -> tuple[list[str], pl.DataFrame]:
    """Long (metric, mean, lo, hi) rows as one text column per metric; rates (``*_rate``) as percentages."""
    text = [
        ci_pct(r, "mean") if r["metric"].endswith("_rate") else ci_num(r)
        for r in long.select("metric", "mean", "lo", "hi").iter_rows(named=True)
    ]
    wide = long.with_columns(text=pl.Series(text, dtype=pl.String))
    metrics = long["metric"].unique(maintain_order=True).to_list()
    return metrics, wide.pivot("metric", index=index, values="text").sort(index)


def _outcomes(b: _Builder, run: RunTables) -> None:
    out = analysis.outcomes(run.games, b.settings)
    sec = b.section(
        "outcomes",
        "Outcomes",
        "Scores, margins, ties, game length and decisions per cell (means with "
        "bootstrap 95% intervals; tie rate with a Wilson interval).",
    )
    sec.charts.append(
        Chart(
            "Score and margin distributions",
            "distributions.png",
            charts.distributions(run.players.filter(pl.col("players") > 1), run.games.filter(pl.col("players") > 1)),
        )
    )
    metrics, pivot = _by_metric(out, ["cell_id", "players", "n"])
    sec.tables.append(
        table(
            "Per cell",
            pivot,
            [
                ("cell", col("cell_id")),
                ("games", col("n", lambda v: f"{v:,}")),
                *[(m.replace("_", " "), col(m)) for m in metrics],
            ],
            b.data("outcomes", out),
        )
    )


def _sources(b: _Builder, run: RunTables) -> None:
    src = analysis.wisdom_sources(run.players)
    sec = b.section(
        "sources",
        "Where Wisdom comes from",
        "Mean Wisdom per player by source (the sources sum to the "
        "final Wisdom; penalties from overflow and capture are negative).",
    )
    sec.charts.append(Chart("Wisdom by source", "wisdom_sources.png", charts.stacked_sources(src)))
    pivot = src.with_columns(pl.col("mean").round(2)).pivot("source", index=["players", "policy", "n"], values="mean")
    names = [c for c in pivot.columns if c not in ("players", "policy", "n")]
    sec.tables.append(
        table(
            "Mean Wisdom by source",
            pivot,
            [
                ("players", col("players")),
                ("persona", col("policy")),
                *[(n, col(n, lambda v: num(v, 2))) for n in names],
            ],
            b.data("wisdom_sources", src),
        )
    )


def _suspicion(b: _Builder, run: RunTables) -> None:
    sus = analysis.suspicion(run.players, b.settings)
    sec = b.section(
        "suspicion",
        "Suspicion and hunters",
        "Per seat: how often a player overflowed the suspicion "
        "track, was captured or lost a witch (Wilson intervals), and mean suspicion and witches lost "
        "(bootstrap intervals).",
    )
    if run.events is not None:
        sec.charts.append(
            Chart(
                "Suspicion across the year",
                "suspicion.png",
                charts.suspicion_line(analysis.suspicion_by_turn(run.players, run.events)),
            )
        )
    metrics, pivot = _by_metric(sus, ["players", "seat", "n"])
    sec.tables.append(
        table(
            "Per seat",
            pivot,
            [("players", col("players")), ("seat", col("seat")), *[(m.replace("_", " "), col(m)) for m in metrics]],
            b.data("suspicion", sus),
        )
    )


def _actions(b: _Builder, run: RunTables) -> None:
    mix = analysis.card_mix(run.players, run.events)
    matches = analysis.match_rates(run.players, run.events)
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


def _trials(b: _Builder, run: RunTables) -> None:
    tr = analysis.trials(run.players, run.events, b.settings)
    sec = b.section(
        "trials",
        "Trials",
        "Trials won per player and seat (bootstrap intervals)"
        + ("; share of judged witches acquitted (Wilson intervals)." if "acquittal" in tr else "."),
    )
    if "acquittal" in tr:
        sec.tables.append(
            table(
                "Acquittal rate",
                tr["acquittal"],
                [
                    ("players", col("players")),
                    ("witches judged", col("n", "{:,}".format)),
                    ("acquitted", lambda r: ci_pct(r, "rate")),
                ],
                b.data("acquittal", tr["acquittal"]),
            )
        )
    sec.tables.append(
        table(
            "Trials won per player",
            tr["wins"],
            [
                ("players", col("players")),
                ("seat", col("seat")),
                ("player-games", col("n", "{:,}".format)),
                ("mean trials won", ci_num),
            ],
            b.data("trial_wins", tr["wins"]),
        )
    )


def _components(b: _Builder, run: RunTables) -> pl.DataFrame:
    comps = analysis.component_impact(run.players, run.games, b.settings)
    if comps.is_empty():
        return comps
    s = b.settings
    sec = b.section(
        "components",
        "Component impact",
        "For each component, a player's win rate and final Wisdom "
        "when it is present (drafted witch, animal, spell held at the end, divination goal dealt; for "
        "buildings and Omen halves: in play, shared by every seat) against absent, compared within each "
        "cell and pooled. Flagged: Benjamini-Hochberg-adjusted p < "
        f"{s.alpha} and an effect of at least {s.component_tolerance * 100:.0f} win-rate points (shared "
        f"components: {s.wisdom_tolerance:g} Wisdom). Spells and goals reached are partly a consequence "
        "of playing well, not only a cause.",
    )
    for game_level, metric, scale, unit in ((False, "win", 100, "win-rate points"), (True, "wisdom", 1, "Wisdom")):
        rows = comps.filter(pl.col("game_level") == game_level).head(25)
        if rows.height:
            what = "Wisdom of every player when in play" if game_level else "Win rate when present"
            sec.charts.append(_forest(rows, metric, scale, f"{what} minus absent (largest first)", unit))
    sec.tables.append(
        table(
            "All components, largest effect first",
            comps,
            [
                ("kind", col("kind")),
                ("component", col("item")),
                ("present", col("present", "{:,}".format)),
                ("win rate present", lambda r: ci_pct(r, "win_rate_present", "present_lo", "present_hi")),
                ("win rate absent", lambda r: ci_pct(r, "win_rate_absent", "absent_lo", "absent_hi")),
                ("win effect (points)", lambda r: ci_num(r, "win_effect", "win_lo", "win_hi", 100, True)),
                ("Wisdom effect", lambda r: ci_num(r, "wisdom_effect", "wisdom_lo", "wisdom_hi", sign=True)),
                ("p (BH)", col("p_adj", pval)),
                ("flagged", col("flagged", lambda v: "flagged" if v else "")),
            ],
            b.data("components", comps),
        )
    )
    return comps


def _forest(rows: pl.DataFrame, metric: str, scale: float, title: str, unit: str) -> Chart:
    """A forest chart of component effects (``<metric>_effect``, ``_lo``, ``_hi``)."""
    labels = [f"{k}: {i}" for k, i in rows.select("kind", "item").iter_rows()]
    data = charts.forest(
        labels,
        rows[f"{metric}_effect"].to_numpy() * scale,
        rows[f"{metric}_lo"].to_numpy() * scale,
        rows[f"{metric}_hi"].to_numpy() * scale,
        rows["flagged"].to_numpy(),
        title,
        unit,
    )
    return Chart(title, f"components_{metric}.png", data)


DELTA_COLUMNS: list[Column] = [
    ("delta [95% CI]", lambda r: ci_num(r, "delta", scale=100 if r["metric"] in RATE_METRICS else 1, sign=True)),
    ("p (Holm)", col("p_adj", pval)),
]
RATE_METRICS = frozenset({"tie", "first_player_won", "won"})
"""0/1 metrics: their deltas are shown in percentage points."""


def _value(r: Row, key: str) -> str:
    return pct(r[key]) if r["metric"] in RATE_METRICS else num(r[key])


def _modules(b: _Builder, run: RunTables) -> pl.DataFrame:
    mods = analysis.module_effects(run.games, run.players, b.settings, run.override_axes)
    if mods.is_empty():
        return mods
    sec = b.section(
        "modules",
        "Modules on vs off",
        "Shapeshifting and Omens: the same seeds played with the module "
        "off and on (cells equal in every other setting), so each game is compared with its twin. "
        "Intervals: bootstrap of the paired differences; p: McNemar (0/1 outcomes) or Wilcoxon "
        "signed-rank, Holm-adjusted. Rates in percentage points.",
    )
    labels = [f"{m} {n}p: {x.replace('_', ' ')}" for m, n, x in mods.select("module", "players", "metric").iter_rows()]
    scale = mods["metric"].is_in(list(RATE_METRICS)).cast(pl.Float64).to_numpy() * 99 + 1
    sec.charts.append(
        Chart(
            "Module effects",
            "modules.png",
            charts.forest(
                labels,
                mods["delta"].to_numpy() * scale,
                mods["lo"].to_numpy() * scale,
                mods["hi"].to_numpy() * scale,
                mods["p_adj"].to_numpy() < b.settings.alpha,
                "Module on minus off (paired by seed)",
                "difference (points; rates in percentage points)",
            ),
        )
    )
    sec.tables.append(
        table(
            "Paired comparisons",
            mods,
            [
                ("module", col("module")),
                ("players", col("players")),
                ("other settings", col("setting")),
                ("metric", col("metric", lambda v: v.replace("_", " "))),
                ("pairs", col("pairs", lambda v: f"{int(v):,}")),
                ("off", lambda r: _value(r, "off")),
                ("on", lambda r: _value(r, "on")),
                *DELTA_COLUMNS,
            ],
            b.data("modules", mods),
        )
    )
    return mods


def _personas(b: _Builder, run: RunTables) -> None:
    if not analysis.has_personas(run.players):
        return
    matrix = analysis.persona_matrix(run.players)
    robust = analysis.seat_across_lineups(run.players, b.settings)
    sec = b.section(
        "personas",
        "Personas and lineups",
        "Win rate of each persona in each lineup (fair share "
        "1 / players), and whether the turn-order finding holds across lineups.",
    )
    cells = matrix.with_columns(
        row=pl.format("{}p {}", "players", "lineup"),
        col=pl.col("policy"),
        value=pl.col("delta") * 100,
        text=pl.format("{}%", (pl.col("win_rate") * 100).round(1)),
    )
    sec.charts.append(
        Chart(
            "Persona x lineup",
            "personas.png",
            charts.heatmap(
                cells,
                cells["row"].unique(maintain_order=True).to_list(),
                sorted(cells["col"].unique().to_list()),
                "Win rate by persona and lineup (colour: points above or below fair)",
                "points vs fair share",
            ),
        )
    )
    sec.tables += [
        table(
            "Persona win rates",
            matrix,
            [("players", col("players")), ("lineup", col("lineup")), ("persona", col("policy")), *SEAT_COLUMNS[:4]],
            b.data("personas", matrix),
        ),
        table(
            "Turn order across lineups",
            robust,
            [("players", col("players")), ("lineup", col("lineup")), ("position", col("order")), *SEAT_COLUMNS],
            b.data("turn_order_by_lineup", robust),
        ),
    ]


def _solo(b: _Builder, run: RunTables) -> dict[str, pl.DataFrame] | None:
    if not run.games["solo"].any():
        return None
    solo = analysis.solo_summary(run.games, b.settings)
    lo, hi = b.settings.solo_band
    sec = b.section(
        "solo",
        "Solo (the Black Widow)",
        f"Solo win rate against the target band {pct(lo, 0)}-"
        f"{pct(hi, 0)}, Tribulations met and the Widow's final Wisdom.",
    )
    sec.charts.append(
        Chart(
            "Widow Wisdom",
            "widow_wisdom.png",
            charts.histogram(solo["widow"], "widow_wisdom", "The Widow's final Wisdom", "Wisdom"),
        )
    )
    sec.tables.append(
        table(
            "Win rate",
            solo["win"],
            [
                ("cell", col("cell_id")),
                ("games", col("games", "{:,}".format)),
                ("win rate", lambda r: ci_pct(r, "rate")),
                ("verdict", col("verdict")),
            ],
            b.data("solo", solo["win"]),
        )
    )
    sec.tables.append(
        table(
            "Tribulations met",
            solo["tribulations"],
            [("tribulations met", col("tribulations_met")), ("games", col("games", "{:,}".format))],
        )
    )
    if "failed" in solo:
        sec.tables.append(
            table(
                "Tribulations failed most",
                solo["failed"],
                [
                    ("tribulation", col("tribulations_failed")),
                    ("games failed", col("games", "{:,}".format)),
                    ("share", col("share", pct)),
                ],
                b.data("tribulations_failed", solo["failed"]),
            )
        )
    return solo


def _compare(b: _Builder, run: RunTables, other: RunTables) -> None:
    cmp = analysis.compare_runs(run, other, b.settings)
    sec = b.section(
        "compare",
        f"Compared with {other.path.name}",
        f"Deltas are {other.path.name} minus "
        f"{run.path.name}. Games with the same cell, index and seed are paired (McNemar / Wilcoxon, "
        "bootstrap intervals); otherwise independent (Welch). Holm-adjusted p-values.",
    )
    seats = cmp["seats"]
    if not seats.is_empty():
        sec.charts.append(
            Chart(
                "Seat win-rate deltas",
                "compare_seats.png",
                charts.forest(
                    [f"{c} seat {s}" for c, s in seats.select("cell_id", "seat").iter_rows()],
                    seats["delta"].to_numpy() * 100,
                    seats["lo"].to_numpy() * 100,
                    seats["hi"].to_numpy() * 100,
                    seats["p_adj"].to_numpy() < b.settings.alpha,
                    "Win rate change by cell and seat",
                    "percentage points",
                ),
            )
        )
        sec.tables.append(
            table(
                "Seat win rates",
                seats.with_columns(metric=pl.lit("won")),
                [
                    ("cell", col("cell_id")),
                    ("seat", col("seat")),
                    ("this", col("this", pct)),
                    ("other", col("other", pct)),
                    *DELTA_COLUMNS,
                    ("paired", col("paired", lambda v: "yes" if v else "no")),
                ],
                b.data("compare_seats", seats),
            )
        )
    if not cmp["outcomes"].is_empty():
        sec.tables.append(
            table(
                "Outcomes",
                cmp["outcomes"],
                [
                    ("cell", col("cell_id")),
                    ("metric", col("metric", lambda v: v.replace("_", " "))),
                    ("this", lambda r: _value(r, "this")),
                    ("other", lambda r: _value(r, "other")),
                    *DELTA_COLUMNS,
                    ("paired", col("paired", lambda v: "yes" if v else "no")),
                ],
                b.data("compare_outcomes", cmp["outcomes"]),
            )
        )
    b.data("compare_sources", cmp["sources"])
    if not cmp["components"].is_empty():
        comps = cmp["components"].head(20)
        sec.tables.append(
            table(
                "Component effects that moved most (top 20; all in compare_components.csv)",
                comps,
                [
                    ("kind", col("kind")),
                    ("component", col("item")),
                    (
                        "win effect change (points)",
                        lambda r: ci_num(r, "win_change", "win_change_lo", "win_change_hi", 100, True),
                    ),
                    (
                        "Wisdom effect change",
                        lambda r: ci_num(r, "wisdom_change", "wisdom_change_lo", "wisdom_change_hi", sign=True),
                    ),
                    ("p", col("p", pval)),
                ],
            )
        )
        b.data("compare_components", cmp["components"])


def _methods(b: _Builder, run: RunTables) -> None:
    import jinja2
    import matplotlib
    import scipy

    m = run.manifest
    cfg = m.get("config", {})
    sec = b.section("methods", "Methods", "How these numbers were made, so any of them can be reproduced.")
    games = run.games.group_by("cell_id", "players").agg(games=pl.len()).sort("cell_id")
    facts = [
        ("run", str(m.get("run_id", run.path.name))),
        (
            "config",
            f"{cfg.get('name', '?')} (hash {m.get('config_hash', '?')}), root seed {cfg.get('seed', '?')}, "
            f"{cfg.get('games_per_cell', '?')} games per cell",
        ),
        ("seeds", "game i of every cell uses SeedSequence(root seed, spawn_key=(i,)): cells are paired by seed"),
        ("games", f"{run.games.height:,} games, {run.players.height:,} player rows, {run.errors:,} games raised"),
        (
            "players",
            ", ".join(str(n) for n in run.player_counts)
            + " players; personas: "
            + ", ".join(sorted(run.players["policy"].unique().to_list())),
        ),
        ("rules", f"{m.get('rules_version', '?')}, content {m.get('content_hash', '?')}"),
        ("started / finished", f"{m.get('started', '?')} / {m.get('finished', '?')} ({m.get('status', '?')})"),
        (
            "statistics",
            "Wilson 95% intervals for rates; percentile bootstrap (seeded, "
            f"{b.settings.resamples} resamples) for means; Holm (seats, modules) and Benjamini-Hochberg "
            "(components) corrections; paired tests by seed",
        ),
    ]
    versions = {
        **m.get("versions", {}),
        "report: matplotlib": matplotlib.__version__,
        "jinja2": jinja2.__version__,
        "scipy": scipy.__version__,
        "python (report)": platform.python_version(),
        "septima-sim (report)": __version__,
    }
    sec.tables.append(Table("Run", ["item", "value"], [list(f) for f in facts]))
    sec.tables.append(
        table(
            "Games per cell",
            games,
            [("cell", col("cell_id")), ("players", col("players")), ("games", col("games", "{:,}".format))],
            b.data("games", games),
        )
    )
    provenance = _provenance(cfg.get("content"))
    if provenance is not None:
        sec.tables.append(provenance)
    sec.tables.append(Table("Library versions", ["library", "version"], [[k, str(v)] for k, v in versions.items()]))


def _provenance(content_dir: str | None) -> Table | None:
    """Items per content file and provenance tag (assumed = a stand-in no source gives)."""
    try:
        pack = load_content(content_dir)
    except ContentError:
        return None
    tags = sorted({t for counts in pack.provenance.values() for t in counts})
    rows = [[file, *(str(pack.provenance[file].get(t, 0)) for t in tags)] for file in sorted(pack.provenance)]
    return Table(f"Content provenance (pack {pack.hash})", ["file", *tags], rows)


# ------------------------------------------------------------------------------------------------ output
def build_report(
    run_dir: Path | str,
    out_dir: Path | str | None = None,
    compare: Path | str | None = None,
    settings: Settings | None = None,
    *,
    notice: str | None = None,
) -> Report:
    """Analyse a run and write ``report.html`` (self-contained), ``summary.md``, ``charts/*.png`` and
    ``tables/*.csv`` to ``out_dir`` (default: ``<run>/report``). Raises RunDataError on a bad run directory."""
    settings = settings or Settings()
    run = analysis.open_run(run_dir)
    other = analysis.open_run(compare) if compare is not None else None
    b = _Builder(settings)
    pooled, order, cells = _seats(b, run)
    _outcomes(b, run)
    _sources(b, run)
    _suspicion(b, run)
    _actions(b, run)
    _trials(b, run)
    comps = _components(b, run)
    mods = _modules(b, run)
    _personas(b, run)
    solo = _solo(b, run)
    if other is not None:
        _compare(b, run, other)
    _methods(b, run)
    lines = headlines(pooled, order, cells, comps, mods, solo)
    return _write(Path(out_dir) if out_dir else run.path / "report", run, other, b, lines, settings, notice)


def _write(
    out: Path,
    run: RunTables,
    other: RunTables | None,
    b: _Builder,
    lines: list[str],
    settings: Settings,
    notice: str | None = None,
) -> Report:
    (out / "charts").mkdir(parents=True, exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    chart_paths, csv_paths = [], []
    for sec in b.sections:
        for ch in sec.charts:
            path = out / "charts" / ch.file
            path.write_bytes(ch.data)
            chart_paths.append(path)
    for name, df in b.csv.items():
        path = out / "tables" / f"{name}.csv"
        df.write_csv(path, float_precision=6)
        csv_paths.append(path)
    title = f"Septima balance report: {run.path.name}" + (f" vs {other.path.name}" if other else "")
    env = Environment(
        loader=PackageLoader("septima_sim.report", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    context = {
        "title": title,
        "headlines": lines,
        "sections": b.sections,
        "games": run.games.height,
        "settings": settings,
    }
    page = env.get_template("report.html.j2").render(**context)
    text = env.get_template("summary.md.j2").render(**context)
    if notice:  # a partial run (cli report --allow-partial): say so before anything else
        page = page.replace("<body>", f'<body>\n<p class="notice"><strong>{html_escape(notice)}</strong></p>', 1)
        text = f"**{notice}**\n\n{text}"
    html = out / "report.html"
    html.write_text(page, encoding="utf-8")
    md = out / "summary.md"
    md.write_text(text, encoding="utf-8")
    return Report(out, html, md, chart_paths, csv_paths, lines)
