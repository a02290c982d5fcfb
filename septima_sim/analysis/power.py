"""How many games a run needs (``septima-sim plan-games``, issue 30), and how many more would settle an unclear
verdict. Two-sided tests at level ``alpha`` with power ``power``:

- **seat**: a seat's win rate off its fair share 1/players by ``effect`` points (the seat table's exact binomial
  test, planned with its normal approximation on Cohen's h, as ``statsmodels``' ``NormalIndPower(ratio=0)``);
- **component**: a holder effect of ``effect`` points measured by ``ablate`` on pairs of games, the component held by
  a seat in a share ``rate`` of the games (a paired t test, exact through the noncentral t, as ``TTestPower``); the
  per-pair spread is that of two independent games at the fair win rate, sqrt(2 p (1 - p)) (an upper bound: the
  common seeds of a pair correlate the two results, so real runs need fewer games);
- **pair**: an ``ablate --pairs`` interaction (four arms per pair, spread sqrt(4 p (1 - p))), held at ``rate``.

``more_to_settle``: for an estimate whose interval still straddles a band edge, the games after which an interval
of the same level around the same estimate would clear it (the spread per game as observed so far).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import optimize, stats

SCOPES = ("seat", "component", "pair")
"""What a plan is for, in the order of ``--help``."""
MAX_GAMES = 10_000_000
"""Beyond this the planner answers "more than": the effect is too small to detect in any practical run."""


@dataclass(frozen=True, slots=True)
class PlanRow:
    """Games needed for one question: the scope, the player count, the held rate, the effect and the games."""

    scope: str
    players: int
    rate: float
    effect: float
    games: int | None
    """Games per cell (None: more than ``MAX_GAMES``)."""


def seat_games(effect: float, players: int, *, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Games for a seat's win rate ``effect`` points above fair (1/players) to be detected."""
    fair = 1 / players
    target = min(max(fair + effect / 100, 1e-9), 1 - 1e-9)
    h = abs(2 * math.asin(math.sqrt(target)) - 2 * math.asin(math.sqrt(fair)))
    if h == 0:
        return None
    z = float(stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power))
    return _capped((z / h) ** 2)


def paired_pairs(effect_size: float, *, alpha: float = 0.05, power: float = 0.8) -> float | None:
    """Pairs a two-sided paired (one-sample) t test needs for a standardised effect ``effect_size`` (mean / sd):
    the smallest n whose exact power, by the noncentral t, reaches ``power``."""
    d = abs(effect_size)
    if d == 0:
        return None

    z = float(stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power))
    normal = (z / d) ** 2  # the normal approximation: the t test needs a little more
    if normal > MAX_GAMES:
        return None

    def short(n: float) -> float:
        df = n - 1
        crit = stats.t.ppf(1 - alpha / 2, df)
        nc = d * math.sqrt(n)
        return float(1 - stats.nct.cdf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)) - power

    return float(optimize.brentq(short, 2.0, 2 * normal + 10, xtol=1e-6))


def component_games(
    effect: float, players: int, rate: float = 1.0, *, arms: int = 2, alpha: float = 0.05, power: float = 0.8
) -> int | None:
    """Games per cell for a holder effect of ``effect`` points (``arms`` = 2: one component; 4: a pair's
    interaction), the component held by a seat in a share ``rate`` of the games."""
    fair = 1 / players
    sd = 100 * math.sqrt(arms * fair * (1 - fair))
    n = paired_pairs(effect / sd, alpha=alpha, power=power)
    return None if n is None else _capped(n / rate)


def plan(
    scope: str, effect: float, players: int, rate: float = 1.0, *, alpha: float = 0.05, power: float = 0.8
) -> PlanRow:
    """The games one question needs (``scope``: seat, component or pair)."""
    if scope == "seat":
        games = seat_games(effect, players, alpha=alpha, power=power)
    else:
        games = component_games(effect, players, rate, arms=2 if scope == "component" else 4, alpha=alpha, power=power)
    return PlanRow(scope, players, rate if scope != "seat" else 1.0, effect, games)


def more_to_settle(
    estimate: float, sd: float, games: int, tolerance: float, *, level: float = 0.95, edges: tuple[float, ...] = ()
) -> int | None:
    """More games after which a ``level`` interval around ``estimate`` (per-game spread ``sd``) lies wholly inside
    or outside the band ``-tolerance..tolerance`` (or clears every value in ``edges`` when given): 0 when it does
    already, None when the estimate sits on an edge or it would take more than ``MAX_GAMES``."""
    marks = edges or (-tolerance, tolerance)
    gap = min(abs(estimate - m) for m in marks)
    if gap == 0 or not math.isfinite(sd) or sd <= 0:
        return None
    z = float(stats.norm.ppf(0.5 + level / 2))
    needed = math.ceil((z * sd / gap) ** 2)
    if needed > MAX_GAMES:
        return None
    return max(0, needed - games)


def _capped(n: float) -> int | None:
    return None if n > MAX_GAMES else math.ceil(n)


def lines(rows: list[PlanRow], alpha: float, power: float) -> list[str]:
    """``plan-games``' answer, one line per question."""
    out = []
    for r in rows:
        games = f"{r.games:,} games per cell" if r.games is not None else f"more than {MAX_GAMES:,} games per cell"
        if r.scope == "seat":
            what = f"a seat {r.effect:+g} win-rate points off fair (1/{r.players})"
        elif r.scope == "component":
            what = f"a component's holder effect of {r.effect:g} points, held in {r.rate:.0%} of the games"
        else:
            what = f"a pair's interaction of {r.effect:g} points, both held in {r.rate:.0%} of the games"
        out.append(f"{r.players} players: {what}: {games} (alpha {alpha:g}, power {power:.0%})")
    return out
