"""The observation fields of the built-in rules modules, from each module's public view (``Module.public``).

``MODULE_FIELDS`` maps a module's registered name to the fields it adds; every vector carries the fields of every
module listed here, zero while the module is off. A module without an entry (a plugin) shows only as its flag in
the ``modules`` field; its author may add an entry (name -> function of the content and board returning ``Spec``s).
"""

from __future__ import annotations

from collections.abc import Callable

from septima_sim.content.model import Content
from septima_sim.engine.board import Board
from septima_sim.engine.modules.omens import OmensView
from septima_sim.engine.modules.shapeshifting import ShapeshiftingView
from septima_sim.engine.modules.widow import WidowView
from septima_sim.env.fields import COUNT_CAP, MAX_SEATS, WISDOM_CAP, Out, Scene, Spec, count, counts, many_hot, one_hot


def shapeshifting_fields(c: Content, b: Board) -> list[Spec]:
    n_animals = len(c.animals)

    def forms(out: Out, off: int, sc: Scene) -> None:
        v = sc.view.modules.get("shapeshifting")
        if not isinstance(v, ShapeshiftingView):
            return
        for seat, k in sc.relative.items():
            o = off + k * 2 * n_animals
            if seat < len(v.forms):
                one_hot(out, o, v.forms[seat], n_animals)
                many_hot(out, o + n_animals, v.animals[seat], n_animals)

    return [
        Spec(
            "shapeshifting",
            MAX_SEATS * 2 * n_animals,
            "per seat block: its animal form (none = human form), one-hot, then its two animal tiles, many-hot",
            forms,
        )
    ]


def omens_fields(c: Content, b: Board) -> list[Spec]:
    n_omens = len(c.omens)

    def omen(out: Out, off: int, sc: Scene) -> None:
        v = sc.view.modules.get("omens")
        if not isinstance(v, OmensView):
            return
        one_hot(out, off, v.upcoming, n_omens)
        one_hot(out, off + n_omens, v.card, n_omens)
        out[off + 2 * n_omens] = float(v.side == "bright")
        out[off + 2 * n_omens + 1] = float(v.side == "dark")

    return [
        Spec(
            "omens",
            2 * n_omens + 2,
            "the face-up next Omen, one-hot; the Omen in force, one-hot; its half in force (bright, dark)",
            omen,
        )
    ]


def solo_fields(c: Content, b: Board) -> list[Spec]:
    r = c.rules
    n_vertices, n_actions = b.n_vertices, len(c.actions)
    levels = r.suspicion_max - r.suspicion_min + 1
    rows = len(c.ritual.rows)
    spiders = max(1, c.widow.spiders)

    def widow(out: Out, off: int, sc: Scene) -> None:
        v = sc.view.modules.get("solo")
        if not isinstance(v, WidowView):
            return
        one_hot(out, off, v.vertex, n_vertices)
        on_vertex = [0] * n_vertices
        for vertex in v.spiders:
            on_vertex[vertex] += 1
        counts(out, off + n_vertices, on_vertex, spiders)
        o = off + 2 * n_vertices
        one_hot(out, o, v.suspicion - r.suspicion_min, levels)
        count(out, o + levels, v.wisdom, WISDOM_CAP)
        one_hot(out, o + levels + 1, v.card, n_actions)
        one_hot(out, o + levels + 1 + n_actions, v.last, n_actions)
        count(out, o + levels + 1 + 2 * n_actions, v.crowd, COUNT_CAP)
        one_hot(out, o + levels + 2 + 2 * n_actions, v.ritual_row, rows + 1)

    return [
        Spec(
            "widow",
            2 * n_vertices + levels + 2 * n_actions + 2 + rows + 1,
            f"solo, the Black Widow: her leader's vertex, one-hot; her Spiders per vertex (/{spiders}); her suspicion, "
            f"one-hot; her Wisdom (/{WISDOM_CAP}); her marker this turn and last turn, one-hot; her citizens in the "
            f"crowd (/{COUNT_CAP}); her ritual row, one-hot",
            widow,
        )
    ]


MODULE_FIELDS: dict[str, Callable[[Content, Board], list[Spec]]] = {
    "shapeshifting": shapeshifting_fields,
    "omens": omens_fields,
    "solo": solo_fields,
}
"""Observation fields per rules module, in registry (``MODULES``) order in the vector."""
