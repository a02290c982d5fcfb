"""Omens module (expansion rulebook "Omens", "Appendix: Omens"; RULINGS O1-O5): the threshold example, the deck,
every half's effect when active and its absence when not, the appendix clarifications, and invariants over seeded
games with the module on."""

from __future__ import annotations

import pytest

from septima_sim.content import Content
from septima_sim.content.model import CRYSTAL
from septima_sim.engine import abilities, actions, crowd, passives, potions, ritual, spells, trials
from septima_sim.engine.config import ConfigError, GameConfig
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.modules.omens import OmensModule, omen_sweep_sequences
from septima_sim.engine.modules.shapeshifting import animal_seat
from septima_sim.engine.results import SOURCES
from septima_sim.engine.state import Patient, SpellCard
from septima_sim.players import RandomPolicy
from septima_sim.playout import play_one
from tests.helpers import Scripted, action, disease, first_active, place, spell, vertex_of, witch
from tests.test_golden import GOLDEN_DIR, REGEN, normalise

HALVES: set[tuple[str, str]] = set()
"""Every (card, half) some test below exercises; the last test checks that all 36 are covered."""


def covers(*halves: tuple[str, str]) -> list[tuple[str, str]]:
    HALVES.update(halves)
    return list(halves)


def og(content: Content, players: int = 2, deck: tuple[str, ...] = (), shapeshift: bool = False, **rules) -> Game:
    """A set-up Omens game with scripted policies, empty covens and no buildings."""
    pols = [Scripted(**rules) for _ in range(players)]
    g = Game(GameConfig(players, omens=True, omen_deck=deck, shapeshifting=shapeshift), content, pols, 0)
    g.setup()
    g.s.buildings = {}
    for p in g.s.players:
        p.coven = []
    return g


def om(g: Game) -> OmensModule:
    """The game's Omens module (deck, drawn cards, active half)."""
    m = g.module("omens")
    assert isinstance(m, OmensModule)
    return m


def card(g: Game, card_id: str) -> int:
    return next(i for i, o in enumerate(g.content.omens) if o.id == card_id)


def on(g: Game, card_id: str, side: str) -> None:
    om(g).activate(g, card(g, card_id), side)


def off(g: Game) -> None:
    om(g).activate(g, -1, "")


def both(g: Game, card_id: str, side: str, scenario) -> tuple[object, object]:
    """Run a scenario with no Omen, then with the half active (the scenario builds its own state)."""
    off(g)
    without = scenario()
    on(g, card_id, side)
    return without, scenario()


# ---- O3: bright or dark by total suspicion --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suspicions", "half"),
    [
        ((5, 3, 4), "dark"),  # the rulebook example: 5 + 3 + 4 = 12 in a 3-player game
        ((5, 3, 3), "bright"),
        ((4, 4), "dark"),
        ((4, 3), "bright"),
        ((4, 4, 4, 4), "dark"),
        ((4, 4, 4, 3), "bright"),
    ],
)
def test_o3_threshold_decides_the_half(content: Content, suspicions: tuple[int, ...], half: str) -> None:
    g = og(content, len(suspicions), deck=("paranoia", "golden-cauldron", "era-of-healing"))
    for p, s in zip(g.s.players, suspicions, strict=True):
        p.suspicion = s
    assert g.s.fx.id == ""  # O2: no Omen in Autumn
    om(g).end_of_season(g)
    assert om(g).cards == ["paranoia"] and om(g).halves == [half] and om(g).side == half
    assert g.s.fx.id == ("raise_costs_wisdom" if half == "dark" else "on_play")


@pytest.mark.parametrize(("widow", "half"), [(3, "dark"), (2, "bright")])
def test_o3_solo_threshold_8_counts_the_widow(content: Content, widow: int, half: str) -> None:
    assert content.omen_threshold == {1: 8, 2: 8, 3: 12, 4: 16}
    g = Game(GameConfig(1, omens=True), content, [Scripted()], 0)
    g.setup()
    assert g.module("solo") is not None
    g.s.players[0].suspicion, g.module("solo").suspicion = 5, widow
    om(g).end_of_season(g)
    assert om(g).halves == [half]


def test_o3_threshold_is_content(content: Content) -> None:
    from septima_sim.content import load_content

    pack = load_content(overrides={"omens.threshold.4": 17})
    g = Game(GameConfig(4, omens=True), pack, [Scripted() for _ in range(4)], 0)
    g.setup()
    for p in g.s.players:
        p.suspicion = 4
    om(g).end_of_season(g)
    assert om(g).halves == ["bright"]


# ---- O1, O5: the deck, the Sabbath and deck control ------------------------------------------------------------------


def test_o1_deck_sabbath_at_the_bottom_upcoming_card_public(content: Content) -> None:
    g = og(content)
    sabbath = next(i for i, o in enumerate(content.omens) if o.sabbath)
    assert len(om(g).deck) == 4 and om(g).deck[-1] == sabbath and len(set(om(g).deck)) == 4
    view = g.view(1)
    assert view.module("omens").upcoming == om(g).deck[0] and view.module("omens")[1:] == (-1, "")
    upcoming = view.module("omens").upcoming
    om(g).end_of_season(g)
    view = g.view(1)  # a policy's view is sealed at each decision
    assert view.module("omens").card == upcoming and view.module("omens").upcoming == om(g).deck[0]


def test_fixed_sequence_is_honoured_over_a_whole_game(content: Content) -> None:
    deck = ("paranoia", "golden-cauldron", "era-of-healing")
    g = Game(GameConfig(3, omens=True, omen_deck=deck), content, [RandomPolicy() for _ in range(3)], 5)
    events: list[dict] = []
    g.sink = events.append
    result = g.play()
    assert result.game["omen_cards"] == [*deck, "witches-sabbath"]
    assert len(result.game["omen_halves"]) == 4 and set(result.game["omen_halves"]) <= {"bright", "dark"}
    changes = [e for e in events if e["kind"] == "omen"]
    assert [e["omen"] for e in changes] == result.game["omen_cards"]
    assert all("total suspicion" in e["detail"] for e in changes)
    assert all("omen" not in e for e in events if e["kind"] == "action" and e["season"] == 1)
    assert all(e["omen"] == "paranoia" for e in events if e["kind"] == "action" and e["season"] == 2)


@pytest.mark.parametrize("deck", [("paranoia",), ("paranoia", "paranoia", "hermit"), ("witches-sabbath", "a", "b")])
def test_bad_fixed_sequences_are_refused(content: Content, deck: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError, match="omen_deck"):
        og(content, deck=deck)


def test_omen_deck_needs_the_module() -> None:
    with pytest.raises(ConfigError, match="omen_deck"):
        GameConfig(2, omen_deck=("paranoia",)).validate()
    with pytest.raises(ConfigError, match="Full"):
        GameConfig(2, mode="basic", omens=True).validate()


def test_sweep_puts_each_card_in_each_position_once(content: Content) -> None:
    seqs = omen_sweep_sequences(content)
    ids = [o.id for o in content.omens if not o.sabbath]
    assert len(ids) == 17 and len(seqs) == 17  # 18 Omen cards including the Sabbath (O1)
    for pos in range(3):
        assert sorted(s[pos] for s in seqs) == sorted(ids)
    assert all(len(set(s)) == 3 for s in seqs)
    for s in seqs[:3]:
        og(content, deck=s)  # valid fixed decks


@pytest.mark.parametrize("side", [h[1] for h in covers(("witches-sabbath", "bright"), ("witches-sabbath", "dark"))])
def test_o5_sabbath_resolves_first_at_game_end_for_both_trials(content: Content, side: str) -> None:
    g = og(content, 2, deck=("paranoia", "golden-cauldron", "era-of-healing"))
    om(g).deck = om(g).deck[-1:]
    g.s.season = 3
    for p in g.s.players:
        p.suspicion = 8 if side == "dark" else 0
        p.wisdom = p.src[g_index("other")] = 10
    # both trials of the last season: seat 0 won the first, seat 1 the second (seat 0 absent), one earlier trial
    om(g).trials = [(2, 0, 0b01), (3, 0, 0b11), (3, 1, 0b10)]
    om(g).game_end(g)
    assert om(g).cards == ["witches-sabbath"] and om(g).halves == [side] and g.s.fx.id == ""
    omen_src = [p.src[g_index("omens")] for p in g.s.players]
    if side == "bright":  # 2 Wisdom per trial of the last season won
        assert omen_src == [2, 2] and [p.wisdom for p in g.s.players] == [12, 12]
    else:  # -2 per trial of the last season without a loyal citizen in it
        assert omen_src == [-2, 0] and [p.wisdom for p in g.s.players] == [8, 10]


def g_index(source: str) -> int:
    from septima_sim.engine.results import SOURCE_INDEX

    return SOURCE_INDEX[source]


# ---- the halves, each active and not ------------------------------------------------------------------------------


def test_era_of_healing_any_remedy_patient_track_except_edith(content: Content) -> None:
    covers(("era-of-healing", "bright"))
    g = og(content, heal=first_active)
    p = g.s.players[0]
    place(g, p, vertex_of(g, "east-quarry", "northgate", "river-meadow"))
    inf, par = disease(g, "infected"), disease(g, "paralyzed")

    def heal() -> tuple[int, ...]:
        g.s.patients = {"red-2": Patient(0, inf, "red-2", g.board.patient_spaces["red-2"])}
        p.tracks = [0, 0, 0]
        p.potions[g.potion_index["paralysis-remedy"]] = 1
        actions.heal(g, p, False, action(g, "heal"))
        return tuple(p.tracks)

    without, with_omen = both(g, "era-of-healing", "bright", heal)
    assert sum(without) == 0
    assert with_omen[inf] == 1 and with_omen[par] == 0  # the patient's track, not the Remedy's
    p.coven = [witch(g, "edith")]
    g.policies[0].rules[Kind.TRACK] = par
    assert heal()[par] == 1  # with Edith another track


def test_era_of_epidemic_marks_a_witch_off_and_exiles_it_at_season_end(content: Content) -> None:
    covers(("era-of-healing", "dark"))
    g = og(content, deck=("era-of-healing", "paranoia", "golden-cauldron"))
    p = g.s.players[0]
    hazel, tommy = witch(g, "hazel"), witch(g, "tommy")
    p.coven = [hazel, tommy]
    g.policies[0].rules[Kind.OMEN] = tommy
    for q in g.s.players:
        q.suspicion = 4
    om(g).end_of_season(g)
    assert g.s.fx.id == "exile_witch" and om(g).marked[0] == tommy
    assert [ab for ab in abilities.abilities(g, p)] == [g.content.witches[hazel].ability]
    om(g).end_of_season(g)  # the end of that season
    assert p.coven == [hazel] and tommy in g.s.witch_box and om(g).marked == [-1, -1]
    q = g.s.players[1]
    q.coven = [hazel]
    assert list(abilities.abilities(g, q)) == [g.content.witches[hazel].ability]  # no mark without the Omen


@pytest.mark.parametrize(
    ("side", "paid"),
    [
        (h[1], n)
        for h, n in zip(covers(("friendly-hermit", "bright"), ("friendly-hermit", "dark")), (0, 2), strict=True)
    ],
)
def test_hermits_change_the_offering(content: Content, side: str, paid: int) -> None:
    g = og(content, pay=first_active)
    p = g.s.players[0]

    def enter_row_6() -> tuple[int, int]:
        p.res = [3, 0, 0, 0, 0, 0]
        p.ritual_row = 5
        ritual._advance(g, p)
        return p.ritual_row, 3 - p.res[0]

    without, with_omen = both(g, "friendly-hermit", side, enter_row_6)
    assert without == (6, 1) and with_omen == (6, paid)
    on(g, "friendly-hermit", side)
    p.ritual_row, p.res = 1, [3, 0, 0, 0, 0, 0]
    ritual._advance(g, p)  # a ribbon without an offering stays free
    assert p.ritual_row == 2 and p.res[0] == 3


@pytest.mark.parametrize(
    ("side", "normal", "expected"),
    [
        ("bright", (0, 1, 2, 3, 4), (1, 2, 3, 4, 4)),  # Wave of Sympathy: 1 more, at most 4
        ("dark", (0, 1, 2, 3, 4), (0, 0, 1, 2, 3)),  # Search Warrant: 1 fewer, 0 or 1 become none
    ],
)
def test_wave_of_sympathy_and_search_warrant(content: Content, side: str, normal: tuple, expected: tuple) -> None:
    covers(("wave-of-sympathy", side))
    g = og(content, **{Kind.CROWD_PICK: first_active})
    on(g, "wave-of-sympathy", side)
    assert tuple(g.s.fx.trial_picks(g, k) for k in normal) == expected
    p = g.s.players[0]

    def picks_after_trials() -> int:
        for q in g.s.players:
            q.crowd = 0
        p.crowd = 4  # 2 picks normally
        g.s.chamber1, g.s.chamber2 = -1, []
        g.policies[0].log.clear()
        trials.trial_phase(g, crowd_picks=True)
        return len(g.policies[0].asked(Kind.CROWD_PICK))

    without, with_omen = both(g, "wave-of-sympathy", side, picks_after_trials)
    assert without == 2 and with_omen == (3 if side == "bright" else 1)
    on(g, "wave-of-sympathy", side)
    p.crowd = 0
    p.res[0] = 1
    g.policies[0].log.clear()
    actions.recruit(g, p, True, action(g, "recruit"))  # moon-phase picks are not affected: still 1
    assert len(g.policies[0].asked(Kind.CROWD_PICK)) == 1


def test_alchemists_gift_any_ingredients_and_with_toad(content: Content) -> None:
    covers(("alchemists-gift", "bright"))
    g = og(content)
    p = g.s.players[0]
    love, flying, infection, blind = (
        g.potion_index[x] for x in ("love-potion", "flying-ointment", "infection-remedy", "blindness-remedy")
    )
    p.res = [2, 0, 0, 0, 0, 0]  # 2 Herbs
    assert not potions.can_pay(p, flying, g, 0)
    on(g, "alchemists-gift", "bright")
    assert potions.can_pay(p, flying, g, 0) and not potions.can_pay(p, love, g, 0)
    p.res = [1, 1, 1, 0, 0, 0]
    assert potions.can_pay(p, love, g, 0)
    potions.pay_recipe(g, p, love, 0)
    assert sum(p.res) == 0
    mushroom = 3  # with the Toad's ability, recipes with a Mushroom cost 1 less
    p.res = [1, 0, 0, 0, 0, 0]
    assert potions.can_pay(p, flying, g, 0, mushroom) and potions.can_pay(p, infection, g, 0, mushroom)
    assert not potions.can_pay(p, blind, g, 0, mushroom) and not potions.can_pay(p, love, g, 0, mushroom)
    p.res = [1, 1, 0, 0, 0, 0]
    assert potions.can_pay(p, love, g, 0, mushroom)


def test_soured_brews_limits_brewing(content: Content) -> None:
    covers(("alchemists-gift", "dark"))
    g = og(content, brew=first_active)
    p = g.s.players[0]

    def brew() -> int:
        p.res = [9, 9, 9, 9, 9, 0]
        before = sum(p.potions)
        actions.brew(g, p, False, action(g, "brew"))
        return sum(p.potions) - before

    assert both(g, "alchemists-gift", "dark", brew) == (3, 2)


def test_golden_cauldron_free_practical_potion_as_a_fourth(content: Content) -> None:
    covers(("golden-cauldron", "bright"))
    g = og(content, brew=first_active, **{Kind.OMEN: first_active})
    p = g.s.players[0]

    def brew(n: int) -> int:
        p.res = [9, 9, 9, 9, 9, 0]
        g.policies[0].rules["brew"] = lambda d, v, k=[n]: (
            k.__setitem__(0, k[0] - 1),
            d.options[0] if k[0] >= 0 else -1,
        )[1]
        before = sum(p.potions)
        actions.brew(g, p, False, action(g, "brew"))
        return sum(p.potions) - before

    assert both(g, "golden-cauldron", "bright", lambda: brew(3)) == (3, 4)  # the free one is a 4th
    assert brew(2) == 3 and brew(1) == 2  # any Brew gains it (test_o4_golden_cauldron_free_potion_with_any_brew)


def test_empowering_constellation_readies_one_more_but_not_as_a_crowd_pick_after_a_trial(content: Content) -> None:
    covers(("empowering-constellation", "bright"))
    g = og(content, **{Kind.CROWD_PICK: 4, Kind.PAY: first_active})
    p = g.s.players[0]

    def ready(via_pick: bool) -> int:
        p.spells = [SpellCard(spell(g, s)) for s in ("root-growth", "stone-skin", "herbal-lore")]
        for sp in p.spells:
            sp.ready = False
        p.res[0] = 1
        if via_pick:
            crowd.crowd_picks(g, p, 1)
        else:
            spells.ready_spell(g, p, "")
        return sum(sp.ready for sp in p.spells)

    assert both(g, "empowering-constellation", "bright", lambda: ready(False)) == (1, 2)
    g.s.step = "crowd"  # the crowd picks after the trials
    assert ready(True) == 1  # readying a spell as a crowd pick after a trial: only one


def test_festival_of_guilds_and_guild_strike(content: Content) -> None:
    covers(("festival-of-guilds", "bright"), ("festival-of-guilds", "dark"))
    g = og(content)
    p = g.s.players[0]
    apothecary = next(i for i, b in enumerate(content.buildings) if b.id == "apothecary")
    here = g.board.vertex_areas[p.vertex]
    far = next(i for i, a in enumerate(content.areas) if a.town and i not in here)
    g.s.buildings = {far: apothecary}
    discount = lambda: passives.passive(g, p, "brew_discount")  # noqa: E731
    assert both(g, "festival-of-guilds", "bright", discount) == (0, 1)  # no adjacency needed
    g.s.buildings = {here[0]: apothecary}
    assert both(g, "festival-of-guilds", "dark", discount) == (1, 0)  # Guild Strike: closed
    on(g, "festival-of-guilds", "bright")  # outcrops still need adjacency
    v = next(
        v
        for v in range(g.board.n_vertices)
        if v not in g.s.occupied and not any(content.areas[a].outcrop for a in g.board.vertex_areas[v])
    )
    place(g, p, v)
    crystals = p.res[CRYSTAL]
    actions.collect(g, p, False, action(g, "collect"))
    assert p.res[CRYSTAL] == crystals


def _judge(g: Game, witch_id: str, first: bool) -> None:
    """Seat 0 wins an acquittal of the witch (two loyal citizens seated, nobody else in the crowd)."""
    g.s.crowd_neutral = g.s.crowd_angry = 0
    for q in g.s.players:
        q.crowd = 0
        q.supply = 4
    w = witch(g, witch_id)
    g.s.chamber1 = w if first else -1
    trials.judge(g, w, [0, 0])


@pytest.mark.parametrize("card_side", covers(("spiritual-link", "bright")))
def test_spiritual_link_uses_the_judged_witch_once(content: Content, card_side: tuple[str, str]) -> None:
    g = og(content, **{Kind.OMEN: 1, Kind.RECRUIT: 0})
    p, q = g.s.players

    def aylana_acquitted() -> int:  # Aylana: 2 Wisdom when playing Remember
        p.wisdom = p.src[g_index("trials")] = p.src[g_index("omens")] = 0
        _judge(g, "aylana", True)
        return p.wisdom

    assert both(g, *card_side, aylana_acquitted) == (3, 5) and p.src[g_index("omens")] == 2
    # Dragomir in the first chamber: every player may lower suspicion; in the second only the winner
    for first, expected in ((True, [3, 3]), (False, [3, 4])):
        p.suspicion = q.suspicion = 4
        _judge(g, "dragomir", first)
        assert [p.suspicion, q.suspicion] == expected
    # Johanna: gone before her ability would apply
    p.supply = 4
    _judge(g, "johanna", True)
    assert p.supply == 6 and p.crowd == 0  # 2 recalled, none sent to the crowd
    # Bryn discarded: the winner recalls only 1 (first part)
    for active, recalled in ((False, 2), (True, 1)):
        if active:
            on(g, *card_side)
        else:
            off(g)
        _judge(g, "bryn", True)
        assert p.supply == 4 + recalled


@pytest.mark.parametrize(
    ("card_id", "extra"),
    [
        (h[0], n)
        for h, n in zip(covers(("spiritual-link", "dark"), ("merciful-judges", "bright")), (-2, 2), strict=True)
    ],
)
def test_trial_wisdom_halves(content: Content, card_id: str, extra: int) -> None:
    g = og(content, **{Kind.RECRUIT: 0})
    p = g.s.players[0]
    side = "dark" if extra < 0 else "bright"

    def won() -> int:
        p.wisdom = p.src[g_index("trials")] = p.src[g_index("omens")] = 0
        _judge(g, "hazel", True)
        return p.wisdom

    assert both(g, card_id, side, won) == (3, 3 + extra)
    assert p.src[g_index("omens")] == extra


def test_paranoia_each_raise_costs_two_even_if_lowered_right_after(content: Content) -> None:
    covers(("paranoia", "dark"))
    g = og(content)
    p = g.s.players[0]

    def raise_then_lower() -> int:
        p.wisdom = 10
        p.suspicion = 3
        g.raise_suspicion(p, 1)
        g.lower_suspicion(p, 1)
        g.raise_suspicion(p, 0)  # no raise, no cost
        return p.wisdom

    assert both(g, "paranoia", "dark", raise_then_lower) == (10, 8)
    assert p.src[g_index("omens")] == -2


def test_suspicious_allies_matching_a_player_raises_one_more(content: Content) -> None:
    covers(("suspicious-allies", "dark"))
    g = og(content)
    p = g.s.players[0]

    def step(others: int, septima: bool) -> int:
        p.suspicion = 0
        g.suspicion_step(p, action(g, "collect"), others, septima, False)
        return p.suspicion

    assert both(g, "suspicious-allies", "dark", lambda: step(1, False)) == (1, 2)
    assert step(0, True) == 2 and step(1, True) == 4
    g.suspicion_step(p, action(g, "chant"), 1, False, False)  # a matched Chant still raises none
    assert p.suspicion == 4


def test_broken_memories_remember_cannot_be_played_so_no_serpent(content: Content) -> None:
    covers(("broken-memories", "dark"))
    g = og(content)
    p = g.s.players[0]
    rem = action(g, "remember")
    assert both(g, "broken-memories", "dark", lambda: rem in g.card_options(p)) == (True, False)
    p.hand = [i == rem for i in range(len(p.hand))]
    assert g.card_options(p) == [rem]  # nothing else in hand: it is the only card left
    g2 = og(content, shapeshift=True)
    on(g2, "broken-memories", "dark")
    q = g2.s.players[0]
    animal_seat(g2, q).form = next(i for i, a in enumerate(content.animals) if a.id == "serpent")
    g2.module("shapeshifting").start_phase(g2)
    assert rem not in g2.card_options(q) and g2.card_options(q)  # the Serpent's ability needs Remember


def test_confused_memories_no_coven_or_animal_abilities_but_the_mirror(content: Content) -> None:
    covers(("confused-memories", "dark"))
    g = og(content, shapeshift=True)
    p = g.s.players[0]
    p.coven = [witch(g, "hazel")]
    p.mirror = witch(g, "tommy")
    in_force = lambda: [a.effects[0].kind for a in abilities.abilities(g, p)]  # noqa: E731
    assert both(g, "confused-memories", "dark", in_force) == (["wisdom", "ingredient"], ["ingredient"])
    toad = next(i for i, a in enumerate(content.animals) if a.id == "toad")

    def toad_brews() -> str:
        animal_seat(g, p).form = toad
        g.module("shapeshifting").start_phase(g)
        g.s.played[p.seat] = action(g, "brew")
        g.module("shapeshifting").reveal(g)
        return p.fx.id

    assert both(g, "confused-memories", "dark", toad_brews) == ("brew_without", "")


ON_PLAY = {
    ("paranoia", "bright"): ("chant", lambda p: -p.suspicion),
    ("broken-memories", "bright"): ("remember", lambda p: sum(p.res[:5])),
    ("open-roads", "bright"): ("move", lambda p: p.res[CRYSTAL]),
    ("healing-hands", "bright"): ("heal", lambda p: p.src[g_index("omens")]),
    ("gathering-crowds", "bright"): ("recruit", lambda p: p.crowd),
}


@pytest.mark.parametrize("half", covers(*ON_PLAY))
def test_on_play_bright_halves(content: Content, half: tuple[str, str]) -> None:
    g = og(content)
    p = g.s.players[0]
    act, measure = ON_PLAY[half]

    def play(a: str) -> int:
        p.suspicion, p.supply = 4, 4
        before = measure(p)
        if g.s.fx.id:
            g.s.fx.on_play(g, p, action(g, a))
        return measure(p) - before

    assert both(g, *half, lambda: play(act)) == (0, 1)
    other = "plead" if act != "plead" else "move"
    assert play(other) == 0


def test_serenity_applies_to_shapeshift_through_the_turn(content: Content) -> None:
    g = og(content, shapeshift=True)
    p = g.s.players[0]
    on(g, "paranoia", "bright")
    p.suspicion = 5
    g.s.played = [action(g, "shapeshift"), action(g, "collect")]
    g.s.septima_right = action(g, "plead")  # unmatched
    g.resolve_turn(p)
    assert p.suspicion == 4  # the Shapeshift card carries the Chant icon


PENALTY = {
    ("empowering-constellation", "dark"): "ritual",
    ("golden-cauldron", "dark"): "brew",
    ("open-roads", "dark"): "move",
    ("merciful-judges", "dark"): "plead",
    ("healing-hands", "dark"): "heal",
    ("gathering-crowds", "dark"): "recruit",
}


@pytest.mark.parametrize("half", covers(*PENALTY))
def test_play_penalty_dark_halves(content: Content, half: tuple[str, str]) -> None:
    g = og(content)
    p = g.s.players[0]

    def play(a: str) -> int:
        p.wisdom = 5
        if g.s.fx.id:
            g.s.fx.on_play(g, p, action(g, a))
        return p.wisdom

    assert both(g, *half, lambda: play(PENALTY[half])) == (5, 4)
    assert play("chant") == 5
    p.wisdom = 0
    g.s.fx.on_play(g, p, action(g, PENALTY[half]))
    assert p.wisdom == 0  # never below 0


SEASON_START = {
    ("suspicious-allies", "bright"): lambda p: p.crowd,
    ("confused-memories", "bright"): lambda p: p.charms,
    ("blessed-waters", "bright"): lambda p: sum(p.potions),
}


@pytest.mark.parametrize("half", covers(*SEASON_START))
def test_season_start_bright_halves(content: Content, half: tuple[str, str]) -> None:
    g = og(content, 2, deck=(half[0], "paranoia", "golden-cauldron"))
    measure = SEASON_START[half]
    before = [measure(p) for p in g.s.players]
    om(g).end_of_season(g)  # total suspicion 4 < 8: bright
    assert om(g).halves == ["bright"]
    assert [measure(p) - b for p, b in zip(g.s.players, before, strict=True)] == [1, 1]
    om(g).end_of_season(g)  # the next Omen gives nothing of this kind
    assert [measure(p) - b for p, b in zip(g.s.players, before, strict=True)] == [1, 1]


def test_drought_pays_resources_or_wisdom(content: Content) -> None:
    covers(("blessed-waters", "dark"))
    g = og(content, 2, deck=("blessed-waters", "paranoia", "golden-cauldron"))
    p, q = g.s.players
    p.res, q.res = [0, 0, 0, 0, 0, 1], [2, 1, 0, 0, 0, 0]
    p.wisdom, q.wisdom = 5, 5
    p.suspicion = q.suspicion = 4
    om(g).end_of_season(g)
    assert om(g).halves == ["dark"]
    assert sum(p.res) == 0 and p.wisdom == 4 and sum(q.res) == 1 and q.wisdom == 5


def test_every_half_is_covered_by_a_test(content: Content) -> None:
    every = {(o.id, side) for o in content.omens for side in ("bright", "dark")}
    assert len(every) == 36
    assert every == HALVES


# ---- invariants over seeded games -----------------------------------------------------------------------------------


class Watched(Game):
    """A game that checks the engine invariants after every turn."""

    def end_moon_phase(self) -> None:
        super().end_moon_phase()
        for p in self.s.players:
            assert -1 <= p.suspicion <= 8 and len(p.coven) <= 4 and p.wisdom >= 0
            assert sum(p.src) == p.wisdom


@pytest.mark.parametrize(("players", "shapeshift"), [(2, False), (3, False), (4, False), (3, True), (4, True)])
def test_invariants_over_seeded_games(content: Content, players: int, shapeshift: bool) -> None:
    seqs = omen_sweep_sequences(content)
    halves: set[tuple[str, str]] = set()
    for seed in range(72):
        deck = seqs[seed % len(seqs)] if seed % 4 else ()
        cfg = GameConfig(players, omens=True, shapeshifting=shapeshift, omen_deck=deck)
        result = Watched(cfg, content, [RandomPolicy() for _ in range(players)], seed).play()
        assert len(result.game["omen_cards"]) == 4 and result.game["omen_cards"][-1] == "witches-sabbath"
        halves.update(zip(result.game["omen_cards"], result.game["omen_halves"], strict=True))
        for row in result.players:
            assert sum(row[f"wisdom_{s}"] for s in SOURCES) == row["wisdom"] >= 0
            assert -1 <= row["suspicion_end"] <= 8 and row["witches_end"] <= 4
    assert len({c for c, _ in halves}) == 18 and {s for _, s in halves} == {"bright", "dark"}


def test_golden_playthrough_with_omens(content: Content) -> None:
    """``septima-sim play --players 3 --seed 4 --omens --format jsonl``, diffed line by line (regenerate as in
    tests/test_golden.py with SEPTIMA_REGEN_GOLDEN=1)."""
    lines: list[str] = []
    play_one(GameConfig(3, omens=True), content, [RandomPolicy() for _ in range(3)], 4, "jsonl", lines.append)
    path = GOLDEN_DIR / "p3_full_omens_seed4.jsonl"
    if REGEN:
        path.write_text("\n".join(lines) + "\n")
    golden = path.read_text().splitlines()
    assert [normalise(x) for x in lines] == [normalise(x) for x in golden]
    assert any('"kind": "omen"' in x for x in golden)
