"""septima-sim tune: a planted seat asymmetry is found and fixed, the patch replays the confirmed numbers, resume
continues the study, a fixed seed gives the same study, and bad input is one line with nothing written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import tomli_w

from septima_sim.content.loader import BASE_DIR
from septima_sim.tune.schema import Budget, SeatFairness, Targets
from septima_sim.tune.space import decode, describe, encode
from septima_sim.tune.targets import measure

SCRIPT = Path(sys.executable).parent / "septima-sim"
WEAK = ["shapeshift"] * 4
"""A tile that only plays Shapeshift: in animal form the seat can do nothing useful."""


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False)


def planted_pack(root: Path) -> list[str]:
    """A copy of the built-in pack where Green's animals are Orange's (Serpent = Fox, Toad = Squirrel, so the two
    colours are equal by construction) except that both Green tiles are WEAK. Returns the fair tile (the Fox's)."""
    pack = root / "pack"
    shutil.copytree(BASE_DIR, pack)
    data = tomllib.loads((pack / "animals.toml").read_text())
    by_id = {a["id"]: a for a in data["animal"]}
    for green, orange in (("serpent", "fox"), ("toad", "squirrel")):
        twin = {k: v for k, v in by_id[orange].items() if k not in ("id", "name", "colour")}
        by_id[green].clear()
        by_id[green].update(id=green, name=green.title(), colour="green", **twin)
        by_id[green]["actions"] = WEAK
    (pack / "animals.toml").write_text(tomli_w.dumps(data))
    return list(by_id["fox"]["actions"])


def write_tune(path: Path, **parts: Any) -> Path:
    path.write_text(tomli_w.dumps(parts))
    return path


# --------------------------------------------------------------------------------------------- known optimum
@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("planted")
    fox = planted_pack(root)
    choices = [WEAK, fox, ["shapeshift", "shapeshift", "move", "move"]]
    tune = write_tune(
        root / "planted.toml",
        name="planted",
        seed=3,
        content="pack",
        # Random players turn into the WEAK animals as often as into any other, so the plant shows. (With balanced
        # players, since the heuristic's goals and buildings memos were fixed, the planted penalty measured 5 points
        # on the confirmation seeds, under the 10-point band the test asserts.)
        base={"players": 2, "shapeshifting": True, "lineup": "all-random"},
        space={"animals.serpent.actions": {"choices": choices}, "animals.toad.max": {"low": 1, "high": 3}},
        targets={"seat_fairness": {"band": 10.0}},
        # the plant costs Green about 16 points (34.4% of 2,000 games against a fair 50%); 300 confirmation games
        # put it outside the 10-point band with a margin of 2 standard errors (100 games measured 10.0 after #26)
        budget={"trials": 5, "games": 60, "min_games": 30, "reduction": 2, "confirm_games": 300, "confirm_top": 1},
    )
    out = root / "out"
    result = cli("tune", tune, "--jobs", "1", "--out", out, "--quiet")
    assert result.returncode == 0, result.stderr
    return {"out": out, "fox": fox, "stdout": result.stdout, "root": root}


@pytest.mark.slow
def test_planted_asymmetry_is_found_and_confirmed(planted: dict[str, Any]) -> None:
    out = planted["out"]
    best = tomllib.loads((out / "best.toml").read_text())
    assert best["overrides"]["animals.serpent.actions"] == [planted["fox"]]  # the symmetric tile, as one value
    confirmation = pl.read_csv(out / "confirmation.csv")
    assert confirmation.columns == ["target", "players", "metric", "baseline", "best", "ci_low", "ci_high", "verdict"]
    row = confirmation.row(0, named=True)
    assert row["target"] == "seat_fairness" and row["players"] == 2
    assert row["baseline"] > 10.0  # the planted penalty is visible on the fresh seeds...
    assert row["best"] < row["baseline"] and row["verdict"] in ("pass", "unclear")  # ...and the patch removes it
    trials = pl.read_csv(out / "trials.csv")
    assert trials.height == 5 and set(trials["state"]) <= {"complete", "pruned"}
    assert trials.row(0, named=True)["animals.serpent.actions"] == json.dumps(WEAK)  # baseline first
    assert planted["stdout"].splitlines()[0].startswith("With serpent tile = [move")  # as the pack spells it


@pytest.mark.slow
def test_best_pack_holds_the_patch_and_nothing_else(planted: dict[str, Any]) -> None:
    pack, patched = planted["root"] / "pack", planted["out"] / "best-pack"
    changed = [f.name for f in sorted(pack.glob("*.toml")) if f.read_text() != (patched / f.name).read_text()]
    assert changed == ["animals.toml"]
    animals = {a["id"]: a for a in tomllib.loads((patched / "animals.toml").read_text())["animal"]}
    best = tomllib.loads((planted["out"] / "best.toml").read_text())["overrides"]
    assert animals["serpent"]["actions"] == planted["fox"] and [animals["toad"]["max"]] == best["animals.toad.max"]


@pytest.mark.slow
def test_report_is_self_contained_and_opens_with_the_headline(planted: dict[str, Any]) -> None:
    html = (planted["out"] / "report.html").read_text()
    headline = planted["stdout"].splitlines()[0]
    assert f'<h1 id="headline">{headline}</h1>' in html.replace("&#39;", "'")
    assert "Optimisation history" in html and "data:image/png;base64," in html and "Parameter importances" in html
    assert "http://" not in html and "https://" not in html
    assert (planted["out"] / "study.sqlite3").is_file()
    assert re.search(r"animals.serpent.actions = \[&#34;.*&#34;\]: Serpent&#39;s holder [+-]\d", html)  # own effect


@pytest.mark.slow
def test_patch_replays_the_confirmed_numbers(planted: dict[str, Any]) -> None:
    run_dir = planted["root"] / "replay"
    result = cli("run", planted["out"] / "best.toml", "--jobs", "1", "--out", run_dir, "--quiet")
    assert result.returncode == 0, result.stderr
    players = pl.scan_parquet(run_dir / "players" / "*" / "*.parquet").collect()
    rates = players.group_by("seat").agg(pl.col("won").mean())["won"]
    worst = max(abs(r - 0.5) for r in rates) * 100
    confirmed = pl.read_csv(planted["out"] / "confirmation.csv").row(0, named=True)["best"]
    assert worst == pytest.approx(confirmed)


# --------------------------------------------------------------------------------------------- resume, determinism
def small_tune(root: Path, seed: int = 5) -> Path:
    """Random players at 2 players, one numeric value, a winning-score range: cheap trials."""
    return write_tune(
        root / "small.toml",
        name="small",
        seed=seed,
        base={"players": 2, "lineup": "all-random"},
        space={"actions.plead.wisdom": {"low": 0, "high": 6}, "end.charm_wisdom": {"low": 0, "high": 4}},
        targets={"winning_score": {"low": 40.0, "high": 55.0}, "first_player": {"band": 30.0, "weight": 0.5}},
        budget={"trials": 2, "games": 20, "confirm_games": 20, "confirm_top": 1},
    )


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("small")
    tune = small_tune(root)
    first = root / "first"
    assert cli("tune", tune, "--jobs", "1", "--out", first, "--quiet").returncode == 0
    shutil.copy(first / "trials.csv", root / "trials-before-resume.csv")
    shutil.copy(first / "confirmation.csv", root / "confirmation-before-resume.csv")
    return {"root": root, "tune": tune, "first": first}


@pytest.mark.slow
def test_resume_continues_the_study_and_retries_an_interrupted_trial(small: dict[str, Path]) -> None:
    import optuna

    from septima_sim.tune import config, study

    cfg = config.load(small["first"] / "tune.toml")
    left = study.open_study(cfg, small["first"]).ask(
        {
            "actions.plead.wisdom": optuna.distributions.IntDistribution(0, 6),
            "end.charm_wisdom": optuna.distributions.IntDistribution(0, 4),
        }
    )  # a trial left running, as by a kill -9
    result = cli("tune", "--resume", small["first"], "--trials", "4", "--jobs", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    before = pl.read_csv(small["root"] / "trials-before-resume.csv")
    after = pl.read_csv(small["first"] / "trials.csv")
    assert after.filter(pl.col("state") != "fail").height == 4 and after.head(2).equals(before)
    trials = optuna.load_study(study_name="small", storage=study.storage_url(small["first"])).trials
    assert trials[left.number].state == optuna.trial.TrialState.FAIL
    assert trials[left.number + 1].params == left.params  # tried again first
    assert trials[left.number + 1].state == optuna.trial.TrialState.COMPLETE
    assert "Trade-off between targets" in (small["first"] / "report.html").read_text()  # two targets: Pareto front


@pytest.mark.slow
def test_same_seed_gives_the_same_study(small: dict[str, Path]) -> None:
    again = small["root"] / "again"
    assert cli("tune", small["tune"], "--jobs", "1", "--out", again, "--quiet").returncode == 0
    assert pl.read_csv(again / "trials.csv").equals(pl.read_csv(small["root"] / "trials-before-resume.csv"))
    assert (again / "confirmation.csv").read_text() == (small["root"] / "confirmation-before-resume.csv").read_text()


# --------------------------------------------------------------------------------------------- bad input
BASE = {"players": 2, "lineup": "all-random"}
SPACE = {"suspicion.start": {"low": 1, "high": 3}}
TARGETS = {"seat_fairness": {"band": 10.0}}


def bad_file(tmp_path: Path, changes: dict[str, Any]) -> Path:
    parts: dict[str, Any] = {"name": "bad", "base": BASE, "space": SPACE, "targets": TARGETS, **changes}
    return write_tune(tmp_path / "bad.toml", **parts)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"space": {"suspicion.strat": {"low": 1, "high": 3}}}, "did you mean suspicion.start"),
        ({"space": {}}, "the search space is empty"),
        ({"budget": {"confirm_games": 20}}, "nothing could be confirmed"),
    ],
)
@pytest.mark.slow
def test_bad_tune_file_is_one_line_and_writes_nothing(tmp_path: Path, changes: dict[str, Any], message: str) -> None:
    out = tmp_path / "out"
    result = cli("tune", bad_file(tmp_path, changes), "--out", out)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"space": {"animals.goat.actions": {"choices": [["fly", "move", "move", "move"], WEAK]}}},
            "unknown action 'fly'",
        ),
        ({"space": {"suspicion.start": {"low": 1.5, "high": 3}}}, "should be a valid integer (got 1.5)"),
        ({"space": {"suspicion.start": {"low": 3, "high": 1}}}, "low must be below high"),
        ({"targets": {"seat_fairness": {"band": 10.0, "players": [3]}}}, "3 not among the base's player counts"),
        ({"targets": {"winning_score": {"low": 80.0, "high": 60.0}}}, "low must be below high"),
        ({"targets": {}}, "give at least one of"),
        (
            {"targets": {"component": {"kind": "animal", "id": "goat", "band": 5.0}}},
            "only in play with base.shapeshifting = true",
        ),
        ({"targets": {"component": {"kind": "witch", "id": "nobody", "band": 5.0}}}, "no witch 'nobody'"),
        ({"targets": {"skill_gap": {"stronger": "balanced", "weaker": "random", "min": 5.0}}}, "no base lineup"),
        ({"budget": {"sampler": "cmaes"}}, "cmaes needs two or more numeric dimensions"),
        ({"base": {"players": 2, "lineup": "nobody"}}, "unknown lineup"),
    ],
)
def test_impossible_tunes_are_refused_before_anything_runs(
    tmp_path: Path, changes: dict[str, Any], message: str
) -> None:
    from septima_sim.tune import TuneError, prepare

    out = tmp_path / "out"
    with pytest.raises(TuneError, match=re.escape(message)):
        prepare(bad_file(tmp_path, changes), out=out, trials=None, games=None, seed=None)
    assert not out.exists()


@pytest.mark.slow
def test_resume_of_a_folder_that_is_no_tune_exits_2(tmp_path: Path) -> None:
    result = cli("tune", "--resume", tmp_path)
    assert result.returncode == 2 and "not a tune folder" in result.stderr


# --------------------------------------------------------------------------------------------- units
def test_shipped_tune_files_are_valid() -> None:
    from septima_sim.experiment import default_config
    from septima_sim.tune import config

    shipped = sorted(default_config().parent.glob("tune-*.toml"))
    assert shipped
    for path in shipped:
        cfg = config.load(path)
        assert cfg.space and cfg.targets.named(), path


def test_rungs_grow_by_the_reduction_factor_and_end_at_full_fidelity() -> None:
    assert Budget(games=1000, min_games=100, reduction=3).rungs() == [100, 300, 900, 1000]
    assert Budget(games=1000, min_games=100, reduction=3, pruner="none").rungs() == [1000]
    assert Budget(games=400, min_games=100, reduction=2).shard_size() == 100


def test_choices_round_trip_through_the_study() -> None:
    tile = ["plead", "brew", "move", "remember"]
    assert decode(encode(tile)) == tile and decode(3) == 3
    assert describe({"animals.goat.actions": tile, "suspicion.start": 3}) == (
        "goat tile = [plead, brew, move, remember] and suspicion.start = 3"
    )


@pytest.mark.parametrize(("wins", "games", "verdict"), [(500, 1000, "pass"), (700, 1000, "fail"), (11, 20, "unclear")])
def test_seat_fairness_verdict_follows_the_intervals(wins: int, games: int, verdict: str) -> None:
    players = pl.DataFrame(
        {
            "cell_id": ["c"] * (2 * games),
            "game_index": [i for i in range(games) for _ in (0, 1)],
            "players": [2] * (2 * games),
            "seat": [0, 1] * games,
            "won": [x for i in range(games) for x in ((i < wins), (i >= wins))],
            "policy": ["random"] * (2 * games),
            "rank": [1] * (2 * games),
        }
    )
    targets = Targets(seat_fairness=SeatFairness(band=5.0))
    (m,) = measure(targets, {"seat_fairness": [2]}, players, pl.DataFrame(), with_ci=True)
    assert m.verdict == verdict
    assert m.metric == pytest.approx(abs(wins / games - 0.5) * 100)


def synthetic(rows: list[tuple[int, int, str, int, bool]]) -> pl.DataFrame:
    """A players frame from (game, seat, policy, rank, won) at 2 players."""
    return pl.DataFrame(
        [
            {"cell_id": "c", "game_index": g, "players": 2, "seat": s, "policy": p, "rank": r, "won": w}
            for g, s, p, r, w in rows
        ]
    )


def test_skill_gap_first_player_and_constraints() -> None:
    from septima_sim.tune.schema import FirstPlayer, Range, SkillGap
    from septima_sim.tune.targets import CONSTRAINT_PENALTY, objective

    # balanced ahead in 2 of 4 games and tied in one: 2.5 / 4 = 62.5%, 12.5 points above 50
    players = synthetic(
        [
            (0, 0, "balanced", 1, True),
            (0, 1, "random", 2, False),
            (1, 0, "random", 1, True),
            (1, 1, "balanced", 2, False),
            (2, 0, "balanced", 1, True),
            (2, 1, "random", 1, True),
            (3, 0, "random", 2, False),
            (3, 1, "balanced", 1, True),
        ]
    )
    games = pl.DataFrame(
        {
            "players": [2] * 4,
            "start_player": [0, 0, 1, 1],
            "winner_seats": [[0], [0], [0, 1], [1]],
            "winning_score": [50, 60, 70, 80],
            "decisions": [300] * 4,
        }
    )
    skill = SkillGap(stronger="balanced", weaker="random", min=40.0)
    targets = Targets(
        skill_gap=skill,
        first_player=FirstPlayer(band=10.0, target=50.0),
        winning_score=Range(low=70.0, high=80.0, constraint=True),
    )
    at = {"skill_gap": [2], "first_player": [2], "winning_score": [2]}
    by = {m.target: m for m in measure(targets, at, players, games)}
    assert by["skill_gap"].metric == pytest.approx(12.5) and by["skill_gap"].loss == pytest.approx(27.5 / 40)
    assert by["first_player"].metric == pytest.approx(100.0)  # the start player won every game
    assert by["winning_score"].excess == pytest.approx(5 / 10)  # mean 65 is half a range width below 70
    expected = 27.5 / 40 + by["first_player"].loss + CONSTRAINT_PENALTY * 0.5
    assert objective(targets, list(by.values())) == pytest.approx(expected)


def test_cmaes_sampler_is_used_for_a_numeric_space(tmp_path: Path) -> None:
    import optuna

    from septima_sim.tune import config, study

    tune = write_tune(
        tmp_path / "c.toml",
        name="c",
        base=BASE,
        targets=TARGETS,
        space={"suspicion.start": {"low": 0, "high": 4}, "actions.plead.wisdom": {"low": 0, "high": 4}},
        budget={"sampler": "cmaes", "confirm_games": 400},
    )
    s = study.open_study(config.load(tune), tmp_path)
    assert isinstance(s.sampler, optuna.samplers.CmaEsSampler)
