"""The event log rebuilds the game (issue #26): every event carries ``changes`` (``{field: [before, after]}`` for each
public field it changed), and ``septima_sim.events.fold`` over a game's events, from nothing, gives the engine's
public state (``engine.public_fields``) at every action, every season end and the end: every seat, the table, the
Widow and the modules' fields, over every mode, module mix, player count, solo, random and heuristic players.

Beyond the fold itself: each kind of event changes only the fields of its kind (so a change is not carried by a later,
unrelated event with another cause), the final folded state agrees with the result rows, the log read back from JSON
and from the Parquet ``events`` table folds the same, a broken log is refused, the once-silent changes have events
of their own, and recording the events changes nothing in the game."""

from __future__ import annotations

import json
import re
from collections import Counter

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from septima_sim import store
from septima_sim.content import Content
from septima_sim.engine import GameConfig, GameResult, play_game
from septima_sim.engine.game import Game
from septima_sim.engine.public_fields import Fields, flat, public_fields
from septima_sim.events import FoldError, fold, seat_fields, states
from septima_sim.players import builtin_lineups, make_policy
from tests.test_event_log import PERSONAS, SETUPS

Event = dict[str, object]
Setup = tuple[int, str, tuple[str, ...]]

_CITIZENS = {"S.supply", "S.crowd", "widow.supply", "widow.crowd", "table.seated1", "table.seated2"}
_CHAMBERS = {"table.chamber1", "table.chamber2", "table.seated1", "table.seated2", "table.witch_deck"}
KIND_FIELDS: dict[str, set[str]] = {
    "action": set(),
    "reveal": {"S.hand", "S.played", "widow.card", "widow.markers"},
    "discard": {"S.played", "S.discard", "widow.card"},
    "hand": {"S.hand", "S.discard", "S.played"},
    "leader": {"S.vertex", "widow.vertex"},
    "ingredients": {"S.res", "table.crystal_supply"},
    "charms": {"S.charms"},
    "potions": {"S.potions", "table.potion_supply", "table.patients"},
    "patient_track": {"S.tracks", "table.patients"},
    "patients": {"table.patients", "table.patient_stack", "table.crowd_angry", "table.potion_supply"},
    "citizens": _CITIZENS,
    "coven": {"S.coven", "table.chamber2", "table.witch_deck"},
    "crowd": {"table.crowd_angry"},
    "chamber": _CHAMBERS,
    "trial": _CHAMBERS | {"S.crowd", "widow.crowd", "table.crowd_neutral", "table.crowd_angry"},
    "witch_on_trial": {"table.chamber1", "table.witch_deck"},
    "ritual_row": {"S.ritual_row", "widow.ritual_row"},
    "ritual_col": {"S.ritual_col"},
    "spells": {"S.spells", "table.market"},
    "spell_used": {"S.spells"},
    "spell_ready": {"S.spells"},
    "market": {"table.market"},
    "mirror": {"S.mirror"},
    "season_over": {"S.mirror", "S.spells"},
    "septima": {"table.septima"},
    "hunters": {"table.hunters"},
    "relocation": {"table.hunters"},
    "start_player": {"table.start_player", "widow.first"},
    "wisdom": {"S.wisdom", "S.src", "widow.wisdom"},
    "suspicion": {"S.suspicion"},
    "suspicion_change": {"S.suspicion", "widow.suspicion"},
    "spiders": {"widow.spiders"},
    "markers": {"widow.markers"},
    "shapeshift": {"S.form", "S.covered", "S.witches_off"},
    "turn_back": {"S.form", "S.covered", "S.witches_off"},
    "face_down": {"S.face_down", "S.witches_off", "S.coven"},
    "omen": {"omens.next", "omens.drawn"},
    "omen_active": {"omens.card", "omens.side"},
}
"""The fields each kind of event may change (``S.`` stands for any seat); ``start`` and ``setup`` (the table before
and during setup) may change any. A kind missing here changes nothing (``overflow``, ``capture``, ``crowd_pick``,
``copy``, ``season_end``...)."""
CHECKPOINTS = ("action", "season_end", "end")


def _generic(key: str) -> str:
    return re.sub(r"^\d+\.", "S.", key)


def _play(
    content: Content, setup: Setup, seed: int, personas: list[str]
) -> tuple[GameResult, list[Event], dict[int, Fields]]:
    """Play one game; its events as a reader of ``--format jsonl`` gets them, and the engine's public state at
    each checkpoint event (by its index) and after the game (index -1)."""
    players, mode, modules = setup
    events: list[Event] = []
    seen: dict[int, Fields] = {}
    holder: list[Game] = []

    def sink(event: Event) -> None:
        if event["kind"] in CHECKPOINTS:
            seen[len(events)] = flat(public_fields(holder[0]))
        events.append(json.loads(json.dumps(event)))

    config = GameConfig(players, mode=mode, modules=frozenset(modules))
    game = Game(config, content, [make_policy(p) for p in personas], seed, sink)
    holder.append(game)
    result = game.play()
    seen[-1] = flat(public_fields(game))  # after the game: the state the whole log must fold to
    return result, events, seen


def _agrees_with_results(content: Content, state: Fields, result: GameResult) -> None:
    """The folded end state against the result rows (which the engine builds without the event log)."""
    for row in result.players:
        seat = seat_fields(state, str(row["seat"]))
        assert seat["wisdom"] == row["wisdom"] and seat["suspicion"] == row["suspicion_end"]
        assert isinstance(seat["coven"], list) and len(seat["coven"]) == row["witches_end"]
        assert seat["crowd"] == row["crowd_end"] and seat["charms"] == row["charms_end"]
        assert isinstance(seat["res"], list) and sum(seat["res"]) == row["resources_end"]
        assert seat["ritual_row"] == row["ritual_row"]
        spells = seat["spells"]
        assert isinstance(spells, list) and [s[0] for s in spells] == row["spells"]
        if "form_end" in row and "form" in seat:
            assert (seat["form"] or "human") == row["form_end"]
    if result.game["solo"]:
        widow = seat_fields(state, "widow")
        assert (widow["wisdom"], widow["suspicion"]) == (result.game["widow_wisdom"], result.game["widow_suspicion"])


def _check(
    content: Content, result: GameResult, events: list[Event], seen: dict[int, Fields], kinds: Counter[str]
) -> None:
    assert events[0]["kind"] == "start" and events[-1]["kind"] == "end"
    n = result.game["players"]
    first = result.game["start_player"]
    assert isinstance(n, int) and isinstance(first, int)
    seasons = 0
    for i, (event, state) in enumerate(zip(events, states(events), strict=True)):
        kind = event["kind"]
        assert isinstance(kind, str)
        changes = event["changes"]
        assert isinstance(changes, dict)
        kinds[kind] += 1
        if changes:
            assert isinstance(event["cause"], str) and event["cause"], event
        if kind not in ("start", "setup"):
            stray = {_generic(k) for k in changes} - KIND_FIELDS.get(kind, set())
            assert not stray, (i, kind, event["cause"], stray)
        if kind in CHECKPOINTS:
            assert state == seen[i], (i, kind)
        if kind == "action" and isinstance(event["seat"], int) and event["seat"] >= 0:
            assert state[f"{event['seat']}.played"] == event["action"]
        if kind == "season_end":  # the start player has passed once per season so far (B31)
            seasons += 1
            assert state["table.start_player"] == (first + seasons) % n
    final = fold(events)
    assert final == seen[-1]
    _agrees_with_results(content, final, result)


def _games(content: Content, setups: list[Setup], random_seeds: range, persona_seeds: range) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for setup in setups:
        players = setup[0]
        for seed in random_seeds:
            _check(content, *_play(content, setup, seed, ["random"] * players), kinds)
        for seed in persona_seeds:
            personas = [PERSONAS[1 + (seed * 4 + s) % (len(PERSONAS) - 1)] for s in range(players)]
            _check(content, *_play(content, setup, 100 + seed, personas), kinds)
    return kinds


def test_fold_rebuilds_the_public_state_in_every_setup(content: Content) -> None:
    """20 setups (every mode, module mix and player count, solo), a random game each: the fold at every checkpoint,
    each kind's fields, the results."""
    kinds = _games(content, SETUPS, range(1), range(0))
    for kind in ("ritual_col", "start_player", "reveal", "discard", "chamber", "omen_active", "markers", "spiders"):
        assert kinds[kind], kind


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31), persona=st.sampled_from(PERSONAS))
def test_fold_rebuilds_the_public_state_of_any_game(content: Content, setup: Setup, seed: int, persona: str) -> None:
    """Any setup, seed and persona (all seats alike)."""
    _check(content, *_play(content, setup, seed, [persona] * setup[0]), Counter())


@pytest.mark.slow
def test_fold_rebuilds_the_public_state_in_many_games(content: Content) -> None:
    """20 setups (every mode, module mix and player count) x (12 random + 6 heuristic games): 360 games."""
    kinds = _games(content, SETUPS, range(12), range(6))
    assert kinds["season_over"] and kinds["face_down"] and kinds["shapeshift"] and kinds["turn_back"]


def _game_with(content: Content, setup: Setup, seed: int, kind: str) -> tuple[list[Event], list[Event]]:
    """A game's events and those of one kind (the seed is one where the kind occurs)."""
    _, events, _ = _play(content, setup, seed, ["random"] * setup[0])
    found = [e for e in events if e["kind"] == kind]
    assert found, (setup, seed, kind)
    return events, found


def _fields(event: Event) -> set[str]:
    changes = event["changes"]
    assert isinstance(changes, dict)
    return {_generic(k) for k in changes}


def test_once_silent_changes_have_their_own_events(content: Content) -> None:
    """The six changes the third audit found without an event (E1-E6): the ritual column shift, Era of Epidemic's
    face-down witch, the Widow's seated citizens back to her crowd, the Magic Mirror and ongoing spells ending,
    angry citizens on staying patients and the start player passing."""
    events, shifts = _game_with(content, (2, "full", ()), 0, "ritual_col")
    assert all(_fields(e) == {"S.ritual_col"} and str(e["cause"]).startswith("action:") for e in shifts)
    _, down = _game_with(content, (4, "full", ("omens",)), 24, "face_down")
    assert all(e["cause"] == "omen:era-of-healing/dark" for e in down)
    assert {"S.face_down", "S.witches_off"} <= _fields(down[0])
    _, trials = _game_with(content, (1, "basic", ()), 0, "trial")
    assert any("widow.crowd" in _fields(e) and e["cause"] == "trial" for e in trials)
    _, ended = _game_with(content, (4, "full", ()), 3, "season_over")
    assert all(e["cause"] == "season_end" and _fields(e) <= {"S.mirror", "S.spells"} for e in ended)
    prepared = [e for e in events if e["kind"] == "patients" and e["step"] == "preparation"]
    angry = [e for e in prepared if "angry" in str(e["detail"])]
    assert angry and all(e["cause"] == "preparation" and _fields(e) == {"table.patients"} for e in angry)
    passing = [e for e in events if e["kind"] == "start_player"]
    assert len(passing) == 3 and all(
        e["cause"] == "season_end" and _fields(e) == {"table.start_player"} for e in passing
    )


def test_an_overflow_follows_a_raise_to_the_top(content: Content) -> None:
    """The match raise before an overflow is logged (the audit's 4-player Basic seed 103: the log jumped to an
    overflow with no 7 -> 8 event): at every overflow the folded suspicion is at the top."""
    top = content.rules.suspicion_max
    overflows = 0
    for lineup in ("all-random", "heuristic-mix"):
        personas = builtin_lineups()[lineup].seat_personas(lineup, 4, 103)
        _, events, _ = _play(content, (4, "basic", ()), 103, personas)
        for event, state in zip(events, states(events), strict=True):
            if event["kind"] == "overflow":
                overflows += 1
                assert state[f"{event['seat']}.suspicion"] == top, event
    assert overflows


def test_recording_events_changes_nothing_in_the_game(content: Content) -> None:
    for players, mode, modules in SETUPS:
        config = GameConfig(players, mode=mode, modules=frozenset(modules))
        for seed in (4, 104):
            personas = ["random"] * players if seed < 100 else ["balanced"] * players
            plain = play_game(config, content, [make_policy(p) for p in personas], seed)
            logged = play_game(config, content, [make_policy(p) for p in personas], seed, lambda e: None)
            assert plain.game == logged.game and plain.players == logged.players


def test_the_parquet_events_table_folds_the_same(content: Content) -> None:
    """``changes`` is stored as JSON text; the table read back folds to the same state."""
    _, events, seen = _play(content, (3, "full", ("omens", "shapeshifting")), 2, ["random"] * 3)
    keys = {key for event in events for key in event}
    columns: dict[str, list[object]] = {key: [event.get(key) for event in events] for key in keys}
    frame = store.frame("events", columns, len(events))
    assert frame.schema["changes"] == pl.String()
    assert fold(frame.to_dicts()) == seen[-1] == fold(events)


def test_a_broken_log_is_refused(content: Content) -> None:
    _, events, _ = _play(content, (2, "basic", ()), 1, ["random"] * 2)
    gap = next(i for i, e in enumerate(events) if e["kind"] == "ingredients" and i > 20)
    with pytest.raises(FoldError, match="res"):
        fold(events[:gap] + events[gap + 1 :])
    assert fold(events[:gap] + events[gap + 1 :], check=False)  # a reader may still look at what is there
