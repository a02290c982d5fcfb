"""septima-sim sensitivity: a planted value that drives a metric ranks first and one the game never reads (the
Widow's spiders in a 3-player game) comes out at exactly zero; the outputs read back with polars, DuckDB and a
browser; every sample's games replay; Ctrl-C and SIGTERM leave a study that --resume finishes with the same numbers;
--jobs 2 and a Dask cluster give the same samples; bad input is one line with nothing written; report --sensitivity
says which headlines hold. Fast tests cover the parsing, decoding and wording."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import time
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest

from septima_sim.content.assumed import Value
from septima_sim.report.headlines import Basis, Findings, Headline
from septima_sim.report.sections.sensitivity import UNMEASURED, Study, annotate
from septima_sim.sensitivity import analyze, design, findings, metrics
from septima_sim.sensitivity.errors import SensitivityError
from septima_sim.sensitivity.params import Param, decode, parse
from tests.helpers import CHROMIUM, SCRIPT, chromium_dom, reaped, script

CONFIG = """name = "planted"
games_per_cell = 10
seed = 11

[matrix]
players = [3]
lineup = ["all-random"]
"""
PLANTED = "trials.winner_wisdom=0..20,hunters.die.0=0..6,widow.spiders"
"""Random players: the trial reward drives the winning score, the die's 0 face the capture rate; the Widow plays
only solo games."""
OPTIONS = ["--params", PLANTED, "--trajectories", "4", "--games", "30", "--quiet"]
MORRIS_COLUMNS = [
    "parameter", "group", "provenance", "low", "high", "metric", "players", "mu_star", "mu_star_conf", "sigma", "rank",
]  # fmt: skip


def study(config: Path, out: Path, *extra: str, jobs: str = "1") -> subprocess.CompletedProcess[str]:
    return script("sensitivity", str(config), *OPTIONS, "--jobs", jobs, "--out", str(out), *extra)


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cfg") / "planted.toml"
    path.write_text(CONFIG)
    return path


@pytest.fixture(scope="module")
def planted(config: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("planted") / "study"
    done = study(config, out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out)
    return out


def metric_rows(out: Path) -> pl.DataFrame:
    return pl.read_csv(out / "sensitivity.csv")


def sample_metrics(out: Path) -> pl.DataFrame:
    frame = pl.read_parquet(out / "samples.parquet")
    return frame.select("sample", *(c for c in frame.columns if "@" in c))


# --------------------------------------------------------------------------------------------- fast: parsing
def test_params_take_inline_ranges_and_choices() -> None:
    assert parse("assumed") is None
    assert parse("a.b, c.d=1..6,e.f=x|y , g.h=0.5..2.5") == {
        "a.b": None,
        "c.d": [1, 6],
        "e.f": ["x", "y"],
        "g.h": [0.5, 2.5],
    }
    assert parse("k.v=true|false") == {"k.v": [True, False]}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("a.b,a.b", "named twice"),
        ("a.b=6..1", "LOW < HIGH"),
        ("a.b=x..y", "LOW < HIGH"),
        ("a.b=x|x", "two or more different choices"),
        ("=1..2", "names no value"),
        (",", "give 'assumed'"),
    ],
)
def test_bad_params_are_one_line(spec: str, message: str) -> None:
    with pytest.raises(SensitivityError, match=message):
        parse(spec)


def test_a_unit_point_becomes_a_value_of_the_range() -> None:
    number = Value("x", "i", "assumed", 3, 1, 6)
    assert [decode(number, u) for u in (0, 1 / 3, 2 / 3, 1)] == [1, 3, 4, 6]  # each 2/3 step moves it
    two = Value("x", "i", "assumed", 0, 0, 1)
    assert [decode(two, u) for u in (0, 1 / 3, 2 / 3, 1)] == [0, 0, 1, 1]
    choice = Value("r", "i", "assumed", "a", choices=("a", "b"))
    assert [decode(choice, u) for u in (0, 1 / 3, 2 / 3, 1)] == ["a", "a", "b", "b"]


def test_the_design_is_seeded_and_sized_by_the_method() -> None:
    params = [Param(Value(p, p, "assumed", 1, 0, 2), p) for p in ("a", "b", "c")]
    first = design.unit_design("morris", params, 3, 0, 5)
    assert first.shape == (design.count("morris", params, 3, 0), 3) == (12, 3)
    assert np.array_equal(first, design.unit_design("morris", params, 3, 0, 5))
    assert design.unit_design("sobol", params, 0, 8, 5).shape == (design.count("sobol", params, 0, 8), 3) == (40, 3)
    grouped = [Param(p.value, "one") if p.path != "c" else p for p in params]
    assert design.count("morris", grouped, 3, 0) == 9  # two groups


def test_metrics_are_named_or_refused() -> None:
    assert metrics.parse(None) == (*metrics.HEADLINE, metrics.COMPONENTS)
    assert metrics.parse("worst_seat,component:witch:johanna") == ("worst_seat", "component:witch:johanna")
    with pytest.raises(SensitivityError, match="unknown metric 'worst'"):
        metrics.parse("worst")
    assert metrics.unit("component:building:chapel") == "Wisdom" and metrics.unit("component:witch:x") == "points"


def test_the_noise_floor_is_what_re_dealt_games_would_show() -> None:
    rng = np.random.default_rng(1)
    se = 2.0
    y = rng.normal(10, se, 20_000)  # every sample an independent estimate: pure re-dealing
    ee = np.abs(np.diff(y)) / analyze.DELTA
    floor = analyze.noise_floor("morris", y, np.full(y.size, se))
    assert math.isclose(floor, float(ee.mean()), rel_tol=0.03)


def sized_frame(sizes: dict[str, float], noise: float, metric: str = "worst_seat") -> pl.DataFrame:
    rows = [
        {"group": g, "parameter": g, "provenance": "assumed", "metric": metric, "players": 4, "mu_star": s,
         "noise_floor": noise}
        for g, s in sizes.items()
    ]  # fmt: skip
    return findings.sizes(pl.DataFrame(rows))


def test_a_finding_holds_depends_or_cannot_be_told() -> None:
    quiet = sized_frame({"a": 0.5, "b": 0.0}, noise=1.0)
    assert findings.note(quiet, "worst_seat", 4, margin=3.0) == findings.Note(
        "holds", "holds across the assumed ranges"
    )
    loud = sized_frame({"a": 6.0, "b": 4.0, "c": 0.5}, noise=1.0)
    note = findings.note(loud, "worst_seat", 4, margin=3.0)
    assert note is not None and note.verdict == "depends" and note.values == ("a", "b")
    assert note.text == "depends on: a (moves it 6.0 points), b (moves it 4.0 points)"
    fuzzy = findings.note(sized_frame({"a": 0.5}, noise=5.0), "worst_seat", 4, margin=3.0)
    assert fuzzy is not None and fuzzy.verdict == "unclear" and "noise (5.0 points)" in fuzzy.text
    assert findings.note(loud, "worst_seat", 3, margin=3.0) is None  # a player count the study did not play
    assert findings.matter_most(loud)["group"].to_list() == ["a", "b"]


def test_headlines_get_the_note_of_the_metric_they_rest_on(tmp_path: Path) -> None:
    study = Study(tmp_path, sized_frame({"a": 6.0}, noise=1.0), {"component:spell:x@4"})
    found = Findings(
        [
            Headline("seat", "flagged", basis=Basis("worst_seat", 4, 2.0)),
            Headline("spell x", "flagged", basis=Basis("component:spell:x", None, 5.0)),
            Headline("module", "neutral"),
        ],
        0,
    )
    lines = [h.text for h in annotate(found, study).lines]
    assert lines == ["seat; depends on: a (moves it 6.0 points)", f"spell x; {UNMEASURED}", "module"]


# --------------------------------------------------------------------------------------------- the planted study
@pytest.mark.slow
def test_a_planted_value_ranks_first_and_an_unread_one_is_exactly_zero(planted: Path) -> None:
    rows = metric_rows(planted)
    assert rows.columns[: len(MORRIS_COLUMNS)] == MORRIS_COLUMNS
    first = {m: rows.filter(pl.col("metric") == m, pl.col("rank") == 1)["parameter"].to_list() for m in rows["metric"]}
    assert first["winning_score"] == ["trials.winner_wisdom"]
    assert first["hunter_capture"] == ["hunters.die.0"]
    spiders = rows.filter(pl.col("parameter") == "widow.spiders")
    assert spiders.height == rows["metric"].n_unique() and spiders["players"].unique().to_list() == [3]
    assert spiders["mu_star"].max() == 0.0 and spiders["sigma"].max() == 0.0  # the same games, whatever her spiders
    score = rows.filter(pl.col("metric") == "winning_score", pl.col("parameter") == "trials.winner_wisdom").row(
        0, named=True
    )
    assert score["mu_star"] > 10 * score["noise_floor"] and score["provenance"] == "seed-base"
    assert (score["low"], score["high"]) == (0.0, 20.0)


@pytest.mark.slow
def test_outputs_read_back_with_duckdb_polars_and_a_browser(planted: Path, tmp_path: Path) -> None:
    ((n, metrics_seen),) = duckdb.sql(
        f"select count(*), count(distinct metric) from read_csv_auto('{planted / 'sensitivity.csv'}')"
    ).fetchall()
    assert n == 3 * metrics_seen
    samples = pl.read_parquet(planted / "samples.parquet")
    assert samples.height == 4 * (3 + 1) and samples["errors"].sum() == 0
    assert set(samples["widow.spiders"].to_list()) <= {1, 2, 3, 4}
    assert samples["winning_score@3"].n_unique() > 1 and "hunter_capture@3 se" in samples.columns
    page = (planted / "sensitivity.html").read_text()
    assert page.count("<img") == len([m for m in metrics.HEADLINE if m != "solo_win"])  # 3 players: no solo
    assert "Component effects" in page and "trials.winner_wisdom" in page
    if CHROMIUM.exists():
        dom, console = chromium_dom(planted / "sensitivity.html", tmp_path / "profile")
        assert "Values that matter most" in dom and not console


@pytest.mark.slow
def test_every_sample_is_a_run_whose_games_replay(planted: Path) -> None:
    sample = pl.read_parquet(planted / "samples.parquet").row(5, named=True)
    run = planted / sample["run"]
    games = pl.read_parquet(run / "games").select("cell_id", "game_index", "winning_score", "content_hash")
    cell, index, score, pack = games.sort("game_index").row(3)
    done = script("play", "--replay", str(run), "--game", f"{cell}:{index}", "--format", "jsonl")
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert (last["game"]["winning_score"], last["game"]["content_hash"]) == (score, pack)  # the sample's own pack


@pytest.mark.slow
def test_two_jobs_and_a_dask_cluster_play_the_same_samples(config: Path, planted: Path, tmp_path: Path) -> None:
    reference = sample_metrics(planted)
    two = study(config, tmp_path / "two", jobs="2")
    assert two.returncode == 0, two.stderr
    assert sample_metrics(tmp_path / "two").equals(reference)
    dask = study(config, tmp_path / "dask", "--backend", "dask", jobs="2")
    assert dask.returncode == 0, dask.stderr
    assert sample_metrics(tmp_path / "dask").equals(reference)


# --------------------------------------------------------------------------------------------- stop and resume
@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_stopped_study_resumes_to_the_same_numbers(
    signum: int, code: int, config: Path, planted: Path, tmp_path: Path
) -> None:
    out = tmp_path / "study"
    args = [str(SCRIPT), "sensitivity", str(config), *OPTIONS[:-1], "--jobs", "1", "--out", str(out)]
    with reaped(subprocess.Popen(args, stderr=subprocess.PIPE, text=True, start_new_session=True)) as proc:
        deadline = time.monotonic() + 120
        while not list((out / "metrics").glob("*.json")):  # one sample finished, fifteen to go
            assert proc.poll() is None and time.monotonic() < deadline, "the study ended before it could be stopped"
            time.sleep(0.05)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "--resume" in err and f"--out {out}" in err and "Traceback" not in err
    assert not (out / "sensitivity.csv").exists() and not list(out.rglob("*.partial"))
    done = study(config, out, "--resume")
    assert done.returncode == 0, done.stderr
    assert metric_rows(out).equals(metric_rows(planted))


# --------------------------------------------------------------------------------------------- bad input
@pytest.mark.slow
@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--params", "widow.spidres"], "did you mean widow.spiders"),
        (["--params", "widow.spiders=0..50"], "widow.spiders: 50 (the range given) does not make a playable pack"),
        (["--params", "setup.witches_dealt=2..4,setup.witches_kept"], "setup.witches_dealt: 4 (the range given)"),
        (["--params", "witches.johanna.trigger"], "is not a number or a choice"),
        (["--params", "widow.spiders"], "two or more values"),
        (["--method", "anova"], "--method must be morris or sobol"),
        (["--method", "sobol", "--samples", "6"], "--samples must be a power of 2"),
        (["--metrics", "fairness"], "unknown metric 'fairness'"),
        (["--group", "card"], "--group must be value or item"),
        (["--games", "0"], "--games must be between 1"),
        (["--jobs", "0"], "--jobs must be"),
        (["--backend", "spark"], "--backend must be local or dask"),
        (["--resume"], "not a sensitivity folder"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(extra: list[str], message: str, config: Path, tmp_path: Path) -> None:
    out = tmp_path / "study"
    params = [] if "--params" in extra else ["--params", "widow.spiders,widow.citizens"]
    done = script("sensitivity", str(config), *params, *extra, "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not out.exists()


@pytest.mark.slow
def test_a_sample_that_breaks_the_pack_names_itself(config: Path, tmp_path: Path) -> None:
    # each range loads on its own (3 kept of 3 dealt, 2 kept of 2 dealt), but not every combination (3 of 2)
    params = "setup.witches_kept=1..3,setup.witches_dealt=2..3"
    done = script("sensitivity", str(config), "--params", params, "--trajectories", "10", "--out", str(tmp_path / "s"))
    assert done.returncode == 2 and not (tmp_path / "s").exists()
    assert done.stderr.startswith("error: sample ") and "setup.witches_kept = 3, setup.witches_dealt = 2" in done.stderr
    assert "3 kept of 2 dealt" in done.stderr and done.stderr.rstrip().endswith("narrow the ranges")


@pytest.mark.slow
def test_an_existing_folder_or_other_settings_are_refused(config: Path, planted: Path) -> None:
    again = study(config, planted)
    assert again.returncode == 2 and "exists (continue a study with the same options and --resume)" in again.stderr
    other = script("sensitivity", str(config), *OPTIONS, "--games", "31", "--out", str(planted), "--resume")
    assert other.returncode == 2 and "holds a study with other settings" in other.stderr


# --------------------------------------------------------------------------------------------- Sobol and groups
@pytest.mark.slow
def test_sobol_indices_of_grouped_values(config: Path, tmp_path: Path) -> None:
    out = tmp_path / "sobol"
    params = "widow.spiders,widow.citizens,trials.winner_wisdom=0..20"
    done = script(
        "sensitivity", str(config), "--method", "sobol", "--samples", "4", "--params", params, "--group", "item",
        "--games", "20", "--metrics", "winning_score,worst_seat", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = metric_rows(out)
    assert {"S1", "S1_conf", "ST", "ST_conf"} <= set(rows.columns) and "mu_star" not in rows.columns
    assert pl.read_parquet(out / "samples.parquet").height == 4 * (2 + 2)
    widow = rows.filter(pl.col("group") == "widow", pl.col("metric") == "winning_score")
    assert widow["parameter"].to_list() == ["widow.spiders", "widow.citizens"] and widow["ST"].unique().to_list() == [
        0.0
    ]
    score = rows.filter(pl.col("group") == "trials", pl.col("metric") == "winning_score")  # its item: the rules table
    assert score["ST"].item() > 0.5 and score["rank"].item() == 1


# --------------------------------------------------------------------------------------------- report --sensitivity
@pytest.mark.slow
def test_report_says_which_findings_hold(config: Path, planted: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert script("run", str(config), "--games", "60", "--jobs", "1", "--out", str(run), "-q").returncode == 0
    done = script("report", str(run), "--sensitivity", str(planted), "--out", str(tmp_path / "rep"))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("- ")]
    phrases = ("holds across the assumed ranges", "depends on: ", "sensitivity unclear: ")
    seat = next(line for line in lines if "the seat furthest from fair" in line)
    assert any(p in seat for p in phrases)
    section = (tmp_path / "rep" / "summary.md").read_text().split("\n## Assumed values that matter most\n")[1]
    rows = [line for line in section.split("\n## ")[0].splitlines() if line.startswith("| ")]
    # an assumed value that drives a metric; its item is seeded, its faces assumed (per-value provenance, #26)
    assert any(r.startswith("| hunters.die.0 | seed-base (assumed) |") for r in rows)
    assert not any("trials.winner_wisdom" in r for r in rows)  # it drives the score, but it is seed-base
    missing = script("report", str(run), "--sensitivity", str(tmp_path), "--out", str(tmp_path / "rep2"))
    assert missing.returncode == 2 and "no sensitivity.csv" in missing.stderr
