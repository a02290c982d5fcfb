"""Record one game for the replay viewer: every event with the PUBLIC state of the game right after it.

The states are the game's events folded from the start (``septima_sim.events``: what a user of the event log
rebuilds), turned into the page's frames here; everything else in the viewer works on the plain dicts this returns.
A frame holds what the table shows: board, hands (public in Septima: a hand is every card not yet played or
discarded), covens, tracks, markers, the Omen in effect and its face-up successor. It never holds a seat's Book of
Divination goals, the order of any deck or bag, or the Widow's face-down markers (``engine.public_fields`` leaves
them out).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from septima_sim.content import Content
from septima_sim.content.model import INGREDIENTS
from septima_sim.engine import GameConfig, GameResult
from septima_sim.engine.config import COLOURS
from septima_sim.engine.decisions import Policy
from septima_sim.engine.game import Game
from septima_sim.engine.modules import MODULES, toggled
from septima_sim.engine.public_fields import flat, public_fields
from septima_sim.engine.results import SOURCES
from septima_sim.engine.tables import board_for
from septima_sim.events import fold, seat_fields, states

_SQRT3 = math.sqrt(3.0)
RESOURCES: tuple[str, ...] = (*INGREDIENTS, "crystal")


@dataclass(slots=True)
class Recording:
    """One recorded game: ``frames[0]`` is the state after setup, ``frames[i]`` (i >= 1) the state after
    ``events[i - 1]``, and the last frame the state after final scoring (``len(frames) == len(events) + 2``)."""

    board: dict[str, Any]
    names: dict[str, Any]
    events: list[dict[str, Any]]
    frames: list[dict[str, Any]]
    result: GameResult
    config: dict[str, Any] = field(default_factory=dict)


def record_game(config: GameConfig, content: Content, policies: Sequence[Policy], seed: int) -> Recording:
    """Play one seeded game exactly as ``play_game`` does; its frames are the events folded from the start
    (``septima_sim.events``), so the page shows what the event log holds."""
    events: list[dict[str, Any]] = []
    marks: list[int] = []
    game = Game(config, content, policies, seed, events.append)
    game.setup()  # Game.play() is setup() then play_from(0, 0): the same game, with a look after setup
    marks.append(len(events))
    result = game.play_from(0, 0)
    names = _Names(content)
    frames = [frame(dict(state), e, names) for state, e in zip(states(events), events, strict=True)]
    frames.insert(0, frames[marks[0] - 1] if marks[0] else frame({}, {}, names))
    frames.append(frame(fold(events), events[-1], names))
    return Recording(
        board=board_geometry(content),
        names=content_names(content, game),
        events=[dict(e) for e in events],
        frames=frames,
        result=result,
        config={
            "players": config.players,
            "mode": config.mode,
            **{spec.name: spec.name in config.modules for spec in toggled()},
            "seed": seed,
            "sources": [s for s in SOURCES],
        },
    )


def board_geometry(content: Content) -> dict[str, Any]:
    """The map as drawing data: each area's hexagon (vertex ids), features and patient spaces, each vertex's
    position (the engine's axial layout, unit hex size) and each hunter space's vertex."""
    board = board_for(content)
    xy: dict[int, tuple[float, float]] = {}
    areas = []
    for ai, a in enumerate(content.areas):
        cx, cy = _SQRT3 * (a.q + a.r / 2.0), 1.5 * a.r
        for k, v in enumerate(board.area_vertices[ai]):
            ang = math.radians(30 + 60 * k)
            xy[v] = (round(cx + math.cos(ang), 3), round(cy + math.sin(ang), 3))
        areas.append(
            {
                "id": a.id,
                "x": round(cx, 3),
                "y": round(cy, 3),
                "vertices": list(board.area_vertices[ai]),
                "ingredient": INGREDIENTS[a.ingredient] if a.ingredient >= 0 else "",
                "river": a.river,
                "town": a.town,
                "hospital": a.hospital,
                "outcrop": a.outcrop,
                "shrine": a.shrine,
                "patient_spaces": list(a.patient_spaces),
            }
        )
    return {
        "areas": areas,
        "vertices": [list(xy[v]) for v in range(board.n_vertices)],
        "hunter_vertex": list(board.hunter_vertex),
        "region_of": list(board.region_of),
    }


def content_names(content: Content, game: Game) -> dict[str, Any]:
    """Display names the page needs beside the ids a snapshot carries."""
    return {
        "actions": {a.id: a.name for a in content.actions},
        "seasons": list(content.rules.seasons),
        "turns_per_season": content.rules.turns_per_season,
        "suspicion": [content.rules.suspicion_min, content.rules.suspicion_max],
        "resources": list(RESOURCES),
        "diseases": [d.id for d in content.diseases],
        "potions": [p.name for p in content.potions],
        "ritual_rows": len(content.ritual.rows),
        "colours": [p.colour for p in game.s.players],
        "personas": [pol.name for pol in game.policies],
    }


class _Names:
    """Display names by content id, for the ids the folded state holds."""

    def __init__(self, c: Content) -> None:
        self.content = c
        self.witch = {w.id: w.name for w in c.witches}
        self.spell = {s.id: s.name for s in c.spells}
        self.building = {b.id: b.name for b in c.buildings}
        self.animal = {a.id: a.name for a in c.animals}


def public_state(g: Game) -> dict[str, Any]:
    """The public state of a game now as the page shows it (see the module docstring for what is left out)."""
    now = {"season": g.s.season + 1, "turn": g.s.turn + 1, "step": g.s.step}
    return frame(flat(public_fields(g)), now, _Names(g.content))


def frame(state: Mapping[str, Any], where: Mapping[str, Any], names: _Names) -> dict[str, Any]:
    """A page frame from a folded state (``events.fold``) and the event it follows (season, turn, step)."""
    table = seat_fields(state, "table")
    witch, spell = names.witch, names.spell
    seats = sorted(int(k.split(".", 1)[0]) for k in state if k.endswith(".wisdom") and k[0].isdigit())
    return {
        "step": where.get("step", "setup"),
        "season": where.get("season", 1),
        "turn": where.get("turn", 1),
        "start": table.get("start_player", 0),
        "septima": list(table.get("septima", ["", ""])),
        "chamber1": witch.get(table.get("chamber1", ""), ""),
        "chamber2": [witch[w] for w in table.get("chamber2", [])],
        "seated": [[_citizen(x) for x in table.get(k, [])] for k in ("seated1", "seated2")],
        "crowd": [table.get("crowd_neutral", 0), table.get("crowd_angry", 0)],
        "hunters": [list(h) for h in table.get("hunters", [])],
        "patients": [[sp, dis, angry, healed, len(rem)] for sp, dis, angry, healed, rem in table.get("patients", [])],
        "buildings": {area: names.building[b] for area, b in table.get("buildings", {}).items()},
        "market": [[spell.get(x, "") for x in row] for row in table.get("market", [])],
        "piles": {
            "witches": table.get("witch_deck", 0),
            "patients": table.get("patient_stack", 0),
            "crystals": table.get("crystal_supply", 0),
        },
        "players": [_player(seat_fields(state, seat), names) for seat in seats],
        **_module_parts(state, names.content),
    }


def _module_parts(state: Mapping[str, Any], content: Content) -> dict[str, Any]:
    """Each registered module's entry of the frame (``ModuleSpec.replay``), null in a game without it."""
    out: dict[str, Any] = {}
    for spec in MODULES.values():
        if spec.replay is not None:
            fields = seat_fields(state, spec.replay.owner)
            out[spec.replay.key] = spec.replay.build(fields, content) if fields else None
    return out


def _citizen(x: int) -> int:
    """A seated citizen: the seat number, or -1 for a citizen of no seat (the Black Widow's)."""
    return x if 0 <= x < len(COLOURS) else -1


def _player(p: dict[str, Any], names: _Names) -> dict[str, Any]:
    witch, animal = names.witch, names.animal
    return {
        "vertex": p["vertex"],
        "form": animal.get(p.get("form", ""), ""),
        "wisdom": p["wisdom"],
        "suspicion": p["suspicion"],
        "hand": list(p["hand"]),
        "played": p["played"],
        "discard": list(p["discard"]),
        "coven": [witch[w] for w in p["coven"]],
        "covered": witch.get(p.get("covered", ""), ""),
        "animals": [animal[a] for a in p.get("animals", [])],
        "res": list(p["res"]),
        "potions": list(p["potions"]),
        "spells": [[names.spell[s], ready, active] for s, ready, active in p["spells"]],
        "ritual": [p["ritual_row"], p["ritual_col"]],
        "supply": p["supply"],
        "crowd": p["crowd"],
        "charms": p["charms"],
        "tracks": list(p["tracks"]),
        "src": list(p["src"]),
    }
