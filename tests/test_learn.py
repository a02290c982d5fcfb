"""The learned evaluator (issue 33): features, the numpy value model, ``septima-sim learn`` and the ``learned``
player."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.learn import model as vm
from septima_sim.learn.features import NAMES, pair_names
from septima_sim.players import UnknownPolicyError, make_policy
from septima_sim.players import learned as learned_mod
from septima_sim.players.recording import Recording
from tests.helpers import SCRIPT, script

CONFIG_2P = """name = "tiny-learn"
games_per_cell = 5
seed = 11

[matrix]
players = [2]
mode = ["full"]
shapeshifting = [true]
omens = [true]
lineup = ["all-balanced"]
"""
FULL_2P = GameConfig(2, "full", modules=frozenset({"shapeshifting", "omens"}))


@pytest.fixture
def tiny_config(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(CONFIG_2P)
    return path


def test_model_fits_a_known_function_and_survives_its_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2000, 3)) * [1.0, 10.0, 0.1]
    y = 2.0 * x[:, 0] - 0.3 * x[:, 1] + np.tanh(5 * x[:, 2]) * 3 + 7
    model = vm.fit(x, y, ("a", "b", "c"), vm.Training(hidden=8, epochs=40, seed=2))
    residual = model.predict(x) - y
    assert np.mean(residual**2) < 0.05 * np.var(y)
    model.meta = {"pack_hash": "abc"}
    model.save(tmp_path / "m.json")
    again = vm.load(tmp_path / "m.json")
    assert again.pack_hash == "abc" and again.features == ("a", "b", "c")
    assert np.array_equal(again.predict(x[:50]), model.predict(x[:50]))
    # the same seed fits the same network
    twin = vm.fit(x, y, ("a", "b", "c"), vm.Training(hidden=8, epochs=40, seed=2))
    assert np.array_equal(twin.w1, model.w1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "cannot read the model"),
        ('{"format": "other"}', "not a septima-sim value model"),
        ('{"format": "septima-sim value model", "version": 1}', "model file lacks"),
    ],
)
def test_bad_model_files_are_one_line_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(vm.ModelError, match=message):
        vm.load(path)


def test_misshapen_model_arrays_are_refused() -> None:
    data = json.loads(learned_mod.DEFAULT_MODEL.read_text())
    data["w2"] = data["w2"][:-1]
    with pytest.raises(vm.ModelError, match="do not fit"):
        vm.from_json(data, "x")


def test_recording_leaves_the_game_as_it_was_and_rows_are_consistent() -> None:
    content = load_content()
    plain = play_game(FULL_2P, content, [make_policy("balanced"), make_policy("balanced")], 5)
    seats = [Recording(make_policy("balanced")), Recording(make_policy("balanced"))]
    recorded = play_game(FULL_2P, content, seats, 5)
    assert recorded.players == plain.players
    rows = np.asarray(seats[0].rows)
    assert rows.shape[1] == len(NAMES) and len(rows) >= 10  # one row per card choice
    col = {name: rows[:, i] for i, name in enumerate(NAMES)}
    assert np.all(np.diff(col["progress"]) > 0) and np.all((col["progress"] >= 0) & (col["progress"] < 1))
    assert np.array_equal(col["wisdom_lead"], col["me_wisdom"] - col["best_other_wisdom"])
    other = np.asarray(seats[1].rows)
    assert np.array_equal(col["best_other_wisdom"][: len(other)], other[:, NAMES.index("me_wisdom")])


def test_shipped_model_is_for_the_shipped_pack_and_small() -> None:
    model = learned_mod.model_at(str(learned_mod.DEFAULT_MODEL))
    assert model.features == NAMES
    assert model.pack_hash == load_content().hash, (
        "the content pack changed: regenerate the shipped model (docs/players.md, Learned evaluator)"
    )
    assert learned_mod.DEFAULT_MODEL.stat().st_size < 1_000_000
    assert model.meta["validation"]["rows"] > 0


@pytest.mark.parametrize("name", ["learned", "learned-fast", "vsearch:6"])
def test_learned_players_play_reproducibly(name: str) -> None:
    content = load_content()
    a = play_game(FULL_2P, content, [make_policy(name), make_policy("balanced")], 9)
    b = play_game(FULL_2P, content, [make_policy(name), make_policy("balanced")], 9)
    assert a.players == b.players and a.game["winner_seats"] == b.game["winner_seats"]
    assert a.players[0]["policy"] == name


@pytest.mark.parametrize("name", ["vsearch:0", "vsearch:x", "vsearch:-3"])
def test_a_bad_vsearch_budget_is_refused(name: str) -> None:
    with pytest.raises(UnknownPolicyError, match="bad vsearch budget"):
        make_policy(name)


def test_a_model_of_another_pack_warns_once(capsys: pytest.CaptureFixture[str]) -> None:
    model = learned_mod.model_at(str(learned_mod.DEFAULT_MODEL))
    other = dataclasses.replace(model, meta={"pack_hash": "f" * 64})
    learned_mod.warn_pack(other, load_content().hash)
    learned_mod.warn_pack(other, load_content().hash)
    err = capsys.readouterr().err
    assert err.count("warning: the learned model was trained on content pack ffffffffffff") == 1
    assert "septima-sim learn" in err


def test_playing_a_changed_pack_warns_once_and_plays_on(tmp_path: Path) -> None:
    from septima_sim.content.loader import BASE_DIR

    shutil.copytree(BASE_DIR, tmp_path / "pack")
    actions = tmp_path / "pack" / "actions.toml"
    head, _, tail = actions.read_text().partition('id = "plead"')
    actions.write_text(head + 'id = "plead"' + tail.replace("wisdom = 2", "wisdom = 3", 1))
    r = script("play", "--players", "2", "--lineup", "learned,balanced", "--content", str(tmp_path / "pack"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("warning: the learned model was trained on content pack") == 1
    plain = script("play", "--players", "2", "--lineup", "learned,balanced")
    assert plain.returncode == 0 and "warning" not in plain.stderr


def test_learn_writes_a_validated_model_through_the_console_script(tiny_config: Path, tmp_path: Path) -> None:
    out = tmp_path / "model"
    r = script("learn", str(tiny_config), "--out", str(out), "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(out / "model.json")
    assert "held out" in r.stderr and "winner named" in r.stderr
    model = vm.load(out / "model.json")
    assert model.pack_hash == load_content().hash
    training = model.meta["training"]
    assert training["config"] == "tiny.toml" and training["games_per_cell"] == 5 and training["seed"] == 11
    validation = json.loads((out / "validation.json").read_text())
    assert validation[0]["games"] == 5 and validation[0]["validation"]["games"] == 1  # game 4 of 0..4 held out
    again = tmp_path / "again"
    assert script("learn", str(tiny_config), "--out", str(again), "--jobs", "1", "-q").returncode == 0
    assert (again / "model.json").read_bytes() == (out / "model.json").read_bytes()  # same seed, same model


@pytest.mark.slow  # ~3 s: learned self-play and a game in two subprocesses
def test_learn_distill_writes_a_chooser_that_learned_fast_plays(tiny_config: Path, tmp_path: Path) -> None:
    out = tmp_path / "d"
    r = script("learn", str(tiny_config), "--out", str(out), "--jobs", "1", "--distill", "5")
    assert r.returncode == 0, r.stderr
    assert "the chooser picks the look-ahead's card" in r.stderr
    chooser = vm.load(out / "chooser.json")
    assert chooser.features == pair_names(load_content()) and chooser.pack_hash == load_content().hash
    info = json.loads((out / "validation.json").read_text())[-1]
    assert info["round"] == "distill" and info["games"] == 5 and info["train_rows"] > 0
    game = script(
        "play", "--players", "2", "--lineup", "learned-fast,balanced", "--seed", "3", cwd=tmp_path
    )  # the shipped chooser
    assert game.returncode == 0 and "warning" not in game.stderr, game.stderr


def test_learned_fast_makes_no_copy_and_learned_none_where_the_chooser_is_sure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from septima_sim.engine.view import Simulator

    copies: list[int] = []
    original = Simulator.sample_moon_phase

    def counted(self: Simulator, *args: Any, **kwargs: Any) -> Any:
        copies.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Simulator, "sample_moon_phase", counted)
    content = load_content()

    def copies_of(name: str) -> int:
        copies.clear()
        game = play_game(FULL_2P, content, [make_policy(name), make_policy("balanced")], 9)
        assert game.players[0]["policy"] == name
        return len(copies)

    assert copies_of("learned-fast") == 0
    gated = copies_of("learned")
    monkeypatch.setattr(learned_mod, "CONFIDENT", float("inf"))  # every contested card looked ahead
    assert 0 < gated < copies_of("learned")


def count_copies(monkeypatch: pytest.MonkeyPatch, method: str) -> Counter[tuple[int, int]]:
    """Counts the calls of ``Simulator.<method>`` (a copy of the game) per (id of the decision, option)."""
    from septima_sim.engine.decisions import Decision
    from septima_sim.engine.view import Simulator

    copies: Counter[tuple[int, int]] = Counter()
    original = getattr(Simulator, method)

    def counted(self: Simulator, decision: Decision, index: int, *args: Any) -> Any:
        copies[id(decision), index] += 1
        return original(self, decision, index, *args)

    monkeypatch.setattr(Simulator, method, counted)
    return copies


def test_vsearch_halves_its_budget_onto_the_heuristics_plausible_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """vsearch:N: at most CARD_SHARE * N copies per card choice, none for a card PLAUSIBLE behind the heuristic's best,
    and the card played is one of those looked at most (it survived every round of the halving)."""
    from septima_sim.engine.decisions import Decision, Kind
    from septima_sim.engine.view import PlayerView

    copies = count_copies(monkeypatch, "sample_moon_phase")
    player = make_policy("vsearch:48")
    choices: list[tuple[Decision, int, list[float]]] = []
    choose = player.choose

    def watched(decision: Decision, view: PlayerView) -> int:
        values = player.own.values(decision, view) if decision.kind == Kind.CARD else []  # type: ignore[attr-defined]
        i = choose(decision, view)
        choices.append((decision, i, values or []))
        return i

    player.choose = watched  # type: ignore[method-assign]
    play_game(FULL_2P, load_content(), [player, make_policy("balanced")], 9)
    halved = 0
    for decision, chosen, values in choices:
        counts = [copies[id(decision), i] for i in range(len(decision.options))]
        if not any(counts):
            continue
        assert sum(counts) <= round(48 * learned_mod.CARD_SHARE)
        assert counts[chosen] == max(counts)
        best = max(values)
        assert all(c == 0 for c, v in zip(counts, values, strict=True) if v <= best - learned_mod.PLAUSIBLE)
        halved += len({c for c in counts if c}) > 1  # cards dropped after a round got fewer copies
    assert halved > 0


@pytest.mark.parametrize(("share", "close"), [(0.25, 0.0), (0.25, 0.5), (0.0, 0.5)])
def test_vsearch_searches_the_draft_the_spells_taken_and_the_close_calls_on_its_share(
    monkeypatch: pytest.MonkeyPatch, share: float, close: float
) -> None:
    """vsearch:N also looks ahead at the draft and every spell taken (ALWAYS_SEARCHED, as ismcts) and at the decisions
    whose best options the heuristic rates within CLOSE_CALL (only those options), on OTHER_SHARE of N re-guesses
    shared by halving; at no other decision than those and the card, and none at all with share 0."""
    from septima_sim.engine.decisions import Decision
    from septima_sim.engine.view import PlayerView
    from septima_sim.players.branching import ALWAYS_SEARCHED

    copies = count_copies(monkeypatch, "branch")
    monkeypatch.setattr(learned_mod, "OTHER_SHARE", share)
    monkeypatch.setattr(learned_mod, "CLOSE_CALL", close)
    player = make_policy("vsearch:16")
    seen: dict[int, tuple[Decision, list[float] | None]] = {}  # holds each decision: no id is reused
    choose = player.choose

    def watched(decision: Decision, view: PlayerView) -> int:
        seen[id(decision)] = (decision, player.own.values(decision, view))  # type: ignore[attr-defined]
        return choose(decision, view)

    player.choose = watched  # type: ignore[method-assign]
    play_game(FULL_2P, load_content(), [player, make_policy("balanced")], 5)
    if not share:
        assert not copies
        return
    looked: dict[int, list[int]] = {}
    for (key, _), n in copies.items():
        looked.setdefault(key, []).append(n)
    close_calls = 0
    for key, counts in looked.items():  # 4 re-guesses (16 * 0.25) shared by halving: one per option still in per round
        assert len(counts) >= 2 and max(counts) <= max(4, math.ceil(math.log2(len(counts))))
        decision, values = seen[key]
        if decision.kind in ALWAYS_SEARCHED:
            continue
        assert close and values is not None  # without CLOSE_CALL only the draft and the spells taken
        tried = {i for k, i in copies if k == key}
        assert tried == {i for i, v in enumerate(values) if v > max(values) - close}
        close_calls += 1
    assert {seen[key][0].kind for key in looked} & ALWAYS_SEARCHED
    assert (close_calls > 0) == (close > 0)


def test_a_chooser_for_other_cards_warns_once(capsys: pytest.CaptureFixture[str]) -> None:
    model = learned_mod.default_model()
    other = dataclasses.replace(learned_mod.default_chooser(), features=("x",) * 5)
    assert not learned_mod.fits(other, load_content())
    assert "the learned-fast chooser was trained on other cards" in capsys.readouterr().err
    assert learned_mod.fits(learned_mod.default_chooser(), load_content()) and model.features == NAMES


@pytest.mark.slow
def test_learn_expert_iteration_on_two_workers(tiny_config: Path, tmp_path: Path) -> None:
    out = tmp_path / "ei"
    r = script("learn", str(tiny_config), "--out", str(out), "--jobs", "2", "--iterations", "2", "--games", "5")
    assert r.returncode == 0, r.stderr
    rounds = json.loads((out / "validation.json").read_text())
    assert [x["round"] for x in rounds] == [1, 2]
    assert rounds[1]["train_rows"] > rounds[0]["train_rows"]  # round 2 fits both rounds' positions
    assert (out / "model-1.json").is_file() and (out / "model-2.json").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--iterations", "0"], "--iterations must be between 1 and"),
        (["--games", "3"], "--games must be at least 5"),
        (["--jobs", "0"], "--jobs must be"),
        (["--backend", "cloud"], "--backend must be local or dask"),
        (["--distill", "2"], "--distill must be 0 or 5 to"),
    ],
)
def test_learn_bad_input_is_one_line(tiny_config: Path, tmp_path: Path, args: list[str], message: str) -> None:
    r = script("learn", str(tiny_config), "--out", str(tmp_path / "o"), *args)
    assert r.returncode == 2
    assert message in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o" / "model.json").exists()


def test_learn_refuses_cells_of_different_packs(tmp_path: Path) -> None:
    config = tmp_path / "two-packs.toml"
    config.write_text(CONFIG_2P + '\n[overrides]\n"suspicion.start" = [1, 2]\n')
    r = script("learn", str(config), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "2 different content packs" in r.stderr


def test_learn_refuses_plugin_players(tmp_path: Path) -> None:
    (tmp_path / "firstplug.py").write_text(
        "class First:\n    name = 'first'\n    def reset(self, seat, rng):\n        pass\n"
        "    def choose(self, decision, view):\n        return 0\n"
    )
    config = tmp_path / "plug.toml"
    config.write_text(CONFIG_2P.replace('lineup = ["all-balanced"]', 'lineup = ["mine"]') + MINE)
    r = subprocess.run(
        [str(SCRIPT), "learn", str(config), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    assert r.returncode == 2 and "is a plugin; learn plays built-in players only" in r.stderr, r.stderr
    with pytest.raises(ValueError, match="built-in players only"):
        Recording(_NotBuiltIn())


class _NotBuiltIn:
    name = "not-built-in"

    def reset(self, seat: int, rng: object) -> None:
        pass

    def choose(self, decision: object, view: object) -> int:
        return 0


MINE = """
[lineups]
mine = ["py:firstplug:First", "balanced"]
"""


def test_learn_missing_config_is_one_line(tmp_path: Path) -> None:
    r = script("learn", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "no such config file" in r.stderr
