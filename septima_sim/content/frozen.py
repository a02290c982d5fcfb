"""A read-only dict for the content model: lookups at dict speed, every mutating method raises, pickles."""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict that cannot change after construction (content is shared by every game of a process).

    A ``dict`` subclass keeps ``d[key]`` and ``d.get`` at C speed in the engine's hot path and compares equal to a
    plain dict; ``types.MappingProxyType`` would not pickle, which the process pool needs. ``dict.__setitem__(d, ...)``
    still bypasses it, as ``object.__setattr__`` does for a frozen dataclass: the guard is against accidents.
    """

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> FrozenDict[K, V]:
        self = super().__new__(cls)
        dict.__init__(self, *args, **kwargs)
        return self

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Filled by ``__new__``; calling ``__init__`` again must not update it."""

    def _readonly(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("content is read-only after loading (FrozenDict)")

    __setitem__ = __delitem__ = __ior__ = _readonly
    clear = pop = popitem = setdefault = update = _readonly

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return type(self), (dict(self),)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"
