"""The Shapeshifting module (expansion rulebook "Shapeshifting", "Animal Tiles"; RULINGS S1-S8).

The Shapeshift card replaces Chant and carries its icon; a player who starts a moon phase in animal form plays only
the tile's four actions, never raises suspicion, and uses the animal's ability with the tile's leftmost action. The
abilities are ``SeatEffect`` objects keyed by their content id (``ABILITIES``), put in force on ``Player.fx``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from septima_sim.engine import crowd, payment, spells
from septima_sim.engine.actions import register_action
from septima_sim.engine.decisions import Kind
from septima_sim.engine.modules.base import Module
from septima_sim.engine.modules.spec import Column, Component, ModuleSpec
from septima_sim.engine.rule_effects import NO_SEAT_EFFECT, SeatEffect

if TYPE_CHECKING:
    import random

    from septima_sim.content.model import Animal, Content
    from septima_sim.engine.board import Board
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player
    from septima_sim.env.fields import Out, Scene, Spec


class AnimalSeat:
    """One seat's Shapeshifting state: its two animal tiles, its form, the witch the tile covers, statistics."""

    __slots__ = ("animal_turns", "animals", "animals_used", "covered", "form", "in_animal", "shapeshifts")

    def __init__(self) -> None:
        self.animals: list[int] = []  # the two animal tiles of the seat's colour
        self.form = -1  # animal index, -1 = human form
        self.covered = -1  # witch covered by the animal tile
        self.in_animal = False  # started this moon phase in animal form (S3)
        self.shapeshifts = 0
        self.animal_turns = 0
        self.animals_used: list[int] = []

    def copy(self) -> AnimalSeat:
        twin = AnimalSeat()
        twin.animals, twin.animals_used = list(self.animals), list(self.animals_used)
        twin.form, twin.covered, twin.in_animal = self.form, self.covered, self.in_animal
        twin.shapeshifts, twin.animal_turns = self.shapeshifts, self.animal_turns
        return twin


class ShapeshiftingView(NamedTuple):
    """What every player sees of Shapeshifting: per seat, its form (-1 = human) and its two animal tiles."""

    forms: tuple[int, ...]
    animals: tuple[tuple[int, ...], ...]


class ShapeshiftingModule(Module):
    """S1-S8 at the base flow's hook points."""

    name: ClassVar[str] = "shapeshifting"
    keeps_discards: ClassVar[bool] = True  # S6: step 4 of the end of season is skipped for everyone

    def __init__(self) -> None:
        self.shapeshift = -1  # the Shapeshift card's action index
        self.tiles: tuple[tuple[int, ...], ...] = ()  # per animal: its four action indices, leftmost first
        self.seats: list[AnimalSeat] = []

    def copy(self) -> ShapeshiftingModule:
        twin = ShapeshiftingModule()
        twin.shapeshift, twin.tiles = self.shapeshift, self.tiles
        twin.seats = [a.copy() for a in self.seats]
        return twin

    def init(self, g: Game) -> None:
        """S1: Shapeshift replaces Chant in every hand."""
        chant = g.action_index["chant"]
        self.shapeshift = g.action_index["shapeshift"]
        g.s.hand_actions = (*(i for i in g.mode_actions if i != chant), self.shapeshift)
        g.s.returning_card = self.shapeshift  # S2: back to hand at the end of the turn
        self.tiles = _tiles(g)
        self.seats = [AnimalSeat() for _ in range(g.n)]

    def setup(self, g: Game) -> None:
        """S1: every player takes the two animal tiles of their colour (the Shapeshift card is in the hand already)."""
        animals = g.content.animals
        for p in g.s.players:
            self.seats[p.seat].animals = [i for i, a in enumerate(animals) if a.colour == p.colour]

    def start_phase(self, g: Game) -> None:
        """S3: the animal rules apply to a player who *starts* the moon phase in animal form (S4: then nothing
        raises its suspicion)."""
        for p in g.s.players:
            a = self.seats[p.seat]
            a.in_animal = p.no_raise = a.form >= 0
            if a.in_animal:
                a.animal_turns += 1

    def card_options(self, g: Game, p: Player, options: list[int]) -> list[int]:
        """S3: in animal form only the tile's four actions may be selected (from the hand)."""
        a = self.seats[p.seat]
        if not a.in_animal:
            return options
        tile = self.tiles[a.form]
        return [i for i in options if i in tile]

    def reveal(self, g: Game) -> None:
        """S3: the animal's ability is in force this turn when the tile's leftmost action is played (not while the
        rule effect in force switches abilities off: Confused Memories)."""
        for p in g.s.players:
            p.fx = NO_SEAT_EFFECT
            a = self.seats[p.seat]
            if a.in_animal and self.tiles[a.form][0] == g.s.played[p.seat] and not g.s.fx.abilities_off:
                p.fx = ABILITIES[g.content.animals[a.form].ability]

    def suspicion_change(self, g: Game, p: Player, matched: bool, change: int) -> int:
        """S4: in animal form suspicion never rises: unmatched -1, matched no change."""
        if not self.seats[p.seat].in_animal:
            return change
        return 0 if matched else -1

    def end_turn(self, g: Game) -> None:
        """A player in animal form may turn back to human (leader back, tile removed); S5: one with none of the
        tile's four actions in hand must."""
        for s in g.s.order:
            p = g.s.players[s]
            a = self.seats[s]
            if a.form < 0:
                continue
            tile = self.tiles[a.form]
            forced = not any(p.hand[i] for i in tile)
            if forced or g.ask(Kind.TURN_BACK, s, (0, 1)) == 1:
                a.form = -1
                uncover(g, p)
                if g.sink is not None:
                    g.emit("turn_back", s, form="human", detail="forced" if forced else "chosen")

    def player_fields(self, g: Game, p: Player, row: dict[str, object]) -> None:
        animals = g.content.animals
        a = self.seats[p.seat]
        row["animals"] = [animals[i].id for i in a.animals]
        row["animals_used"] = [animals[i].id for i in a.animals_used]
        row["shapeshifts"] = a.shapeshifts
        row["turns_in_animal_form"] = a.animal_turns
        row["form_end"] = animals[a.form].id if a.form >= 0 else "human"

    def event_fields(self, g: Game, record: dict[str, object]) -> None:
        """The form an action was played in (it cannot change mid-turn)."""
        seat = record["seat"]
        if record["kind"] == "action" and isinstance(seat, int) and seat >= 0:
            a = self.seats[seat]
            if a.in_animal:
                record["form"] = g.content.animals[a.form].id

    def public_fields(self, g: Game, out: dict[str, dict[str, object]]) -> None:
        """Per seat: its form (an animal id, "" in human form), the witch its tile covers and its animal tiles."""
        animals, witches = g.content.animals, g.content.witches
        for seat, a in enumerate(self.seats):
            mine = out[str(seat)]
            mine["form"] = animals[a.form].id if a.form >= 0 else ""
            mine["covered"] = witches[a.covered].id if a.covered >= 0 else ""
            mine["animals"] = [animals[x].id for x in a.animals]

    def determinize(self, g: Game, seat: int, rng: random.Random) -> None:
        """Nothing of Shapeshifting is hidden."""

    def public(self, g: Game, seat: int) -> ShapeshiftingView:
        return ShapeshiftingView(tuple(a.form for a in self.seats), tuple(tuple(a.animals) for a in self.seats))


_TILES: dict[str, tuple[tuple[int, ...], ...]] = {}


def _tiles(g: Game) -> tuple[tuple[int, ...], ...]:
    """Per animal, its four action indices, leftmost first (cached by content hash)."""
    tiles = _TILES.get(g.content.hash)
    if tiles is None:
        tiles = _TILES[g.content.hash] = tuple(tuple(g.action_index[x] for x in a.actions) for a in g.content.animals)
    return tiles


def animal_seat(g: Game, p: Player) -> AnimalSeat:
    """A seat's Shapeshifting state."""
    m = g.module_by_name["shapeshifting"]
    assert isinstance(m, ShapeshiftingModule)
    return m.seats[p.seat]


def _animal(g: Game, p: Player) -> Animal:
    """The animal tile of a seat in animal form."""
    return g.content.animals[animal_seat(g, p).form]


def _acting(g: Game, p: Player) -> tuple[Animal, str]:
    """The animal of a seat whose ability acts now, made the cause of its changes; returns it and the previous
    cause (the caller puts it back)."""
    animal = _animal(g, p)
    return animal, g.caused(f"animal:{animal.id}")


def cover(g: Game, p: Player, witch: int) -> None:
    """S2: the animal tile covers a witch of the coven: its ability is off while covered."""
    animal_seat(g, p).covered = witch
    g.s.witches_off[p.seat].append(witch)


def uncover(g: Game, p: Player) -> None:
    """Turning back to human removes the tile: the covered witch's ability is on again."""
    a = animal_seat(g, p)
    if a.covered >= 0:
        g.s.witches_off[p.seat].remove(a.covered)
    a.covered = -1


def shapeshift(g: Game, p: Player, matched: bool, played: int) -> None:
    """S2 main: turn into one of your two animals: its tile covers one of your witches (that ability goes off),
    the animal leader replaces the human one, and all discarded action cards return to hand (Shapeshift itself at
    the end of the turn). Bonus (Also): suspicion -1. The form changes at once: from this moment nothing raises
    the player's suspicion this turn (S4; the Widow's Spiders included); the other animal rules (S3) start with the
    next moon phase."""
    a = animal_seat(g, p)
    if a.form < 0 and a.animals and p.coven:
        animal = g.ask(Kind.ANIMAL, p.seat, a.animals)
        cover(g, p, g.ask(Kind.COVER_WITCH, p.seat, p.coven))
        a.form = animal
        p.no_raise = True  # seed 000: in Animal Form nothing raises suspicion, from the change on (Spiders too)
        a.shapeshifts += 1
        if animal not in a.animals_used:
            a.animals_used.append(animal)
        if g.sink is not None:
            g.emit(
                "shapeshift",
                p.seat,
                form=g.content.animals[animal].id,
                detail=f"covers {g.content.witches[a.covered].id}",
            )
    back = len(p.discard)
    for card in p.discard:
        p.hand[card] = True
    p.discard = []
    if g.sink is not None and back:
        g.note("hand", p.seat, f"+{back} cards back from the discard")
    if matched:
        g.lower_suspicion(p, -g.rules.shapeshift_bonus_suspicion)


register_action("shapeshift", shapeshift)


# ---- animal abilities (S7): in force for the seat whose animal's leftmost action was played -----------------------


class SerpentRemember(SeatEffect):
    """Serpent: 2 different crowd picks instead of Remember's main ability; when matched, 1 more different pick
    instead of its bonus (the player may resolve Remember normally instead)."""

    id: ClassVar[str] = "crowd_picks_instead"

    def replace_remember(self, g: Game, p: Player, matched: bool) -> bool:
        if g.ask(Kind.ANIMAL_ABILITY, p.seat, (1, 0), "serpent") == 0:
            return False
        animal, prev = _acting(g, p)
        crowd.crowd_picks(g, p, animal.amount + (animal.amount2 if matched else 0))
        g.cause = prev
        return True


class ToadBrew(SeatEffect):
    """Toad: brewing next to an area with the river needs none of the named ingredient (Mushrooms)."""

    id: ClassVar[str] = "brew_without"

    def waived_ingredient(self, g: Game, p: Player) -> int:
        areas = g.content.areas
        if any(areas[a].river for a in g.board.vertex_areas[p.vertex]):
            return _animal(g, p).ingredient
        return -1


class FoxMove(SeatEffect):
    """Fox: move any number of steps to end next to an area with Root printed on it; if you do, gain 1 Skull.
    Reading ``fox_ability``: an extra move after Move's own ("after-move"), or Move itself may go any number of
    steps when it ends next to Root, and a Move (main or Instead) ending there gains the Skull ("the-move")."""

    id: ClassVar[str] = "move_to_ingredient"

    @staticmethod
    def _next_to(g: Game, p: Player, v: int) -> bool:
        """Whether vertex `v` is next to an area with the animal's printed ingredient (Root)."""
        near = _animal(g, p).near
        return any(g.content.areas[a].ingredient == near for a in g.board.vertex_areas[v])

    def _near(self, g: Game, p: Player) -> list[int]:
        """Free vertices at any distance next to Root."""
        return [v for v in g.free_vertices(p, -1) if self._next_to(g, p, v)]

    def move_targets(self, g: Game, p: Player, options: list[int]) -> list[int]:
        if g.rules.readings.fox_ability.value != "the-move":
            return options
        return options + [v for v in self._near(g, p) if v not in options]

    def after_move(self, g: Game, p: Player) -> None:
        animal = _animal(g, p)
        if g.rules.readings.fox_ability.value == "the-move":
            if self._next_to(g, p, p.vertex):
                g.gain_res(p, animal.ingredient)
            return
        opts = self._near(g, p)
        if not opts:
            return
        opts.append(-1)
        dest = g.ask(Kind.ANIMAL_ABILITY, p.seat, opts, "fox")
        if dest >= 0:
            _, prev = _acting(g, p)
            g.move_to(p, dest)
            g.gain_res(p, animal.ingredient)
            g.cause = prev


class SquirrelCollect(SeatEffect):
    """Squirrel: +1 of each different lunar ingredient collected this turn, no more than 2 in total."""

    id: ClassVar[str] = "lunar_extra"

    def after_collect(self, g: Game, p: Player, collected: list[int]) -> None:
        animal, prev = _acting(g, p)
        for ing in sorted(set(collected))[: animal.amount]:
            g.gain_res(p, ing)
        g.cause = prev


class CatRecruit(SeatEffect):
    """Cat: send 1 more loyal citizen to the crowd if next to at least 1 Town area."""

    id: ClassVar[str] = "recruit_near_town"
    recruit_depends_on_position: ClassVar[bool] = True

    def after_recruit_action(self, g: Game, p: Player) -> None:
        if any(g.content.areas[a].town for a in g.board.vertex_areas[p.vertex]):
            animal, prev = _acting(g, p)
            crowd.citizen_to_crowd(g, p, animal.amount)
            g.cause = prev


class OwlPlead(SeatEffect):
    """Owl: send 1 more loyal citizen from the crowd into any trial chamber (same or different)."""

    id: ClassVar[str] = "plead_extra"

    def after_plead(self, g: Game, p: Player) -> None:
        animal, prev = _acting(g, p)
        for _ in range(animal.amount):
            crowd.seat_citizen(g, p)
        g.cause = prev


class GoatRitual(SeatEffect):
    """Goat: spend 1 Herb (or a Crystal: it pays for any resource, seed 001) to ready 1 spell."""

    id: ClassVar[str] = "pay_to_ready"

    def after_ritual(self, g: Game, p: Player) -> None:
        cost = (_animal(g, p).ingredient,)  # a Crystal pays for the Herb (seed 001)
        if (
            payment.affordable(p, cost)
            and any(not sp.ready for sp in p.spells)
            and g.ask(Kind.ANIMAL_ABILITY, p.seat, (1, 0), "goat") == 1
        ):
            _, prev = _acting(g, p)
            payment.pay(g, p, cost, "animal:goat")
            spells.ready_spell(g, p, "")
            g.cause = prev


class HareHeal(SeatEffect):
    """Hare: 1 Root per patient healed, whatever the source of healing."""

    id: ClassVar[str] = "heal_gain"

    def after_heal(self, g: Game, p: Player) -> None:
        animal, prev = _acting(g, p)
        g.gain_res(p, animal.ingredient)
        g.cause = prev


ABILITIES: Final[dict[str, SeatEffect]] = {
    e.id: e
    for e in (
        SerpentRemember(),
        ToadBrew(),
        FoxMove(),
        SquirrelCollect(),
        CatRecruit(),
        OwlPlead(),
        GoatRitual(),
        HareHeal(),
    )
}
"""Animal abilities by content id (``animals.toml`` ``ability``; the loader checks them against ANIMAL_ABILITIES)."""


def observation_fields(c: Content, b: Board) -> list[Spec]:
    """The observation's Shapeshifting field (``ShapeshiftingView``): per seat block its animal form and its two
    animal tiles."""
    from septima_sim.env.fields import MAX_SEATS, Spec, many_hot, one_hot  # the step environment's layer, when used

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


SPEC: Final = ModuleSpec(
    name="shapeshifting",
    token="ss",
    factory=ShapeshiftingModule,
    full_only=True,
    player_columns=(
        Column("animals", "list[str]", []),
        Column("animals_used", "list[str]", []),
        Column("shapeshifts", "int8", 0),
        Column("turns_in_animal_form", "int8", 0),
        Column("form_end", "str", "human"),
    ),
    action_fields=(Column("form", "str", "human"),),
    title="Shapeshifting",
    components=(Component("animal", "animals", namespace="animals"),),
    help="Play with the Shapeshifting module.",
    observation=observation_fields,
)
