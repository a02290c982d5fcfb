"""Rules fidelity, third audit (issue #26, ``../shared/research/fidelity-audit-turn3.md``): each fix is a test named
after its rule id that puts the game where the old behaviour gives another result."""

from __future__ import annotations

from septima_sim.content import Content, load_content
from septima_sim.content.model import CRYSTAL, INGREDIENTS
from septima_sim.engine import actions, crowd, trials
from septima_sim.engine.config import GameConfig
from septima_sim.engine.crowd import PICKS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.modules.shapeshifting import animal_seat, cover
from septima_sim.engine.state import SpellCard
from tests.helpers import Scripted, action, area, first_active, make_game, place, script, witch
from tests.test_omens import og, om, on
from tests.test_rules_fidelity import HERB, MUSHROOM, fly_then_collect, reading, relocate, remember_collect

# ---- B16, seed 001 獵人重定位: 「逆時針移動一個活動中獵巫人到自己的地區」 ------------------------------------------


def test_b16_hunter_relocation_counterclockwise(content: Content) -> None:
    """The hunter *moves* counterclockwise to your region: of the active hunters on spaces 1 and 5, the one of
    region 1 (clockwise of region 3; regions are numbered counterclockwise) comes; the old default pulled region 5's."""
    assert relocate(content) == [3, 5]


# ---- O4 Golden Cauldron, seed 000 appendix: "If you brew 3 Potions in your turn, you may still gain the additional
# (free) Practical Potion as a 4th one." ------------------------------------------------------------------------------


def test_o4_golden_cauldron_free_potion_with_any_brew(content: Content) -> None:
    """The free Practical potion comes with a Brew of 1 or 2 potions too ("still" answers the 3-potion cap); the
    old half needed exactly 3 brewed."""
    for n in (1, 2, 3):
        left = [n]

        def brew_n(d, v, left=left) -> object:
            left[0] -= 1
            return d.options[0] if left[0] >= 0 else -1

        g = og(content, **{Kind.BREW: brew_n, Kind.OMEN: first_active})
        on(g, "golden-cauldron", "bright")
        p = g.s.players[0]
        p.res = [9, 9, 9, 9, 9, 0]
        actions.brew(g, p, False, action(g, "brew"))
        assert [d.context for d in g.policies[0].asked(Kind.OMEN)] == ["free_practical"]
        assert sum(p.potions) == n + 1


# ---- O1, seed 000 Components "18x Omen cards"; setup: find the Witches' Sabbath, "Shuffle the rest" ----------------


def test_o1_the_deck_holds_18_omen_cards_including_the_sabbath(content: Content) -> None:
    """17 regular cards and the Sabbath (the old pack had 18 regular cards: one wholly invented card too many, each
    card drawn with chance 3/18 instead of 3/17). The card removed was Bountiful Harvest / Blight, which no seed
    names and whose id was the Earth scoring spell's."""
    assert len(content.omens) == 18 and sum(o.sabbath for o in content.omens) == 1
    spells = {s.id for s in content.spells}
    assert not [o.id for o in content.omens if o.id in spells]


# ---- RULINGS §11 potions, seed 001 Practical: 「可以在自己回合中使用」 (usable in your own turn) ----------------


def test_seed001_practical_potions_usable_in_your_own_turn_before_or_after_the_card(content: Content) -> None:
    """The default offers a Practical potion before the card (after the pre-move) and, when kept, again after it;
    used before, it acts before the card (flown next to Herb, then Collect gains it). The old default offered it
    after the card only."""
    p, pol = fly_then_collect(content, use=lambda d, v: -1)  # keep it at every offer
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["before", "after"]
    p, pol = fly_then_collect(content)  # use it at the first offer
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["before"] and p.res[HERB] >= 1


# ---- B21e Remember, seed 001: Collect 「收集鄰近的月亮標示資源和水晶」; 「建築就像女巫一樣」 ------------------------


def test_b21e_remember_copy_brings_its_own_text_buildings_and_shrines_follow_remember(content: Content) -> None:
    """A remembered Collect gains the outcrop Crystal (part of Collect's main text) but not the Market's ingredient
    (a building's play:collect trigger looks at the card played, Remember). The old default dropped the Crystal."""
    p = remember_collect(content)
    assert p.res[CRYSTAL] == 1 and p.res[MUSHROOM] == 0


def _ritual_at_shrine(c: Content, remembered: bool) -> bool:
    """A Ritual played (or remembered) next to the air shrine with a used air spell: whether the spell is ready."""
    g = make_game(c, policies=[Scripted(**{Kind.REMEMBER: lambda d, v: action(g, "ritual")}), Scripted()])
    p = g.s.players[0]
    place(g, p, next(v for v, areas in enumerate(g.board.vertex_areas) if area(g, "wind-peak") in areas))
    air = next(i for i, sp in enumerate(c.spells) if sp.element == "air" and sp.kind == "regular")
    p.spells = [SpellCard(air)]
    p.spells[0].ready = False
    card = action(g, "remember" if remembered else "ritual")
    p.discard = [action(g, "ritual")]
    actions.resolve_card(g, p, card, False, card)
    return p.spells[0].ready


def test_b21e_a_shrine_acts_for_ritual_played_not_for_remembers_copy(content: Content) -> None:
    assert _ritual_at_shrine(content, remembered=False) and not _ritual_at_shrine(content, remembered=True)


# ---- O4 Spiritual Link, reading spiritual_link_dragomir "one-use" (audit N5) -------------------------------------


def test_o4_spiritual_link_one_use_concerns_only_an_after_trial_witch() -> None:
    """Under "one-use" the winner who recruits Linnea (play:ritual: her ability does not act at the trial) is still
    offered the Omen use; only a witch whose ability acts after a trial (Dragomir, reading test) loses it. The old
    value dropped it for any recruited witch with a trigger."""
    g = og(reading("spiritual_link_dragomir", "one-use"), **{Kind.RECRUIT: 1, Kind.OMEN: 1, Kind.INGREDIENT: HERB})
    on(g, "spiritual-link", "bright")
    p = g.s.players[0]
    g.s.crowd_neutral = g.s.crowd_angry = 0
    p.crowd, p.supply, p.res = 4, 2, [0] * 6
    trials.judge(g, witch(g, "linnea"), [])
    assert witch(g, "linnea") in p.coven
    assert [d.context for d in g.policies[0].asked(Kind.OMEN)] == ["spiritual_link"] and p.res[HERB] == 1


# ---- B12 / B21c, seed 001: Recruit's 「Also, 獲得任一個群眾獎勵」 may come before the main ability (audit N6) ----


def _cat_recruit(order: int) -> tuple[int, list[str]]:
    """Seat 2 (Purple) in Cat form, one step from a vertex next to a Town but not next to one, plays a matched
    Recruit taking the move pick to that vertex; Also order `order`. Its crowd and the ALSO_ORDER contexts."""
    c = load_content()
    target = -1
    pol = Scripted(
        **{
            Kind.ALSO_ORDER: order,
            Kind.CROWD_PICK: PICKS.index("move"),
            Kind.MOVE: lambda d, v: target if target in d.options else v.me.vertex,
        }
    )
    g = Game(GameConfig(4, shapeshifting=True), c, [Scripted(), Scripted(), pol, Scripted()], 0)
    g.setup()
    g.s.buildings = {}
    p = g.s.players[2]
    town = [any(c.areas[a].town for a in areas) for areas in g.board.vertex_areas]
    start, target = next((v, w) for v in range(len(town)) for w in g.board.neighbours[v] if not town[v] and town[w])
    for q in g.s.players:
        if q is not p and q.vertex in (start, target):
            g.move_to(q, next(v for v in range(len(town)) if v not in g.s.occupied and v not in (start, target)))
    g.move_to(p, start)
    animal_seat(g, p).form = next(i for i, a in enumerate(c.animals) if a.id == "cat")
    p.coven = [witch(g, "hazel")]
    cover(g, p, p.coven[0])
    recruit = action(g, "recruit")
    g.s.played = [action(g, "heal"), action(g, "move"), recruit, action(g, "chant")]
    g.module("shapeshifting").start_phase(g)
    g.module("shapeshifting").reveal(g)
    p.supply, p.crowd = 6, 0
    actions.resolve_card(g, p, recruit, True, recruit)
    return p.crowd, [d.context for d in pol.asked(Kind.ALSO_ORDER)]


def test_b12_recruit_also_pick_may_come_first_cat_moves_next_to_a_town() -> None:
    """The move pick taken first brings the Cat next to a Town before its ability looks: 2 citizens to the crowd
    (main first: 1). The old Recruit never asked the order and always resolved the main first."""
    assert _cat_recruit(order=1) == (2, ["recruit"])
    assert _cat_recruit(order=0) == (1, ["recruit"])


def test_b12_recruit_order_not_asked_when_it_cannot_matter(content: Content) -> None:
    pol = Scripted()
    g = make_game(content, policies=[pol, Scripted()])
    actions.recruit(g, g.s.players[0], True, action(g, "recruit"))
    assert pol.asked(Kind.ALSO_ORDER) == [] and pol.asked(Kind.CROWD_PICK)  # human: main first, then the pick


# ---- O4 Empowering Constellation, seed 000 appendix: "If you ready a Spell as a Crowd Pick after a Trial, you
# cannot ready another." (audit N8) -----------------------------------------------------------------------------


def _ready_pick(content: Content, step: str) -> int:
    """Spells ready after one ready-spell crowd pick (three used spells) in `step`, Empowering Constellation on."""
    g = og(content, **{Kind.CROWD_PICK: PICKS.index("ready_spell"), Kind.PAY: first_active})
    on(g, "empowering-constellation", "bright")
    p = g.s.players[0]
    p.spells = [SpellCard(i) for i, sp in enumerate(content.spells) if sp.kind == "regular"][:3]
    for sp in p.spells:
        sp.ready = False
    p.res = [1, 0, 0, 0, 0, 0]
    g.s.step = step
    crowd.crowd_picks(g, p, 1)
    return sum(sp.ready for sp in p.spells)


def test_o4_empowering_constellation_limit_is_on_crowd_picks_after_a_trial(content: Content) -> None:
    """A ready pick in the moon phase (Recruit's bonus) is boosted like any ready (2 spells); after a trial only one.
    The old half withheld the boost from every crowd pick."""
    assert _ready_pick(content, "resolve") == 2 and _ready_pick(content, "crowd") == 1


# ---- O2, seed 000 Omens: "The positive effects are optional for each player" (audit N9) ---------------------------


def _bright(content: Content, card: str, answer: int, act: str) -> tuple[int, int, list[str]]:
    """A bright half acting for seat 0 (`act`: "play" heals, "season" takes effect, "trial" wins a trial) with the
    seat answering `answer` to the Omen question: its Wisdom, charms and the Omen questions asked."""
    g = og(content, **{Kind.OMEN: answer})
    on(g, card, "bright")
    p = g.s.players[0]
    fx = g.s.fx
    if act == "play":
        fx.on_play(g, p, action(g, "heal"))
    elif act == "season":
        fx.take_effect(g, om(g))
    else:
        fx.trial_won(g, p)
    return p.wisdom, p.charms, [d.context for d in g.policies[0].asked(Kind.OMEN)]


def test_o2_bright_halves_are_optional_for_each_player(content: Content) -> None:
    """Healing Hands (+1 Wisdom on Heal), Clear Memories (a charm at the season's start), Merciful Judges (+2 to the
    trial winner): each asks the player, and declining gives nothing. The old halves applied without asking."""
    charms = make_game(content).s.players[0].charms
    assert _bright(content, "healing-hands", 0, "play") == (0, charms, ["on_play"])
    assert _bright(content, "healing-hands", 1, "play") == (1, charms, ["on_play"])
    assert _bright(content, "confused-memories", 0, "season") == (0, charms, ["season_start"])
    assert _bright(content, "confused-memories", 1, "season") == (0, charms + 1, ["season_start"])
    assert _bright(content, "merciful-judges", 0, "trial") == (0, charms, ["trial_wisdom"])
    assert _bright(content, "merciful-judges", 1, "trial") == (2, charms, ["trial_wisdom"])


def test_o2_dark_halves_are_mandatory(content: Content) -> None:
    g = og(content)
    on(g, "healing-hands", "dark")  # Plague Winds: playing Heal costs 1 Wisdom
    p = g.s.players[0]
    p.wisdom = 3
    g.s.fx.on_play(g, p, action(g, "heal"))
    assert p.wisdom == 2 and g.policies[0].asked(Kind.OMEN) == []


# ---- the player chooses which ingredients to pay (audit N10): Brew's bonus 「可以少支付一個資源。`總和少一`」, the
# Alchemist's Gift "any 3 Ingredients ... any 2 Ingredients" --------------------------------------------------------

HERB_, ROOT_, SKULL_ = (INGREDIENTS.index(i) for i in ("herb", "root", "skull"))


def _brew_one(content: Content, potion: str, res: list[int], matched: bool, omen: str = "", **rules: object) -> Game:
    """Seat 0 brews one `potion` from `res` (matched: Brew's bonus, pay 1 less), `omen` a bright half in force."""
    g = og(content, **{Kind.BREW: lambda d, v: g.potion_index[potion] if g.potion_index[potion] in d.options else -1},
           **rules)  # fmt: skip
    if omen:
        on(g, omen, "bright")
    p = g.s.players[0]
    p.res = list(res)
    actions.brew(g, p, matched, action(g, "brew"))
    assert p.potions[g.potion_index[potion]] == 1
    return g


def test_b21_brew_discount_the_player_chooses_the_resource_kept(content: Content) -> None:
    """A matched Brew of an Infection Remedy (Herb + Mushroom) pays one less: the player keeps the Herb if it
    chooses (the old engine always dropped the recipe's last item, the Mushroom)."""
    g = _brew_one(content, "infection-remedy", [1, 0, 0, 1, 0, 0], True, **{Kind.DISCOUNT: HERB_})
    assert [(d.options, d.context) for d in g.policies[0].asked(Kind.DISCOUNT)] == [((0, 3), "potion:infection-remedy")]
    assert g.s.players[0].res == [1, 0, 0, 0, 0, 0]
    g = _brew_one(content, "infection-remedy", [1, 0, 0, 0, 0, 1], True, **{Kind.DISCOUNT: HERB_})
    assert g.s.players[0].res == [1, 0, 0, 0, 0, 0]  # kept the Herb, paid the Crystal for the Mushroom
    g = _brew_one(content, "infection-remedy", [1, 0, 0, 0, 0, 0], True)
    assert g.policies[0].asked(Kind.DISCOUNT) == [] and g.s.players[0].res == [0] * 6  # the missing Mushroom waived


def test_o4_alchemists_gift_the_player_chooses_the_ingredients(content: Content) -> None:
    """Under the Alchemist's Gift any 2 ingredients brew a Blindness Remedy: the player pays Skull and Root and
    keeps its Herb (the old engine paid the recipe's own Herb first)."""
    pay = {Kind.PAY: lambda d, v: next(o for o in (SKULL_, ROOT_) if o in d.options)}
    g = _brew_one(content, "blindness-remedy", [1, 1, 0, 0, 1, 0], False, "alchemists-gift", **pay)
    assert len(g.policies[0].asked(Kind.PAY)) == 2 and g.s.players[0].res == [1, 0, 0, 0, 0, 0]


# ---- W1 / audit C1: the Widow's action line claims no Septima match (it has no effect for her) -------------------


def test_w1_the_widow_action_claims_no_septima_match() -> None:
    """``septima-sim play -p 1 -s 1 --shapeshifting`` showed "Widow action move; matched the Septima" (S1 T4): the
    Septima's markers apply to the player only, so her action line names no Septima match."""
    out = script("play", "-p", "1", "-s", "1", "--shapeshifting")
    assert out.returncode == 0, out.stderr
    widow = [line for line in out.stdout.splitlines() if " Widow " in line and " action " in line]
    assert len(widow) == 20 and not [line for line in widow if "Septima" in line]
