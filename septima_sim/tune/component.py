"""tune's ``component`` target: a component's causal effect within a band, by ``ablate``'s pairing. Each candidate
(and the confirmation's baseline) is also played without the component, on the same seeds and with the same
values, and the effect is the paired difference for the seat holding it (``ablate.effects``).

The variant pack is written once into the tune folder (``without/<kind>-<id>/``, atomically, checked and rebuilt on
resume like ``ablate``'s variants); a candidate's values that change
the component itself (paths under ``<kind's namespace>.<id>.``) do not apply to the game without it. The game
without it is played into ``<run>-without/`` beside the candidate's run directory.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from septima_sim.ablate import effects
from septima_sim.ablate.kinds import KINDS
from septima_sim.ablate.variant import NotRemovable, components, ensure
from septima_sim.experiment import MODULE_AXES
from septima_sim.grow import play_into
from septima_sim.safe_path import inside
from septima_sim.tune import evaluate
from septima_sim.tune.schema import Component, TuneConfig, TuneError
from septima_sim.tune.targets import Measure, band_verdict


def _content(cfg: TuneConfig) -> Path | None:
    return Path(cfg.content) if cfg.content else None


def check(cfg: TuneConfig, t: Component, source: str) -> None:
    """The component exists in the pack and can be removed (nothing is written)."""
    kind = KINDS[t.kind]
    known = components(kind, _content(cfg))
    if t.id not in known:
        raise TuneError(
            f"{source}: targets.component.id: no {t.kind} {t.id!r} in the content pack (known: {', '.join(known)})"
        )
    if kind.needs in MODULE_AXES and not any(getattr(cfg.base, kind.needs)):
        raise TuneError(f"{source}: targets.component: a {t.kind} is only in play with base.{kind.needs} = true")


def variant(cfg: TuneConfig, out: Path) -> Path:
    """The pack without the component, written once into the tune folder (kept when current, rebuilt when missing,
    half-written or damaged: ``ablate.variant.ensure``)."""
    t = cfg.targets.component
    assert t is not None
    dest = inside(out / "without", f"{t.kind}-{t.id}")
    try:
        ensure(_content(cfg), KINDS[t.kind], t.id, dest)
    except NotRemovable as exc:
        raise TuneError(f"targets.component: {exc}") from None
    return dest


def measures(
    cfg: TuneConfig,
    out: Path,
    run_dir: Path,
    values: dict[str, Any],
    *,
    name: str,
    games: int,
    seed: int,
    shard_size: int | None,
    console: Console,
    at: dict[str, list[int]],
) -> list[Measure]:
    """Play the candidate's games without the component and measure its effect at each judged player count."""
    t = cfg.targets.component
    if t is None:
        return []
    kind = KINDS[t.kind]
    own = f"{kind.namespace}.{t.id}."
    kept = {path: v for path, v in values.items() if not path.startswith(own)}
    exp = evaluate.experiment(
        cfg,
        name=f"{name}-without",
        games=games,
        seed=seed,
        overrides=kept,
        shard_size=shard_size,
        content=str(variant(cfg, out)),
    )
    without_dir = inside(run_dir.parent, f"{run_dir.name}-without")
    play_into(exp, without_dir, console)
    base, without = _plain(effects.load(run_dir, [kind])), _plain(effects.load(without_dir, [kind]))
    found = {e.players: e for e in effects.effects(kind, t.id, base, without, by="players")}
    return [_measure(t, found.get(n), n) for n in at["component"]]


def _plain(frames: effects.Frames) -> effects.Frames:
    """Cell ids without the ``-x<hash>`` of override values: the candidate's cells carry its values, the game
    without the component may carry fewer, and every other parameter pairs them (one value per path per run)."""
    strip = {"cell_id": pl.col("cell_id").str.replace(r"-x[0-9a-f]{8}$", "")}
    if frames.players.is_empty():
        return frames
    return effects.Frames(frames.players.with_columns(**strip), frames.games.with_columns(**strip))


def _measure(t: Component, e: effects.Effect | None, n: int) -> Measure:
    """The effect as a target measure: metric and interval in points (Wisdom for shared components)."""
    if e is None:  # never held at this player count: nothing to judge (the loss of the band's edge, no excess)
        return Measure("component", n, math.nan, math.nan, math.nan, 0, "unclear", 1.0, 0.0)
    s = e.primary
    loss = abs(s["delta"] - t.target) / t.band
    judged = band_verdict(s["lo"], s["hi"], t.target - t.band, t.target + t.band)
    return Measure("component", n, s["delta"], s["lo"], s["hi"], e.games, judged, loss, max(0.0, loss - 1))
