"""The Omens module (expansion rulebook "Omens", "Appendix: Omens"; RULINGS O1-O5).

Three Omen cards lie on the Witches' Sabbath; at the last step of each end of season the next one takes effect with
its dark half when the players' total suspicion reaches the threshold, else its bright half (O3). Each half is an
``OmenEffect`` keyed by its content id (``HALVES``, the ``effect`` of a half in omens.toml); the one in force is
``Game.s.fx``, which the base rules consult at their rule points. Bright effects are optional for each player ("The
positive effects are optional for each player"): a bright half that gives something asks the player first
(``OmenEffect.accepted``, ``Kind.OMEN`` 1 = use, 0 = decline) or offers its use as a choice; dark ones are mandatory.
Wisdom gained or lost through an Omen goes to the ``omens`` source.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from septima_sim.content.model import Ability, Content, Effect, OmenHalf
from septima_sim.engine import effects, payment, supply
from septima_sim.engine.config import ConfigError
from septima_sim.engine.decisions import Kind
from septima_sim.engine.modules.base import Module
from septima_sim.engine.modules.spec import Axis, Column, Component, ModuleSpec, ReplayPart
from septima_sim.engine.rule_effects import NO_RULE_EFFECT, RuleEffect
from septima_sim.engine.state import TABLE

if TYPE_CHECKING:
    import random

    from septima_sim.engine.board import Board
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Patient, Player
    from septima_sim.env.fields import Out, Scene, Spec


def omen_sweep_sequences(content: Content) -> list[tuple[str, ...]]:
    """Fixed decks that put each card in each season position exactly once (cyclic shifts of the card list)."""
    ids = [c.id for c in content.omens if not c.sabbath]
    size = content.omen_deck_size
    return [tuple(ids[(start + k) % len(ids)] for k in range(size)) for start in range(len(ids))]


class OmensView(NamedTuple):
    """What every player sees of the Omens: the face-up next card (-1: none left) and the active one (-1: none)."""

    upcoming: int
    card: int
    side: str


class OmensModule(Module):
    """The Omen deck and the half in force, at the base flow's hook points."""

    name: ClassVar[str] = "omens"

    def __init__(self) -> None:
        self.deck: list[int] = []  # next card first (face up), the Witches' Sabbath last
        self.cards: list[str] = []  # card ids drawn, in season order
        self.halves: list[str] = []  # "bright" / "dark" per season with an Omen
        self.marked: list[int] = []  # Era of Epidemic: the face-down witch per seat
        self.trials: list[tuple[int, int, int]] = []  # (season, winner, bitmask of seats with a loyal citizen)
        self.card = -1  # active Omen card index
        self.side = ""  # "bright" | "dark"
        self.effect: OmenEffect | None = None  # the active half

    def copy(self) -> OmensModule:
        twin = OmensModule()
        twin.deck, twin.cards, twin.halves = list(self.deck), list(self.cards), list(self.halves)
        twin.marked, twin.trials = list(self.marked), list(self.trials)
        twin.card, twin.side, twin.effect = self.card, self.side, self.effect
        return twin

    def setup(self, g: Game) -> None:
        """O1: the Sabbath at the bottom, 3 cards (random, or the configured sequence) above it, the next one
        visible."""
        c = g.content
        self.marked = [-1] * g.n
        index = {o.id: i for i, o in enumerate(c.omens)}
        sabbath = next(i for i, o in enumerate(c.omens) if o.sabbath)
        fixed = g.config.omen_deck
        if fixed:
            unknown = [x for x in fixed if x not in index or index[x] == sabbath]
            if unknown or len(set(fixed)) != len(fixed) or len(fixed) != c.omen_deck_size:
                known = ", ".join(o.id for o in c.omens if not o.sabbath)
                raise ConfigError(
                    f"omen_deck {list(fixed)}: needs {c.omen_deck_size} different Omen cards (known: {known})"
                )
            deck = [index[x] for x in fixed]
        else:
            deck = g.rng_setup.sample([i for i in range(len(c.omens)) if i != sabbath], c.omen_deck_size)
        self.deck = [*deck, sabbath]

    def take_next(self, g: Game, bottom: bool = False) -> tuple[int, str]:
        """Draw the face-up top card (`bottom`: the Witches' Sabbath under the deck); its half follows the O3
        threshold; record and announce it."""
        card = self.deck.pop(-1 if bottom else 0)
        total = total_suspicion(g)
        threshold = g.content.omen_threshold[g.n]
        side = "dark" if total >= threshold else "bright"
        omen = g.content.omens[card]
        self.cards.append(omen.id)
        self.halves.append(side)
        if g.sink is not None:
            detail = f"total suspicion {total}, threshold {threshold}"
            g.emit("omen", TABLE, cause=f"omen:{omen.id}/{side}", omen=omen.id, omen_half=side, detail=detail)
        return card, side

    def activate(self, g: Game, card: int, side: str) -> None:
        """Make a half the active Omen (card -1: none)."""
        self.card, self.side = card, side
        if card < 0:
            self.effect = None
            g.s.fx = NO_RULE_EFFECT
            if g.sink is not None:
                g.note("omen_active", TABLE, "no Omen")
            return
        half: OmenHalf = getattr(g.content.omens[card], side)
        self.effect = HALVES[half.hook](half)
        self.effect.cause = f"omen:{g.content.omens[card].id}/{side}"
        self.effect.optional = half is g.content.omens[card].bright
        g.s.fx = self.effect
        if g.sink is not None:
            g.note("omen_active", TABLE, f"{g.content.omens[card].id} ({side})", self.effect.cause)

    def season_over(self, g: Game) -> None:
        """The previous Omen ends."""
        if self.effect is not None:
            prev = g.caused(self.effect.cause)
            self.effect.season_over(g, self)
            g.cause = prev

    def end_of_season(self, g: Game) -> None:
        """B31 step 6 / O3: the previous Omen ends (Era of Epidemic exiles its witches), the next one takes effect."""
        self.season_over(g)
        card, side = self.take_next(g)
        self.activate(g, card, side)
        assert self.effect is not None
        prev = g.caused(self.effect.cause)
        self.effect.take_effect(g, self)
        g.cause = prev

    def game_end(self, g: Game) -> None:
        """O5, first step of end-of-game scoring: the last Omen ends; the Witches' Sabbath takes effect with the half
        of the O3 rule at this moment and resolves at once (about the trials of the last season, both chambers)."""
        self.season_over(g)
        card, side = self.take_next(g, bottom=True)  # a game cut short (search simulations) still ends on it
        self.activate(g, card, side)
        assert self.effect is not None
        trials = [(w, present) for season, w, present in self.trials if season == g.s.season]
        prev = g.caused(self.effect.cause)
        for p in g.s.players:
            self.effect.sabbath(g, p, trials)
        g.cause = prev
        self.activate(g, -1, "")

    def judged(self, g: Game, witch: int, chamber: list[int], winner: int, loyal: list[int]) -> None:
        """Remember each judgement for the Witches' Sabbath: its season, winner and the seats with a loyal
        citizen."""
        self.trials.append((g.s.season, winner, sum(1 << s for s, n in enumerate(loyal) if n)))

    def event_fields(self, g: Game, record: dict[str, object]) -> None:
        """Every event carries the active Omen."""
        if self.card >= 0:
            record.setdefault("omen", g.content.omens[self.card].id)
            record.setdefault("omen_half", self.side)

    def public_fields(self, g: Game, out: dict[str, dict[str, object]]) -> None:
        """The active Omen and half, the face-up next card, the cards drawn and each seat's face-down witch (Era of
        Epidemic)."""
        omens, witches = g.content.omens, g.content.witches
        out["omens"] = {
            "card": omens[self.card].id if self.card >= 0 else "",
            "side": self.side,
            "next": omens[self.deck[0]].id if self.deck else "",
            "drawn": list(self.cards),
        }
        for seat, w in enumerate(self.marked):
            out[str(seat)]["face_down"] = witches[w].id if w >= 0 else ""

    def game_fields(self, g: Game, row: dict[str, object]) -> None:
        row["omen_cards"] = list(self.cards)
        row["omen_halves"] = list(self.halves)

    def determinize(self, g: Game, seat: int, rng: random.Random) -> None:
        """Only the next card and the Sabbath at the bottom are public: the cards between are re-guessed."""
        hidden = len(self.deck) - 2
        if hidden > 0:
            ids = [o.id for o in g.content.omens]
            seen = {self.deck[0], self.deck[-1]} | {ids.index(x) for x in self.cards}
            pool = [i for i, o in enumerate(g.content.omens) if i not in seen and not o.sabbath]
            self.deck[1:-1] = rng.sample(pool, hidden)

    def public(self, g: Game, seat: int) -> OmensView:
        return OmensView(self.deck[0] if self.deck else -1, self.card, self.side)


def total_suspicion(g: Game) -> int:
    """O3: the total suspicion of all players, plus the Black Widow's in solo (she ignores the Omens' effects)."""
    return sum(p.suspicion for p in g.s.players) + sum(m.table_suspicion(g) for m in g.modules)


# ---- the halves ---------------------------------------------------------------------------------------------------


class OmenEffect(RuleEffect):
    """An Omen half in force: its parameters from omens.toml, and the moments only Omens have."""

    def __init__(self, half: OmenHalf) -> None:
        self.half = half
        self.params = half.params
        self.cause = "omen"  # omen:<card>/<half>, set when it becomes the active Omen
        self.optional = False  # a bright half (O2), set when it becomes the active Omen

    def accepted(self, g: Game, p: Player) -> bool:
        """O2: whether the half acts for this player now: a bright half is optional for each player, who is asked
        (``Kind.OMEN``, 1 = use, 0 = decline; context: the hook id); a dark half always acts."""
        return not self.optional or g.ask(Kind.OMEN, p.seat, (1, 0), self.id) == 1

    def apply(self, g: Game, p: Player, effects_: tuple[Effect, ...]) -> None:
        """Apply effects for a player, caused by this Omen half."""
        prev = g.caused(self.cause)
        for e in effects_:
            effects.apply(g, p, e)
        g.cause = prev

    def amount(self, name: str = "amount") -> int:
        """An integer parameter of the half."""
        value = self.params[name]
        assert isinstance(value, int)
        return value

    def effects(self) -> tuple[Effect, ...]:
        value = self.params["effects"]
        assert isinstance(value, tuple)
        return value

    def take_effect(self, g: Game, om: OmensModule) -> None:
        """B31 step 6: the half comes into effect."""

    def season_over(self, g: Game, om: OmensModule) -> None:
        """The half's season ends."""

    def sabbath(self, g: Game, p: Player, trials: list[tuple[int, int]]) -> None:
        """O5: the Witches' Sabbath resolves for a player ((winner, seats-with-a-loyal-citizen mask) per trial of the
        last season)."""


class AlchemistsGift(OmenEffect):
    """The Alchemist's Gift: any `love_cost` ingredients for a Love Potion, any `other_cost` for the others (the
    player chooses which); with the Toad's ability a recipe that needs the waived ingredient costs 1 less."""

    id: ClassVar[str] = "alchemists_gift"
    changes_price: ClassVar[bool] = True

    def _cost(self, g: Game, potion: int, waive: int) -> int:
        pot = g.content.potions[potion]
        cost = self.amount("love_cost" if potion == g.practical_by_use.get("love", -1) else "other_cost")
        return cost - (1 if waive >= 0 and waive in pot.recipe else 0)

    def can_pay(self, g: Game, p: Player, potion: int, discount: int, waive: int) -> bool:
        return sum(p.res) >= self._cost(g, potion, waive) - discount

    def pay_recipe(self, g: Game, p: Player, potion: int, discount: int, waive: int) -> int:
        """Any ingredients ("any 3 Ingredients ... any 2"), each chosen by the player (``Kind.PAY``), fewer by the
        discount."""
        cost = self._cost(g, potion, waive)
        free = min(discount, cost)
        payment.pay(g, p, (payment.ANY,) * (cost - free), f"potion:{g.content.potions[potion].id}")
        return discount - free


class ReadyExtra(OmenEffect):
    """Empowering Constellation: readying a spell readies `amount` more (not as a crowd pick after a trial; optional,
    asked when a used spell is left to ready)."""

    id: ClassVar[str] = "ready_extra"

    def ready_extra(self, g: Game, p: Player) -> int:
        return self.amount() if self.accepted(g, p) else 0


class HealAnyRemedy(OmenEffect):
    """Era of Healing: any Remedy heals any patient; the player picks which (its own Remedy first)."""

    id: ClassVar[str] = "heal_any_remedy"

    def other_remedy(self, g: Game, p: Player) -> int:
        return next((i for i in g.remedy_of if i >= 0 and p.potions[i] > 0), -1)

    def choose_remedy(self, g: Game, p: Player, patient: Patient) -> int:
        own = g.remedy_of[patient.disease]
        opts = [i for i in g.remedy_of if i >= 0 and p.potions[i] > 0]
        opts.sort(key=lambda i: i != own)
        return int(g.ask(Kind.OMEN, p.seat, opts, self.id))


class ExileWitch(OmenEffect):
    """Era of Epidemic: each player marks a coven witch face down (its ability is off); at the end of the season
    each marked witch still in a coven is exiled to the box."""

    id: ClassVar[str] = "exile_witch"

    def take_effect(self, g: Game, om: OmensModule) -> None:
        for s in g.s.order:
            p = g.s.players[s]
            if p.coven:
                om.marked[s] = g.ask(Kind.OMEN, s, p.coven, self.id)
                g.s.witches_off[s].append(om.marked[s])
                if g.sink is not None:
                    g.note("face_down", s, f"{g.content.witches[om.marked[s]].id} face down")

    def season_over(self, g: Game, om: OmensModule) -> None:
        for p in g.s.players:
            w = om.marked[p.seat]
            if w >= 0:
                g.s.witches_off[p.seat].remove(w)
            exiled = w in p.coven
            if exiled:
                p.coven.remove(w)
                g.s.witch_box.append(w)
            om.marked[p.seat] = -1
            if g.sink is not None and w >= 0:
                g.note("face_down", p.seat, f"{g.content.witches[w].id} {'exiled' if exiled else 'face up'}")


class FreePractical(OmenEffect):
    """Golden Cauldron: a Brew that brews at least `brewed` potions (1: any Brew) also gains a free Practical potion,
    "still" as a 4th when 3 were brewed (seed 000 appendix; the free one is gained, not brewed: no brewing Wisdom)."""

    id: ClassVar[str] = "free_practical"

    def after_brew(self, g: Game, p: Player, brewed: int) -> None:
        if brewed < self.amount("brewed"):
            return
        opts = [i for i in g.tables.potion_group["practical"] if g.s.potion_supply[i] > 0]
        if opts:
            choice = g.ask(Kind.OMEN, p.seat, [*opts, -1], self.id)
            if choice >= 0:
                prev = g.caused(self.cause)
                supply.gain_potion(g, p, choice, brewed=False)
                g.cause = prev


class BuildingsAnywhere(OmenEffect):
    """Festival of Guilds: building abilities need no adjacency."""

    id: ClassVar[str] = "buildings_anywhere"
    buildings_anywhere: ClassVar[bool] = True


class BuildingsClosed(OmenEffect):
    """Guild Strike (assumed): building abilities do not apply."""

    id: ClassVar[str] = "buildings_closed"
    buildings_closed: ClassVar[bool] = True


class NoAbilities(OmenEffect):
    """Confused Memories: no coven witch or animal ability applies (a mirrored witch still works)."""

    id: ClassVar[str] = "no_abilities"
    abilities_off: ClassVar[bool] = True


class OfferingCost(OmenEffect):
    """Friendly / Vengeful Hermit: an offering to enter a ribbon row costs `amount` ingredients."""

    id: ClassVar[str] = "offering_cost"

    def offering(self, g: Game, cost: int) -> int:
        return self.amount()


class TrialPicks(OmenEffect):
    """Wave of Sympathy / Search Warrant: crowd picks after the trials change by `amount`, within 0..`max` (so with
    Search Warrant 0 or 1 pick becomes none)."""

    id: ClassVar[str] = "trial_picks"

    def trial_picks(self, g: Game, picks: int) -> int:
        return max(0, min(self.amount("max"), picks + self.amount()))


class SpiritualLink(OmenEffect):
    """Spiritual Link, after an acquittal: the trial winner may use the judged witch's ability once. A triggered
    ability applies its effects now (a witch listed in `everyone`, judged in the first chamber, for every player;
    one in `excluded` for nobody); a ``trial_recall`` ability lowers the winner's recall (its first part only).
    Reading ``spiritual_link_dragomir`` "one-use": when the ability acts after a trial (Dragomir), a winner who
    recruited the witch uses it from the coven only (its coven trigger acts at this trial); a recruited witch with
    another trigger (Linnea's play:ritual) does not act now, so the Omen use is offered either way."""

    id: ClassVar[str] = "spiritual_link"

    def after_recruit(self, g: Game, witch: int, winner: int, recall: int, first_chamber: bool) -> int:
        w = g.content.witches[witch]
        ability: Ability = w.ability
        if g.tables.passives.columns["trial_recall"].witch_has[witch]:
            if g.ask(Kind.OMEN, winner, (1, 0), self.id) == 1:
                recall = min(recall, ability.amount)
            return recall
        excluded, everyone = self.params["excluded"], self.params["everyone"]
        assert isinstance(excluded, Container) and isinstance(everyone, Container)
        if not ability.trigger or w.id in excluded:
            return recall
        seats = g.s.order if first_chamber and w.id in everyone else [winner]
        after_trial = g.tables.triggers.by_trigger.get("after_trial")
        acts_after_trial = after_trial is not None and bool(after_trial.witch[witch])
        if acts_after_trial and g.rules.readings.spiritual_link_dragomir.value == "one-use":
            seats = [s for s in seats if witch not in g.s.players[s].coven]  # its coven trigger is the one use
        for s in seats:
            if g.ask(Kind.OMEN, s, (1, 0), self.id) == 1:
                self.apply(g, g.s.players[s], tuple(Effect(e.kind, e.amount, e.arg, "omens") for e in ability.effects))
        return recall


class ForbidAction(OmenEffect):
    """Broken Memories: the action cannot be selected (unless nothing else is left in hand)."""

    id: ClassVar[str] = "forbid_action"

    def card_options(self, g: Game, p: Player, options: list[int]) -> list[int]:
        forbidden = g.action_index[str(self.params["action"])]
        allowed = [i for i in options if i != forbidden]
        return allowed or options


class RaiseCostsWisdom(OmenEffect):
    """Paranoia: each suspicion raise costs Wisdom, even if suspicion is lowered right after."""

    id: ClassVar[str] = "raise_costs_wisdom"

    def on_raise(self, g: Game, p: Player) -> None:
        g.lose_wisdom(p, self.amount(), "omens", self.cause)


class MatchPlayerExtra(OmenEffect):
    """Suspicious Allies: matching another player raises suspicion by `amount` more."""

    id: ClassVar[str] = "match_player_extra"

    def match_raise(self, g: Game) -> int:
        return self.amount()


class OnPlay(OmenEffect):
    """Assumed: playing the action (its icon) also applies the effects (bright halves: if the player accepts, O2)."""

    id: ClassVar[str] = "on_play"

    def on_play(self, g: Game, p: Player, icon: int) -> None:
        if g.action_ids[icon] == self.params["action"] and self.accepted(g, p):
            self.apply(g, p, self.effects())


class PlayPenalty(OmenEffect):
    """Assumed: playing the action (its icon) costs `amount` Wisdom."""

    id: ClassVar[str] = "play_penalty"

    def on_play(self, g: Game, p: Player, icon: int) -> None:
        if g.action_ids[icon] == self.params["action"]:
            g.lose_wisdom(p, self.amount(), "omens", self.cause)


class SeasonStart(OmenEffect):
    """Assumed: each player applies the effects when the Omen comes into effect (bright halves: each player who
    accepts, O2)."""

    id: ClassVar[str] = "season_start"

    def take_effect(self, g: Game, om: OmensModule) -> None:
        for s in g.s.order:
            p = g.s.players[s]
            if self.accepted(g, p):
                self.apply(g, p, self.effects())


class SeasonPay(OmenEffect):
    """Assumed dark half: each player pays `amount` resources of their choice; `wisdom` Wisdom per one not paid."""

    id: ClassVar[str] = "season_pay"

    def take_effect(self, g: Game, om: OmensModule) -> None:
        need, wisdom = self.amount(), self.amount("wisdom")
        for s in g.s.order:
            p = g.s.players[s]
            paid = min(need, sum(p.res))
            payment.pay(g, p, (payment.ANY,) * paid, self.cause)
            unpaid = need - paid
            g.lose_wisdom(p, unpaid * wisdom, "omens", self.cause)


class BrewLimit(OmenEffect):
    """Soured Brews (assumed): Brew brews at most `amount` potions."""

    id: ClassVar[str] = "brew_limit"

    def brew_limit(self, g: Game, limit: int) -> int:
        return self.amount()


class TrialWisdom(OmenEffect):
    """Assumed: a trial winner gains (or loses, never below 0) `amount` more Wisdom (a gain is optional, O2)."""

    id: ClassVar[str] = "trial_wisdom"

    def trial_won(self, g: Game, p: Player) -> None:
        amount = self.amount()
        if amount >= 0:
            if self.accepted(g, p):
                g.gain_wisdom(p, amount, "omens", self.cause)
        else:
            g.lose_wisdom(p, -amount, "omens", self.cause)


class SabbathWon(OmenEffect):
    """The Witches' Sabbath: `amount` Wisdom per trial of the last season you won (optional, O2: asked when you won
    one)."""

    id: ClassVar[str] = "sabbath_won"

    def sabbath(self, g: Game, p: Player, trials: list[tuple[int, int]]) -> None:
        won = sum(1 for w, _ in trials if w == p.seat)
        if won and self.accepted(g, p):
            g.gain_wisdom(p, self.amount() * won, "omens", self.cause)


class SabbathAbsent(OmenEffect):
    """The Witches' Sabbath: lose `amount` Wisdom per trial of the last season without your citizen in it."""

    id: ClassVar[str] = "sabbath_absent"

    def sabbath(self, g: Game, p: Player, trials: list[tuple[int, int]]) -> None:
        absent = sum(1 for _, present in trials if not present >> p.seat & 1)
        g.lose_wisdom(p, self.amount() * absent, "omens", self.cause)


HALVES: Final[dict[str, type[OmenEffect]]] = {
    h.id: h
    for h in (
        AlchemistsGift,
        ReadyExtra,
        HealAnyRemedy,
        ExileWitch,
        FreePractical,
        BuildingsAnywhere,
        OfferingCost,
        TrialPicks,
        SpiritualLink,
        ForbidAction,
        NoAbilities,
        RaiseCostsWisdom,
        MatchPlayerExtra,
        OnPlay,
        PlayPenalty,
        SeasonStart,
        SeasonPay,
        BrewLimit,
        BuildingsClosed,
        TrialWisdom,
        SabbathWon,
        SabbathAbsent,
    )
}
"""Omen halves by content id (the ``effect`` of a half in omens.toml; the loader checks them against OMEN_HOOKS)."""


def replay_frame(om: dict[str, Any], content: Content) -> dict[str, Any]:
    """The replay page's Omen: the card in force (its name, side and half), the face-up next card, the cards drawn."""
    cards = {o.id: o for o in content.omens}
    card, upcoming = cards.get(om["card"]), cards.get(om["next"])
    halves = {"bright": card.bright.name, "dark": card.dark.name} if card is not None else {}
    return {
        "card": card.name if card is not None else "",
        "side": om["side"],
        "half": halves.get(om["side"], ""),
        "next": upcoming.name if upcoming is not None else "",
        "drawn": list(om["drawn"]),
    }


DECK_NAMES: Final[tuple[str, ...]] = ("random", "sweep")
"""Omen deck values besides a fixed list of card ids: a random deck (O1), or the sweep that puts each card in each
season position once (one cell per fixed deck, ``omen_sweep_sequences``)."""


def deck_values(values: list[Any], content: Content) -> list[str]:
    """The ``omen_deck`` axis' cell values: "random", or fixed decks written as card ids joined by "+" ("sweep"
    expands); ValueError for a deck the pack refutes."""
    known = [o.id for o in content.omens if not o.sabbath]
    decks: list[str] = []
    for value in values:
        if value == "sweep":
            decks.extend("+".join(seq) for seq in omen_sweep_sequences(content))
        elif isinstance(value, list):
            unknown = [x for x in value if x not in known]
            if unknown or len(value) != content.omen_deck_size or len(set(value)) != len(value):
                raise ValueError(
                    f"a fixed deck lists {content.omen_deck_size} different Omens"
                    + (f"; unknown {', '.join(map(repr, unknown))} (known: {', '.join(known)})" if unknown else "")
                )
            decks.append("+".join(value))
        elif value in DECK_NAMES:
            decks.append(value)
        else:
            hint = (
                f" (write a fixed deck as a list inside the list: omen_deck = [[{value!r}, ...]])"
                if value in known
                else " (random, sweep, or a list of Omen ids)"
            )
            raise ValueError(f"unknown Omen deck {value!r}{hint}")
    return decks


def deck_config(value: str) -> dict[str, Any]:
    """A cell's ``GameConfig.omen_deck``: the fixed deck's card ids (``()`` for a random deck)."""
    return {"omen_deck": () if value == "random" else tuple(value.split("+"))}


def observation_fields(c: Content, b: Board) -> list[Spec]:
    """The observation's Omens field (``OmensView``): the face-up next Omen and the Omen in force, one-hot, and
    its half in force."""
    from septima_sim.env.fields import Spec, one_hot  # the step environment's layer, loaded only when it is used

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


SPEC: Final = ModuleSpec(
    name="omens",
    token="om",
    factory=OmensModule,
    full_only=True,
    game_columns=(Column("omen_cards", "list[str]", []), Column("omen_halves", "list[str]", [])),
    event_fields=(Column("omen", "str"), Column("omen_half", "str")),  # on every event while an Omen is active
    title="Omens",
    axes=(Axis("omen_deck", str | list[str], ("random",), "none", deck_values, deck_config),),
    components=(Component("omen half", "omen_halves", game_level=True, namespace="omens"),),
    help="Play with the Omens module (random Omen deck).",
    replay=ReplayPart("omen", "omens", replay_frame),
    observation=observation_fields,
)
