"""The run directory: every table readable by polars and DuckDB with hive partitioning, documented dtypes."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import polars as pl
import pytest

import septima_sim
from septima_sim import runner, store
from septima_sim.cli import main
from septima_sim.content import Content
from septima_sim.engine.results import FAMILIES, SOURCES

CONFIG = """
name = "s"
games_per_cell = 40
seed = 5
shard_size = 20

[matrix]
players = [3, 4]
mode = ["full", "basic"]

[overrides]
"potions.flying-ointment.wisdom" = [2, 3]
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with events and one injected game error per cell (game 7)."""
    base = tmp_path_factory.mktemp("store")
    cfg = base / "s.toml"
    cfg.write_text(CONFIG)
    out = base / "run"
    bad = runner.game_seed(5, 7)
    real = runner.play_game

    def flaky(config: object, content: object, policies: list, seed: int, sink: object = None) -> object:
        if seed == bad:
            raise ValueError("boom")
        return real(config, content, policies, seed, sink)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "play_game", flaky)
        mp.setattr(sys, "argv", ["septima-sim", "run", str(cfg), "--jobs", "1", "--events", "--out", str(out), "-q"])
        with pytest.raises(SystemExit) as exit_info:
            main()
    assert exit_info.value.code == 3
    return out


@pytest.mark.slow
def test_layout_and_manifest(run_dir: Path) -> None:
    manifest = store.read_manifest(run_dir)
    assert (run_dir / "config.toml").is_file()
    assert manifest["status"] == "finished" and manifest["schema_version"] == store.SCHEMA_VERSION
    assert {"config", "config_hash", "content_hash", "package_version", "versions", "started", "finished"} <= set(
        manifest
    )
    assert len(manifest["cells"]) == 8 and len(manifest["shards"]) == 16
    for shard in manifest["shards"].values():
        for info in shard["files"].values():
            assert (run_dir / info["path"]).is_file() and len(info["sha256"]) == 64
    assert not list(run_dir.rglob("*.partial"))
    cell = manifest["cells"][0]
    assert (run_dir / "games" / f"cell={cell}" / "part-00000.parquet").is_file()


@pytest.mark.parametrize("table", store.TABLES)
@pytest.mark.slow
def test_duckdb_reads_every_table(run_dir: Path, table: str) -> None:
    glob = f"{run_dir}/{table}/*.parquet" if table == "errors" else f"{run_dir}/{table}/*/*.parquet"
    ((count,),) = duckdb.sql(f"select count(*) from read_parquet('{glob}', hive_partitioning = true)").fetchall()
    lazy = getattr(septima_sim.load(run_dir), table)
    assert lazy is not None and count == lazy.select(pl.len()).collect().item() > 0


@pytest.mark.parametrize("table", store.TABLES)
def test_columns_and_types_match_the_schema(run_dir: Path, table: str) -> None:
    schema = getattr(septima_sim.load(run_dir), table).collect_schema()
    for name, dtype in store.SCHEMAS[table].items():
        assert schema[name] == dtype, name
    if table == "games":
        assert schema["potions.flying-ointment.wisdom"] == pl.Int64
    if table == "players":
        assert all(schema[c] == pl.Int16 for c in schema if c.startswith(("healed_", "brewed_", "played_")))


@pytest.mark.slow
def test_wisdom_sources_sum_to_wisdom(run_dir: Path) -> None:
    players = septima_sim.load(run_dir).players.collect()
    total = pl.sum_horizontal([pl.col(f"wisdom_{s}") for s in SOURCES])
    assert players.select((total == pl.col("wisdom")).all()).item()


def test_wisdom_by_family_and_component(run_dir: Path) -> None:
    """``wisdom_from_<family>`` and the ``components`` list each sum to ``wisdom``, read back by polars and DuckDB."""
    players = septima_sim.load(run_dir).players.collect()
    families = pl.sum_horizontal([pl.col(f"wisdom_from_{f}") for f in FAMILIES])
    by_component = pl.col("components").list.eval(pl.element().struct.field("wisdom")).list.sum()
    checked = players.select(fam=(families == pl.col("wisdom")).all(), comp=(by_component == pl.col("wisdom")).all())
    assert checked.row(0) == (True, True)
    glob = f"{run_dir}/players/*/*.parquet"
    source = f"read_parquet('{glob}', hive_partitioning = true)"
    ((mismatched,),) = duckdb.sql(
        f"select count(*) from {source} "
        f"where coalesce(list_sum(list_transform(components, lambda x: x.wisdom)), 0) != wisdom"
    ).fetchall()
    assert mismatched == 0
    totals = duckdb.sql(
        f"select c.component, sum(c.wisdom) from (select unnest(components) as c from {source}) "
        f"group by c.component order by c.component"
    ).fetchall()
    expected = (
        players.select("components")
        .explode("components")
        .unnest("components")
        .group_by("component")
        .agg(pl.col("wisdom").sum())
        .sort("component")
    )
    assert totals == list(expected.iter_rows())
    assert any(c.startswith("action:") for c in expected["component"])


@pytest.mark.slow
def test_rows_per_game_and_errors(run_dir: Path) -> None:
    data = septima_sim.load(run_dir)
    games = data.games.collect()
    assert games.height == 8 * 39
    players = data.players.collect()
    assert players.height == 2 * 39 * (3 + 4) * 2
    events = data.events.collect()  # type: ignore[union-attr]
    assert {"action", "suspicion"} <= set(events["kind"])
    assert events.filter(pl.col("kind") == "action").height == players.height * 20
    assert data.errors.collect().height == 8  # type: ignore[union-attr]


def test_every_result_column_has_a_fixed_dtype(content: Content) -> None:
    """No dtype is inferred from data: a shard of solo games and one of 4-player games must agree on every column."""
    from septima_sim.engine import GameConfig, play_game
    from septima_sim.players import RandomPolicy

    for config in (GameConfig(1), GameConfig(1, shapeshifting=True, omens=True), GameConfig(4, omens=True)):
        result = play_game(config, content, [RandomPolicy() for _ in range(config.players)], 3)
        for key in result.game:
            assert key in store.GAMES, f"games column {key!r} has no fixed dtype in store.GAMES"
        for key in result.players[0]:
            assert key in store.PLAYERS or key.startswith(("healed_", "brewed_", "played_")), (
                f"players column {key!r} has no fixed dtype in store.PLAYERS"
            )
