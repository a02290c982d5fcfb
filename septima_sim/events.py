"""Fold an event log back into the game's public state (issue #26).

Every event the engine sends carries ``changes``: ``{key: [before, after]}`` for each public field that changed since
the previous event (``engine.public_fields``: ``table.<field>``, ``<seat>.<field>``, ``widow.<field>``...). The
first event of a game (``start``) brings every field from ``None``, so folding a game's events from nothing gives the
engine's public state after any event: ``fold(events)`` at the end, ``states(events)`` after each one. ``changes`` may
also be its JSON text (the Parquet ``events`` table stores it so). A ``before`` that is not the running value is a
broken log (events missing, out of order or from two games): ``FoldError``.

    from septima_sim.events import fold, seat_fields
    state = fold(events)              # {"table.start_player": 1, "0.res": [0, 2, 0, 1, 0, 3], ...}
    seat_fields(state, 0)["coven"]    # ["linnea", "dragomir"]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

State = dict[str, object]


class FoldError(ValueError):
    """An event's ``before`` is not the value the events before it left."""


def _changes(event: Mapping[str, object]) -> Mapping[str, object]:
    raw = event.get("changes")
    if not raw:
        return {}
    if isinstance(raw, str):
        raw = json.loads(raw)
    if not isinstance(raw, Mapping):
        raise FoldError(f"changes of a {event.get('kind')!r} event is not a mapping: {raw!r}")
    return raw


def apply(state: State, event: Mapping[str, object], check: bool = True) -> State:
    """Apply one event's changes to `state` in place (and return it); `check` compares each ``before``."""
    for key, change in _changes(event).items():
        if not isinstance(change, list | tuple) or len(change) != 2:
            raise FoldError(f"change of {key} in a {event.get('kind')!r} event is not [before, after]: {change!r}")
        before, after = change
        if check and state.get(key) != before:
            raise FoldError(
                f"{key}: a {event.get('kind')!r} event (season {event.get('season')}, turn {event.get('turn')}) "
                f"changes it from {before!r}, the log so far left {state.get(key)!r}"
            )
        state[key] = after
    return state


def states(events: Iterable[Mapping[str, object]], check: bool = True) -> Iterator[State]:
    """The public state after each event in turn (one dict, updated in place: copy it to keep it)."""
    state: State = {}
    for event in events:
        yield apply(state, event, check)


def fold(events: Iterable[Mapping[str, object]], check: bool = True) -> State:
    """The public state after the last event (``{}`` for no events)."""
    state: State = {}
    for event in events:
        apply(state, event, check)
    return state


def seat_fields(state: Mapping[str, object], who: int | str) -> dict[str, Any]:
    """One owner's fields without the prefix: a seat number, ``"table"``, ``"widow"`` or ``"omens"``."""
    prefix = f"{who}."
    return {key[len(prefix) :]: value for key, value in state.items() if key.startswith(prefix)}
