"""Methods appendix: the run, its seeds, the statistics behind every number, provenance and versions."""

from __future__ import annotations

import platform

import polars as pl

from septima_sim import __version__
from septima_sim.analysis import RunTables
from septima_sim.analysis.cells import cell_table
from septima_sim.analysis.data import collect
from septima_sim.content import ContentError, load_content
from septima_sim.content.provenance import partly_assumed
from septima_sim.report.fmt import col, table
from septima_sim.report.page import Builder, Table

INTERVALS: tuple[tuple[str, str], ...] = (
    ("win rates, tie rates, overflow / capture / witch-loss rates, match and acquittal rates, solo win rate",
     "Wilson score 95% interval from the count of successes and of games"),
    ("seat verdicts", "exact binomial test against fair share, Holm-adjusted over the table"),
    ("means (winning score, margin, turns, decisions, time, suspicion, witches lost, hunter rolls, trials won)",
     "Student t 95% interval from the count, mean and sample variance of each group"),
    ("component effects (win rate)", "difference present minus absent within each cell, pooled with weights "
     "n_present * n_absent / n; Agresti-Caffo variance; normal 95% interval; Benjamini-Hochberg p"),
    ("component effects (Wisdom)", "the same pooling of mean differences; Welch variance from sums of squares"),
    ("modules on vs off, and --compare on shared seeds", "t 95% interval of the mean per-game difference (paired "
     "by seed); exact McNemar test for 0/1 outcomes, Wilcoxon signed-rank (normal approximation with tie "
     "correction above 50 pairs) otherwise; Holm-adjusted"),
    ("--compare without shared seeds", "Welch normal 95% interval of the difference of means, z test"),
    ("skill robustness (runs with several lineups)", "each finding re-estimated per lineup (Wilson interval of "
     "the seat's win rate; a component's effect on that lineup's games); it shows in a lineup when on the same "
     "side, at least the tolerance away, the interval excluding fair share / no effect"),
    ("--compare pairing", "delta = this run − the other run; cells paired by players, mode, modules, lineup, Omen "
     "deck and the override values both runs have; games by index and seed within a pair of cells"),
    ("component effect changes (--compare)", "normal interval from both runs' effect standard errors"),
    ("game flow (lead changes, decided turn, score spread; comeback rate)", "Student t 95% interval per cell from "
     "per-game values; Wilson for the comeback rate"),
)  # fmt: skip
"""Which interval each number of the report uses (the methods appendix prints this table)."""


def add(b: Builder, run: RunTables) -> None:
    import jinja2
    import matplotlib
    import scipy

    m = run.manifest
    cfg = m.get("config", {})
    sec = b.section("methods", "Methods", "How these numbers were made, so any of them can be reproduced.")
    games = cell_table(run)
    player_rows = collect(run.players.select(pl.len())).item()
    policies = collect(run.players.select(pl.col("policy").unique().sort()))["policy"].to_list()
    facts = [
        ("run", str(m.get("run_id", run.path.name))),
        (
            "config",
            f"{cfg.get('name', '?')} (hash {m.get('config_hash', '?')}), root seed {cfg.get('seed', '?')}, "
            f"{cfg.get('games_per_cell', '?')} games per cell",
        ),
        ("seeds", "game i of every cell uses SeedSequence(root seed, spawn_key=(i,)): cells are paired by seed"),
        ("games", f"{run.games_count:,} games, {player_rows:,} player rows, {run.errors:,} games raised"),
        (
            "players",
            ", ".join(str(n) for n in run.player_counts) + " players; personas: " + ", ".join(policies),
        ),
        ("rules", f"{m.get('rules_version', '?')}, content {m.get('content_hash', '?')}"),
        ("started / finished", f"{m.get('started', '?')} / {m.get('finished', '?')} ({m.get('status', '?')})"),
        (
            "statistics",
            "analytic intervals from sufficient statistics (see Intervals); Holm (seats, modules) and "
            "Benjamini-Hochberg (components) corrections; paired tests by seed",
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
        Table("Intervals: which each number uses", ["numbers", "interval and test"], [list(i) for i in INTERVALS])
    )
    sec.tables.append(
        table(
            "Games per cell",
            games,
            [("cell", col("label")), ("cell id (on disk)", col("cell_id")), ("games", col("games", "{:,}".format))],
            b.data("games", games),
        )
    )
    provenance = _provenance(cfg.get("content"))
    if provenance is not None:
        sec.tables.append(provenance)
    sec.tables.append(Table("Library versions", ["library", "version"], [[k, str(v)] for k, v in versions.items()]))


def _provenance(content_dir: str | None) -> Table | None:
    """Items per content file and provenance tag (assumed = a stand-in no source gives), and the items tagged with
    a source whose fields are partly assumed (which fields)."""
    try:
        pack = load_content(content_dir)
    except ContentError:
        return None
    tags = sorted({t for counts in pack.provenance.values() for t in counts})
    partly = partly_assumed(pack)
    rows = [
        [
            file,
            *(str(pack.provenance[file].get(t, 0)) for t in tags),
            "; ".join(f"{name} ({', '.join(fields)})" for name, fields in partly.get(file, ())),
        ]
        for file in sorted(pack.provenance)
    ]
    return Table(f"Content provenance (pack {pack.hash})", ["file", *tags, "partly assumed (fields)"], rows)
