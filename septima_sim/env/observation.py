"""The observation encoder: one seat's sealed view (and the decision it is asked) as a fixed-length float32 vector.

Everything comes from the seat's ``SealedView`` (``engine/view.py``), which holds only public state and the seat's
own hidden information, so nothing hidden from the seat can reach the vector. The layout is a list of named fields
(``Encoder.fields``: name, offset, size, meaning); ``docs/env.md`` lists them (``python -m septima_sim.env`` prints
the table for the content pack in use). Seats are encoded relative to the observer: block ``seat0`` is the observer,
``seat1`` the next seat in seat order, and so on; the blocks of seats a smaller table lacks are zero.

Values: flags and one-hots are 0/1; counts are divided by a cap and clipped at 1 (the caps are below). Every value
lies in [0, 1]. ``ENCODING_VERSION`` changes when this scheme changes by hand; ``Encoder.version`` adds a digest of
the layout, which also changes when the content pack or the engine's registries (decision kinds, modules) do.
"""

from __future__ import annotations

import hashlib
from operator import attrgetter

import numpy as np

from septima_sim.content.model import INGREDIENTS, Content
from septima_sim.engine.board import REGIONS, Board
from septima_sim.engine.decisions import Decision
from septima_sim.engine.modules import MODULES
from septima_sim.engine.spells import ELEMENTS
from septima_sim.engine.view import SealedView, SeatSnapshot
from septima_sim.env.actions import all_kinds, max_hunters
from septima_sim.env.fields import (
    CHARM_CAP,
    CONTEXT_BUCKETS,
    CONTEXT_INT_CAP,
    COUNT_CAP,
    MAX_SEATS,
    RESOURCE_CAP,
    STEPS,
    WISDOM_CAP,
    Field,
    Out,
    Scene,
    SeatSpec,
    SeatWriter,
    Spec,
    Vector,
    Writer,
    bucket,
    count,
    counts,
    many_hot,
    one_hot,
)

ENCODING_VERSION = 1
"""The encoding scheme (fields, order, scaling); bump it with any hand-made change of this file."""


# ---- the layout ------------------------------------------------------------------------------------------------


def table_specs(c: Content, b: Board) -> list[Spec]:
    """The fields of the table: configuration, calendar, board, trial, market, supplies, the seat's goals."""
    r = c.rules
    n_actions, n_witches, n_potions, n_diseases = len(c.actions), len(c.witches), len(c.potions), len(c.diseases)
    spaces = tuple(sorted(b.patient_spaces))
    lunar_len = len(INGREDIENTS) + r.lunar_extra_icons
    potion_cap = max(1, r.potion_supply)
    hunters = max_hunters(c)
    modules = tuple(MODULES)

    def players(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.n - 1, MAX_SEATS)

    def full(out: Out, off: int, sc: Scene) -> None:
        out[off] = float(sc.view.full)

    def modules_on(out: Out, off: int, sc: Scene) -> None:
        on = sc.view.modules
        for i, name in enumerate(modules):
            if name in on:
                out[off + i] = 1.0

    def season(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.view.season, len(r.seasons))

    def turn(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.view.turn, r.turns_per_season)

    def step(out: Out, off: int, sc: Scene) -> None:
        st = sc.view.step
        out[off + (STEPS.index(st) if st in STEPS else len(STEPS))] = 1.0

    def septima_right(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.view.septima_markers[0], n_actions)

    def septima_left(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.view.septima_markers[1], n_actions)

    def lunar(out: Out, off: int, sc: Scene) -> None:
        for i, icon in enumerate(sc.view.lunar[:lunar_len]):
            one_hot(out, off + i * len(INGREDIENTS), icon, len(INGREDIENTS))

    per_patient = 2 + n_diseases + MAX_SEATS + n_potions

    space_index = {space: i for i, space in enumerate(spaces)}

    def patients(out: Out, off: int, sc: Scene) -> None:
        for pt in sc.view.patients:
            i = space_index.get(pt.space)
            if i is None:
                continue
            o = off + i * per_patient
            out[o] = 1.0
            one_hot(out, o + 1, pt.disease, n_diseases)
            if pt.angry:
                out[o + 1 + n_diseases] = 1.0
            if pt.healed_by:
                for s, k in sc.relative.items():
                    if pt.healed_by >> s & 1:
                        out[o + 2 + n_diseases + k] = 1.0
            if pt.remedies:
                remedies = [0] * n_potions
                for potion in pt.remedies:
                    remedies[potion] += 1
                counts(out, o + 2 + n_diseases + MAX_SEATS, remedies, potion_cap)

    per_hunter = 2 + REGIONS

    def hunters_field(out: Out, off: int, sc: Scene) -> None:
        for h, (space, standing) in enumerate(sc.view.hunters[:hunters]):
            o = off + h * per_hunter
            out[o] = 1.0
            one_hot(out, o + 1, space - 1, REGIONS)
            out[o + 1 + REGIONS] = float(standing)

    def chamber1(out: Out, off: int, sc: Scene) -> None:
        one_hot(out, off, sc.view.trial[0], n_witches)

    def chamber2(out: Out, off: int, sc: Scene) -> None:
        stack = sc.view.trial[1]
        many_hot(out, off, stack, n_witches)
        if stack:
            one_hot(out, off + n_witches, stack[-1], n_witches)

    def seated(out: Out, off: int, sc: Scene) -> None:
        for chamber, tokens in enumerate(sc.view.trial[2]):
            per = [0] * (MAX_SEATS + 1)
            for token in tokens:
                per[sc.relative.get(token, MAX_SEATS)] += 1  # not a seat's citizen: the last slot (the Widow's)
            counts(out, off + chamber * (MAX_SEATS + 1), per, r.loyal_citizens)

    def crowd(out: Out, off: int, sc: Scene) -> None:
        neutral, angry, _ = sc.view.crowd
        count(out, off, neutral, COUNT_CAP)
        count(out, off + 1, angry, COUNT_CAP)

    n_spells = len(c.spells)

    def market(out: Out, off: int, sc: Scene) -> None:
        for e, row in enumerate(sc.view.spell_market[: len(ELEMENTS)]):
            for slot, spell in enumerate(row):
                one_hot(out, off + (e * 3 + slot) * n_spells, spell, n_spells)

    n_areas, n_buildings = len(c.areas), len(c.buildings)

    def buildings(out: Out, off: int, sc: Scene) -> None:
        for area, building in sc.view.buildings.items():
            if 0 <= area < n_areas:
                one_hot(out, off + area * n_buildings, building, n_buildings)

    def witches_out(out: Out, off: int, sc: Scene) -> None:
        many_hot(out, off, sc.view.witches_out, n_witches)

    def potion_supply(out: Out, off: int, sc: Scene) -> None:
        counts(out, off, sc.view.potion_supply, potion_cap)

    def my_goals(out: Out, off: int, sc: Scene) -> None:
        many_hot(out, off, sc.view.my_goals, len(c.goals))

    return [
        Spec("players", MAX_SEATS, "player count, one-hot (1..4)", players),
        Spec("full", 1, "1 = Full game, 0 = Basic", full),
        Spec("modules", len(modules), f"per registered rules module ({', '.join(modules)}): 1 = on", modules_on),
        Spec("season", len(r.seasons), f"season, one-hot ({', '.join(r.seasons)})", season),
        Spec("turn", r.turns_per_season, "moon phase of the season, one-hot", turn),
        Spec("step", len(STEPS) + 1, f"phase step, one-hot ({', '.join(STEPS)}, other)", step),
        Spec("septima_right", n_actions, "the Septima's right marker (this turn's action), one-hot", septima_right),
        Spec("septima_left", n_actions, "the Septima's left marker (next turn's action), one-hot", septima_left),
        Spec("lunar", lunar_len * len(INGREDIENTS), "lunar track: per position its ingredient icon, one-hot", lunar),
        Spec(
            "patients",
            len(spaces) * per_patient,
            f"per patient space ({', '.join(spaces)}): occupied, disease one-hot, angry, healed by (per seat block), "
            f"remedies on it per potion (/{potion_cap})",
            patients,
        ),
        Spec(
            "hunters",
            hunters * per_hunter,
            f"per hunter (up to {hunters}): present, hunter space 1..{REGIONS} one-hot, standing",
            hunters_field,
        ),
        Spec("chamber1", n_witches, "witch on trial in the first chamber, one-hot", chamber1),
        Spec(
            "chamber2",
            2 * n_witches,
            "witches in the second chamber (many-hot), then its top witch (one-hot)",
            chamber2,
        ),
        Spec(
            "seated",
            2 * (MAX_SEATS + 1),
            f"per chamber: citizens seated per seat block, then others (the Widow's) (/{r.loyal_citizens})",
            seated,
        ),
        Spec("crowd", 2, f"neutral and angry citizens in the crowd (/{COUNT_CAP})", crowd),
        Spec(
            "spell_market",
            len(ELEMENTS) * 3 * n_spells,
            f"per element ({', '.join(ELEMENTS)}) and slot (top scoring, middle, bottom): the face-up spell, one-hot",
            market,
        ),
        Spec("buildings", n_areas * n_buildings, "per area: the building on it, one-hot", buildings),
        Spec("witches_out", n_witches, "witches exiled or discarded to the box, many-hot", witches_out),
        Spec("potion_supply", n_potions, f"potions left in the supply per potion (/{r.potion_supply})", potion_supply),
        Spec("my_goals", len(c.goals), "the observer's own Book of Divination goals, many-hot", my_goals),
    ]


def decision_specs(c: Content, b: Board) -> list[Spec]:
    """The decision the observer is asked (zero when it is not asked)."""
    kinds = all_kinds()

    def kind(out: Out, off: int, sc: Scene) -> None:
        d = sc.decision
        if d is not None and d.kind in kinds:
            out[off + kinds.index(d.kind)] = 1.0

    def context(out: Out, off: int, sc: Scene) -> None:
        d = sc.decision
        if d is None or d.context is None:
            return
        ctx = d.context
        if isinstance(ctx, int):
            out[off] = 1.0
            count(out, off + 1, ctx, CONTEXT_INT_CAP)
        for part in str(ctx).split(":"):
            out[off + 2 + bucket(part)] = 1.0

    return [
        Spec("decision_kind", len(kinds), "the kind asked, one-hot over every decision kind (engine Kind)", kind),
        Spec(
            "decision_context",
            2 + CONTEXT_BUCKETS,
            f"context is a number, that number (/{CONTEXT_INT_CAP}), then its ':'-separated parts hashed into "
            f"{CONTEXT_BUCKETS} buckets",
            context,
        ),
    ]


STATS: tuple[str, ...] = (
    "overflows",
    "captures",
    "hunter_rolls",
    "trials_won",
    "witches_lost",
    "witches_recruited",
    "spells_gained",
    "ingredients_gained",
    "matches_players",
    "matches_septima",
)
"""The statistics of a seat block's ``stats`` field (``SeatSnapshot`` attributes; goals compare some of them)."""


def seat_specs(c: Content, b: Board) -> list[SeatSpec]:
    """The fields of one seat block (public state of a seat; the order among seats is relative to the observer)."""
    r = c.rules
    n_actions, n_witches, n_potions, n_diseases = len(c.actions), len(c.witches), len(c.potions), len(c.diseases)
    n_spells, n_vertices = len(c.spells), b.n_vertices
    levels = r.suspicion_max - r.suspicion_min + 1
    rows, cols = len(c.ritual.rows), len(c.ritual.columns)
    ribbon_rows = tuple(sorted(c.ritual.ribbons))
    track_cap = max((len(d.rewards) for d in c.diseases), default=1) or 1
    potion_cap = max(1, r.potion_supply)

    def present(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        out[off] = 1.0

    def seat(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, p.seat, MAX_SEATS)

    def turn_position(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        order = sc.view.order
        if p.seat in order:
            one_hot(out, off, order.index(p.seat), MAX_SEATS)

    def vertex(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, p.vertex, n_vertices)

    def suspicion(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, p.suspicion - r.suspicion_min, levels)

    def flags(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        out[off] = float(p.raised)
        out[off + 1] = float(p.no_raise)

    def wisdom(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        count(out, off, p.wisdom, WISDOM_CAP)

    def resources(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.res, RESOURCE_CAP)

    def charms(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        count(out, off, p.charms, CHARM_CAP)

    def potions(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.potions, potion_cap)

    def hand(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        for i, held in enumerate(p.hand[:n_actions]):
            if held:
                out[off + i] = 1.0

    def discard(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        many_hot(out, off, p.discard, n_actions)

    def revealed(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, sc.view.played[p.seat], n_actions)

    def coven(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        many_hot(out, off, p.coven, n_witches)

    def mirror(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, p.mirror, n_witches)

    def citizens(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        count(out, off, p.supply, r.loyal_citizens)
        count(out, off + 1, p.crowd, r.loyal_citizens)

    def tracks(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.tracks, track_cap)

    def healed(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.healed, COUNT_CAP)

    def spells(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        for sp in p.spells:
            if 0 <= sp.idx < n_spells:
                out[off + sp.idx] = 1.0
                out[off + n_spells + sp.idx] = float(sp.ready)
                out[off + 2 * n_spells + sp.idx] = float(sp.active)
                out[off + 3 * n_spells + sp.idx] = float(sp.used_turn >= 0)

    def ritual(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        one_hot(out, off, p.ritual_row, rows + 1)
        one_hot(out, off + rows + 1, p.ritual_col, cols)
        for i, row in enumerate(ribbon_rows):
            if p.ribbons >> row & 1:
                out[off + rows + 1 + cols + i] = 1.0

    def brewed(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.brewed, COUNT_CAP)

    def played(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, p.played, COUNT_CAP)

    read_stats = attrgetter(*STATS)

    def stats(out: Out, off: int, sc: Scene, p: SeatSnapshot) -> None:
        counts(out, off, read_stats(p), COUNT_CAP)

    return [
        SeatSpec("present", 1, "1 = the table has this seat", present),
        SeatSpec("seat", MAX_SEATS, "the seat's number (its colour), one-hot", seat),
        SeatSpec("turn_position", MAX_SEATS, "its place in this season's turn order, one-hot", turn_position),
        SeatSpec("vertex", n_vertices, "its leader's vertex, one-hot", vertex),
        SeatSpec("suspicion", levels, f"suspicion {r.suspicion_min}..{r.suspicion_max}, one-hot", suspicion),
        SeatSpec("flags", 2, "suspicion raised this turn; suspicion may not rise this turn (animal form)", flags),
        SeatSpec("wisdom", 1, f"Wisdom (/{WISDOM_CAP})", wisdom),
        SeatSpec("resources", len(INGREDIENTS) + 1, f"{', '.join(INGREDIENTS)}, Crystals (/{RESOURCE_CAP})", resources),
        SeatSpec("charms", 1, f"Good Luck Charms (/{CHARM_CAP})", charms),
        SeatSpec("potions", n_potions, f"potions held per potion (/{potion_cap})", potions),
        SeatSpec("hand", n_actions, "cards in hand, per action", hand),
        SeatSpec("discard", n_actions, "cards in the discard pile, per action", discard),
        SeatSpec("revealed", n_actions, "the card revealed this turn (none before the reveal), one-hot", revealed),
        SeatSpec("coven", n_witches, "witches in its coven, many-hot", coven),
        SeatSpec("mirror", n_witches, "the witch the Magic Mirror borrows this season, one-hot", mirror),
        SeatSpec("citizens", 2, f"loyal citizens in supply and in the crowd (/{r.loyal_citizens})", citizens),
        SeatSpec("tracks", n_diseases, f"disease track steps per disease (/{track_cap})", tracks),
        SeatSpec("healed", n_diseases, f"patients healed per disease (/{COUNT_CAP})", healed),
        SeatSpec(
            "spells",
            4 * n_spells,
            "per spell: held, then ready, then ongoing effect active, then used this turn (four many-hots)",
            spells,
        ),
        SeatSpec(
            "ritual",
            rows + 1 + cols + len(ribbon_rows),
            f"ritual row 0..{rows} one-hot, column one-hot, then a flag per ribbon row entered",
            ritual,
        ),
        SeatSpec("brewed", n_potions, f"potions brewed so far per potion (/{COUNT_CAP})", brewed),
        SeatSpec("played", n_actions, f"cards played so far per action (/{COUNT_CAP})", played),
        SeatSpec("stats", len(STATS), f"{', '.join(STATS)} (/{COUNT_CAP})", stats),
    ]


class Encoder:
    """The layout for one content pack and the function that fills it."""

    def __init__(self, content: Content, board: Board) -> None:
        self.fields: list[Field] = []
        self._writers: list[tuple[int, Writer]] = []
        offset = 0
        module_specs: list[Spec] = [s for m in MODULES.values() if m.observation for s in m.observation(content, board)]
        for spec in (*table_specs(content, board), *module_specs, *decision_specs(content, board)):
            self.fields.append(Field(spec.name, offset, spec.size, spec.doc))
            self._writers.append((offset, spec.write))
            offset += spec.size
        self._seat_specs = seat_specs(content, board)
        self.seat_size = sum(s.size for s in self._seat_specs)
        self._seat_offsets: list[tuple[int, SeatWriter]] = []
        inner = 0
        for s in self._seat_specs:
            self._seat_offsets.append((inner, s.write))
            inner += s.size
        self._seat_base = offset
        for k in range(MAX_SEATS):
            for s, (rel, _) in zip(self._seat_specs, self._seat_offsets, strict=True):
                self.fields.append(Field(f"seat{k}.{s.name}", offset + k * self.seat_size + rel, s.size, s.doc))
        self.size = offset + MAX_SEATS * self.seat_size
        digest = hashlib.sha256(repr([(f.name, f.size) for f in self.fields]).encode()).hexdigest()[:8]
        self.version = f"{ENCODING_VERSION}-{digest}"

    def encode(self, view: SealedView, decision: Decision | None) -> Vector:
        """The vector of `view`'s seat (with `decision` when it is the one asked)."""
        out: Out = {}
        sc = Scene(view, decision)
        for off, write in self._writers:
            write(out, off, sc)
        players = view.players
        for s in range(sc.n):
            base = self._seat_base + sc.relative[s] * self.seat_size
            p = players[s]
            for rel, seat_write in self._seat_offsets:
                seat_write(out, base + rel, sc, p)
        vector = np.zeros(self.size, np.float32)
        vector[np.fromiter(out.keys(), np.intp, len(out))] = np.fromiter(out.values(), np.float32, len(out))
        return vector

    def field(self, name: str) -> Field:
        """A field by name (``seat0.wisdom``...)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def table(self) -> str:
        """The layout as a Markdown table (docs/env.md): table fields, module fields, decision, one seat block."""
        lines = ["| field | offset | size | meaning |", "| --- | ---: | ---: | --- |"]
        for f in self.fields:
            block, dot, name = f.name.partition(".")
            if not dot:
                lines.append(f"| `{f.name}` | {f.offset} | {f.size} | {f.doc} |")
            elif block == "seat0":
                lines.append(f"| `seatK.{name}` | {f.offset} + K x {self.seat_size} | {f.size} | {f.doc} |")
        return "\n".join(lines)
