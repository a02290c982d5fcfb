"""Persona weight sets: the numbers a heuristic player scores options with, loaded from TOML.

``septima_sim/content/personas.toml`` holds one ``[persona.<name>]`` table per persona. A persona may ``extends``
another one and then lists only the weights it changes; ``bias`` is a sub-table of per-action biases (Wisdom added to
playing that card) and ``timing`` one of per-action lists (Wisdom added to playing that card at the 1st, 2nd, ...
turn of a season). Every value is in Wisdom units or a multiplier; unknown keys are errors.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from septima_sim.content import content_tree
from septima_sim.tomlfile import read_toml

PERSONAS_FILE = Path(__file__).resolve().parent.parent / "content" / "personas.toml"
ACTIONS: tuple[str, ...] = tuple(content_tree()["actions"])
"""Action ids a ``bias`` table may name: every card of the built-in content pack (Shapeshift included)."""


class PersonaError(ValueError):
    """A persona file or table is malformed; the message names the persona and the key."""


@dataclass(frozen=True, slots=True)
class Weights:
    """One persona's evaluation weights (defaults are neutral; personas.toml sets the real values)."""

    wisdom: float = 1.0  # 1 Wisdom now
    ingredient: float = 0.8  # an ingredient in hand (end value 0.5 plus recipes)
    crystal: float = 1.1  # a Crystal (wild ingredient)
    charm: float = 1.8  # a Good Luck Charm (2 at the end, rerolls)
    potion: float = 1.0  # a potion held to the end
    remedy: float = 3.0  # a Remedy whose disease waits on the board
    citizen: float = 1.2  # a loyal citizen sent to the crowd
    seat: float = 1.5  # a loyal citizen seated in a trial chamber
    heal: float = 2.0  # a heal, on top of its track reward and end value
    ritual_row: float = 1.2  # one row up the ritual track
    spell: float = 2.5  # a spell gained (regular spells: per use)
    suspicion: float = 0.8  # one point of suspicion
    suspicion_high: float = 0.4  # extra per point for each level above 4
    capture: float = 5.0  # being caught or overflowing (a witch or 5 Wisdom)
    match: float = 1.0  # multiplier on the expected matching bonus
    goal: float = 0.5  # multiplier on progress toward own unmet Book of Divination goals
    trial: float = 1.0  # multiplier on trial prospects (witch value, winning odds)
    season_end: float = 1.0  # multiplier on end-of-season timing (suspicion before trials, crowd before scoring)
    position: float = 0.3  # multiplier on where the leader stands for the next turns
    bias: dict[str, float] = field(default_factory=dict)  # action id -> Wisdom added to playing it
    timing: dict[str, tuple[float, ...]] = field(default_factory=dict)  # action id -> Wisdom added per turn of season

    def biased(self, action: str) -> float:
        return self.bias.get(action, 0.0)

    def timed(self, action: str, turn: int) -> float:
        """Wisdom added to playing `action` at turn `turn` (0-based) of a season (0 past the end of its list)."""
        row = self.timing.get(action, ())
        return row[turn] if turn < len(row) else 0.0


_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Weights))


def _check_keys(name: str, table: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    for key in table:
        if key not in allowed:
            hint = difflib.get_close_matches(key, allowed, n=1)
            suggestion = f" (did you mean {hint[0]!r}?)" if hint else ""
            raise PersonaError(
                f"persona {name!r}: unknown {what} {key!r}{suggestion}; valid: {', '.join(sorted(allowed))}"
            )


def _resolve(
    name: str, tables: dict[str, dict[str, Any]], parents: dict[str, Weights], seen: tuple[str, ...] = ()
) -> Weights:
    if name in seen:
        raise PersonaError(f"persona {name!r}: 'extends' cycle {' -> '.join((*seen, name))}")
    table = tables[name]
    if not isinstance(table, dict):
        raise PersonaError(f"persona {name!r}: expected a table, got {type(table).__name__}")
    _check_keys(name, table, (*_KEYS, "extends", "description"), "weight")
    parent = table.get("extends")
    if parent is None:
        base = Weights()
    elif parent in tables:
        base = _resolve(parent, tables, parents, (*seen, name))
    elif parent in parents:
        base = parents[parent]
    else:
        known = ", ".join(sorted({*tables, *parents}))
        raise PersonaError(f"persona {name!r}: extends unknown persona {parent!r}; known: {known}")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in ("extends", "description"):
            continue
        if key == "bias":
            if not isinstance(value, dict):
                raise PersonaError(f"persona {name!r}: 'bias' must be a table of action = number")
            _check_keys(name, value, ACTIONS, "bias action")
            values["bias"] = {**base.bias, **{a: _number(name, f"bias.{a}", v) for a, v in value.items()}}
        elif key == "timing":
            if not isinstance(value, dict):
                raise PersonaError(f"persona {name!r}: 'timing' must be a table of action = [number per turn]")
            _check_keys(name, value, ACTIONS, "timing action")
            values["timing"] = {**base.timing, **{a: _turns(name, a, v) for a, v in value.items()}}
        else:
            values[key] = _number(name, key, value)
    return replace(base, **values)


def _turns(name: str, action: str, value: Any) -> tuple[float, ...]:
    if not isinstance(value, list) or not value:
        raise PersonaError(f"persona {name!r}: timing.{action} must be a list of numbers (one per turn), got {value!r}")
    return tuple(_number(name, f"timing.{action}[{i}]", v) for i, v in enumerate(value))


def _number(name: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PersonaError(f"persona {name!r}: {key} must be a number, got {value!r}")
    return float(value)


def load_personas(path: Path | str | None = None) -> dict[str, Weights]:
    """All personas of a TOML file (default: the built-in personas.toml), resolved and validated.
    A user's file may extend the built-in personas."""
    file = Path(path) if path else PERSONAS_FILE
    parents = {} if file.resolve() == PERSONAS_FILE else load_personas()
    data = read_toml(file, PersonaError, "persona file")
    extra = set(data) - {"persona"}
    if extra:
        raise PersonaError(f"{file.name}: unknown top-level table(s) {sorted(extra)}; personas go in [persona.<name>]")
    tables = data.get("persona", {})
    if "random" in tables:
        raise PersonaError(f"{file.name}: 'random' is the built-in random player and cannot be a persona")
    return {name: _resolve(name, tables, parents) for name in tables}
