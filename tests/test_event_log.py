"""The event log can be followed: every change of a seat's Wisdom and suspicion is an event with its before/after
values and a cause, so folding the events from the start values reproduces the game record (and the Widow's), and
the Wisdom events by cause add up to the players row's ``components`` and ``wisdom_from_<family>`` columns."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from septima_sim.content import Content
from septima_sim.engine import GameConfig, GameResult, play_game
from septima_sim.engine.results import FAMILIES, FAMILY_OF
from septima_sim.engine.state import TABLE, WIDOW
from septima_sim.players import make_policy

Event = dict[str, object]

# (players, mode, modules): every mode, module mix and player count
SETUPS: list[tuple[int, str, tuple[str, ...]]] = [
    *((n, "basic", ()) for n in (1, 2, 3, 4)),
    *(
        (n, "full", mods)
        for n in (1, 2, 3, 4)
        for mods in ((), ("omens",), ("shapeshifting",), ("omens", "shapeshifting"))
    ),
]
PERSONAS = ("random", "balanced", "brewer", "advocate", "cautious", "healer", "opportunist", "ritualist")


def _play(
    content: Content, players: int, mode: str, modules: tuple[str, ...], seed: int, personas: list[str]
) -> tuple[GameResult, list[Event]]:
    events: list[Event] = []
    config = GameConfig(players, mode=mode, modules=frozenset(modules))
    result = play_game(config, content, [make_policy(name) for name in personas], seed, events.append)
    return result, events


def _fold(events: list[Event], seat: int, wisdom: int, suspicion: int) -> tuple[int, int]:
    """Follow one seat's Wisdom and suspicion through the events, checking each ``*_before`` against the running
    value (the previous ``*_after``); returns the final values."""
    for i, e in enumerate(events):
        if e["seat"] != seat:
            continue
        for key, current in (("wisdom", wisdom), ("suspicion", suspicion)):
            before = e.get(f"{key}_before")
            assert before is None or before == current, (i, key, e)
        after_w, after_s = e.get("wisdom_after"), e.get("suspicion_after")
        if after_w is not None:
            assert isinstance(after_w, int)
            wisdom = after_w
        if after_s is not None:
            assert isinstance(after_s, int)
            suspicion = after_s
    return wisdom, suspicion


def _by_cause(events: list[Event], seat: int) -> dict[str, int]:
    """Net Wisdom per cause from one seat's ``wisdom`` events (causes that netted 0 left out)."""
    out: Counter[str] = Counter()
    for e in events:
        if e["seat"] == seat and e["kind"] == "wisdom":
            after, before = e["wisdom_after"], e["wisdom_before"]
            assert isinstance(after, int) and isinstance(before, int) and isinstance(e["cause"], str)
            out[e["cause"]] += after - before
    return {cause: n for cause, n in out.items() if n}


def _check(content: Content, result: GameResult, events: list[Event]) -> None:
    start = content.rules.suspicion_start
    for row in result.players:
        seat = row["seat"]
        assert isinstance(seat, int)
        assert _fold(events, seat, 0, start) == (row["wisdom"], row["suspicion_end"])
        components = row["components"]
        assert isinstance(components, list)
        assert {c["component"]: c["wisdom"] for c in components} == _by_cause(events, seat)
        assert sum(c["wisdom"] for c in components) == row["wisdom"]
        assert sum(row[f"wisdom_from_{f}"] for f in FAMILIES) == row["wisdom"]  # type: ignore[misc]
    if result.game["solo"]:
        widow_start = content.widow.suspicion_start
        assert _fold(events, WIDOW, 0, widow_start) == (result.game["widow_wisdom"], result.game["widow_suspicion"])
    assert not any(e["seat"] == WIDOW for e in events) or result.game["solo"]


@pytest.mark.parametrize(("players", "mode", "modules"), SETUPS, ids=lambda x: str(x))
def test_events_reproduce_the_record(content: Content, players: int, mode: str, modules: tuple[str, ...]) -> None:
    """Random players (12 seeds) and the heuristic personas (6 seeds, mixed seats) per setup: 360 games."""
    for seed in range(12):
        result, events = _play(content, players, mode, modules, seed, ["random"] * players)
        _check(content, result, events)
    for seed in range(6):
        personas = [PERSONAS[1 + (seed * 4 + s) % (len(PERSONAS) - 1)] for s in range(players)]
        result, events = _play(content, players, mode, modules, 100 + seed, personas)
        _check(content, result, events)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31), persona=st.sampled_from(PERSONAS))
def test_every_change_has_a_cause(
    content: Content, setup: tuple[int, str, tuple[str, ...]], seed: int, persona: str
) -> None:
    """Any event that changes Wisdom or suspicion names its cause; Widow events only in solo, board events at
    seat -2."""
    players, mode, modules = setup
    result, events = _play(content, players, mode, modules, seed, [persona] * players)
    for e in events:
        changes = e.get("wisdom_before") != e.get("wisdom_after") or e.get("suspicion_before") != e.get(
            "suspicion_after"
        )
        if changes:
            assert isinstance(e["cause"], str) and e["cause"], e
        assert isinstance(e["seat"], int) and e["seat"] >= TABLE
    _check(content, result, events)


def test_families_cover_known_causes() -> None:
    """Every cause prefix maps to a family column, and ``other`` catches the rest."""
    assert set(FAMILY_OF.values()) | {"other"} == set(FAMILIES)


def test_causes_do_not_depend_on_which_copy_of_the_pack_is_loaded(content: Content) -> None:
    """Two loads of the same pack (same hash, other ability objects) name the same witch and building causes."""
    from septima_sim.content import load_content

    def causes(pack: Content) -> list[object]:
        _, events = _play(pack, 4, "full", (), 7, ["random"] * 4)
        return [e["cause"] for e in events]

    first = causes(content)
    again = load_content()
    assert again is not content and again.hash == content.hash
    assert causes(again) == first == causes(content)
    assert any(str(c).startswith(("witch:", "building:")) for c in first)
