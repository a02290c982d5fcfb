"""The fixed action space is derived from the engine's registry of decision kinds: every kind has its block (and
its slot in the observation), a kind without a declared domain fails, and every option the engine offers maps to
exactly one action of its kind's block."""

from __future__ import annotations

import random

import numpy as np
import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, decisions, play_game
from septima_sim.engine.decisions import OPTION_DOMAINS, Decision, Kind
from septima_sim.engine.tables import board_for
from septima_sim.env import ActionLayout, Encoder, IllegalAction, actions, layouts, observation
from septima_sim.env.actions import PARTS, all_kinds
from tests.env_helpers import table_id, tables


def test_every_kind_is_encoded(content: Content) -> None:
    """Each ``Kind`` constant has an option domain, an action block and a slot of the decision_kind field."""
    encoder, layout = layouts(content)
    kinds = {getattr(Kind, name) for name in dir(Kind) if name.isupper()}
    assert kinds == set(all_kinds()) == set(layout.kinds)
    missing = sorted(kinds - set(OPTION_DOMAINS))
    assert not missing, f"declare the option domain of {missing} in engine/decisions.py OPTION_DOMAINS"
    assert all(part in PARTS for parts in OPTION_DOMAINS.values() for part in parts)
    assert encoder.field("decision_kind").size == len(kinds)
    assert sum(len(v) for v in layout.values.values()) == layout.size


def test_a_new_kind_is_covered_with_no_change_here(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind the engine adds appears in the action space and the observation once it declares its domain; one
    that declares none is refused by name."""
    board = board_for(content)
    before_actions, before_encoder = ActionLayout(content, board), Encoder(content, board)
    kinds = (*all_kinds(), "bright_half")  # as if Kind had BRIGHT_HALF (Kind is a compiled class: not patched)
    monkeypatch.setattr(actions, "all_kinds", lambda: kinds)
    monkeypatch.setattr(observation, "all_kinds", lambda: kinds)
    with pytest.raises(KeyError, match="bright_half"):
        ActionLayout(content, board)
    monkeypatch.setitem(decisions.OPTION_DOMAINS, "bright_half", ("yes_no",))
    layout, encoder = ActionLayout(content, board), Encoder(content, board)
    assert layout.size == before_actions.size + 2 and layout.values["bright_half"] == (0, 1)
    assert encoder.field("decision_kind").size == before_encoder.field("decision_kind").size + 1
    assert encoder.version != before_encoder.version
    mask = layout.mask(Decision("bright_half", 0, (1, 0)))
    assert mask.sum() == 2 and mask[layout.offset["bright_half"] :].sum() == 2


class Checking:
    """A random player that checks each decision it is asked against the action layout."""

    name = "checking"

    def __init__(self, layout: ActionLayout, seen: set[str]) -> None:
        self.layout = layout
        self.seen = seen

    def reset(self, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, decision: Decision, view: object) -> int:
        layout = self.layout
        mask = layout.mask(decision)
        assert mask.sum() == len(decision.options), f"two options share an action: {decision}"
        start, size = layout.offset[decision.kind], len(layout.values[decision.kind])
        assert mask[start : start + size].sum() == mask.sum(), "an option outside its kind's block"
        for i, value in enumerate(decision.options):
            action = layout.action(decision.kind, value)
            assert layout.option_index(decision, action) == i
            assert layout.describe(action) == f"{decision.kind}: {value!r}"
        with pytest.raises(IllegalAction):
            layout.option_index(decision, int(np.flatnonzero(mask == 0)[0]))
        self.seen.add(decision.kind)
        return self.rng.randrange(len(decision.options))


@pytest.mark.parametrize("table", list(tables()), ids=table_id)
def test_every_option_the_engine_offers_has_its_action(content: Content, table: tuple[int, str, bool, bool]) -> None:
    layout = layouts(content)[1]
    seen: set[str] = set()
    players, mode, ss, om = table
    for seed in range(2):
        play_game(GameConfig(players, mode, ss, om), content, [Checking(layout, seen) for _ in range(players)], seed)
    assert len(seen) >= 10
