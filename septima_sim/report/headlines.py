"""Headline findings that lead: at most ``MAX_HEADLINES`` plain-language lines, each with its interval, game count
and verdict, ordered by severity for fairness.

Order: seat and turn-order balance per setting (a cell without its lineup: player count, module mix, override
values), flagged first and largest gap first; then components (flagged ones; causal evidence first when the table
has it); then everything else (module effects, which are not fairness problems and so are neutral, and solo
difficulty). Seats are named by colour and, with Shapeshifting, by animals. When the run has more than one lineup,
each seat finding says whether it holds at every skill level (``analysis.skill``); so does each flagged component."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from septima_sim.analysis import Settings
from septima_sim.analysis.expansions import Module, title
from septima_sim.analysis.skill import seat_robustness
from septima_sim.report.ablation import page as ablate_page
from septima_sim.report.fmt import Row, ci_num, ci_pct, pct
from septima_sim.report.names import setting_phrase
from septima_sim.report.sections.seats import SeatTables
from septima_sim.sensitivity.metrics import component_name

MAX_HEADLINES = 10
MAX_FAIRNESS = 6
"""Seat / turn-order lines shown one by one; the other settings are summed up in one line."""
MAX_COMPONENTS = 2
_RANK = {"flagged": 0, "unclear": 1, "ok": 2}


@dataclass(frozen=True, slots=True)
class Basis:
    """What a finding rests on, for ``report --sensitivity``: the study metric (``sensitivity.metrics``), its player
    count (None: pooled over every count) and how far the estimate lies from the edge of its verdict, in the
    metric's units."""

    metric: str
    players: int | None
    margin: float


@dataclass(frozen=True, slots=True)
class Headline:
    """One finding: its text, its tone (flagged / ok / unclear / neutral: the colour it is shown in), for a seat
    finding what an example game of it must show (player count, seat, the setting's cells, a loss or a win), and
    the metric it rests on."""

    text: str
    tone: str
    seat: tuple[int, int, tuple[str, ...], bool] | None = None
    basis: Basis | None = None


@dataclass(frozen=True, slots=True)
class Findings:
    """The headlines shown, and how many further findings the sections below hold."""

    lines: list[Headline]
    more: int


def _cells_of(r: Row, keys: list[str], cells: pl.DataFrame) -> tuple[str, ...]:
    rows = cells.filter(*(pl.col(k).eq_missing(r[k]) for k in keys))
    return tuple(rows["cell_id"].to_list())


def _fairness(s: SeatTables) -> list[tuple[tuple[int, float], Headline]]:
    """One line per setting (the seat furthest from fair) and one per setting whose start player is flagged."""
    axes, mods = s.axes, s.modules
    out: list[tuple[tuple[int, float], Headline]] = []
    tol = s.tolerance
    for _, grp in s.by_setting.group_by(s.keys, maintain_order=True):
        r = grp.sort(pl.col("delta").abs(), descending=True).row(0, named=True)
        who = s.names(r["seat"], r)
        skill = seat_robustness(r, s.lineup_seat, s.keys, s.weak, "seat", tol) if s.lineup_seat is not None else None
        text = _seat_line(r, who, setting_phrase(r, axes, mods), "the seat furthest from fair", skill)
        example = (int(r["players"]), int(r["seat"]), _cells_of(r, s.keys, s.cells), bool(r["delta"] < 0))
        basis = Basis("worst_seat", int(r["players"]), _margin(r["delta"], tol))
        out.append(((_RANK[r["verdict"]], -abs(r["delta"])), Headline(text, r["verdict"], example, basis)))
    for r in s.order.filter((pl.col("order") == 0) & (pl.col("verdict") == "flagged")).iter_rows(named=True):
        skill = seat_robustness(r, s.lineup_order, s.keys, s.weak, "order", tol) if s.lineup_order is not None else None
        text = _seat_line(r, "The start player", setting_phrase(r, axes, mods), "turn order", skill)
        basis = Basis("start_player", int(r["players"]), _margin(r["delta"], tol))
        out.append(((0, -abs(r["delta"])), Headline(text, "flagged", basis=basis)))
    return out


def _margin(delta: float, tolerance: float, scale: float = 100.0) -> float:
    """How far an effect lies from the tolerance that separates its verdicts, in points (``scale`` 1: Wisdom)."""
    return abs(abs(delta) - tolerance) * scale


def _seat_line(r: Row, who: str, where: str, note: str, skill: str | None) -> str:
    line = f"{who} wins {ci_pct(r)} {where} (fair {pct(r['fair'])}; {r['games']:,} games; {note}): {r['verdict']}"
    return f"{line}; {skill}" if skill and r["verdict"] == "flagged" else line


def headlines(
    seats: SeatTables,
    comps: pl.DataFrame,
    mods: pl.DataFrame,
    module_lines: Sequence[Headline] | None,
    component_skill: dict[tuple[str, str], str] | None = None,
    causal: pl.DataFrame | None = None,
    settings: Settings | None = None,
) -> Findings:
    """The findings in order of severity for fairness, at most MAX_HEADLINES (``seats`` is the seat section's
    SeatTables; ``module_lines`` the headline candidates of the modules' own report sections, ``ModuleSpec.report``;
    ``component_skill`` the robustness of flagged components across lineups, ``skill``)."""
    fairness = sorted(_fairness(seats), key=lambda x: x[0])
    lines = [h for _, h in fairness[:MAX_FAIRNESS]]
    rest = [h for _, h in fairness[MAX_FAIRNESS:]]
    if rest:
        counts = {t: sum(h.tone == t for h in rest) for t in ("flagged", "unclear", "ok")}
        summary = ", ".join(f"{n} {t}" for t, n in counts.items() if n)
        lines.append(Headline(f"{len(rest)} more setting(s) in Seat balance ({summary})", "neutral"))
    settings = settings or Settings()
    others = _causal(causal) + _components(comps, component_skill or {}, settings) + _modules(mods, seats.modules)
    others += module_lines or ()
    room = MAX_HEADLINES - len(lines)
    lines += others[:room]
    return Findings(lines, max(0, len(others) - room))


def _causal(frame: pl.DataFrame | None) -> list[Headline]:
    """The components an ablation flagged (causal evidence, paired by seed), largest effect first: they lead the
    component lines (``septima-sim ablate``; the ablation table is sorted by effect size)."""
    if frame is None or frame.is_empty():
        return []
    flagged = frame.filter(pl.col("flagged"))
    return [Headline(f"Causal: {line}", "flagged") for line in ablate_page.lines(flagged, MAX_COMPONENTS)]


def _components(comps: pl.DataFrame, skill: dict[tuple[str, str], str], settings: Settings) -> list[Headline]:
    if comps.is_empty():
        return []
    flagged = comps.filter(pl.col("flagged"))
    if "causal" in comps.columns:
        flagged = flagged.sort("causal", descending=True, maintain_order=True)
    out = []
    for r in flagged.head(MAX_COMPONENTS).iter_rows(named=True):
        robust = skill.get((r["kind"], r["item"]))
        text = f"{_component_line(r)}: flagged" + (f"; {robust}" if robust else "")
        out.append(Headline(text, "flagged", basis=_component_basis(r, settings)))
    if flagged.is_empty():
        r = comps.row(0, named=True)
        text = f"No component stands out; the surest effect is {_component_line(r)}: ok"
        out.append(Headline(text, "ok", basis=_component_basis(r, settings)))
    return out


def _component_basis(r: Row, settings: Settings) -> Basis:
    """A component line rests on its association effect, pooled over the player counts. A flagged effect's margin
    is its distance above the tolerance; an unflagged one's, its distance below it (none when it is not flagged
    for want of games: any value that moves it matters)."""
    effect, tolerance, scale = (
        (r["wisdom_effect"], settings.wisdom_tolerance, 1.0)
        if r["game_level"]
        else (r["win_effect"], settings.component_tolerance, 100.0)
    )
    margin = (abs(effect) - tolerance if r["flagged"] else max(0.0, tolerance - abs(effect))) * scale
    return Basis(component_name(str(r["kind"]), str(r["item"])), None, max(0.0, margin))


def _modules(mods: pl.DataFrame, modules: tuple[Module, ...]) -> list[Headline]:
    """One neutral line per module: its effect on the winning score per player count (the interval when one
    setting was paired, else the range over the paired settings)."""
    if mods.is_empty():
        return []
    out = []
    score = mods.filter(pl.col("metric") == "winning_score")
    for (module,), grp in score.group_by("module", maintain_order=True):
        parts = []
        for (players,), sub in grp.group_by("players", maintain_order=True):
            if sub.height == 1:
                parts.append(f"{ci_num(sub.row(0, named=True), 'delta', sign=True)} at {players}p")
            else:
                deltas = sub["delta"].to_list()
                parts.append(f"{min(deltas):+.1f} to {max(deltas):+.1f} at {players}p ({sub.height} settings)")
        out.append(
            Headline(
                f"{title(modules, str(module))} on vs off (paired by seed): winning score {'; '.join(parts)} points; "
                f"{int((grp['p_adj'] < 0.05).sum())} of {grp.height} significant (a module effect, not a fairness "
                "problem; see Modules on vs off)",
                "neutral",
            )
        )
    return out


def _component_line(r: Row) -> str:
    """One component's effect in words, named with its note (assumed content, wholly or partly: which parts)."""
    n = f"{r['present']:,} of {r['present'] + r['absent']:,} player-games"
    what = f"{r['kind']} {r['item']}" + (f" ({r['note']})" if r.get("note") else "")
    if r["game_level"]:
        return (
            f"{what}: {ci_num(r, 'wisdom_effect', 'wisdom_lo', 'wisdom_hi', sign=True)} Wisdom "
            f"for every player when in play ({n})"
        )
    return f"{what}: win rate {ci_num(r, 'win_effect', 'win_lo', 'win_hi', 100, True)} points when present ({n})"
