"""The ``septima-sim`` command line. Each command parses, validates and calls one function; errors on bad input are
one line on stderr with exit code 2 (a traceback only with ``--debug``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from septima_sim import __version__, build_info
from septima_sim.errors import UserError, run_main

if TYPE_CHECKING:
    from septima_sim.content import Content
    from septima_sim.engine import GameConfig
    from septima_sim.engine.decisions import Policy


def _flags_read_as_flags() -> None:
    """typer's help prints a value type after every option, ``--force <bool>`` for a flag too, which reads as if it
    took a value: a boolean flag shows none (``--shapeshifting/--no-shapeshifting`` in its columns says enough)."""
    from typer.core import TyperOption

    typed = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:  # typer's own (vendored) click Context
        return None if self.is_bool_flag else typed(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_read_as_flags()
app = typer.Typer(
    help="Simulate the board game Septima headlessly and tell designers whether it is balanced.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    """``--version``: the version and whether the engine runs compiled (mypyc) or pure Python; eager, so no command
    is needed."""
    if value:
        typer.echo(f"septima-sim {__version__}, {build_info()}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Options of every command (``--debug`` is read from the command line by the error path)."""


MAX_JOBS = 1024
"""Upper bound of ``--jobs`` (worker processes)."""

ContentOpt = Annotated[Path | None, typer.Option("--content", help="Content pack folder (default: the built-in pack).")]
BackendOpt = Annotated[
    str, typer.Option("--backend", help="local (worker processes here) or dask (a cluster: README, Scaling out).")
]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", help="Dask scheduler address; default: a local cluster of --jobs workers.")
]


@app.command(
    epilog="Examples:\n\n  septima-sim play --players 3 --seed 7\n\n"
    "  septima-sim play --mode basic --format jsonl > game.jsonl\n\n"
    "  septima-sim play --players 4 --shapeshifting --omens --lineup heuristic-mix\n\n"
    "  septima-sim play --players 2 --lineup balanced,py:mybots:Clever     (one persona per seat)\n\n"
    "  septima-sim play --players 1 --lineup balanced            (solo against the Black Widow)\n\n"
    "  septima-sim play --replay runs/default-20260101-120000 --game p4-full-ss0-om0-none-all-random:17\n\n"
    "  septima-sim play --players 4 --shapeshifting --omens --format html --out game.html   (replay page)"
)
def play(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players, 1-4 (1 = solo).")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Game seed; the same seed gives the same game.")] = 1,
    mode: Annotated[str, typer.Option("--mode", help="full or basic.")] = "full",
    shapeshifting: Annotated[
        bool, typer.Option("--shapeshifting/--no-shapeshifting", help="Play with the Shapeshifting module.")
    ] = False,
    omens: Annotated[
        bool, typer.Option("--omens/--no-omens", help="Play with the Omens module (random Omen deck).")
    ] = False,
    module: Annotated[
        list[str] | None,
        typer.Option(
            "--module", "-m", help="Play with a rules module by name (repeatable; --shapeshifting and --omens are two)."
        ),
    ] = None,
    lineup: Annotated[
        str,
        typer.Option(
            "--lineup",
            "-l",
            help="Named lineup (content/lineups.toml, rotated by the seed) or one persona per seat: balanced,random.",
        ),
    ] = "all-random",
    fmt: Annotated[
        str,
        typer.Option("--format", help="text (readable account), jsonl (one event per line) or html (replay page)."),
    ] = "text",
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="File to write the html replay page to (with --format html).")
    ] = None,
    content: ContentOpt = None,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="Run directory to replay a game from (with --game).")
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", help="CELL:INDEX of the game to replay (cell ids: the run's games/).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
    decision_timeout: Annotated[
        float | None,
        typer.Option(
            "--decision-timeout",
            help="Seconds a plugin persona may take per decision (default $SEPTIMA_DECISION_TIMEOUT or 60; 0 = none).",
        ),
    ] = None,
) -> None:
    """Play one seeded game and print it turn by turn (or replay a game of a run)."""
    from septima_sim.content import load_content
    from septima_sim.engine import GameConfig
    from septima_sim.experiment import MAX_SEED
    from septima_sim.players import builtin_lineups, make_policy
    from septima_sim.plugin_guard import set_decision_timeout

    if fmt not in ("text", "jsonl", "html"):
        raise UserError(f"--format must be text or jsonl (or html with --out FILE), got {fmt!r}")
    if (fmt == "html") != (out is not None):
        raise UserError("--format html needs --out FILE (and --out is only for --format html)")
    if out is not None and not out.parent.resolve().is_dir():
        raise UserError(f"--out {out}: folder {out.parent} does not exist")
    if out is not None and (out.exists() or out.is_symlink()) and not (force and out.is_file()):
        raise UserError(f"--out {out} exists{' and is not a file' if force else ' (use --force to replace it)'}")
    set_decision_timeout(decision_timeout)
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if replay is not None or game is not None:
        from septima_sim.runner import replay as replay_game

        cell, _, index = (game or "").rpartition(":")
        if replay is None or not cell or not index.isascii() or not index.isdigit():
            raise UserError("replaying needs --replay RUN_DIR and --game CELL:INDEX (e.g. p4-full-...:17)")
        config, pack, policies, game_seed = replay_game(replay, cell, int(index))
        _play_out(config, pack, policies, game_seed, fmt, out, f"{cell}:{index}")
        return
    enabled = _enabled_modules(module, shapeshifting=shapeshifting, omens=omens)
    config = GameConfig(players=players, mode=mode, modules=enabled).validate()
    lineups = builtin_lineups()
    if lineup not in lineups and ("," in lineup or players == 1):  # one persona per seat, in seat order (no rotation)
        seats = [name.strip() for name in lineup.split(",")]
        if len(seats) != players:
            raise UserError(f"--lineup lists {len(seats)} personas for {players} player(s): give one per seat")
        policies = [make_policy(name) for name in seats]
    else:
        if lineup not in lineups:
            raise UserError(f"unknown lineup {lineup!r} (known: {', '.join(lineups)}; or one persona per seat: a,b,c)")
        try:
            named = lineups[lineup].seat_personas(lineup, players, seed)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        policies = [make_policy(name) for name in named]
    pack = load_content(content)
    _play_out(config, pack, policies, seed, fmt, out, f"lineup {lineup}")


def _play_out(
    config: GameConfig, pack: Content, policies: list[Policy], seed: int, fmt: str, out: Path | None, where: str
) -> None:
    """Print the game (text/jsonl) or write its replay page (html) and print the page's path."""
    if out is None:
        from septima_sim.playout import play_one

        play_one(config, pack, policies, seed, fmt, typer.echo)
        return
    from septima_sim.replay import write_play_page

    try:
        typer.echo(str(write_play_page(config, pack, policies, seed, out, where)))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None


@app.command(
    epilog="Examples:\n\n  septima-sim run                                  (configs/default.toml)\n\n"
    "  septima-sim run configs/ci.toml --games 200 --jobs 2 --out runs/ci\n\n"
    "  septima-sim run my.toml --events --seed 7\n\n"
    "  septima-sim run --resume runs/ci\n\n"
    "  septima-sim run my.toml --backend dask --scheduler tcp://head:8786"
)
def run(
    config: Annotated[
        Path | None, typer.Argument(help="Experiment config (TOML); default: configs/default.toml.")
    ] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="Games per cell (overrides the file).")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Run directory (default: runs/<name>-<time>).")
    ] = None,
    events: Annotated[bool, typer.Option("--events", help="Also log every engine event (events/ table).")] = False,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Root seed (overrides the file).")] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Finish an interrupted run directory (no game lost or doubled).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing run directory.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary table.")] = False,
    content: ContentOpt = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    """Play an experiment matrix in parallel and write Parquet logs (exit 3 if some games raised)."""
    from septima_sim.experiment import default_config, load_experiment

    _check_counts(games=games, jobs=jobs)
    if resume is not None:
        if config is not None or games is not None or seed is not None or events or force or out or content:
            raise UserError("--resume continues a run as it was configured: give only RUN_DIR and --jobs/--backend")
    else:  # the config first: a bad one is reported before the run machinery (polars, joblib) is even imported
        exp = load_experiment(config or default_config(), games=games, seed=seed, content=content)
    from rich.console import Console

    from septima_sim import rundir, runner

    runner.check_backend(backend, scheduler)
    console = Console(stderr=True)
    if resume is not None:
        exp, manifest, lock = rundir.open_for_resume(resume)
        run_dir = resume
    else:
        run_dir = out or rundir.default_run_dir(exp.config.name)
        rundir.check_out_dir(run_dir, force=force)
        lock = None
    try:
        with runner.parallel_backend(backend, jobs, scheduler) as where:
            if lock is None:
                manifest, lock = rundir.create_run_dir(exp, run_dir, force=force, events=events)
            if not quiet:
                cells = len(exp.cells)
                console.print(f"run {run_dir}: {cells} cell(s) x {exp.config.games_per_cell:,} games ({where})")
            summary = runner.execute(exp, run_dir, manifest, backend=backend, console=console, quiet=quiet)
    finally:
        if lock is not None:
            lock.release()
    if not quiet:
        from septima_sim.analysis.run_summary import summary_table

        console.print(summary_table(summary.run_dir, summary.games, summary.errors, summary.rate))
    typer.echo(f"{summary.run_dir}")
    if summary.errors:
        typer.echo(f"{summary.errors} game(s) raised: see {summary.run_dir / 'errors'}", err=True)
        raise typer.Exit(3)


def _enabled_modules(names: list[str] | None, **flags: bool) -> frozenset[str]:
    """The modules ``--module NAME`` (repeatable) and the per-module flags switch on, checked against the registered
    ones a user may switch (``engine.modules.MODULES``; the automatic ones follow the player count)."""
    from septima_sim.engine.modules import toggled

    known = [spec.name for spec in toggled()]
    for name in names or ():
        if name not in known:
            raise UserError(f"--module: unknown module {name!r} (known: {', '.join(known)})")
    return frozenset([*(names or ()), *(flag for flag, on in flags.items() if on)])


def _check_counts(*, games: int | None = None, jobs: int | None = None, seed: int | None = None) -> None:
    """The numeric options shared by run, baseline and check: games in 1..MAX, jobs not 0, seed in 0..MAX_SEED."""
    from septima_sim.experiment import MAX_GAMES_PER_CELL, MAX_SEED

    if games is not None and not 0 < games <= MAX_GAMES_PER_CELL:
        raise UserError(f"--games must be between 1 and {MAX_GAMES_PER_CELL:,} games per cell, got {games}")
    if jobs is not None and (jobs == 0 or abs(jobs) > MAX_JOBS):
        raise UserError(
            f"--jobs must be 1..{MAX_JOBS} worker processes (or -1 for all cores, -2 all but one...), got {jobs}"
        )
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")


def _check_out_path(path: Path, option: str, *, folder: bool = False) -> None:
    """An output option names a file (not a directory) or a folder (not a file); its parents must be folders."""
    if not folder and path.is_dir():
        raise UserError(f"{option} {path}: is a directory, expected a file name")
    if folder and path.exists() and not path.is_dir():
        raise UserError(f"{option} {path}: exists and is not a directory")
    for parent in path.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                raise UserError(f"{option} {path}: {parent} is not a directory")
            return


@app.command(
    epilog="Examples:\n\n  septima-sim rules\n\n  septima-sim rules --content my-pack/\n\n"
    "  septima-sim rules --assumed        (every assumed value with the range a sensitivity study gives it)"
)
def rules(
    content: ContentOpt = None,
    assumed: Annotated[
        bool, typer.Option("--assumed", help="List every assumed value with its range (see `sensitivity`).")
    ] = False,
) -> None:
    """Show what the content pack holds, with provenance counts (assumed vs printed)."""
    from septima_sim.content import load_content
    from septima_sim.rules_summary import assumed_summary, summary

    pack = load_content(content)  # a broken pack is reported first, as one line
    if assumed:
        typer.echo(assumed_summary(content))
        return
    typer.echo(summary(pack))
    typer.echo(f"\nEngine: {build_info()}")


@app.command(
    epilog="Examples:\n\n  septima-sim report runs/default-20260101-120000\n\n"
    "  septima-sim report runs/new --out reports/new --tolerance 1.5\n\n"
    "  septima-sim report runs/new --compare runs/old        (delta = new − old, paired by seed)\n\n"
    "  septima-sim report runs/new --sensitivity studies/s1   (which findings hold across the assumed ranges)"
)
def report(
    run_dir: Annotated[Path, typer.Argument(help="Run directory written by `septima-sim run`.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Report folder (default: RUN_DIR/report).")] = None,
    compare: Annotated[
        Path | None, typer.Option("--compare", help="Another run: deltas this run − that run, cells paired by setting.")
    ] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="Seat band: fair share ± this many percentage points.")
    ] = 2.0,
    allow_partial: Annotated[
        bool,
        typer.Option("--allow-partial", help="Report a damaged or unfinished run (line 1 says what is missing)."),
    ] = False,
    sensitivity: Annotated[
        Path | None,
        typer.Option(
            "--sensitivity", help="A `septima-sim sensitivity` folder: say which findings hold across its ranges."
        ),
    ] = None,
) -> None:
    """Write the designer's report of a run: report.html (self-contained), summary.md, charts/ and tables/."""
    from septima_sim.analysis import Settings
    from septima_sim.report import build_report
    from septima_sim.sensitivity.errors import SensitivityError

    if not 0 < tolerance < 100:
        raise UserError(f"--tolerance must be between 0 and 100 percentage points, got {tolerance}")
    if out is not None:
        _check_out_path(out, "--out", folder=True)
    notice = _partial_notice(run_dir, allow_partial)
    if compare is not None:
        other = _partial_notice(compare, allow_partial)
        notice = "; ".join(n for n in (notice, other and f"compared run: {other}") if n) or None
    if sensitivity is not None and not sensitivity.is_dir():
        raise UserError(f"--sensitivity {sensitivity}: no such study folder")
    try:
        written = build_report(
            run_dir, out, compare, Settings(seat_tolerance=tolerance / 100), notice=notice, sensitivity=sensitivity
        )
    except SensitivityError as exc:
        raise UserError(str(exc)) from None
    for line in written.headlines:
        typer.echo(f"- {line}")
    typer.echo(str(written.html))


def _partial_notice(run_dir: Path, allow_partial: bool) -> str | None:
    """Verify a run's shards against its manifest: None if whole; refuse a damaged one (UserError naming the first bad
    shard) unless ``allow_partial``, then return the notice the report opens with."""
    from septima_sim.store import verify_run

    if not run_dir.is_dir():
        raise UserError(f"{run_dir}: no such run directory")
    damage = verify_run(run_dir)
    if not damage.damaged:
        return None
    missing = f"{damage.missing_games:,} of {damage.total_games:,} games are missing"
    if allow_partial:
        return f"Partial run: {missing} from this report ({len(damage.problems)} damaged shard(s))."
    if damage.problems:
        more = f" (and {len(damage.problems) - 1} more)" if len(damage.problems) > 1 else ""
        what = f"damaged shard {run_dir / damage.problems[0]}{more}; {missing}"
    else:
        what = f"unfinished run: {missing}"
    raise UserError(
        f"{run_dir}: {what}; finish it with septima-sim run --resume {run_dir}, or report it with --allow-partial"
    )


@app.command(
    epilog="Examples:\n\n  septima-sim baseline configs/ci.toml --out tests/baselines/ci-baseline.json --jobs 2\n\n"
    "  septima-sim baseline my.toml --out baselines/my.json --games 5000 --seed 7\n\n"
    "Regenerate the baseline whenever the engine or content changes on purpose; `check` replays its seeds."
)
def baseline(
    config: Annotated[Path, typer.Argument(help="Experiment config (TOML) to play, e.g. configs/ci.toml.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Baseline file to write (JSON).")],
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="Games per cell (overrides the file).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Root seed (overrides the file).")] = None,
    content: ContentOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
) -> None:
    """Play a config and write a compact balance baseline (per-game outcomes, seeds, content hash) for `check`."""
    from septima_sim import regression, runner

    _check_counts(games=games, jobs=jobs, seed=seed)
    _check_out_path(out, "--out")
    runner.check_backend(backend, scheduler)
    played = regression.baseline(
        config, out, jobs, games=games, seed=seed, content=content, backend=backend, scheduler=scheduler
    )
    if played.errors:
        typer.echo(f"{played.errors} game(s) raised, no baseline written; first: {played.first_error}", err=True)
        raise typer.Exit(3)
    typer.echo(f"{out}: {sum(f.height for f in played.outcomes.values()):,} games in {len(played.outcomes)} cell(s)")


@app.command(
    epilog="Examples:\n\n  septima-sim check --baseline tests/baselines/ci-baseline.json --jobs 2\n\n"
    "  septima-sim check --baseline b.json --tolerance my-tolerances.toml --junit balance.xml\n\n"
    "  septima-sim check --baseline b.json --sequential --content my-pack/\n\n"
    "Exit codes: 0 within tolerance, 1 balance shift (or inconclusive with --strict), 2 bad input, 3 games failed. "
    "The Markdown table is also appended to $GITHUB_STEP_SUMMARY when set."
)
def check(
    baseline: Annotated[Path, typer.Option("--baseline", "-b", help="Baseline file written by `baseline`.")],
    tolerance: Annotated[
        Path | None, typer.Option("--tolerance", "-t", help="TOML tolerances layered over the shipped defaults.")
    ] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    sequential: Annotated[
        bool, typer.Option("--sequential", help="Play in batches; stop once no metric is inconclusive.")
    ] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Inconclusive metrics fail the check too.")] = False,
    junit: Annotated[Path | None, typer.Option("--junit", help="Also write JUnit XML (one case per metric).")] = None,
    content: ContentOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
) -> None:
    """Replay a baseline's seeds on the current code and content; fail on a real balance shift, pass on noise."""
    from septima_sim import regression, runner

    _check_counts(jobs=jobs)
    runner.check_backend(backend, scheduler)
    if junit is not None:
        _check_out_path(junit, "--junit")

    def progress(look: int, looks: int, rows: list[regression.Row]) -> None:
        if looks > 1:
            open_ = sum(r.verdict == "inconclusive" for r in rows)
            typer.echo(f"look {look}/{looks}: {open_} metric(s) inconclusive", err=True)

    result = regression.check(
        baseline,
        tolerance,
        jobs,
        sequential,
        strict=strict,
        content=content,
        on_look=progress,
        backend=backend,
        scheduler=scheduler,
    )
    text = regression.markdown(result)
    typer.echo(text)
    regression.append_step_summary(text)
    if junit is not None:
        regression.write_junit(result, junit)
    if result.exit_code:
        raise typer.Exit(result.exit_code)


@app.command(
    epilog="Examples:\n\n  septima-sim ladder --players 2 --policies random,balanced,search:50\n\n"
    "  septima-sim ladder --players 4 --policies random,balanced,cautious,healer --games 400 --shapeshifting\n\n"
    "  septima-sim ladder --players 2 --policies balanced,py:mybots:Clever --out ladders/clever   (rerun to resume)\n\n"
    "2 players: every pair plays --games games, each seed once in each seating (common random numbers). "
    "3-4 players: one cell per rotation of the policy list. Writes matchups.csv, ratings.csv (openskill) and "
    "matchups.png into --out; the games are a run directory under OUT/runs/."
)
def ladder(
    players: Annotated[int, typer.Option("--players", "-p", help="Players per game, 2-4.")] = 2,
    policies: Annotated[
        str, typer.Option("--policies", help="Comma-separated personas to rank (at least two different).")
    ] = "random,balanced",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per pair (2 players) or per rotation (3-4 players).")
    ] = 200,
    mode: Annotated[str, typer.Option("--mode", help="full or basic.")] = "full",
    shapeshifting: Annotated[
        bool, typer.Option("--shapeshifting/--no-shapeshifting", help="Play with the Shapeshifting module.")
    ] = False,
    omens: Annotated[bool, typer.Option("--omens/--no-omens", help="Play with the Omens module.")] = False,
    module: Annotated[
        list[str] | None,
        typer.Option(
            "--module", "-m", help="Play with a rules module by name (repeatable; --shapeshifting and --omens are two)."
        ),
    ] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Root seed (>= 0).")] = 1,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Ladder folder (default: runs/ladder-p<N>-<time>).")
    ] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Rank policies by playing them against each other: matchup matrix with intervals and openskill ratings."""
    from rich.console import Console

    from septima_sim import ladder as ladder_mod
    from septima_sim import rundir, runner
    from septima_sim.experiment import build

    names = [p.strip() for p in policies.split(",") if p.strip()]
    if not 2 <= players <= 4:
        raise UserError(f"--players must be 2..4 for a ladder, got {players}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise UserError(f"--policies needs at least two different personas, got {policies!r}")
    _check_counts(games=games, jobs=jobs, seed=seed)
    runner.check_backend(backend, scheduler)
    modules = _enabled_modules(module, shapeshifting=shapeshifting, omens=omens)
    exp = build(
        ladder_mod.ladder_config(names, players=players, games=games, seed=seed, mode=mode, modules=modules), "ladder"
    )
    recorded = ladder_mod.recorded_names(names)
    out = out or rundir.default_run_dir(f"ladder-p{players}")
    again = ladder_mod.rerun_command(
        names, players=players, games=games, seed=seed, mode=mode, modules=modules, out=out
    )
    _check_out_path(out, "--out", folder=True)
    run_dir = out / "runs" / exp.config.name
    resuming = (run_dir / "config.toml").is_file()
    if out.exists() and not resuming and any(out.iterdir()):
        raise UserError(f"--out {out} exists and holds no ladder of {players} players; choose another folder")

    console = Console(stderr=True)
    if resuming:
        before, manifest, lock = rundir.open_for_resume(run_dir)
        if before.hash != exp.hash:
            lock.release()
            raise UserError(f"--out {out} holds a ladder with other settings; choose another folder")
    else:
        manifest, lock = rundir.create_run_dir(exp, run_dir, force=False, events=False)
    try:
        with runner.parallel_backend(backend, jobs, scheduler):
            summary = runner.execute(exp, run_dir, manifest, backend=backend, console=console, quiet=quiet)
    except runner.RunInterrupted as exc:
        raise runner.RunInterrupted(
            f"interrupted; finish the ladder by running it again: {again}", exc.exit_code
        ) from None
    except runner.RunWriteError as exc:
        raise UserError(exc.advice(f"run the ladder again: {again}")) from None
    finally:
        lock.release()
    if summary.errors == summary.games:
        _games_raised(summary.errors, run_dir, "no table written")
    table, rated = ladder_mod.write_tables(run_dir, out, names, players, recorded)
    if not quiet:
        from rich.table import Table

        for frame, title in ((table, "Matchups (a's win rate against b, ties half)"), (rated, "Ratings (openskill)")):
            view = Table(title=title)
            for column in frame.columns:
                view.add_column(column, justify="left" if column in ("a", "b", "policy") else "right")
            for row in frame.iter_rows():
                view.add_row(*(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))
            console.print(view)
    typer.echo(str(out))
    if summary.errors:
        _games_raised(summary.errors, run_dir, "the tables leave them out")


def _games_raised(errors: int, run_dir: Path, what: str) -> None:
    """Exit 3: how many games raised, where their errors are and the command that replays the first."""
    from septima_sim.store import first_error

    typer.echo(f"{errors} game(s) raised ({what}): see {run_dir / 'errors'}{first_error(run_dir)}", err=True)
    raise typer.Exit(3)


@app.command(
    epilog="Examples:\n\n  septima-sim tune configs/tune-gray-seat.toml --jobs 2\n\n"
    "  septima-sim tune my-tune.toml --trials 20 --games 400 --seed 7 --out tunes/mine\n\n"
    "  septima-sim tune --resume tunes/mine --trials 40        (continue the study up to 40 trials)\n\n"
    "Writes best.toml (the patch as an overrides block), best-pack/ (the content pack with it written in), "
    "trials.csv, confirmation.csv, study.sqlite3 (optuna-dashboard opens it) and report.html into --out. "
    "See docs/tune.md."
)
def tune(
    tune_file: Annotated[
        Path | None, typer.Argument(help="Tune file (TOML): base experiment, search space, targets, budget.")
    ] = None,
    trials: Annotated[int | None, typer.Option("--trials", help="Trials in all (overrides budget.trials).")] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Games per cell of a trial at full fidelity (budget.games).")
    ] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Study and game seed (overrides the file).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Tune folder (default: runs/tune-<name>-<time>).")
    ] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the study of a tune folder.")] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Search content values that meet balance targets (optuna), confirm the best on fresh seeds, write a patch."""
    from rich.console import Console

    from septima_sim import runner
    from septima_sim import tune as tuning

    _check_counts(games=games, jobs=jobs, seed=seed)
    runner.check_backend(backend, scheduler)
    if trials is not None and not 0 < trials <= tuning.MAX_TRIALS:
        raise UserError(f"--trials must be between 1 and {tuning.MAX_TRIALS:,}, got {trials}")
    if (resume is None) == (tune_file is None):
        raise UserError("give a TUNE_FILE to start a study, or --resume DIR to continue one (not both)")
    if resume is not None and (games is not None or seed is not None or out is not None):
        raise UserError("--resume continues a study as configured: only --trials, --jobs, --backend and --quiet apply")
    console = Console(stderr=True)
    try:
        if resume is not None:
            cfg, folder = tuning.reopen(resume, trials=trials), resume
        else:
            assert tune_file is not None
            cfg, folder = tuning.prepare(tune_file, out=out, trials=trials, games=games, seed=seed)
        result = tuning.execute(
            cfg, folder, jobs=jobs, backend=backend, scheduler=scheduler, console=console, quiet=quiet
        )
    except tuning.TuneError as exc:
        raise UserError(str(exc)) from None
    except tuning.GamesRaised as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(3) from None
    for note in result.notes:
        typer.echo(note, err=True)
    typer.echo(result.headline)
    typer.echo(str(result.out))
    if result.errors:
        raised = f"{result.errors} game(s) raised in failed trials: see {result.out / 'trials'}{result.first_error}"
        typer.echo(raised, err=True)
        raise typer.Exit(3)


@app.command(
    epilog="Examples:\n\n  septima-sim ablate configs/ablate-4p-ss.toml --kinds witch,animal --games 400 --jobs 2\n\n"
    "  septima-sim ablate my.toml --kinds spell --out ablations/spells\n\n"
    "  septima-sim ablate my.toml --kinds spell --out ablations/spells --resume     (continue it)\n\n"
    "  septima-sim ablate my.toml --kinds witch --arms forced     (each witch forced to each seat)\n\n"
    "  septima-sim ablate configs/ablate-4p-ss.toml --kinds animal --arms swap     (seat or tiles?)\n\n"
    "  septima-sim ablate my.toml --kinds witch,spell --pairs johanna,whispering-winds     (do they stack?)\n\n"
    "Each component is removed (an animal tile becomes its colour's other tile), a witch, spell or goal is also "
    "forced to each seat in turn, and CONFIG's games are played again on the same seeds. Writes ablation.csv, "
    "ablation_detail.csv, ablation_status.csv, ablation.html (and interactions.csv with --pairs) into --out; "
    "`septima-sim report OUT/runs/base` leads its component section with these effects. See docs/ablate.md."
)
def ablate(
    config: Annotated[Path, typer.Argument(help="Experiment config (TOML), as for `run`.")],
    kinds: Annotated[
        str, typer.Option("--kinds", help="Comma-separated: witch,spell,animal,building,omen,goal.")
    ] = "witch,spell,animal,building,omen,goal",
    games: Annotated[
        int, typer.Option("--games", "-n", help="Most games per component and cell (stopping early may use fewer).")
    ] = 400,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Ablation folder (default: runs/ablate-<name>-<time>).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Root seed (overrides the file).")] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="Band of a negligible effect, in win-rate points.")
    ] = 5.0,
    only: Annotated[
        str | None, typer.Option("--only", help="Comma-separated component ids: ablate only these (of --kinds).")
    ] = None,
    arms: Annotated[
        str,
        typer.Option(
            "--arms",
            help="Comma-separated: removed (each component taken out), forced (a witch, spell or goal dealt to "
            "each seat in turn), swap (each pair of colours' animal tiles exchanged).",
        ),
    ] = "removed,forced",
    pairs: Annotated[
        str | None,
        typer.Option(
            "--pairs",
            help="A,B[,C...] (every pair of these components) or top:K (of the K largest flagged): does removing "
            "both differ from the two single effects? Writes interactions.csv.",
        ),
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the ablation in --out (same options).")] = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Causal effect of each component: remove it (or force it to a seat), replay the same seeds, compare pairs."""
    from rich.console import Console

    from septima_sim import ablate as ablation
    from septima_sim import runner

    _check_counts(jobs=jobs, seed=seed)
    runner.check_backend(backend, scheduler)
    if out is not None:
        _check_out_path(out, "--out", folder=True)
    try:
        chosen = ablation.parse_kinds(kinds)
        plan = ablation.prepare(
            config,
            kinds=chosen,
            games=games,
            seed=seed,
            tolerance=tolerance,
            out=out,
            resume=resume,
            arms=ablation.parse_arms(arms),
            pairs=pairs,
            only=[x.strip() for x in only.split(",") if x.strip()] if only is not None else None,
        )
    except ablation.AblateError as exc:
        raise UserError(str(exc)) from None
    console = Console(stderr=True)
    result = ablation.execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, console=console, quiet=quiet)
    if not quiet:
        from septima_sim.report.ablation import interactions, page, table

        frame, found = table.read(result.out), interactions.read(result.out)
        said = [
            *(page.lines(frame) if frame is not None else []),
            *(interactions.lines(found) if found is not None else []),
        ]
        for line in said:
            console.print(f"- {line}", markup=False, highlight=False)
        console.print(
            f"{len(result.outcomes)} component(s), {result.games_total:,} games on disk "
            f"({result.games_played:,} played now) in {result.seconds / 60:.1f} min; "
            f"{result.game_seconds / 60:.1f} min of game time",
            markup=False,
            highlight=False,
        )
    typer.echo(str(result.out))
    if result.errors:
        typer.echo(f"{result.errors} game(s) raised: see {result.out / 'runs'}/*/errors", err=True)
        raise typer.Exit(3)


@app.command(
    name="plan-games",
    epilog="Examples:\n\n  septima-sim plan-games --effect 5     (seats, components, pairs at 2, 3 and 4 players)\n\n"
    "  septima-sim plan-games --effect 3 --players 4 --scope seat\n\n"
    "  septima-sim plan-games --effect 5 --rate 0.25 --scope component,pair     (held in a quarter of the games)\n\n"
    "seat: a seat's win rate off fair (the report's seat test); component: an `ablate` holder effect on paired "
    "games; pair: an `ablate --pairs` interaction. The paired plans assume the spread of independent games (an "
    "upper bound: common seeds need fewer). See docs/ablate.md.",
)
def plan_games(
    effect: Annotated[float, typer.Option("--effect", "-e", help="Effect to detect, in win-rate points.")],
    rate: Annotated[
        float, typer.Option("--rate", "-r", help="Share of the games in which a seat holds the component (0-1].")
    ] = 1.0,
    players: Annotated[str, typer.Option("--players", "-p", help="Comma-separated player counts, 2-4.")] = "2,3,4",
    scope: Annotated[
        str, typer.Option("--scope", help="Comma-separated: seat,component,pair.")
    ] = "seat,component,pair",
    alpha: Annotated[float, typer.Option("--alpha", help="Two-sided significance level.")] = 0.05,
    power: Annotated[float, typer.Option("--power", help="Chance to detect the effect when it is there.")] = 0.8,
) -> None:
    """How many games a run needs to detect an effect of a given size (per seat, per component, per pair)."""
    from septima_sim.errors import parse_choices

    if not 0 < abs(effect) < 100:
        raise UserError(f"--effect must be between 0 and 100 win-rate points (not 0), got {effect:g}")
    if not 0 < rate <= 1:
        raise UserError(f"--rate must be a share of games in (0, 1], got {rate:g}")
    if not (0 < alpha < 1 and 0 < power < 1):
        raise UserError(f"--alpha and --power must be between 0 and 1, got {alpha:g} and {power:g}")
    counts = [int(x) for x in parse_choices("--players", "player count", players, ("2", "3", "4"))]
    from septima_sim.analysis import power as planner

    scopes = parse_choices("--scope", "scope", scope, planner.SCOPES)
    rows = [planner.plan(s, effect, n, rate, alpha=alpha, power=power) for s in scopes for n in counts]
    for line in planner.lines(rows, alpha, power):
        typer.echo(line)


@app.command(
    epilog="Examples:\n\n  septima-sim sensitivity configs/sensitivity-4p.toml --jobs 2   (every assumed value)\n\n"
    "  septima-sim sensitivity my.toml --params trials.winner_wisdom,widow.spiders=1..4 --trajectories 8\n\n"
    "  septima-sim sensitivity my.toml --params 'readings.hunter_direction.value,hunters.die.5=2..6' --metrics "
    "worst_seat,hunter_capture\n\n"
    "  septima-sim sensitivity my.toml --method sobol --samples 64 --params a.b,c.d --out studies/s1\n\n"
    "  septima-sim sensitivity my.toml --out studies/s1 --resume        (continue it: same options)\n\n"
    "Each value gets a range (a `ranges` entry beside it in the pack, else half to double, integers at least +-1, "
    "within the schema); every sample is a content variant played on CONFIG's seeds. Writes sensitivity.csv, "
    "samples.parquet, sensitivity.html and runs/ into --out; `septima-sim report RUN --sensitivity OUT` says which "
    "findings hold. See docs/sensitivity.md."
)
def sensitivity(
    config: Annotated[Path, typer.Argument(help="Experiment config (TOML): its matrix, lineups and pack.")],
    params: Annotated[
        str,
        typer.Option(
            "--params",
            help="assumed (every assumed value), or comma-separated dotted paths, each optionally PATH=LOW..HIGH "
            "or PATH=A|B.",
        ),
    ] = "assumed",
    method: Annotated[str, typer.Option("--method", help="morris (screening) or sobol (variance shares).")] = "morris",
    trajectories: Annotated[
        int, typer.Option("--trajectories", help="Morris trajectories (samples = N x (values + 1)).")
    ] = 4,
    samples: Annotated[
        int, typer.Option("--samples", help="Sobol base samples, a power of 2 (samples = N x (values + 2)).")
    ] = 16,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per cell of each sample.")] = 100,
    metrics: Annotated[
        str | None,
        typer.Option(
            "--metrics",
            help="Comma-separated: worst_seat, start_player, winning_score, game_length, solo_win, hunter_capture, "
            "components, component:<kind>:<id> (default: all).",
        ),
    ] = None,
    group: Annotated[
        str, typer.Option("--group", help="value (each value alone) or item (a card's values move together).")
    ] = "value",
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Study folder (default: runs/sensitivity-<name>-<time>).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Root seed of games and design (overrides the file).")
    ] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the study in --out (same options).")] = False,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """Which assumed values drive each metric (SALib Morris or Sobol over content variants on common seeds)."""
    import shlex

    from rich.console import Console

    from septima_sim import runner
    from septima_sim.sensitivity import findings
    from septima_sim.sensitivity import run as study
    from septima_sim.sensitivity.errors import SensitivityError, SensitivityInterrupted

    _check_counts(jobs=jobs, seed=seed)
    if out is not None:
        _check_out_path(out, "--out", folder=True)
    runner.check_backend(backend, scheduler)
    console = Console(stderr=True)
    try:
        plan = study.prepare(
            config,
            params=params,
            method=method,
            trajectories=trajectories,
            samples=samples,
            games=games,
            wanted=metrics,
            seed=seed,
            group=group,
            out=out,
            resume=resume,
            jobs=jobs,
        )
    except SensitivityError as exc:
        raise UserError(str(exc)) from None
    if not quiet:
        console.print(study.estimate(plan), markup=False, highlight=False, soft_wrap=True)
    try:
        result = study.execute(plan, jobs=jobs, backend=backend, scheduler=scheduler, console=console, quiet=quiet)
    except SensitivityError as exc:
        raise UserError(str(exc)) from None
    except SensitivityInterrupted as exc:
        again = shlex.join(
            [*sys.argv[1:], *([] if resume else ["--resume"]), *([] if out else ["--out", str(plan.out)])]
        )
        typer.echo(f"interrupted; continue with: septima-sim {again}", err=True)
        raise typer.Exit(exc.exit_code) from None
    if not quiet:
        for line in findings.summary(result.table):
            console.print(f"- {line}", markup=False, highlight=False, soft_wrap=True)
        console.print(
            f"{result.samples:,} samples, {result.games_total:,} games ({result.games_played:,} played now) in "
            f"{result.seconds / 60:.1f} min",
            markup=False,
            highlight=False,
        )
    typer.echo(str(result.out))
    if result.errors:
        typer.echo(f"{result.errors} game(s) raised: see {result.out / 'runs'}/*/errors", err=True)
        raise typer.Exit(3)


@app.command(
    epilog="Examples:\n\n  septima-sim learn configs/learn.toml --out models/mine --jobs 2   (the shipped model's "
    "recipe)\n\n"
    "  septima-sim learn my.toml --games 200 --iterations 2 --out models/mine   (a second, expert-iteration "
    "round)\n\n"
    "  SEPTIMA_LEARNED_MODEL=models/mine/model.json septima-sim ladder --players 2 --policies learned,balanced\n\n"
    "Plays CONFIG's cells (its lineups; from the second round every seat is `learned` with the last model), records "
    "each seat's features at its card choices, fits a value model of the final Wisdom margin and validates it on "
    "the held-out games (every fifth). Writes model.json (with the pack hash and training config), model-<k>.json "
    "per round and validation.json into --out; --distill N also plays N games per cell of learned and writes "
    "chooser.json (learned-fast). See docs/players.md, Learned evaluator."
)
def learn(
    config: Annotated[Path, typer.Argument(help="Experiment config (TOML): its cells and lineups play the games.")],
    games: Annotated[int | None, typer.Option("--games", "-n", help="Games per cell and round.")] = None,
    iterations: Annotated[
        int, typer.Option("--iterations", "-k", help="Rounds: 1 = self-play of the lineups, more = expert iteration.")
    ] = 1,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for model.json and validation.json.")] = Path(
        "models/learned"
    ),
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Root seed of games and fit (overrides the file).")
    ] = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    distill: Annotated[
        int,
        typer.Option("--distill", help="Games per cell of learned self-play for learned-fast's chooser (0: none)."),
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or round lines.")] = False,
) -> None:
    """Train a value model of a seat's position from self-play (the `learned` player's evaluator)."""
    from rich.console import Console

    from septima_sim import runner
    from septima_sim.learn import run as learning
    from septima_sim.learn.model import Training

    _check_counts(games=games, jobs=jobs, seed=seed)
    _check_out_path(out, "--out", folder=True)
    runner.check_backend(backend, scheduler)
    console = Console(stderr=True)
    try:
        exp = learning.prepare(config, games, seed, iterations, distill)
        training = Training(seed=exp.config.seed)
        result = learning.learn(
            exp,
            out,
            iterations,
            training,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            console=console,
            quiet=quiet,
            config_name=config.name,
            distill=distill,
        )
    except (learning.LearnError, runner.RunError) as exc:
        raise UserError(str(exc)) from None
    if not quiet:
        console.print(f"{result.seconds:.1f} s", markup=False, highlight=False)
    typer.echo(str(result.out / "model.json"))


def main() -> None:
    """Console entry point: exit 0 ok, 1 check's balance shift, 2 bad input, 3 games raised, 70 crash, 130/143 stop."""
    code = run_main(lambda: app(standalone_mode=False), sys.argv[1:])
    if code:
        sys.exit(code)


if __name__ == "__main__":
    main()
