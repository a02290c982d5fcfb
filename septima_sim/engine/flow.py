"""The flow of a game as the rulebook orders it: setup (B5-B6), the seasons (B2), preparation (B9), the moon phases
(B11-B17) and the end of a season (B31), as functions of the ``Game``.

``Game`` keeps a method of the same name for each phase (``g.setup()``, ``g.play_from(...)``, ``g.moon_phase()``...):
the engine, the search players and tests call those, and a phase calls the next one through them, so a subclass that
watches a phase (tests do) sees every call. The shared rules a phase uses (``ask``, suspicion, Wisdom, movement,
matching) stay on ``Game``; the state is ``g.s`` (``engine/game_state.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL, INGREDIENTS
from septima_sim.engine import actions, effects, hunters, potions, ritual, scoring, spells, trials
from septima_sim.engine.board import REGIONS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.draws import below, shuffle
from septima_sim.engine.state import TABLE, Patient

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.results import GameResult
    from septima_sim.engine.state import Player


def setup(g: Game) -> None:
    """B5-B6: players, witch draft, goals, board, hunters, markers, patients, leaders. A witch forced to a seat
    (rules.toml ``[setup.forced]``) leaves the deck after the shuffle and is one of that seat's dealt witches,
    never given back in the draft; a forced goal (``[setup.forced_goals]``) is one of the seat's dealt goals and a
    forced spell (``[setup.forced_spells]``, Full game) starts in the seat's hand (``spells.setup_market``). A
    searcher's recorder keeps the game as it is before (its draft decisions branch from there)."""
    if g.recorder is not None:
        g.recorder.mark(g, True)
    s = g.s
    r, rs, c = g.rules, g.rng_setup, g.content
    sink = g.sink is not None
    if sink:  # every public field from None: the log's start, what ``events.fold`` begins with
        g.note("start", TABLE, "the table before setup")
    s.start_player = s.first_player = below(rs, g.n)
    s.order = [(s.start_player + i) % g.n for i in range(g.n)]
    s.crystal_supply = r.crystal_supply
    if sink:
        g.note("setup", TABLE, f"start player seat {s.start_player}, the Crystal supply")
    for p in s.players:
        p.suspicion = r.suspicion_start
        p.suspicion_max = p.suspicion
        p.supply = r.loyal_citizens
        p.charms = r.start_charms
        p.hand = [i in s.hand_actions for i in range(len(c.actions))]
        p.ritual_col = c.ritual.start_column
        if sink:
            g.note("setup", p.seat, "suspicion, citizens, charms, hand, ritual column")
        g.gain_res(p, CRYSTAL, r.start_crystals)
    s.witch_deck = list(range(len(c.witches)))
    shuffle(rs, s.witch_deck)
    forced = {seat: w for seat, w in r.forced_witches if seat < g.n}  # [setup.forced]: dealt and kept
    for w in forced.values():
        s.witch_deck.remove(w)
    for seat in s.order:
        p = s.players[seat]
        own = forced.get(seat)
        dealt = [s.witch_deck.pop() for _ in range(r.witches_dealt if own is None else r.witches_dealt - 1)]
        if own is not None:
            dealt.insert(0, own)
        while len(dealt) > r.witches_kept:
            back = g.ask(Kind.DRAFT_RETURN, seat, dealt if own is None else dealt[1:])
            dealt.remove(back)
            s.witch_deck.insert(0, back)  # under the deck
        p.coven = dealt
        p.witches_start = len(dealt)
        s.drafted[seat] = list(dealt)
        if sink:
            g.note("coven", seat, f"drafted {', '.join(c.witches[w].id for w in dealt)}")
    s.goal_deck = [i for i, goal in enumerate(c.goals) if g.full or not goal.full_only]
    shuffle(rs, s.goal_deck)
    own_goals = {seat: i for seat, i in r.forced_goals if seat < g.n and i in s.goal_deck and r.goals_dealt}
    for i in own_goals.values():  # [setup.forced_goals]: taken out after the shuffle, one of the seat's goals
        s.goal_deck.remove(i)
    for seat in range(g.n):
        own_goal = own_goals.get(seat)
        s.goals[seat] = [s.goal_deck.pop() for _ in range(r.goals_dealt - (own_goal is not None))]
        if own_goal is not None:
            s.goals[seat].insert(0, own_goal)
    s.chamber1 = s.witch_deck.pop()
    s.crowd_neutral = r.neutral_crowd
    towns = [i for i, a in enumerate(c.areas) if a.town]
    tiles = list(range(len(c.buildings)))
    shuffle(rs, tiles)
    for area, b in zip(towns, tiles[: r.buildings_on_board], strict=False):
        s.buildings[area] = b
    icons = list(range(len(INGREDIENTS))) + [below(rs, len(INGREDIENTS)) for _ in range(r.lunar_extra_icons)]
    shuffle(rs, icons)
    s.lunar = icons
    s.patient_stack = list(range(len(c.patients)))
    shuffle(rs, s.patient_stack)
    for start in r.hunter_start_spaces[g.n]:
        s.hunter_space.append(start)
        s.hunter_active.append(True)
    if g.full:
        s.market = spells.setup_market(g)
    if sink:
        g.note("setup", TABLE, "witch on trial, crowd, buildings, hunters, spell market")
    for module_setup in g.hooks.setup:
        module_setup(g)
    if sink and g.hooks.setup:
        g.note("setup", TABLE, "modules")
    fill_patients(g)
    prepare_septima(g)
    for seat in reversed(s.order):
        opts = [v for v in g.board.edge_vertices if v not in s.occupied]
        g.move_to(s.players[seat], g.ask(Kind.START_VERTEX, seat, opts))
    for place_leaders in g.hooks.place_leaders:  # a module announces the pieces it places
        place_leaders(g)


def fill_patients(g: Game) -> None:
    """B9 step 3: draw patients until the board holds 4/5/6, each on its flag's lowest free space."""
    s = g.s
    target = g.rules.patients_on_board[g.n]
    tries = len(s.patient_stack)
    while len(s.patients) < target and s.patient_stack and tries > 0:
        tries -= 1
        tile = s.patient_stack.pop()
        disease, flag = g.content.patients[tile]
        space = next((sp for sp in g.space_order.get(flag, ()) if sp not in s.patients), None)
        if space is None:  # no free space of that colour (assumed): the tile goes to the discard
            s.patient_discard.append(tile)
            continue
        s.patients[space] = Patient(tile, disease, space, g.board.patient_spaces[space])
        if g.sink is not None:
            g.note("patients", TABLE, f"{g.content.diseases[disease].id} patient on {space}")


def prepare_septima(g: Game) -> None:
    """B9 step 4 / B10: all Septima markers back in the bag, shuffled, two revealed (right = this turn)."""
    g.s.septima_bag = list(g.mode_actions)
    shuffle(g.rng_draw, g.s.septima_bag)
    g.s.septima_right = g.s.septima_bag.pop()
    g.s.septima_left = g.s.septima_bag.pop()
    if g.sink is not None:
        g.note("septima", TABLE, septima_markers(g))


def play(g: Game) -> GameResult:
    """Play the whole game (B2) and return its result."""
    g.setup()
    return g.play_from(0, 0)


def play_from(
    g: Game, season0: int, turn0: int, forced: dict[int, int] | None = None, last_season: int | None = None
) -> GameResult:
    """Play on from the card selection of moon phase `turn0` of season `season0` to the end of the game.
    ``forced`` fixes the card of some seats in that first selection and ``last_season`` ends the game early,
    scoring as if that season were the last (both used by search players on a clone)."""
    seasons = len(g.rules.seasons) if last_season is None else last_season + 1
    for season in range(season0, seasons):
        g.s.season = season
        if season > season0:
            g.preparation()
        for turn in range(turn0 if season == season0 else 0, g.rules.turns_per_season):
            g.s.turn = turn
            g.moon_phase(forced if season == season0 and turn == turn0 else None)
        g.s.step = "trial"
        g.cause = "trial"
        trials.trial_phase(g, crowd_picks=season < seasons - 1)
        if season < seasons - 1:
            g.end_of_season()
    g.s.step = "game_end"
    g.cause = "game_end"
    return scoring.final_result(g)


def preparation(g: Game) -> None:
    """B9: new witch on trial, angry citizens on staying patients, refill patients, Septima markers."""
    g.s.step = "preparation"
    g.cause = "preparation"
    g.s.turn = 0
    if g.s.witch_deck:
        g.s.chamber1 = g.s.witch_deck.pop()
        if g.sink is not None:
            g.note("witch_on_trial", TABLE, g.content.witches[g.s.chamber1].id)
    for patient in g.s.patients.values():
        patient.angry = 1
    if g.sink is not None and g.s.patients:
        g.note("patients", TABLE, f"an angry citizen on each of the {len(g.s.patients)} staying patients")
    fill_patients(g)
    prepare_septima(g)
    for start_season in g.hooks.start_season:
        start_season(g)


def moon_phase(g: Game, forced: dict[int, int] | None = None) -> None:
    """B11-B17: select, resolve (pre-move, card, suspicion, ritual), hunter rolls, relocation, end."""
    s = g.s
    players = s.players
    if g.recorder is not None:
        g.recorder.mark(g, False)
    s.step = "select"
    g.cause = "select"
    for p in players:
        p.raised = False
    for start_phase in g.hooks.start_phase:
        start_phase(g)
    choices = [
        forced[p.seat] if forced and p.seat in forced else g.ask(Kind.CARD, p.seat, g.card_options(p)) for p in players
    ]
    for seat, card in enumerate(choices):  # reveal
        s.played[seat] = card
        players[seat].hand[card] = False
        if g.sink is not None:
            g.note("reveal", seat, g.action_ids[card])
    for reveal in g.hooks.reveal:
        reveal(g)
    s.step = "resolve"
    for before_turns in g.hooks.before_turns:
        before_turns(g)
    for seat in s.order:
        g.resolve_turn(players[seat])
    for after_turns in g.hooks.after_turns:
        after_turns(g)
    s.step = "hunter"
    g.cause = "hunter"
    for seat in s.order:
        hunters.hunter_roll(g, players[seat])
    s.step = "relocation"
    g.cause = "relocation"
    for seat in s.order:
        hunters.relocate_hunter(g, players[seat])
    g.end_moon_phase()


def resolve_turn(g: Game, p: Player) -> None:
    """B12-B14 for one seat: optional pre-move, the card, the suspicion step, ritual progress. The ``action``
    event opens the turn; every change the card makes follows as its own event (cause ``action:<card>``, or the
    witch, spell, building... that made it)."""
    seat, card = p.seat, g.s.played[p.seat]
    prev = g.cause
    g.cause = "premove"
    opts = [p.vertex] + [v for v in g.board.neighbours[p.vertex] if v not in g.s.occupied]
    dest = g.ask(Kind.PREMOVE, seat, opts)
    if dest != p.vertex:
        g.move_to(p, dest)
    potions.offer_potions(g, p, before=True)  # reading practical_potions = "own-turn" only
    others, septima = g.matched(seat, card)
    oil = False
    if others == 0 and not septima and not p.no_raise:  # S4: no effect that needs a raise in animal form
        oil = potions.offer_ritual_oil(g, p)
    matched = others > 0 or septima or oil
    p.played[card] += 1
    if others:
        p.matches_players += 1
    if septima:
        p.matches_septima += 1
    if g.sink is not None:
        g.emit(
            "action",
            seat,
            action=g.action_ids[card],
            matched_players=others,
            matched_septima=septima,
            matched_other="ritual-oil" if oil else None,
            cause=g.tables.action_cause[card],
        )
    g.cause = g.tables.action_cause[card]
    actions.resolve_card(g, p, card, matched, card)
    icon = g.icon[card]
    effects.trigger(g, p, g.play_trigger[icon])
    if g.s.fx.uses_on_play:  # Omens: a half that acts when an action is played
        g.s.fx.on_play(g, p, icon)
    if g.full:
        ritual.offer_spells(g, p, icon)
    g.suspicion_step(p, card, others, septima, oil)
    if g.full and matched:
        g.cause = "ritual_progress"
        ritual.ritual_progress(g, p, icon)
    potions.offer_potions(g, p)
    g.cause = prev


def suspicion_step(g: Game, p: Player, card: int, others: int, septima: bool, oil: bool) -> None:
    """B13: +1 for matching a player, +2 for the Septima (both: +3); a matched Chant (or Shapeshift) raises
    none; Ritual Oil still raises 1. Reading ``remember_chant``: a matched Remember copying Chant raises as any
    Remember ("raises", B21e) or not ("no-raise": the copied bonus's no-raise comes with it). Modules may change it
    (S4: in animal form, unmatched -1, matched 0)."""
    before = p.suspicion
    r = g.rules
    copy = g.s.remember_copy[p.seat]
    if g.icon[card] == g.chant or (
        copy >= 0 and g.icon[copy] == g.chant and g.rules.readings.remember_chant.value == "no-raise"
    ):
        raise_by = 0
    else:
        raise_by = (r.match_player if others else 0) + (r.match_septima if septima else 0)
        if others and g.s.fx.uses_match_raise:
            raise_by += g.s.fx.match_raise(g)  # Omens: Suspicious Allies
        if oil:
            raise_by += r.ritual_oil
    for suspicion_change in g.hooks.suspicion_change:
        raise_by = suspicion_change(g, p, bool(others or septima or oil), raise_by)
    overflows = p.overflows
    if raise_by < 0:
        g.lower_suspicion(p, -raise_by, "match", "suspicion")
    else:
        g.raise_suspicion(p, raise_by, "match", "suspicion")
    if g.sink is not None and p.suspicion == before and p.overflows == overflows:
        g.emit(  # the step changed nothing: still one event per seat and turn
            "suspicion",
            p.seat,
            suspicion_before=before,
            suspicion_after=before,
            cause="match",
            detail=f"{raise_by:+d}",
        )


def end_moon_phase(g: Game) -> None:
    """B17: Septima markers shift, played cards to discard, hunters stand, healed patients leave."""
    s = g.s
    s.step = "end_phase"
    g.cause = "end_phase"
    s.septima_right = s.septima_left
    s.septima_left = s.septima_bag.pop() if s.septima_bag else -1
    sink = g.sink is not None
    if sink:
        g.note("septima", TABLE, septima_markers(g))
    returning = s.returning_card
    for seat, p in enumerate(s.players):
        card = s.played[seat]
        if card == returning:
            p.hand[card] = True  # S2: Shapeshift returns to hand at the end of the turn
        else:
            p.discard.append(card)
        s.played[seat] = -1
        s.remember_copy[seat] = -1
        for sp in p.spells:
            sp.used_turn = -1
        if sink and card >= 0:
            g.note("hand" if card == returning else "discard", seat, f"{g.action_ids[card]} played")
    for end_turn in g.hooks.end_turn:
        end_turn(g)
    lying = sink and not all(s.hunter_active)
    for h in range(len(s.hunter_active)):
        s.hunter_active[h] = True
    if lying:
        g.note("hunters", TABLE, "all hunters stand")
    for space in [sp for sp, pt in s.patients.items() if pt.healed_by]:
        patient = s.patients.pop(space)
        for potion in patient.remedies:
            s.potion_supply[potion] += 1
        s.patient_discard.append(patient.tile)
        if sink:
            g.note("patients", TABLE, f"healed patient leaves {space}")


def septima_markers(g: Game) -> str:
    """The Septima's two revealed markers (right = this turn's), for an event."""
    ids = g.action_ids
    right = ids[g.s.septima_right] if g.s.septima_right >= 0 else "-"
    left = ids[g.s.septima_left] if g.s.septima_left >= 0 else "-"
    return f"right {right}, left {left}"


def end_of_season(g: Game) -> None:
    """B31: patients under the stack, season advances (new hunter in Winter and Summer), start player passes,
    cards return to hand, spell market refreshes; ongoing spells and the Magic Mirror end."""
    s = g.s
    s.step = "season_end"
    g.cause = "season_end"
    sink = g.sink is not None
    shuffle(g.rng_draw, s.patient_discard)
    s.patient_stack[:0] = s.patient_discard
    if sink and s.patient_discard:
        g.note("patients", TABLE, f"{len(s.patient_discard)} patients under the stack")
    s.patient_discard = []
    next_season = g.rules.seasons[s.season + 1]
    if next_season in g.rules.hunter_enter_seasons:
        taken = set(s.hunter_space)
        free = [sp for sp in range(1, REGIONS + 1) if sp not in taken]
        if free:
            s.hunter_space.append(free[0])
            s.hunter_active.append(True)
            if sink:
                g.note("hunters", TABLE, f"hunter {len(s.hunter_space) - 1} enters on space {free[0]}")
    s.start_player = (s.start_player + 1) % g.n
    s.order = [(s.start_player + i) % g.n for i in range(g.n)]
    if sink:
        g.note("start_player", TABLE, f"seat {s.start_player}")
    for p in s.players:
        if not g.keeps_discards and p.discard:  # S6: with Shapeshifting, step 4 is skipped for everyone
            back = len(p.discard)
            for card in p.discard:
                p.hand[card] = True
            p.discard = []
            if sink:
                g.note("hand", p.seat, f"+{back} cards back from the discard")
        ending = sink and (p.mirror >= 0 or any(sp.active for sp in p.spells))
        p.mirror = -1
        for sp in p.spells:
            sp.active = False
        if ending:
            g.note("season_over", p.seat, "the Magic Mirror's witch and ongoing spells end")
    if g.full:
        spells.refresh_market(g)
    if sink:
        g.emit("season_end", TABLE, detail=g.rules.seasons[s.season], cause="season_end")
    for end_of_season in g.hooks.end_of_season:  # step 6: the next Omen takes effect
        end_of_season(g)
