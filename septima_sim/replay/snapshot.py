"""Record one game for the replay viewer: every event with the PUBLIC state of the game right after it.

This is the only module of the viewer that reads engine state (the engine's ``Game`` attributes); everything else
works on the plain dicts it returns. A snapshot holds what the table shows: board, hands (public in Septima: a hand
is every card not yet played or discarded), covens, tracks, markers, the Omen in effect and its face-up successor.
It never holds a seat's Book of Divination goals, the order of any deck or bag, or the Widow's face-down markers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from septima_sim.content import Content
from septima_sim.content.model import INGREDIENTS
from septima_sim.engine import GameConfig, GameResult
from septima_sim.engine.decisions import Policy
from septima_sim.engine.game import Game
from septima_sim.engine.modules import MODULES, toggled
from septima_sim.engine.results import SOURCES
from septima_sim.engine.tables import board_for

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
    """Play one seeded game exactly as ``play_game`` does, snapshotting the public state at every event."""
    events: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    holder: list[Game] = []

    def sink(event: dict[str, Any]) -> None:
        events.append(dict(event))
        frames.append(public_state(holder[0]))

    game = Game(config, content, policies, seed, sink)
    holder.append(game)
    game.setup()  # Game.play() is setup() then play_from(0, 0): the same game, with a look after setup
    frames.insert(0, public_state(game))
    result = game.play_from(0, 0)
    frames.append(public_state(game))
    return Recording(
        board=board_geometry(content),
        names=content_names(content, game),
        events=events,
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


def public_state(g: Game) -> dict[str, Any]:
    """The public state of a game now, as plain JSON-ready data (see the module docstring for what is left out)."""
    c = g.content
    acts = g.action_ids
    witch = c.witches
    state: dict[str, Any] = {
        "step": g.s.step,
        "season": g.s.season + 1,
        "turn": g.s.turn + 1,
        "start": g.s.start_player,
        "septima": [acts[i] if i >= 0 else "" for i in (g.s.septima_left, g.s.septima_right)],
        "chamber1": witch[g.s.chamber1].name if g.s.chamber1 >= 0 else "",
        "chamber2": [witch[w].name for w in g.s.chamber2],
        "seated": [[_citizen(x) for x in g.s.seated[1]], [_citizen(x) for x in g.s.seated[2]]],
        "crowd": [g.s.crowd_neutral, g.s.crowd_angry],
        "hunters": [[space, active] for space, active in zip(g.s.hunter_space, g.s.hunter_active, strict=True)],
        "patients": sorted(
            [sp, c.diseases[pt.disease].id, pt.angry, pt.healed_by, len(pt.remedies)] for sp, pt in g.s.patients.items()
        ),
        "buildings": {c.areas[a].id: c.buildings[b].name for a, b in g.s.buildings.items()},
        "market": [
            [
                c.spells[row.scoring[-1]].name if row.scoring else "",
                c.spells[row.middle].name if row.middle >= 0 else "",
                c.spells[row.bottom].name if row.bottom >= 0 else "",
            ]
            for row in g.s.market
        ],
        "piles": {
            "witches": len(g.s.witch_deck),
            "patients": len(g.s.patient_stack),
            "crystals": g.s.crystal_supply,
        },
        "players": [_player(g, p) for p in g.s.players],
    }
    _module_fields(state, [s.replay_off for s in MODULES.values()], [m.replay(g) for m in g.modules])
    return state


def _module_fields(into: dict[str, Any], off: list[tuple[tuple[str, Any], ...]], on: list[dict[str, object]]) -> None:
    """The rules modules' fields of a frame: every registered module's at its off values, then the enabled ones'."""
    for defaults in off:
        into.update((k, list(v) if isinstance(v, list) else v) for k, v in defaults)
    for fields in on:
        into.update(fields)


def _citizen(x: int) -> int:
    """A seated citizen: the seat number, or -1 for a rules module's citizen (the Widow's black one)."""
    return x if x >= 0 else -1


def _player(g: Game, p: Any) -> dict[str, Any]:
    c = g.content
    acts = g.action_ids
    hand_ids = g.s.hand_actions
    row: dict[str, Any] = {
        "vertex": p.vertex,
        "wisdom": p.wisdom,
        "suspicion": p.suspicion,
        "hand": [acts[i] for i in hand_ids if p.hand[i]],
        "played": acts[g.s.played[p.seat]] if g.s.played[p.seat] >= 0 else "",
        "discard": [acts[i] for i in p.discard],
        "coven": [c.witches[w].name for w in p.coven],
        "res": list(p.res),
        "potions": list(p.potions),
        "spells": [[c.spells[sp.idx].name, sp.ready, sp.active] for sp in p.spells],
        "ritual": [p.ritual_row, p.ritual_col],
        "supply": p.supply,
        "crowd": p.crowd,
        "charms": p.charms,
        "tracks": list(p.tracks),
        "src": list(p.src),
    }
    _module_fields(row, [s.replay_seat_off for s in MODULES.values()], [m.replay_seat(g, p) for m in g.modules])
    return row
