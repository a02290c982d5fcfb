"""Content is read-only after loading: nothing reachable from it can be changed, and it pickles unchanged.

The runner caches one Content per process and every game of the process shares it, so one game (or a policy)
changing a table would change the next games.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from septima_sim.content import Content, load_content
from septima_sim.content.frozen import FrozenDict

_MUTATORS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("__setitem__", ("k", 1)),
    ("__delitem__", ("k",)),
    ("__ior__", ({},)),
    ("clear", ()),
    ("pop", ("k",)),
    ("popitem", ()),
    ("setdefault", ("k", 1)),
    ("update", ({"k": 1},)),
)


def reachable(obj: Any) -> Iterator[Any]:
    """Every object reachable from ``obj`` through dataclass fields, sequence items and mapping keys and values."""
    yield obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from reachable(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from reachable(k)
            yield from reachable(v)
    elif isinstance(obj, tuple | list | set):
        for x in obj:
            yield from reachable(x)


def test_every_container_reachable_from_content_is_read_only(content: Content) -> None:
    kinds: set[str] = set()
    for obj in reachable(content):
        kinds.add(type(obj).__name__)
        assert not isinstance(obj, list | set | bytearray), f"mutable {type(obj).__name__}: {obj!r}"
        if isinstance(obj, dict):
            assert isinstance(obj, FrozenDict), f"mutable dict: {obj!r}"
            for name, args in _MUTATORS:
                before = dict(obj)
                with pytest.raises(TypeError):
                    getattr(obj, name)(*args)
                obj.__init__({"k": 1})  # a second __init__ is a no-op
                assert obj == before
        elif dataclasses.is_dataclass(obj):
            for f in dataclasses.fields(obj):
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(obj, f.name, None)
    assert {"FrozenDict", "tuple", "Content", "Rules", "OmenHalf", "Widow", "Ritual"} <= kinds


def test_content_is_hashable_all_the_way_down(content: Content) -> None:
    """Only immutable values hash: a list or dict anywhere inside would raise here."""
    assert hash(content) == hash(load_content())


def test_content_round_trips_through_pickle(content: Content) -> None:
    copy = pickle.loads(pickle.dumps(content))
    assert copy == content
    assert [type(x) for x in reachable(copy)] == [type(x) for x in reachable(content)]
    with pytest.raises(TypeError):
        copy.rules.trial_seats[4] = 99  # type: ignore[index]


def test_frozen_dict_reads_like_a_dict() -> None:
    d = FrozenDict({1: "a", 2: "b"})
    assert d == {1: "a", 2: "b"} and d[1] == "a" and d.get(3) is None and list(d) == [1, 2]
    assert repr(d) == "FrozenDict({1: 'a', 2: 'b'})"
    merged = d | {3: "c"}
    assert merged == {1: "a", 2: "b", 3: "c"} and d == {1: "a", 2: "b"}
