"""The CI balance gate: a baseline/check round trip passes, a content change is a shift, bad input exits 2, failed
games exit 3, JUnit and the GitHub step summary carry the table, sequential mode stops early."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from septima_sim import regression, runner
from septima_sim.experiment import load_experiment
from septima_sim.regression import codec
from tests.helpers import run_cli as cli
from tests.helpers import script

CONFIG = """
name = "reg"
games_per_cell = 80
seed = 31
shard_size = 40

[matrix]
players = [2, 3]
mode = ["full"]
shapeshifting = [false, true]
"""
PACK = Path(regression.__file__).parent.parent / "content" / "base"


@pytest.fixture(autouse=True)
def _no_step_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run inside GitHub Actions must not write to the real job summary."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture(scope="module")
def baseline_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reg")
    (root / "reg.toml").write_text(CONFIG)
    played = regression.baseline(root / "reg.toml", root / "baseline.json", jobs=1)
    assert played.errors == 0
    return root / "baseline.json"


def test_round_trip_unchanged_passes_with_summary_and_junit(
    baseline_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    junit = tmp_path / "out" / "balance.xml"
    code, out, _ = cli(
        ["check", "--baseline", str(baseline_file), "-j", "1", "--junit", str(junit)], monkeypatch, capsys
    )
    assert code == 0, out
    assert "| metric | baseline | current | delta [95% CI] | tolerance | verdict |" in out
    assert "within tolerance" in out and "**SHIFT**" not in out and "inconclusive |" not in out
    assert "effect[shapeshifting] on winning_score" in out
    text = summary.read_text()
    assert text.startswith("earlier step\n") and "| metric |" in text
    suite = ET.parse(junit).getroot()
    cases = suite.findall("testcase")
    assert suite.tag == "testsuite" and len(cases) == int(suite.get("tests", "0")) > 20
    assert suite.get("failures") == "0" and not suite.findall(".//failure")


def test_changed_content_is_a_shift_named_by_metric(
    baseline_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    actions = pack / "actions.toml"
    head, _, tail = actions.read_text().partition('id = "plead"')
    actions.write_text(head + 'id = "plead"' + tail.replace("wisdom = 2", "wisdom = 6", 1))
    junit = tmp_path / "balance.xml"
    args = ["check", "--baseline", str(baseline_file), "-j", "1", "--content", str(pack), "--junit", str(junit)]
    code, out, _ = cli(args, monkeypatch, capsys)
    assert code == 1
    assert "BALANCE SHIFT" in out
    shifted = [line for line in out.splitlines() if "**SHIFT**" in line]
    assert any(" winning_score |" in line for line in shifted), out
    failures = ET.parse(junit).getroot().findall(".//failure")
    assert failures and all(f.get("type") == "shift" for f in failures)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda text: text[: len(text) // 2], "invalid JSON"),
        (lambda text: text.replace('"schema_version": 2', '"schema_version": 99', 1), "schema version 99"),
        (lambda text: text.replace('"schema": "septima-sim/balance-baseline"', '"schema": "x"', 1), "not a septima"),
        (lambda text: text.replace('"players": [2,3]', '"players": [2,9]', 1), "players"),
    ],
    ids=["corrupt", "foreign-schema", "not-a-baseline", "config-error"],
)
def test_bad_baseline_exits_2_with_one_line(
    baseline_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mutate: object,
    message: str,
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(mutate(baseline_file.read_text()))  # type: ignore[operator]
    code, _, err = cli(["check", "--baseline", str(bad), "-j", "1"], monkeypatch, capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_bad_tolerance_file_exits_2(
    baseline_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tol = tmp_path / "tol.toml"
    tol.write_text("[tolerance]\nwin_rat = 0.05\n")
    code, _, err = cli(["check", "-b", str(baseline_file), "-t", str(tol), "-j", "1"], monkeypatch, capsys)
    assert code == 2 and "win_rat" in err


def test_failed_games_exit_3(
    baseline_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("engine broke")

    monkeypatch.setattr(runner, "play_game", broken)  # jobs=1 plays in this process
    code, out, _ = cli(["check", "-b", str(baseline_file), "-j", "1"], monkeypatch, capsys)
    assert code == 3 and "engine broke" in out


def test_sequential_stops_after_first_batch_when_unchanged(baseline_file: Path) -> None:
    result = regression.check(baseline_file, jobs=1, sequential=True)
    assert result.exit_code == 0 and result.looks == 2
    assert result.games == result.games_planned // 2
    assert all(r.verdict in ("pass", "untested") for r in result.rows)  # untested: cards held too rarely


def test_tolerance_override_and_percent(tmp_path: Path) -> None:
    tol = tmp_path / "tol.toml"
    tol.write_text('[tolerance]\nmargin = "10%"\n[metric]\n"c1 win_rate[seat 0]" = 0.1\n')
    loaded = regression.load_tolerances(tol)
    assert loaded.band("c1 margin", "margin", 8.0) == pytest.approx(0.8)
    assert loaded.band("c1 win_rate[seat 0]", "win_rate", 0.5) == 0.1
    assert loaded.band("c2 win_rate[seat 0]", "win_rate", 0.5) == 0.03  # shipped default


def test_verdicts_equivalence_shift_and_inconclusive() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(20, 5, 4000)
    tol = regression.load_tolerances()
    cases = {
        "same": x + rng.normal(0, 0.5, x.size),
        "moved": x + 3 + rng.normal(0, 0.5, x.size),
        "noisy": x[:40] + rng.normal(0.5, 8, 40),
    }
    items = [regression.Metric(f"c {k}", "winning_score", x[: y.size], y) for k, y in cases.items()]
    verdicts = {r.metric: r.verdict for r in regression.compare(items, tol)}
    assert verdicts == {"c same": "pass", "c moved": "shift", "c noisy": "inconclusive"}


def test_baseline_file_is_compact_and_self_describing(baseline_file: Path) -> None:
    data = json.loads(baseline_file.read_text())
    assert data["schema_version"] == regression.SCHEMA_VERSION and data["content_hash"]
    seeds = codec.decode(data["seeds"]["data"])["seed"].to_list()
    assert data["seeds"]["games"] == len(seeds) == 80 and seeds[:3] == [runner.game_seed(31, i) for i in range(3)]
    cell = data["cells"]["p3-full-ss0-om0-none-all-random"]
    frame = codec.decode(cell["outcomes"])
    assert cell["games"] == frame.height == 80
    assert set(frame.columns) >= {"winning_score", "margin", "decisions", "won_0", "won_2", "captures_1"}
    assert frame["won_0"].dtype == pl.Int8 and frame["winning_score"].dtype == pl.Int16
    assert cell["means"]["winning_score"] == pytest.approx(frame["winning_score"].mean())


def _committed() -> Path:
    """The committed CI baseline; skipped while it is in an older format (the lead regenerates it after merging)."""
    path = Path(__file__).resolve().parent.parent / "tests" / "baselines" / "ci-baseline.json"
    version = json.loads(path.read_text()).get("schema_version")
    if version != regression.SCHEMA_VERSION:
        pytest.skip(f"ci-baseline.json is format {version}: regenerate it (docs/ci-check.md)")
    return path


def test_committed_ci_baseline_matches_configs_ci() -> None:
    """The baseline .ci/run checks is readable and was built from configs/ci.toml as it is now (else regenerate it:
    docs/ci-check.md)."""
    committed = regression.read_baseline(_committed())
    root = Path(__file__).resolve().parent.parent
    assert committed.exp.hash == load_experiment(root / "configs" / "ci.toml").hash


def test_baseline_command_writes_a_file_and_refuses_bad_configs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG)
    out = tmp_path / "b.json"
    code, stdout, _ = cli(["baseline", str(config), "--out", str(out), "--games", "10", "-j", "1"], monkeypatch, capsys)
    assert code == 0 and "40 games in 4 cell(s)" in stdout
    assert json.loads(out.read_text())["config"]["games_per_cell"] == 10
    config.write_text(CONFIG.replace("[2, 3]", "[2, 7]"))
    code, _, err = cli(["baseline", str(config), "--out", str(tmp_path / "x.json")], monkeypatch, capsys)
    assert code == 2 and err.startswith("error: ") and "players" in err
    assert not (tmp_path / "x.json").exists()


def _edited(baseline_file: Path, edit: object, *, resum: bool) -> str:
    """The baseline JSON after ``edit`` (a function of the parsed data), its checksum recomputed when ``resum``."""
    data = json.loads(baseline_file.read_text())
    edit(data)  # type: ignore[operator]
    if resum:
        data["outcomes_sha256"] = regression.outcomes_checksum(data)
    return json.dumps(data)


CELL = "p3-full-ss0-om0-none-all-random"


def _recode(entry: dict, key: str, change: object) -> None:  # type: ignore[type-arg]
    entry[key] = codec.encode(change(codec.decode(entry[key])))  # type: ignore[operator]


def _cut(data: dict) -> None:  # type: ignore[type-arg]
    _recode(data["cells"][CELL], "outcomes", lambda f: f.head(70))


def _drop_metric(data: dict) -> None:  # type: ignore[type-arg]
    _recode(data["cells"][CELL], "outcomes", lambda f: f.drop("captures_2"))


def _cut_seeds(data: dict) -> None:  # type: ignore[type-arg]
    _recode(data["seeds"], "data", lambda f: f.head(79))


def _other_seeds(data: dict) -> None:  # type: ignore[type-arg]
    _recode(data["seeds"], "data", lambda f: f.with_columns(pl.col("seed") + 1))


@pytest.mark.parametrize(
    ("edit", "resum", "message"),
    [
        (_cut, False, "does not match its checksum"),
        (_drop_metric, False, "does not match its checksum"),
        (_cut, True, f"cell {CELL} has 70 outcomes for 80 games"),
        (_drop_metric, True, f"cell {CELL} lacks the outcome column(s) captures_2"),
        (lambda data: data.pop("outcomes_sha256"), False, "no outcomes checksum"),
        (_cut_seeds, True, "79 seeds for 80 games per cell"),
        (_other_seeds, True, "the seed derivation changed"),
        (lambda data: data["cells"][CELL].update(outcomes="bm90IHBhcnF1ZXQ="), True, "not Parquet"),
        (lambda data: data["cells"][CELL].update(outcomes="%%%"), True, "not base64"),
    ],
    ids=[
        "cut",
        "metric-removed",
        "cut-resummed",
        "metric-removed-resummed",
        "no-checksum",
        "seeds-cut",
        "seeds-changed",
        "not-parquet",
        "not-base64",
    ],
)
def test_check_refuses_a_baseline_that_is_not_whole(
    baseline_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    edit: object,
    resum: bool,
    message: str,
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(_edited(baseline_file, edit, resum=resum))
    code, _, err = cli(["check", "--baseline", str(bad), "-j", "1"], monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_the_committed_baseline_carries_the_checksum_of_its_outcomes() -> None:
    data = json.loads(_committed().read_text())
    assert data["outcomes_sha256"] == regression.outcomes_checksum(data)


def test_spread_bootstrap_memory_is_bounded_and_matches_the_unbatched_draw() -> None:
    """The spread's paired bootstrap draws its indices in batches: at the CI size (one batch) it is the former
    single draw; a large sample is resampled at the fixed size and rescaled, giving a close standard error."""
    from septima_sim.analysis.stats import bootstrap_replicates

    rng = np.random.default_rng(3)
    x = rng.normal(20, 5, 2000)
    y = x + rng.normal(0, 1, 2000)
    sd = lambda a, b: np.std(b, axis=1, ddof=1) - np.std(a, axis=1, ddof=1)  # noqa: E731
    idx = np.random.default_rng(2000).integers(0, 2000, size=(500, 2000))
    assert np.array_equal(bootstrap_replicates([x, y], sd, seed=2000, resamples=500), sd(x[idx], y[idx]))
    full = np.std(bootstrap_replicates([x, y], sd, seed=1, resamples=400))
    sub = np.std(bootstrap_replicates([x, y], sd, seed=1, resamples=400, max_size=500))
    assert sub == pytest.approx(full, rel=0.25)


@pytest.mark.slow
def test_a_version_1_baseline_is_refused_with_a_hint_to_regenerate(baseline_file: Path, tmp_path: Path) -> None:
    """Version 1 held every outcome as JSON lists; reading it would need gigabytes at scale: one line, exit 2."""
    data = json.loads(baseline_file.read_text())
    data["schema_version"] = 1
    data["cells"] = {cell: {"players": 3, "outcomes": {"winning_score": [30, 28]}} for cell in data["cells"]}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    proc = script("check", "--baseline", str(old), "--jobs", "1")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "schema version 1, this septima-sim reads 2" in proc.stderr
    assert f"regenerate it with `septima-sim baseline CONFIG --out {old}`" in proc.stderr


def test_check_pairs_games_by_seed(baseline_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game replayed with another seed than the baseline's game of that index is refused, even past the seeds
    re-derived on reading."""
    derive = runner.game_seed
    monkeypatch.setattr(runner, "game_seed", lambda root, i: derive(root, i) + (i == 70))
    with pytest.raises(regression.RegressionInputError, match="seed derivation changed"):
        regression.check(baseline_file, jobs=1)  # jobs=1 plays in this process


def test_encoded_outcomes_give_the_verdicts_of_json_lists(baseline_file: Path, tmp_path: Path) -> None:
    """The same rows whether the baseline's outcomes come from the encoded frames or from JSON number lists (what
    format 1 stored), on a changed content pack so that pass, shift and inconclusive all occur."""
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    actions = pack / "actions.toml"
    head, _, tail = actions.read_text().partition('id = "plead"')
    actions.write_text(head + 'id = "plead"' + tail.replace("wisdom = 2", "wisdom = 3", 1))
    base = regression.read_baseline(baseline_file, pack)
    lists = {
        cell: pl.DataFrame(json.loads(json.dumps(frame.drop("game_index").to_dict(as_series=False))))
        .with_row_index("game_index")
        .cast({"game_index": pl.Int32})
        for cell, frame in base.outcomes.items()
    }
    with runner.parallel_backend("local", 1, None):
        current = regression.play(regression.shard_tasks(base.exp)).outcomes
    tol = regression.load_tolerances()
    rows = regression.compare(regression.metrics(base.exp, base.outcomes, current), tol)
    assert rows == regression.compare(regression.metrics(base.exp, lists, current), tol)
    assert {r.verdict for r in rows} == {"pass", "shift", "inconclusive"}


def test_a_card_change_fails_the_gate_naming_the_card(
    baseline_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #28: doubling Johanna's effect (2 citizens to the crowd after a trial, not 1) is a shift of her holders'
    Wisdom, named by the card; cards held in too few games are untested, never passing."""
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    witches = pack / "witches.toml"
    head, _, tail = witches.read_text().partition('id = "johanna"')
    doubled = tail.replace('effect = "citizen_to_crowd", amount = 1', 'effect = "citizen_to_crowd", amount = 2', 1)
    assert doubled != tail
    witches.write_text(head + 'id = "johanna"' + doubled)
    code, out, _ = cli(
        ["check", "--baseline", str(baseline_file), "-j", "1", "--content", str(pack)], monkeypatch, capsys
    )
    assert code == 1
    shifted = [line for line in out.splitlines() if "**SHIFT**" in line]
    assert any(line.startswith("| components holder_wisdom[witch johanna] |") for line in shifted), out
    untested = [line for line in out.splitlines() if line.endswith("| untested |")]
    assert untested and all("held " in line and " times |" in line for line in untested)
    assert not any("johanna" in line for line in untested)


def test_unchanged_cards_pass_paired_and_rare_ones_are_untested(baseline_file: Path) -> None:
    """Replayed on the same seeds, an unchanged card's holders are the same: its metrics pass (delta 0, no spread);
    one held in fewer than MIN_HELD seat-games on a side is untested and left out of the correction."""
    from septima_sim.regression.components import MIN_HELD

    result = regression.check(baseline_file, jobs=1)
    rows = [r for r in result.rows if r.metric.startswith("components ")]
    assert rows and {r.verdict for r in rows} == {"pass", "untested"}
    assert all(r.n < MIN_HELD for r in rows if r.verdict == "untested")
    assert all(r.n >= MIN_HELD and r.delta == 0 for r in rows if r.verdict == "pass")
    assert result.exit_code == 0
