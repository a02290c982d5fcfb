"""``ablate --pairs`` (issue 30): do two components stack? For a pair A, B the same seeds are played four ways: the
unchanged game, without A, without B and without both (``variant.write_pair``). On the rows of the seats that hold
A or B in the unchanged game (a building or Omen: every seat, in the games it is in play), per cell:

- ``effect_a`` = unchanged minus without A, ``effect_b`` likewise, ``effect_both`` = unchanged minus without both;
- ``interaction`` = ``effect_a + effect_b - effect_both`` = unchanged - without A - without B + without both, per
  row: the effect of A when B is there minus its effect when B is not. **Positive: they stack** (each single effect
  counts the combination once more than removing both does: Johanna winning trials and a spell paying per trial
  won); negative: they overlap (either does the other's job). It is minus "the effect of removing both minus the two
  single effects".

The contrast in win points of those seats and in their Wisdom (a win rate saturates: two cards that each already
win the game cannot stack in wins, while their Wisdom still can), each with a t interval of the mean per-row
contrast and the Wilcoxon signed-rank p; flagged: for either metric, Holm-adjusted p (over both metrics of every row
of ``interactions.csv``) below alpha and an interaction at least the tolerance (win points; 1 Wisdom).

``--pairs A,B,C`` measures every pair of the named components; ``--pairs top:K`` every pair of the K largest
flagged components of the removed arm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import polars as pl

from septima_sim.ablate.effects import KEYS, SEAT_KEYS, Frames
from septima_sim.ablate.errors import AblateError
from septima_sim.ablate.kinds import Kind
from septima_sim.analysis import Settings
from septima_sim.analysis.paired import paired
from septima_sim.analysis.stats import holm

COLUMNS = (
    "kind_a",
    "component_a",
    "kind_b",
    "component_b",
    "players",
    "cell",
    "games",
    "effect_a",
    "effect_b",
    "effect_both",
    "interaction",
    "ci_low",
    "ci_high",
    "p_adj",
    "interaction_wisdom",
    "wisdom_ci_low",
    "wisdom_ci_high",
    "p_adj_wisdom",
    "flagged",
)
"""The columns of ``interactions.csv``: effects and interaction in win points of the holders, then the interaction
in their Wisdom (a win rate saturates: two cards that each already win the game cannot stack in wins)."""
TOP = "top:"

Member = tuple[Kind, str]


def parse(text: str) -> list[str] | int:
    """``A,B[,C...]`` -> the component ids (at least two, each once), ``top:K`` -> K (at least 2)."""
    text = text.strip()
    if text.startswith(TOP):
        k = text.removeprefix(TOP)
        if not (k.isascii() and k.isdigit() and int(k) >= 2):
            raise AblateError(f"--pairs {text}: top:K needs a whole number K of at least 2 components")
        return int(k)
    ids = list(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    if len(ids) < 2:
        raise AblateError(f"--pairs {text}: name at least two components (A,B) or top:K")
    return ids


def choose(spec: list[str] | int, known: dict[str, Kind], flagged: list[Member]) -> list[tuple[Member, Member]]:
    """The pairs to measure: every pair of the named components (``known``: id -> kind, the chosen components of
    ``--kinds``), or of the ``spec`` largest flagged ones (``flagged``, largest first)."""
    if isinstance(spec, int):
        members = flagged[:spec]
    else:
        unknown = [x for x in spec if x not in known]
        if unknown:
            kinds = "/".join(sorted({k.name for k in known.values()}))
            raise AblateError(f"--pairs: no {kinds or 'component'} {unknown[0]!r} in play among the chosen kinds")
        members = [(known[x], x) for x in spec]
    return list(combinations(members, 2))


@dataclass(frozen=True, slots=True)
class Interaction:
    """One pair in one cell: rows, the single and joint effects (win points), the interaction with its interval
    and p, and the Wisdom interaction."""

    first: Member
    second: Member
    cell: str
    players: int
    games: int
    effects: tuple[float, float, float]
    win: dict[str, float]
    wisdom: dict[str, float]


def _holders(base: Frames, member: Member) -> pl.DataFrame:
    kind, ident = member
    if kind.game_level:
        if kind.column not in base.games.columns:
            return pl.DataFrame(schema={k: base.players.schema[k] for k in SEAT_KEYS})
        games = base.games.filter(pl.col(kind.column).list.contains(ident)).select(KEYS)
        return base.players.join(games, on=KEYS, how="semi").select(SEAT_KEYS)
    if kind.column not in base.players.columns:
        return pl.DataFrame(schema={k: base.players.schema[k] for k in SEAT_KEYS})
    return base.players.filter(pl.col(kind.column).list.contains(ident)).select(SEAT_KEYS)


def measure(
    first: Member, second: Member, base: Frames, without_a: Frames, without_b: Frames, without_both: Frames
) -> list[Interaction]:
    """The pair's interaction in every cell with at least two rows held (module docstring)."""
    if any(f.players.is_empty() for f in (base, without_a, without_b, without_both)):
        return []
    rows = pl.concat([_holders(base, first), _holders(base, second)]).unique()
    joined = base.players.join(rows, on=SEAT_KEYS, how="semi").select(*SEAT_KEYS, "players", won="won", w="wisdom")
    for name, frames in (("a", without_a), ("b", without_b), ("ab", without_both)):
        arm = frames.players.select(*SEAT_KEYS, pl.col("won").alias(f"won_{name}"), pl.col("wisdom").alias(f"w_{name}"))
        joined = joined.join(arm, on=SEAT_KEYS)
    out = []
    for (cell,), grp in joined.sort(SEAT_KEYS).group_by("cell_id", maintain_order=True):
        if grp.height < 2:
            continue
        won = {c: grp[c].cast(pl.Float64).to_numpy() * 100 for c in ("won", "won_a", "won_b", "won_ab")}
        wis = {c: grp[c].cast(pl.Float64).to_numpy() for c in ("w", "w_a", "w_b", "w_ab")}
        win = paired(won["won_a"] + won["won_b"], won["won"] + won["won_ab"], binary=False)
        single = (
            float(np.mean(won["won"] - won["won_a"])),
            float(np.mean(won["won"] - won["won_b"])),
            float(np.mean(won["won"] - won["won_ab"])),
        )
        wisdom = paired(wis["w_a"] + wis["w_b"], wis["w"] + wis["w_ab"], binary=False)
        out.append(Interaction(first, second, str(cell), int(grp["players"][0]), grp.height, single, win, wisdom))
    return out


def _nan(x: float) -> float | None:
    return x if math.isfinite(x) else None


def frame(found: list[Interaction], tolerance: float, settings: Settings) -> pl.DataFrame:
    """``interactions.csv``'s rows, the largest interaction first."""
    if not found:
        return pl.DataFrame(schema=dict.fromkeys(COLUMNS, pl.String))
    rows = [
        {
            "kind_a": i.first[0].name,
            "component_a": i.first[1],
            "kind_b": i.second[0].name,
            "component_b": i.second[1],
            "players": i.players,
            "cell": i.cell,
            "games": i.games,
            "effect_a": i.effects[0],
            "effect_b": i.effects[1],
            "effect_both": i.effects[2],
            "interaction": i.win["delta"],
            "ci_low": _nan(i.win["lo"]),
            "ci_high": _nan(i.win["hi"]),
            "interaction_wisdom": i.wisdom["delta"],
            "wisdom_ci_low": _nan(i.wisdom["lo"]),
            "wisdom_ci_high": _nan(i.wisdom["hi"]),
        }
        for i in found
    ]
    p = [s["p"] if math.isfinite(s["p"]) else 1.0 for i in found for s in (i.win, i.wisdom)]
    adjusted = holm(p)  # one family: both metrics of every row
    out = pl.DataFrame(rows).with_columns(
        p_adj=pl.Series(adjusted[0::2], dtype=pl.Float64), p_adj_wisdom=pl.Series(adjusted[1::2], dtype=pl.Float64)
    )
    win = (pl.col("p_adj") < settings.alpha) & (pl.col("interaction").abs() >= tolerance)
    wisdom = (pl.col("p_adj_wisdom") < settings.alpha) & (
        pl.col("interaction_wisdom").abs() >= settings.wisdom_tolerance
    )
    out = out.with_columns(flagged=win | wisdom)
    return out.sort(pl.col("interaction").abs(), descending=True).select(COLUMNS)
