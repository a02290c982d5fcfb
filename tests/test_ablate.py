"""septima-sim ablate: planted effects in a copied pack (a grossly overpowered witch is flagged with the largest
effect, an inert spell is not), common random numbers (both arms play the same seeds), the variant packs, resume,
and bad input (one line, exit 2, nothing written)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import polars as pl
import pytest

from septima_sim.ablate.kinds import KINDS
from septima_sim.ablate.sequential import schedule
from septima_sim.ablate.variant import NotRemovable, components, write_variant
from septima_sim.content import load_content
from septima_sim.content.loader import BASE_DIR, content_tree
from septima_sim.report.ablation.table import COLUMNS, find

SCRIPT = Path(sys.executable).parent / "septima-sim"
STRONG, INERT, CONTROLS = "aylana", "bountiful-harvest", ("tommy", "root-growth")
CONFIG = """name = "planted"
games_per_cell = 10
seed = 11
content = "pack"
[matrix]
players = [2]
lineup = ["all-random"]
"""


def cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False, cwd=cwd, timeout=600
    )


def planted_pack(root: Path) -> Path:
    """The built-in pack with Aylana's Remember worth 40 Wisdom instead of 2 and Bountiful Harvest worth nothing."""
    pack = root / "pack"
    shutil.copytree(BASE_DIR, pack)
    for file, old, new in (
        ("witches.toml", '{ effect = "wisdom", amount = 2 }', '{ effect = "wisdom", amount = 40 }'),
        ("spells.toml", "unit = 5\namount = 2", "unit = 5\namount = 0"),
    ):
        text = (pack / file).read_text()
        assert text.count(old) == 1
        (pack / file).write_text(text.replace(old, new))
    tree = content_tree(pack)
    assert tree["witches"][STRONG]["effects"][0]["amount"] == 40 and tree["spells"][INERT]["amount"] == 0
    return pack


def ablate_args(out: Path, *extra: str) -> list[str | Path]:
    return [
        "ablate",
        "plant.toml",
        "--kinds",
        "witch,spell",
        "--only",
        ",".join((STRONG, INERT, *CONTROLS)),
        "--games",
        "200",
        "--jobs",
        "2",
        "--out",
        out,
        *extra,
    ]


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ablate")
    planted_pack(root)
    (root / "plant.toml").write_text(CONFIG)
    done = cli(*ablate_args(root / "abl", "--quiet"), cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(root / "abl")
    return root


@pytest.mark.slow
def test_the_overpowered_witch_is_flagged_with_the_largest_effect_and_the_inert_spell_is_not(planted: Path) -> None:
    rows = pl.read_csv(planted / "abl" / "ablation.csv")
    assert tuple(rows.columns) == COLUMNS
    strong = rows.filter(pl.col("component") == STRONG).row(0, named=True)
    assert strong["flagged"] and strong["ci_low"] > 0
    assert strong["effect_win_points"] == rows["effect_win_points"].abs().max()
    assert not rows.filter(pl.col("component") == INERT)["flagged"].any()
    assert set(rows["component"]) == {STRONG, INERT, *CONTROLS}
    status = pl.read_csv(planted / "abl" / "ablation_status.csv")
    removed = status.filter(pl.col("arm") == "removed")  # witches and spells have forced arms too (issue 30)
    assert removed.filter(pl.col("component") == INERT)["provenance"].item() == "assumed"
    strong_status = removed.filter(pl.col("component") == STRONG).row(0, named=True)  # seed-named, effect assumed
    assert (strong_status["provenance"], strong_status["assumed"]) == ("seed-base", "effects")
    page = (planted / "abl" / "ablation.html").read_text()
    assert f"witch {STRONG}: +" in page and "assumed content" in page and "partly assumed: effects" in page


@pytest.mark.slow
def test_both_arms_play_the_same_seeds_and_cells(planted: Path) -> None:
    runs = planted / "abl" / "runs"
    base = pl.read_parquet(runs / "base" / "games" / "**" / "*.parquet").select("cell_id", "game_index", "seed")
    for arm in (f"witch-{STRONG}", f"spell-{INERT}"):
        other = pl.read_parquet(runs / arm / "games" / "**" / "*.parquet").select("cell_id", "game_index", "seed")
        joined = other.join(base, on=["cell_id", "game_index"], suffix="_base")
        assert joined.height == other.height > 0
        assert (joined["seed"] == joined["seed_base"]).all()
        config = tomllib.loads((runs / arm / "config.toml").read_text())
        assert config["seed"] == 11 and Path(config["content"]).name == arm
    gone = content_tree(planted / "abl" / "variants" / f"witch-{STRONG}")
    assert STRONG not in gone["witches"] and len(gone["witches"]) == len(content_tree(planted / "pack")["witches"]) - 1


@pytest.mark.slow
def test_the_report_of_the_unchanged_game_leads_with_the_causal_effects(planted: Path) -> None:
    assert find(planted / "abl" / "runs" / "base") == (planted / "abl").resolve()
    assert find(planted / "abl" / "runs" / f"witch-{STRONG}") is None
    done = cli("report", planted / "abl" / "runs" / "base", "--out", planted / "report")
    assert done.returncode == 0, done.stderr
    html = (planted / "report" / "report.html").read_text()
    causal = html.find("Causal effects (ablation), largest first")
    association = html.find("Association (players chose these): present vs absent")
    assert 0 < causal < association
    assert f"{STRONG}" in html[causal:association]
    summary = (planted / "report" / "summary.md").read_text()
    assert f"Causal: witch {STRONG}:" in summary  # the flagged causal finding is a headline


@pytest.mark.slow
def test_resume_replays_only_what_is_missing_and_gives_the_same_effects(planted: Path) -> None:
    copy = planted / "resumed"
    shutil.copytree(planted / "abl", copy)
    run = copy / "runs" / f"witch-{STRONG}"
    manifest = json.loads((run / "manifest.json").read_text())
    lost = next(iter(manifest["shards"]))
    kept = {k: v["finished"] for k, v in manifest["shards"].items() if k != lost}
    for info in manifest["shards"][lost]["files"].values():
        (run / info["path"]).unlink()
    (copy / "ablation.csv").unlink()
    again = cli(*ablate_args(copy, "--resume", "--quiet"), cwd=planted)
    assert again.returncode == 0, again.stderr
    assert (copy / "ablation.csv").read_text() == (planted / "abl" / "ablation.csv").read_text()
    after = json.loads((run / "manifest.json").read_text())["shards"]
    assert {k: after[k]["finished"] for k in kept} == kept and lost in after


# --------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kinds", "wizard"], "unknown kind 'wizard'"),
        (["--games", "0"], "--games must be between 1"),
        (["--kinds", "animal"], "no component of the chosen kinds is in play"),
        (["--bogus"], "No such option"),
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "plant.toml").write_text(CONFIG.replace('content = "pack"\n', ""))
    kinds = [] if "--kinds" in args else ["--kinds", "witch,spell"]
    done = cli("ablate", "plant.toml", *kinds, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plant.toml"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kinds": ""}, "give at least one of"),
        ({"tolerance": 0.0}, "--tolerance must be between 0 and 100"),
        ({"only": ["nobody"]}, "--only: no witch/spell 'nobody'"),
        ({"resume": True, "out": None}, "--resume needs --out DIR"),
        ({"resume": True}, "not an ablation folder"),
    ],
)
def test_bad_options_are_refused_before_anything_is_written(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    from septima_sim.ablate import AblateError, parse_kinds, prepare

    (tmp_path / "plant.toml").write_text(CONFIG.replace('content = "pack"\n', ""))
    options: dict[str, object] = {
        "kinds": "witch,spell",
        "games": 100,
        "seed": None,
        "tolerance": 5.0,
        "out": tmp_path / "out",
        "resume": False,
        "only": None,
        **changes,
    }
    with pytest.raises(AblateError, match=re.escape(message)):
        kinds = parse_kinds(str(options.pop("kinds")))
        prepare(tmp_path / "plant.toml", kinds=kinds, **options)  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plant.toml"]


@pytest.mark.slow
def test_an_existing_folder_or_other_settings_are_refused(planted: Path) -> None:
    from septima_sim.ablate import AblateError, parse_kinds, prepare

    done = cli(*ablate_args(planted / "abl"), cwd=planted)
    assert done.returncode == 2 and "exists (continue an ablation with --resume)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(AblateError, match="with other settings"):
        prepare(
            planted / "plant.toml",
            kinds=parse_kinds("witch,spell"),
            games=300,
            seed=None,
            tolerance=5.0,
            out=planted / "abl",
            resume=True,
            only=[STRONG, INERT, *CONTROLS],
        )


# --------------------------------------------------------------------------------------------- units
def test_a_component_the_configs_overrides_need_is_listed_as_not_removable(tmp_path: Path) -> None:
    from septima_sim.ablate import parse_kinds, prepare

    overrides = '[overrides]\n"witches.tommy.name" = ["Tom"]\n'
    (tmp_path / "ov.toml").write_text(CONFIG.replace('content = "pack"\n', "") + overrides)
    plan = prepare(
        tmp_path / "ov.toml",
        kinds=parse_kinds("witch"),
        games=16,
        seed=None,
        tolerance=5.0,
        out=tmp_path / "out",
        resume=False,
        only=["tommy", "aylana"],
    )
    problems = {c.id: c.problem for c in plan.components if c.arm == "removed"}
    assert problems["aylana"] is None and "not removable with this config" in str(problems["tommy"])


def test_every_component_of_the_built_in_pack_can_be_removed_and_the_variant_validates(tmp_path: Path) -> None:
    for kind in KINDS.values():
        ids = components(kind, None)
        assert ids
        for ident in ids[:3]:
            dest = tmp_path / f"{kind.name}-{ident}"
            assert write_variant(None, kind, ident, dest) == load_content(dest).hash != load_content(None).hash


def _omen_witches(tree: dict) -> list[str]:
    return [
        w
        for card in tree["omens"].values()
        if isinstance(card, dict) and "bright" in card
        for half in ("bright", "dark")
        for key in ("everyone", "excluded")
        for w in card[half].get(key, [])
    ]


def test_a_removed_witch_leaves_the_omen_lists_that_named_it(tmp_path: Path) -> None:
    named = _omen_witches(content_tree())
    assert named
    for witch in named:
        write_variant(None, KINDS["witch"], witch, tmp_path / witch)
        left = _omen_witches(content_tree(tmp_path / witch))
        assert witch not in left and len(left) == len(named) - 1


def test_an_animal_tile_becomes_its_colours_other_tile(tmp_path: Path) -> None:
    write_variant(None, KINDS["animal"], "goat", tmp_path / "v")
    animals = content_tree(tmp_path / "v")["animals"]
    hare = {k: v for k, v in animals["hare"].items() if k != "colour"}
    assert animals["goat"]["colour"] == animals["hare"]["colour"]
    assert {k: v for k, v in animals["goat"].items() if k != "colour"} == hare
    assert {k: v for k, v in animals.items() if k not in ("goat", "hare")} == {
        k: v for k, v in content_tree()["animals"].items() if k not in ("goat", "hare")
    }


def test_an_unknown_component_is_not_removable(tmp_path: Path) -> None:
    with pytest.raises(NotRemovable, match="no such witch"):
        write_variant(None, KINDS["witch"], "nobody", tmp_path / "v")
    assert not (tmp_path / "v").exists()


def test_the_schedule_has_three_stages_of_whole_shards() -> None:
    for games in (1, 7, 200, 640, 1001):
        s = schedule(games)
        assert s.stages[-1] >= games and s.stages[-1] - games < 16
        assert all(stage % s.shard_size == 0 for stage in s.stages) and len(s.stages) == 3


# --------------------------------------------------------------------------------------------- tune's component target
@pytest.mark.slow
def test_tune_component_target_prefers_values_that_bring_the_planted_witch_into_the_band(tmp_path: Path) -> None:
    pack = planted_pack(tmp_path)
    amounts = (40, 2)
    tune = {
        "name": "aylana",
        "seed": 3,
        "content": str(pack),
        "base": {"players": 2, "lineup": "all-random"},
        "space": {"witches.aylana.effects": {"choices": [[{"effect": "wisdom", "amount": a}] for a in amounts]}},
        "targets": {"component": {"kind": "witch", "id": STRONG, "band": 10.0}},
        "budget": {
            "trials": 2,
            "games": 96,
            "confirm_games": 160,
            "confirm_top": 2,
            "sampler": "random",
            "pruner": "none",
        },
    }
    import tomli_w

    (tmp_path / "t.toml").write_text(tomli_w.dumps(tune))
    done = cli("tune", "t.toml", "--jobs", "2", "--out", "out", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    trials = pl.read_csv(tmp_path / "out" / "trials.csv")
    loss = {
        json.loads(v)[0]["amount"]: x for v, x in trials.select("witches.aylana.effects", "loss_component").iter_rows()
    }
    assert set(loss) == set(amounts) and loss[40] > max(1.0, loss[2])  # +40 Wisdom per Remember: outside the band
    best = tomllib.loads((tmp_path / "out" / "best.toml").read_text())
    assert best["overrides"]["witches.aylana.effects"][0][0]["amount"] == 2
    row = pl.read_csv(tmp_path / "out" / "confirmation.csv").row(0, named=True)
    assert row["target"] == "component" and row["baseline"] > row["ci_high"]
    assert (tmp_path / "out" / "without" / f"witch-{STRONG}").is_dir()
    assert (tmp_path / "out" / "trials" / "0000-without" / "manifest.json").is_file()
