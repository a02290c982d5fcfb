"""The report of a small real run: charts are valid deterministic PNGs, the HTML is self-contained and loads in
headless Chromium without console errors, and bad input exits 2 with one line."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from markdown_it import MarkdownIt
from PIL import Image

from septima_sim import store
from septima_sim.analysis import Settings
from septima_sim.cli import main as entry
from septima_sim.content import load_content
from septima_sim.report import build_report
from tests.helpers import CHROMIUM, chromium_dom

CONFIG = """
name = "report-test"
games_per_cell = 30
seed = 11
shard_size = 15

[matrix]
players = [2, 3]
mode = ["full"]
shapeshifting = [false, true]
lineup = ["all-random"]
"""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FAST = Settings(resamples=200)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "septima_sim.cli", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("report")
    config = root / "cfg.toml"
    config.write_text(CONFIG)
    out = cli("run", str(config), "--out", str(root / "run"), "--jobs", "1", "--events", "--quiet")
    assert out.returncode == 0, out.stderr
    return root / "run"


@pytest.fixture(scope="module")
def report(run_dir: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_report(run_dir, tmp_path_factory.mktemp("out"), settings=FAST)


@pytest.mark.slow
def test_every_chart_is_a_valid_png(report) -> None:  # type: ignore[no-untyped-def]
    names = {p.name for p in report.charts}
    assert {"seat_heatmap.png", "distributions.png", "wisdom_sources.png", "suspicion.png", "modules.png"} <= names
    assert "widow_wisdom.png" not in names  # no solo games: no solo section
    for path in report.charts:
        data = path.read_bytes()
        assert data.startswith(PNG_SIGNATURE), path
        with Image.open(path) as img:
            img.verify()
    assert all(p.stat().st_size > 0 for p in report.csvs)


@pytest.mark.slow
def test_html_is_self_contained_with_headlines(report) -> None:  # type: ignore[no-untyped-def]
    html = report.html.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html)
    assert "http://" not in html and "https://" not in html
    assert html.count("data:image/png;base64,") == len(report.charts)
    assert "Headline findings" in html and "at 2 players without modules (fair 50.0%" in html
    assert 'id="modules"' in html and 'id="solo"' not in html and 'id="personas"' not in html
    assert "Omen" not in "".join(line for line in report.headlines)
    assert report.markdown.read_text().startswith("# Septima balance report")


@pytest.mark.slow
def test_findings_on_assumed_content_say_whether_wholly_or_partly(report) -> None:  # type: ignore[no-untyped-def]
    """Issue #26: a witch the seeds name whose effect is assumed (Johanna, Aylana, Tommy, Dragomir) reads "partly
    assumed: effects" next to its number in summary.md and report.html; a wholly assumed witch "assumed content"; a
    witch wholly from the seeds (Edith, Bryn) neither."""
    content = load_content()
    partly = {name.split(".")[1] for name in content.assumed if name.startswith("witches.")}
    wholly = {w.id for w in content.witches if w.provenance == "assumed"}
    summary = report.markdown.read_text()
    rows = {
        c[2]: line for line in summary.splitlines() if (c := [x.strip() for x in line.split("|")])[1:2] == ["witch"]
    }
    assert partly & set(rows) and wholly & set(rows)
    for witch, line in rows.items():
        assert ("(partly assumed: effects)" in line) == (witch in partly), line
        assert ("(assumed content)" in line) == (witch in wholly), line
    html = report.html.read_text()
    assert html.count("partly assumed: effects") >= len(partly & set(rows))


@pytest.mark.slow
def test_same_run_gives_same_bytes_and_compare_pairs_by_seed(run_dir: Path, report, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    again = build_report(run_dir, tmp_path, compare=run_dir, settings=FAST)
    second = {p.name: p.read_bytes() for p in again.charts}
    for first in report.charts:
        assert first.read_bytes() == second[first.name], first.name
    assert "compare_seats.png" in second
    seats = pl.read_csv(tmp_path / "tables" / "compare_seats.csv")
    assert seats["paired"].all() and (seats["delta"] == 0).all()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)")
@pytest.mark.slow
def test_html_loads_in_headless_chromium_without_console_errors(report, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dom, console = chromium_dom(report.html, tmp_path / "profile")
    assert "Headline findings" in dom
    assert not console, console


def main(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The console entry point in-process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["septima-sim", *args])
    with pytest.raises(SystemExit) as exc:
        entry()
        sys.exit(0)
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


@pytest.mark.slow
def test_report_command_writes_the_files(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = main(["report", str(run_dir), "--out", str(tmp_path / "r")], monkeypatch, capsys)
    assert code == 0, err
    assert (tmp_path / "r" / "report.html").is_file() and (tmp_path / "r" / "summary.md").is_file()
    assert " players with Shapeshifting (fair " in out


RUN_MANIFEST = {"schema": store.MANIFEST_SCHEMA, "schema_version": store.SCHEMA_VERSION, "shards": {}}


def _only_errors(path: Path) -> None:
    path.mkdir()
    (path / "manifest.json").write_text(json.dumps({"run_id": "x", **RUN_MANIFEST}))
    row = {"run_id": ["x"], "cell_id": ["c"], "game_index": [0], "seed": [1], "error": ["boom"]}
    store.write_atomic(path / "errors" / "part-c-00000.parquet", store.parquet_bytes(store.frame("errors", row, 1)))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no such run directory"),
        (lambda p: p.mkdir() or (p / "notes.txt").write_text("hi"), "not a run directory"),
        (lambda p: p.mkdir() or (p / "manifest.json").write_text(json.dumps(RUN_MANIFEST)), "the run has no games"),
        (_only_errors, "only errors (1 game(s) raised"),
    ],
    ids=["missing", "foreign", "empty", "only-errors"],
)
def test_bad_input_exits_2_with_one_line(make, message: str, tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "run"
    make(target)
    code, _, err = main(["report", str(target)], monkeypatch, capsys)
    assert code == 2, err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


HOSTILE = "<img src=x onerror=alert(1)>"


def _reseal(run: Path) -> None:
    """After a test edited shard files on purpose: record their new sha256 in the manifest (else they are damage)."""
    manifest = json.loads((run / "manifest.json").read_text())
    for shard in manifest["shards"].values():
        for file in shard["files"].values():
            file["sha256"] = hashlib.sha256((run / file["path"]).read_bytes()).hexdigest()
    (run / "manifest.json").write_text(json.dumps(manifest))


def _hostile_copy(run_dir: Path, target: Path) -> Path:
    """The test run with a hostile lineup name (3-player cells) and a hostile override axis value."""
    shutil.copytree(run_dir, target)
    for path in (target / "games").rglob("*.parquet"):
        games = pl.read_parquet(path, hive_partitioning=False)
        games = games.with_columns(
            lineup=pl.when(pl.col("players") == 3).then(pl.lit(HOSTILE)).otherwise("lineup"),
            **{"names.<script>": pl.lit(f"{HOSTILE}&'\"")},
        )
        games.write_parquet(path)
    _reseal(target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["config"]["overrides"] = {"names.<script>": [f"{HOSTILE}&'\""]}
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target


@pytest.mark.slow
def test_hostile_names_and_override_values_are_escaped(run_dir: Path, tmp_path: Path) -> None:
    hostile = _hostile_copy(run_dir, tmp_path / "run")
    written = build_report(hostile, tmp_path / "out", settings=FAST)
    html = written.html.read_text()
    assert HOSTILE not in html and "<script>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # the persona table and the module settings name it
    assert "lineup=&lt;img src=x onerror=alert(1)&gt;, names.&lt;script&gt;=" in html
    markdown = written.markdown.read_text()
    assert HOSTILE not in markdown and "&lt;" not in markdown  # Markdown-escaped, not HTML-escaped
    assert "\\<img src=x onerror=alert(1)\\>" in markdown
    rendered = MarkdownIt("commonmark").enable("table").render(markdown)  # as a Markdown viewer would show it
    assert "<img" not in rendered and "<script" not in rendered
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered  # shown as text


@pytest.mark.slow
def test_a_notice_is_the_first_line_of_both_documents(run_dir: Path, tmp_path: Path) -> None:
    notice = "3 of 120 games are missing: shard p2-full-ss0-om0-none-all-random/1 <unreadable>"
    written = build_report(run_dir, tmp_path, settings=FAST, notice=notice)
    escaped = notice.replace("<", "&lt;").replace(">", "&gt;")
    assert written.markdown.read_text().splitlines()[0] == notice.replace("<", "\\<").replace(">", "\\>")
    body = written.html.read_text().split("<body>", 1)[1].lstrip()
    assert body.startswith(f'<p class="notice" role="alert">{escaped}</p>')
    plain = build_report(run_dir, tmp_path / "plain", settings=FAST)
    assert plain.markdown.read_text().startswith("# Septima balance report") and 'class="notice"' not in (
        plain.html.read_text()
    )


@pytest.mark.slow
def test_compare_without_shared_seeds_is_unpaired(run_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(run_dir, other)
    for path in (other / "games").rglob("*.parquet"):
        pl.read_parquet(path, hive_partitioning=False).with_columns(pl.col("seed") + 1).write_parquet(path)
    _reseal(other)
    build_report(run_dir, tmp_path / "out", compare=other, settings=FAST)
    outcomes = pl.read_csv(tmp_path / "out" / "tables" / "compare_outcomes.csv")
    seats = pl.read_csv(tmp_path / "out" / "tables" / "compare_seats.csv")
    for table in (outcomes, seats):
        assert table.height and not table["paired"].any()
        assert (table["delta"] == 0).all() and (table["n_a"] == table["n_b"]).all()
    spread = outcomes.filter(pl.col("metric") == "winning_score")
    assert ((spread["lo"] < 0) & (spread["hi"] > 0)).all()


@pytest.mark.slow
def test_seat_headlines_link_a_typical_game_of_the_seat_that_replays(report, run_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Each seat headline links a replay page of a game where that seat had its usual outcome (issue 18)."""
    html = report.html.read_text()
    pattern = r'<a class="example" href="(games/[^"]+)" data-testid="example-game" title="([^"]+)">watch ([^<]+)<'
    links = re.findall(pattern, html)
    assert len(links) >= 2  # one per player count at least
    players = pl.scan_parquet(str(run_dir / "players" / "**" / "*.parquet"), hive_partitioning=True).collect()
    for href, where, label in links:
        page = report.out_dir / href
        assert page.is_file() and 'data-testid="board"' in page.read_text()
        cell, index = where.rsplit(":", 1)
        outcome = re.match(r"a typical (win|loss) of \w+ \(seat (\d)\)", label)
        assert outcome or " with " in label, label  # a seat example names the seat by colour and number
        if outcome:
            row = players.filter(
                (pl.col("cell_id") == cell) & (pl.col("game_index") == int(index)) & (pl.col("seat") == int(outcome[2]))
            )
            assert row["won"].item() == (outcome[1] == "win")
    assert "games/" in (report.out_dir / "summary.md").read_text()


def test_wisdom_per_component_adds_up_to_mean_wisdom(run_dir: Path) -> None:
    """The Wisdom-by-component section: per player count, the components' Wisdom per player-game sums to the mean
    final Wisdom."""
    from septima_sim.analysis import open_run
    from septima_sim.report.sections.wisdom_components import per_component

    run = open_run(run_dir)
    df = per_component(run.players)
    assert df is not None and df["component"].str.starts_with("action:").any()
    summed = df.group_by("players").agg(pl.col("per_game").sum()).sort("players")
    mean = run.players.group_by("players").agg(pl.col("wisdom").mean()).sort("players").collect()
    assert summed["players"].to_list() == mean["players"].to_list()
    assert all(abs(a - b) < 1e-9 for a, b in zip(summed["per_game"], mean["wisdom"], strict=True))


def test_markdown_values_keep_apostrophes_and_escape_markup() -> None:
    from septima_sim.report.markdown import md_escape

    assert md_escape("colour's seat") == "colour's seat"  # no HTML entity in a terminal
    assert md_escape("a|b `c` <d> &e [f](g)\nh") == "a\\|b \\`c\\` \\<d\\> \\&e [f\\](g) h"
    assert md_escape(3) == 3


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)")
@pytest.mark.slow
def test_wide_tables_keep_their_verdict_column_in_view(report) -> None:  # type: ignore[no-untyped-def]
    """In a window too narrow for a table, the table scrolls sideways and its verdict column stays at the right edge
    of the visible part, for every table that has one."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": 640, "height": 900})
        page.goto(report.html.as_uri())
        seen = page.evaluate(
            """() => [...document.querySelectorAll('th.verdict')].map(th => {
                const box = th.closest('.scroll');
                const view = box.getBoundingClientRect(), cell = th.getBoundingClientRect();
                return {wide: box.scrollWidth > box.clientWidth + 1, inside: cell.left >= view.left - 1
                        && cell.right <= view.right + 1, text: th.textContent};
            })"""
        )
        browser.close()
    assert seen and all(s["text"] == "verdict" for s in seen)
    assert any(s["wide"] for s in seen), "no table is wider than the window: the check would prove nothing"
    assert all(s["inside"] for s in seen), seen


def test_coverage_table_lists_every_witch_and_spell_per_lineup(report) -> None:  # type: ignore[no-untyped-def]
    """tables/coverage.csv (issue #28): one row per component and lineup, never-chosen ones included (with 0)."""
    table = pl.read_csv(report.out_dir / "tables" / "coverage.csv")
    assert table.columns == ["kind", "component", "lineup", "games", "available", "chosen", "chosen_rate"]
    content = load_content()
    for kind, ids in (("witch", [w.id for w in content.witches]), ("spell", [s.id for s in content.spells])):
        rows = table.filter(pl.col("kind") == kind, pl.col("lineup") == "all-random")
        assert sorted(rows["component"].to_list()) == sorted(ids)
    assert (table["chosen"] <= table["available"]).all() and (table["available"] <= table["games"]).all()


def test_coverage_warning_names_the_rare_components(run_dir: Path, tmp_path: Path) -> None:
    """A component a lineup never chose is named at the top of both documents (here: an animal made unknown to the
    run by dropping it from the players' lists, as a lineup that never takes it would leave it)."""
    from septima_sim.analysis.coverage import coverage, warning

    players = pl.DataFrame(
        {
            "players": [4, 4, 4, 4],
            "lineup": ["all-balanced"] * 4,
            "cell_id": ["c"] * 4,
            "game_index": [0, 0, 1, 1],
            "mode": ["full"] * 4,
            "shapeshifting": [False] * 4,
            "witches_drafted": [["aylana"], ["bryn"], ["aylana"], []],
            "spells": [["kindle"], [], ["kindle"], []],
        }
    )
    table = coverage(players, {"witch": ["aylana", "bryn", "edith"], "spell": ["kindle", "gust"]})
    assert table.filter(pl.col("component") == "edith")["chosen"].to_list() == [0]
    assert table.filter(pl.col("component") == "aylana")["chosen_rate"].to_list() == [1.0]
    text = warning(table, rate=0.6)
    assert text is not None and "witch edith (0)" in text and "witch bryn (1)" in text and "spell gust (0)" in text
    assert "aylana" not in text and "kindle (" not in text and "of 2 games" in text


def test_a_witch_example_is_a_win_whose_winner_still_held_her() -> None:
    """Issue #28: the "typical win with witch X" link opened a game whose winner had drafted X and lost her; the
    example is a game whose winner drafted her and held her at the end."""
    from types import SimpleNamespace

    from septima_sim.analysis.expansions import registered
    from septima_sim.report.examples import component_examples

    players = pl.LazyFrame(
        {
            "cell_id": ["c"] * 4,
            "game_index": [0, 0, 1, 1],
            "won": [True, False, True, False],
            "witches_drafted": [["johanna"], [], ["johanna"], []],
            "witches": [[], ["johanna"], ["johanna"], []],  # game 0: the winner lost her to seat 1
        }
    )
    games = pl.LazyFrame({"cell_id": ["c", "c"], "game_index": [0, 1], "margin": [9, 3]})
    comps = pl.DataFrame(
        {"kind": ["witch"], "item": ["johanna"], "flagged": [True], "game_level": [False], "win_effect": [0.2]}
    )
    run = SimpleNamespace(players=players, games=games, modules=registered())
    found = component_examples(run, comps)  # type: ignore[arg-type]
    assert found == {("witch", "johanna"): ("a typical win with witch johanna", "c", 1)}


@pytest.mark.slow
def test_a_report_of_three_games_per_cell_is_written(tmp_path: Path) -> None:
    """A first try (``run --games 3`` of the built-in config, then ``report``): a seat that won none of its 3 games
    has a Wilson lower bound of exactly 0; rounding put it a hair above the rate and the chart refused the run."""
    from tests.helpers import script

    cfg = Path(__file__).parents[1] / "configs" / "default.toml"
    done = script("run", str(cfg), "--games", "3", "--jobs", "1", "--quiet", "--out", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    done = script("report", str(tmp_path / "r"), "--out", str(tmp_path / "rep"))
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    assert (tmp_path / "rep" / "charts" / "turn_order.png").read_bytes().startswith(PNG_SIGNATURE)
