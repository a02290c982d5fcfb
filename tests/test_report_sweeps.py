"""Sweeps and comparisons in the report: an override run names its values everywhere (HTML, Markdown, CSV, the
end-of-run table), and ``--compare`` against a plain run pairs cells by their parameters, says which had no
counterpart, and signs every delta this run minus the other run."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import polars as pl
import pytest

from septima_sim.analysis import Settings
from septima_sim.analysis.skill import DEPENDS, HOLDS, WEAK_ONLY
from septima_sim.report import build_report
from tests.helpers import CHROMIUM, chromium_dom, script

MATRIX = """
games_per_cell = 24
seed = 5
shard_size = 12

[matrix]
players = {players}
mode = ["full"]
shapeshifting = [true]
lineup = ["all-random", "all-balanced"]
"""
SWEEP = 'name = "sweep"' + MATRIX.format(players="[3]") + '\n[overrides]\n"suspicion.start" = [1, 2]\n'
PLAIN = 'name = "plain"' + MATRIX.format(players="[2, 3]")
"""The plain run also has 2-player cells: the sweep has no counterpart for them."""
DEFAULT_START = 2
"""suspicion.start in the base pack: the sweep's cells with this value play the plain run's games exactly."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("sweeps")
    out = {}
    for name, text in (("sweep", SWEEP), ("plain", PLAIN)):
        (root / f"{name}.toml").write_text(text)
        done = script("run", str(root / f"{name}.toml"), "--out", str(root / name), "--jobs", "1")
        assert done.returncode == 0, done.stderr
        out[name] = root / name
        (root / f"{name}.stderr").write_text(done.stderr)  # the end-of-run table is printed on stderr
    return out


@pytest.fixture(scope="module")
def report(runs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_report(runs["sweep"], tmp_path_factory.mktemp("rep"), compare=runs["plain"], settings=Settings())


def _text(page: Path) -> str:
    """The page as a reader sees it: tags dropped, entities decoded."""
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", page.read_text()))


@pytest.mark.slow
def test_run_summary_has_a_row_per_cell_named_by_its_override_value(runs: dict[str, Path]) -> None:
    table = runs["sweep"].with_name("sweep.stderr").read_text()
    for lineup in ("all-random", "all-balanced"):
        for start in (1, 2):
            assert re.search(rf"3p full, Shapeshifting,\s*│?.*{lineup}, suspicion\.start={start}", table), table
    assert "-x" not in table.split("games/s", 1)[1]  # no cell hash in the rows


@pytest.mark.slow
def test_sweep_report_names_override_values_in_html_markdown_and_csv(report) -> None:  # type: ignore[no-untyped-def]
    text, md = _text(report.html), report.markdown.read_text()
    for value in (1, 2):
        assert f"3 players with Shapeshifting, suspicion.start={value}" in text
        assert f"3 players with Shapeshifting, suspicion.start={value}" in md
    assert "Response to suspicion.start" in text and "## Sweeps" in md
    assert "sweep_1_suspicion.start.png" in {p.name for p in report.charts}
    cells = pl.read_csv(report.out_dir / "tables" / "seats_by_cell.csv")
    assert cells["label"].str.contains("suspicion.start=").all()
    response = pl.read_csv(report.out_dir / "tables" / "sweep_1_suspicion.start_seats.csv")
    assert sorted(response["suspicion.start"].unique().to_list()) == [1, 2]
    assert not any(re.search(r"-x[0-9a-f]{8}", h) for h in report.headlines)
    assert any("suspicion.start=1" in h for h in report.headlines)
    assert any("suspicion.start=2" in h for h in report.headlines)
    for line in report.headlines:  # two lineups: every flagged finding says how it fares across skill levels
        if ": flagged" in line:
            assert line.endswith((HOLDS, DEPENDS, WEAK_ONLY)), line


@pytest.mark.slow
def test_compare_pairs_cells_by_parameters_and_lists_the_rest(report) -> None:  # type: ignore[no-untyped-def]
    tables = report.out_dir / "tables"
    pairs = pl.read_csv(tables / "compare_pairs.csv")
    assert pairs.height == 4  # 2 lineups x 2 override values, each against the plain cell of its lineup
    for r in pairs.iter_rows(named=True):
        assert r["other_label"] == r["label"].rsplit(", suspicion.start=", 1)[0]
    unpaired = pl.read_csv(tables / "compare_unpaired.csv")
    assert unpaired["run"].to_list() == ["other", "other"] and unpaired["label"].str.starts_with("2p ").all()
    seats = pl.read_csv(tables / "compare_seats.csv")
    assert seats.height == 4 * 3 and seats["paired"].all()  # every pair of cells shares its seeds
    text = _text(report.html)
    assert text.count("delta = this run (") == 1 and "Cells without a counterpart (2; not compared)" in text


@pytest.mark.slow
def test_compare_deltas_are_this_run_minus_the_other(runs: dict[str, Path], report) -> None:  # type: ignore[no-untyped-def]
    seats = pl.read_csv(report.out_dir / "tables" / "compare_seats.csv")
    raw = {
        name: pl.scan_parquet(str(runs[name] / "players" / "**" / "*.parquet"), hive_partitioning=False)
        .group_by("cell_id", "seat")
        .agg(pl.col("won").cast(pl.Float64).mean())
        .collect()
        for name in ("sweep", "plain")
    }
    for r in seats.iter_rows(named=True):
        this = raw["sweep"].filter(cell_id=r["cell_id"], seat=r["seat"])["won"].item()
        other = raw["plain"].filter(cell_id=r["other_cell"], seat=r["seat"])["won"].item()
        close = {"abs": 1e-5}  # the CSV holds 6 decimals
        assert r["this"] == pytest.approx(this, **close) and r["other"] == pytest.approx(other, **close)
        assert r["delta"] == pytest.approx(this - other, **close)
        if f"suspicion.start={DEFAULT_START}" in r["label"]:  # the same content and seeds: the same games
            assert r["delta"] == 0 and r["lo"] == 0 and r["hi"] == 0
    moved = seats.filter(~pl.col("label").str.contains(f"suspicion.start={DEFAULT_START}"))
    assert (moved["delta"] != 0).any()  # the other value changes some games


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)")
@pytest.mark.slow
def test_sweep_and_compare_report_loads_in_chromium_without_console_errors(report, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dom, console = chromium_dom(report.html, tmp_path / "profile")
    assert 'id="sweeps"' in dom and 'id="compare"' in dom
    assert not console, console
