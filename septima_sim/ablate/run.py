"""``septima-sim ablate``: for each component of the chosen kinds, the experiment of CONFIG played again without it
on the same seeds, in stages with sequential stopping, against the unchanged game.

Layout of the output folder::

    ablate.toml                     the resolved settings (what --resume checks)
    variants/<kind>-<id>/           the content pack without the component (validated)
    variants/<kind>-<id>-forced-<seat>/  the pack with the component forced to a seat (arm ``forced``)
    variants/animal-swap-<colour>-<colour>/  the pack with two colours' animal tiles exchanged (arm ``swap``)
    runs/base/                      the unchanged game (a run directory)
    runs/<kind>-<id>/               the game without the component, same config and seeds
    runs/<kind>-<id>-forced-<seat>/ the game with the component forced to the seat, same config and seeds
    runs/pair-<kind>-<id>+<kind>-<id>/  the game without both components of a pair (``--pairs``)
    ablation.csv  ablation_detail.csv  ablation_status.csv  ablation.html  interactions.csv (``--pairs``)
"""

from __future__ import annotations

import shlex
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl
import tomli_w
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from septima_sim import rundir, runner, stopping, store
from septima_sim.ablate import effects, interactions, outputs, sequential, swap
from septima_sim.ablate.arms import DEFAULT_ARMS, FORCED, REMOVED, SWAP, arm_name
from septima_sim.ablate.errors import AblateError
from septima_sim.ablate.interactions import Member
from septima_sim.ablate.kinds import KINDS, Kind
from septima_sim.ablate.variant import NotRemovable, components, ensure, ensure_pair, provenance, swap_id
from septima_sim.analysis import Settings
from septima_sim.experiment import MAX_GAMES_PER_CELL, Experiment, ExperimentError, build, load_experiment
from septima_sim.grow import games_on_disk, play_into
from septima_sim.report.ablation.interactions import CSV as INTERACTIONS_CSV
from septima_sim.report.ablation.table import RESOLVED
from septima_sim.safe_path import inside


class AblateInterrupted(runner.RunInterrupted):
    """Ctrl-C or SIGTERM: the finished shards are kept; the same command with ``--resume`` continues."""


@dataclass(frozen=True, slots=True)
class Component:
    """One arm of a component to ablate: its kind, id, provenance, the variant pack (None with ``problem``), and the
    seat it is forced to (None: the component removed) or the two colours whose animal tiles are swapped (the id is
    then ``<colour>-<colour>``)."""

    kind: Kind
    id: str
    provenance: str
    content: Path | None
    problem: str | None = None
    seat: int | None = None
    assumed: str = ""  # its assumed parts when partly assumed (``content.provenance.assumed_parts``)
    swap: tuple[str, str] | None = None

    @property
    def arm(self) -> str:
        return swap.arm_name(self.swap) if self.swap else arm_name(self.seat)

    @property
    def label(self) -> str:
        if self.swap:
            return f"{self.kind.name}-swap-{self.id}"
        base = f"{self.kind.name}-{self.id}"
        return base if self.seat is None else f"{base}-forced-{self.seat}"


@dataclass(slots=True)
class Outcome:
    """What a component's games showed: games per cell it stopped at, why, its effects and the detail rows."""

    component: Component
    games: int
    status: str
    effects: list[effects.Effect] = field(default_factory=list)
    detail: list[dict[str, object]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Plan:
    """A validated ablation: settings, the experiment's resolved config, the components and the output folder."""

    out: Path
    source: str
    config: dict[str, Any]
    cells: int
    games: int
    tolerance: float
    components: list[Component]
    resume: str
    """The shell command (quoted) that continues this ablation: the same options and ``--resume``."""
    pairs: list[str] | int | None = None
    """``--pairs``: the component ids whose every pair is measured, or K (the K largest flagged), or None."""

    def run_dir(self, label: str) -> Path:
        """``runs/<label>`` of one arm (or ``base``), checked to stay inside ``runs/``."""
        return inside(self.out / "runs", label)


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished ablation reports."""

    out: Path
    outcomes: list[Outcome]
    games_played: int
    games_total: int
    seconds: float
    game_seconds: float
    errors: int = 0
    """Games that raised (in each run directory's ``errors/``, with their replay commands)."""


def _settings(exp: Experiment, kinds: list[Kind], games: int, tolerance: float, arms: list[str]) -> dict[str, Any]:
    config = {k: v for k, v in exp.resolved().items() if k not in ("games_per_cell", "shard_size")}
    return {"config": config, "kinds": [k.name for k in kinds], "games": games, "tolerance": tolerance, "arms": arms}


def resume_command(config: Path, out: Path, settings: dict[str, Any]) -> str:
    """``septima-sim ablate CONFIG ... --out OUT --resume`` with the options that make ``settings``, shell-quoted:
    pasting it continues this ablation (and runs nothing else, whatever the names)."""
    args = ["septima-sim", "ablate", str(config), "--kinds", ",".join(settings["kinds"])]
    args += ["--games", str(settings["games"]), "--seed", str(settings["config"]["seed"])]
    args += ["--tolerance", repr(float(settings["tolerance"])), "--arms", ",".join(settings["arms"])]
    if settings.get("only"):
        args += ["--only", ",".join(settings["only"])]
    if settings.get("pairs"):
        args += ["--pairs", settings["pairs"]]
    return shlex.join([*args, "--out", str(out), "--resume"])


def _in_play(kind: Kind, exp: Experiment) -> bool:
    if kind.needs == "full":
        return any(c.mode == "full" for c in exp.cells)
    return kind.needs is None or any(getattr(c, kind.needs) for c in exp.cells)


def prepare(
    config: Path,
    *,
    kinds: list[Kind],
    games: int,
    seed: int | None,
    tolerance: float,
    out: Path | None,
    resume: bool,
    only: list[str] | None = None,
    arms: list[str] | None = None,
    pairs: str | None = None,
) -> Plan:
    """Validate the options (nothing written on bad input), then create or reopen the output folder and write the
    variant packs: per component the removed arm, then (forceable kinds) one forced arm per seat of the largest
    player count."""
    arms = list(arms or DEFAULT_ARMS)
    if not 0 < games <= MAX_GAMES_PER_CELL:
        raise AblateError(f"--games must be between 1 and {MAX_GAMES_PER_CELL:,} games per component, got {games}")
    if not 0 < tolerance < 100:
        raise AblateError(f"--tolerance must be between 0 and 100 win-rate points, got {tolerance}")
    exp = load_experiment(config, seed=seed)
    settings = _settings(exp, kinds, games, tolerance, arms)
    if only:
        settings["only"] = only
    pair_spec = interactions.parse(pairs) if pairs is not None else None
    if pairs is not None:
        settings["pairs"] = pairs.strip()
    if resume:
        if out is None:
            raise AblateError("--resume needs --out DIR: the ablation folder to continue")
        try:
            with (out / RESOLVED).open("rb") as f:
                before = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError):
            raise AblateError(f"--resume {out}: not an ablation folder (no readable {RESOLVED})") from None
        if before != tomllib.loads(tomli_w.dumps(settings)):
            raise AblateError(f"--resume {out}: the folder holds an ablation with other settings (see {RESOLVED})")
    else:
        out = out or rundir.default_run_dir(f"ablate-{exp.config.name}")
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise AblateError(f"--out {out} exists (continue an ablation with --resume)")
    seats = max(c.players for c in exp.cells)
    chosen = [(k, ident) for k in kinds if _in_play(k, exp) for ident in components(k, exp.content_dir)]
    swaps = swap.pairs(exp.content_dir, seats) if SWAP in arms and swap.ANIMAL in kinds else []
    if only:
        known = {ident for k in kinds for ident in components(k, exp.content_dir)} | set(map(swap.pair_name, swaps))
        unknown = [x for x in only if x not in known]
        if unknown:
            raise AblateError(f"--only: no {'/'.join(k.name for k in kinds)} {unknown[0]!r} in the content pack")
        chosen = [(k, ident) for k, ident in chosen if ident in only]
        swaps = [p for p in swaps if swap.pair_name(p) in only] if set(only) & set(map(swap.pair_name, swaps)) else []
    if not _in_play(swap.ANIMAL, exp):
        swaps = []
    if isinstance(pair_spec, list):
        in_play = {i: k for k in kinds if _in_play(k, exp) for i in components(k, exp.content_dir)}
        interactions.choose(pair_spec, in_play, [])  # an unknown id is bad input: nothing written
    if not chosen and not swaps:
        needs = ", ".join(f"{k.name} needs {k.needs}" for k in kinds if k.needs)
        raise AblateError(f"{config}: no component of the chosen kinds is in play in its cells ({needs})")
    if not swaps and REMOVED not in arms and not (FORCED in arms and any(k.forceable for k, _ in chosen)):
        raise AblateError(
            f"--arms {','.join(arms)}: no chosen component has that arm "
            "(forced: witches, spells, goals; swap: animals, with Shapeshifting)"
        )
    again = resume_command(config, out, settings)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not resume:
            store.write_atomic(out / RESOLVED, tomli_w.dumps(settings).encode())
    except OSError as exc:
        raise AblateError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    arm_seats = [None] if REMOVED in arms else []
    comps = []
    try:
        for kind, ident in chosen:
            tag, assumed = provenance(kind, ident, exp.content_dir)
            for seat in [*arm_seats, *(range(seats) if FORCED in arms and kind.forceable else ())]:
                comps.append(
                    _variant(Component(kind, ident, tag, None, seat=seat, assumed=assumed), out, exp, str(config))
                )
        held = swap.tiles(exp.content_dir)
        for pair in swaps:
            tag, assumed = provenance(swap.ANIMAL, held[pair[0]][0], exp.content_dir)
            comp = Component(swap.ANIMAL, swap.pair_name(pair), tag, None, assumed=assumed, swap=pair)
            comps.append(_variant(comp, out, exp, str(config)))
    except KeyboardInterrupt as stop:
        raise AblateInterrupted(f"interrupted; continue with: {again}", stopping.exit_code(stop)) from None
    except OSError as exc:  # the variant being written was never renamed into place: the resume rebuilds it
        raise AblateError(
            f"cannot write {out / 'variants'}: {exc.strerror or exc} (free space or fix permissions, then {again})"
        ) from None
    return Plan(out, str(config), exp.resolved(), len(exp.cells), games, tolerance, comps, again, pair_spec)


def _variant(comp: Component, out: Path, exp: Experiment, source: str) -> Component:
    """The arm with its variant pack (kept when current: ``--resume``; written or rebuilt otherwise), or with the
    reason it has none."""
    kind, ident, seat = comp.kind, comp.id if comp.swap is None else swap_id(comp.swap), comp.seat
    dest = inside(out / "variants", comp.label)
    what = "not removable" if seat is None else f"cannot be forced to seat {seat}"
    if comp.swap is not None:
        what = "tiles cannot be swapped"
    try:
        ensure(exp.content_dir, kind, ident, dest, seat)
        _build(exp.resolved(), source, dest, 1, 1)  # the config's overrides must apply to the variant
        return replace(comp, content=dest)
    except NotRemovable as exc:
        return replace(comp, problem=f"{what}: {exc}")
    except ExperimentError as exc:
        return replace(comp, problem=f"{what} with this config: {exc}")


def _build(config: dict[str, Any], source: str, content: Path | None, games: int, shard_size: int) -> Experiment:
    """The experiment of one arm: the config with its games, shard size and (for a variant) content pack."""
    data = dict(config)
    data.update(games_per_cell=games, shard_size=shard_size)
    if content is not None:
        data["content"] = str(content.resolve())
    return build(data, source)


def _experiment(plan: Plan, content: Path | None, games: int, shard_size: int) -> Experiment:
    return _build(plan.config, plan.source, content, games, shard_size)


def _configured_games(run_dir: Path) -> int:
    """Games per cell a run directory was last asked to hold (0 when there is none yet)."""
    try:
        return int(store.read_manifest(run_dir)["config"]["games_per_cell"])
    except (store.RunDirError, KeyError, TypeError, ValueError):
        return 0


def execute(
    plan: Plan,
    *,
    jobs: int | None,
    console: Console,
    quiet: bool = False,
    backend: str = "local",
    scheduler: str | None = None,
) -> Result:
    """Play the stages, stop each component by the sequential rule, and write every output; the games run on
    ``backend`` (one cluster for every stage)."""
    sched = sequential.schedule(plan.games)
    stages, last = sched.stages, sched.stages[-1]
    settings = Settings()
    active = [c for c in plan.components if c.problem is None]
    outcomes = {c.label: Outcome(c, 0, c.problem or "") for c in plan.components if c.problem is not None}
    kinds = list({c.kind.name: c.kind for c in active}.values())
    held = swap.tiles(_experiment(plan, None, 1, 1).content_dir) if any(c.swap for c in active) else {}
    base_dir = plan.run_dir("base")
    dirs = [base_dir, *(plan.run_dir(c.label) for c in active)]
    progress = Progress(
        TextColumn("[bold]ablate {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
    )
    played = 0
    errors: dict[str, int] = {}
    t0 = time.perf_counter()

    def advance(out: runner.ShardOutput) -> None:
        nonlocal played
        played += out.games
        progress.update(bar, advance=out.games)

    def grow(content: Path | None, run_dir: Path, games: int) -> None:
        """Play the run up to ``games`` per cell (never shrinking one a resumed ablation grew further); missing or
        damaged shards are replayed by the runner, whole ones kept."""
        games = max(games, _configured_games(run_dir))
        summary = play_into(_experiment(plan, content, games, sched.shard_size), run_dir, console, on_shard=advance)
        errors[run_dir.name] = summary.errors

    try:
        with runner.parallel_backend(backend, jobs, scheduler), progress:
            planned = len(dirs) * plan.cells * last
            bar = progress.add_task("", total=planned, completed=sum(games_on_disk(d) for d in dirs))
            for i, games in enumerate(stages):
                if not active:
                    break
                progress.update(bar, description=f"base to {games:,} games")
                grow(None, base_dir, games)
                base = effects.load(base_dir, kinds, games)
                for c in list(active):
                    progress.update(bar, description=f"{c.kind.name} {c.id} ({games:,} games)")
                    grow(c.content, plan.run_dir(c.label), games)
                    arm = effects.load(plan.run_dir(c.label), [c.kind], games)
                    if c.swap is not None:
                        found, pair = swap.swap_effects(c.swap, held, base, arm), (arm, base)
                    elif c.seat is None:
                        found, pair = effects.effects(c.kind, c.id, base, arm), (base, arm)
                    else:
                        found, pair = effects.forced(c.seat, effects.in_play(c.kind, base), arm), (arm, base)
                    verdict = sequential.decide(found, plan.tolerance, settings.wisdom_tolerance, settings.alpha)
                    if verdict is None and i < len(stages) - 1:
                        continue
                    status = f"{verdict} at {games:,} games" if verdict else "budget spent"
                    outcomes[c.label] = Outcome(c, games, status, found, effects.detail(*pair))
                    active.remove(c)
                    planned -= plan.cells * (last - games)
                    progress.update(bar, total=planned)
        ordered = [outcomes[c.label] for c in plan.components]
        pairs: list[interactions.Interaction] = []
        if plan.pairs is not None:
            progress.update(bar, description="pairs")
            pairs = _pairs(plan, ordered, settings, last, grow, lambda n: progress.update(bar, total=planned + n))
    except (KeyboardInterrupt, runner.RunInterrupted) as exc:
        code = exc.exit_code if isinstance(exc, runner.RunInterrupted) else stopping.exit_code(exc)
        raise AblateInterrupted(f"interrupted; continue with: {plan.resume}", code) from None
    except runner.RunWriteError as exc:  # a full disk: the finished shards are kept, the ablation continues later
        raise AblateError(exc.advice(plan.resume)) from None
    if plan.pairs is not None:  # before the page, which shows it
        table = interactions.frame(pairs, plan.tolerance, settings)
        table.write_csv(plan.out / INTERACTIONS_CSV, float_precision=4)
    outputs.write(plan, ordered, settings)
    if plan.pairs is not None:
        dirs = sorted(d for d in plan.out.joinpath("runs").iterdir() if d.is_dir())  # the pairs' runs too
    total = sum(games_on_disk(d) for d in dirs)
    seconds = time.perf_counter() - t0
    return Result(plan.out, ordered, played, total, seconds, _game_seconds(dirs), sum(errors.values()))


def _game_seconds(dirs: list[Path]) -> float:
    """Seconds the workers spent in games (the sum of the games' ``duration_ms``): the CPU cost of the ablation."""
    total = 0.0
    for d in dirs:
        games = store.scan(d, "games")
        if games is not None:
            total += float(games.select(pl.col("duration_ms").sum()).collect().item() or 0.0) / 1000
    return total


def _pairs(
    plan: Plan,
    outcomes: list[Outcome],
    settings: Settings,
    games: int,
    grow: Callable[[Path | None, Path, int], None],
    extra: Callable[[int], None],
) -> list[interactions.Interaction]:
    """``--pairs``: every chosen pair's four games (unchanged, without each, without both) played to the full
    budget on the same seeds, and their interactions."""
    assert plan.pairs is not None
    exp = _experiment(plan, None, 1, 1)
    known = {c.id: c.kind for c in plan.components if c.seat is None and c.swap is None}
    known |= {i: KINDS[k] for k in _kind_names(plan) for i in components(KINDS[k], exp.content_dir)}
    table = outputs.effects_frame(outcomes, plan.tolerance, settings)
    flagged = (
        table.filter(pl.col("flagged") & (pl.col("arm") == REMOVED))
        .select("kind", "component")
        .unique(maintain_order=True)
    )
    top = [(KINDS[k], c) for k, c in flagged.iter_rows()]
    chosen = interactions.choose(plan.pairs, known, top)
    runs: list[tuple[Path | None, Path]] = [(None, plan.run_dir("base"))]
    members: dict[Member, Path] = {}
    for pair in chosen:
        for member in pair:
            comp = _variant(Component(member[0], member[1], "", None), plan.out, exp, plan.source)
            if comp.content is not None and member not in members:
                members[member] = plan.run_dir(comp.label)
                runs.append((comp.content, members[member]))
    both: dict[tuple[Member, Member], Path] = {}
    for first, second in chosen:
        label = f"pair-{first[0].name}-{first[1]}+{second[0].name}-{second[1]}"
        dest = inside(plan.out / "variants", label)
        try:
            ensure_pair(exp.content_dir, first, second, dest)
        except NotRemovable:
            continue
        if first in members and second in members:
            both[first, second] = plan.run_dir(label)
            runs.append((dest, both[first, second]))
    extra(sum(max(0, plan.cells * games - games_on_disk(d)) for _, d in runs))
    for content, run_dir in runs:
        grow(content, run_dir, games)
    base = effects.load(plan.run_dir("base"), list(KINDS.values()), games)
    found = []
    for (first, second), run_dir in both.items():
        arms = [effects.load(d, [], games) for d in (members[first], members[second], run_dir)]
        found += interactions.measure(first, second, base, *arms)
    return found


def _kind_names(plan: Plan) -> list[str]:
    """The kinds ``--kinds`` chose (from the resolved settings on disk)."""
    try:
        with (plan.out / RESOLVED).open("rb") as f:
            return [k for k in tomllib.load(f).get("kinds", []) if k in KINDS]
    except (OSError, tomllib.TOMLDecodeError):
        return []
