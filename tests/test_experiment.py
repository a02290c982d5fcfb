"""Experiment configs: cells and ids, and every bad input of DESIGN.md giving exit 2, one line, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from septima_sim.experiment import ExperimentError, build, default_config, load_experiment
from septima_sim.players import builtin_lineups, make_policy
from tests.helpers import run_cli as cli

GOOD = """
name = "t"
games_per_cell = 10
seed = 1

[matrix]
players = [2, 3]
"""


def test_cells_have_stable_ids_and_apply_exclude() -> None:
    data = {
        "name": "x",
        "games_per_cell": 5,
        "seed": 3,
        "matrix": {"players": [2, 3, 4], "mode": ["full", "basic"]},
        "exclude": [{"players": 2, "mode": "basic"}],
        "overrides": {"suspicion.start": [1, 2]},
    }
    first, second = build(data), build(data)
    assert [c.id for c in first.cells] == [c.id for c in second.cells]
    assert len(first.cells) == (3 * 2 - 1) * 2
    assert not any(c.players == 2 and c.mode == "basic" for c in first.cells)
    assert len({c.id for c in first.cells}) == len(first.cells)
    assert first.hash == second.hash


def test_pool_fills_the_seats_by_rotation() -> None:
    data = {"name": "x", "games_per_cell": 5, "seed": 3, "matrix": {"players": 2, "lineup": "rot"}}
    data["lineups"] = {"rot": {"pool": ["random", "balanced", "cautious"]}}
    cell = build(data).cells[0]
    assert cell.seat_personas(0) == ["random", "balanced"]
    assert cell.seat_personas(1) == ["balanced", "cautious"]
    assert cell.seat_personas(2) == ["cautious", "random"]


def test_per_seat_lineup_seats_exactly_its_personas_rotated() -> None:
    data = {"name": "x", "games_per_cell": 5, "seed": 3, "matrix": {"players": 3, "lineup": "trio"}}
    data["lineups"] = {"trio": ["random", "balanced", "cautious"]}
    cell = build(data).cells[0]
    assert cell.seat_personas(0) == ["random", "balanced", "cautious"]
    assert cell.seat_personas(1) == ["balanced", "cautious", "random"]
    assert cell.seat_personas(5) == ["cautious", "random", "balanced"]


def test_per_seat_lineup_of_the_wrong_length_names_it() -> None:
    data = {"name": "x", "games_per_cell": 5, "seed": 3, "matrix": {"players": [2, 4], "lineup": "duo"}}
    data["lineups"] = {"duo": ["random", "balanced"]}
    with pytest.raises(ExperimentError, match=r"lineup 'duo' lists 2 personas, one per seat, but the table has 4"):
        build(data)
    data["exclude"] = [{"players": 4}]
    assert [c.players for c in build(data).cells] == [2]


def test_shipped_lineups_fit_every_tier_and_player_count() -> None:
    lineups = builtin_lineups()
    for name in ("all-random", "all-balanced", "all-search", "heuristic-mix", "balanced-vs-random"):
        assert lineups[name].pool, name
        for players in (1, 2, 3, 4):
            assert len(lineups[name].seat_personas(name, players, 7)) == players
    assert set(lineups["all-search"].personas) == {"search:50"}
    assert lineups["search-vs-balanced"].seat_personas("search-vs-balanced", 2, 1) == ["balanced", "balanced"]
    assert lineups["search-vs-balanced-2p"].seat_personas("search-vs-balanced-2p", 2, 1) == ["balanced", "search:200"]
    for lineup in lineups.values():
        for persona in lineup.personas:
            make_policy(persona)


def test_shipped_configs_are_valid_toml_and_default_is_playable() -> None:
    exp = load_experiment(default_config())
    assert sorted({c.players for c in exp.cells}) == [2, 3, 4]
    assert {(c.shapeshifting, c.omens) for c in exp.cells} == {
        (False, False),
        (False, True),
        (True, False),
        (True, True),
    }
    for path in sorted(default_config().parent.glob("*.toml")):
        if not path.name.startswith("tune-"):  # tune files (septima-sim tune) are checked in test_tune.py
            assert load_experiment(path).cells, path


BAD = [
    ('name = "t"\ngames_per_cell = 10\nseed = 1\n[matrix\nplayers = [2]', "invalid TOML"),
    (GOOD + "gamez = 3\n", "Extra inputs are not permitted"),
    (GOOD.replace("games_per_cell = 10", 'games_per_cell = "ten"'), "games_per_cell: Input should be a valid integer"),
    (GOOD.replace("[2, 3]", "[2, 5]"), "matrix.players.1: Input should be less than or equal to 4"),
    (GOOD.replace("[2, 3]", "[0]"), "matrix.players.0: Input should be greater than or equal to 1"),
    (GOOD.replace("games_per_cell = 10", "games_per_cell = 0"), "games_per_cell: Input should be greater than 0"),
    (GOOD.replace("games_per_cell = 10", "games_per_cell = -5"), "games_per_cell: Input should be greater than 0"),
    (GOOD + 'lineup = ["nobody"]\n', "unknown lineup 'nobody'"),
    (GOOD + 'lineup = ["mine"]\n[lineups]\nmine = ["random", "grandmaster"]\n', "unknown persona 'grandmaster'"),
    (GOOD + 'mode = ["speedy"]\n', "matrix.mode.0: Input should be 'full' or 'basic'"),
    (GOOD + 'omens = [true]\nomen_deck = ["paranoia-first"]\n', "unknown Omen deck 'paranoia-first'"),
    (GOOD + '[overrides]\n"suspicion.strat" = [1, 2]\n', "did you mean suspicion.start"),
    (GOOD + '[overrides]\n"suspicion.start" = [99]\n', "suspicion.start: 99 is outside the track"),
    (GOOD + "[[exclude]]\nplayer = 2\n", "exclude[0]: unknown axis 'player'"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_config_exits_2_with_message(
    text: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    out = tmp_path / "run"
    code, _, err = cli(["run", str(cfg), "--out", str(out), "--jobs", "1", "--quiet"], monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be between 1 and"),
        (["--games", "-3"], "--games must be between 1 and"),
        (["--backend", "spark"], "--backend must be local or dask"),
        (["--scheduler", "tcp://x:1"], "--scheduler needs --backend dask"),
    ],
)
def test_bad_options_exit_2(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "ok.toml"
    cfg.write_text(GOOD)
    out = tmp_path / "run"
    code, _, err = cli(["run", str(cfg), "--out", str(out), "--quiet", *args], monkeypatch, capsys)
    assert code == 2 and message in err
    assert not out.exists()


def test_missing_config_and_existing_out_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(["run", str(tmp_path / "nope.toml")], monkeypatch, capsys)
    assert code == 2 and "no such config file" in err
    cfg = tmp_path / "ok.toml"
    cfg.write_text(GOOD)
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, _, err = cli(["run", str(cfg), "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 2 and "exists (use --resume" in err
    code, _, err = cli(["run", str(cfg), "--out", str(out), "--quiet", "--force"], monkeypatch, capsys)
    assert code == 2 and "not a run directory" in err
    assert (out / "keep.txt").read_text() == "mine"
    code, _, err = cli(["run", "--resume", str(tmp_path / "ghost"), "--quiet"], monkeypatch, capsys)
    assert code == 2 and "not a run directory" in err


@pytest.mark.parametrize("matrix", ["omens = [true]", "shapeshifting = [true]"])
def test_unplayable_cells_exit_2_before_any_game(
    matrix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cells the engine refuses (the expansion modules in Basic mode) stop the run with the engine's message."""
    cfg = tmp_path / "m.toml"
    cfg.write_text(GOOD.replace("players = [2, 3]", 'players = [2]\nmode = ["basic"]') + f"{matrix}\n")
    out = tmp_path / "run"
    code, _, err = cli(["run", str(cfg), "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 2 and "playable with the Full game only" in err and not out.exists()


def test_omen_decks_random_fixed_and_sweep() -> None:
    fixed = ["paranoia", "golden-cauldron", "era-of-healing"]
    data = {"name": "o", "games_per_cell": 2, "seed": 1, "matrix": {"players": 3, "omens": True}}
    data["matrix"]["omen_deck"] = ["random", fixed, "sweep"]
    cells = build(data).cells
    assert cells[0].game_config().omen_deck == ()
    assert cells[1].game_config().omen_deck == tuple(fixed)
    sweep = [c.game_config().omen_deck for c in cells[2:]]
    assert len(sweep) == 17  # the 17 regular Omen cards (18 with the Sabbath, O1)
    for position in range(3):
        assert len({deck[position] for deck in sweep}) == 17  # each Omen once in each season position


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ([["paranoi", "golden-cauldron", "era-of-healing"]], "unknown 'paranoi'"),
        ([["paranoia", "paranoia", "era-of-healing"]], "3 different Omens"),
        ("shuffled", "unknown Omen deck 'shuffled'"),
        (["paranoia", "golden-cauldron", "era-of-healing"], r"write a fixed deck as a list inside the list"),
    ],
)
def test_bad_omen_deck_names_the_problem(deck: object, message: str) -> None:
    data = {"name": "o", "games_per_cell": 2, "seed": 1, "matrix": {"players": 3, "omens": True, "omen_deck": deck}}
    with pytest.raises(ValueError, match=message):
        build(data)


def test_a_content_pack_that_fails_validation_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    from septima_sim.content.loader import BASE_DIR

    pack = tmp_path / "pack"
    shutil.copytree(BASE_DIR, pack)
    potions = pack / "potions.toml"
    potions.write_text(potions.read_text().replace('recipe = ["herb", "mushroom"]', 'recipe = ["herb", "mushrom"]'))
    cfg = tmp_path / "c.toml"
    cfg.write_text(GOOD)
    out = tmp_path / "run"
    code, _, err = cli(["run", str(cfg), "--content", str(pack), "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 2 and "potions.toml: potions.infection-remedy.recipe: unknown ingredient 'mushrom'" in err
    assert not out.exists()


def test_an_output_directory_that_cannot_be_written_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(GOOD)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    code, _, err = cli(["run", str(cfg), "--out", str(blocker / "run"), "--quiet"], monkeypatch, capsys)
    assert code == 2 and f"{blocker} is not a directory" in err
