"""Frozen content dataclasses the engine reads. Built by the loader; read-only all the way down: every container
is a tuple or a FrozenDict, so a Content cached per process and shared by many games cannot be changed by one."""

from __future__ import annotations

from dataclasses import dataclass, field

from septima_sim._build.pickling import pickle_by_constructor
from septima_sim.content.frozen import FrozenDict

INGREDIENTS: tuple[str, ...] = ("herb", "root", "berry", "mushroom", "skull")
"""The five ingredient types; resources are indexed 0..4 in this order and Crystal is index 5."""
CRYSTAL = 5

PROVENANCE_TAGS: tuple[str, ...] = ("seed-base", "seed-expansion", "public", "assumed")
"""Where a number or card comes from (docs/rules.md): the seeds, public sources, or an assumption of ours."""

EFFECT_KINDS: frozenset[str] = frozenset(
    {
        "wisdom",  # amount, source
        "ingredient",  # kind: an ingredient id or "any"
        "crystal",  # amount
        "charm",  # amount
        "suspicion",  # amount (negative lowers)
        "move",  # steps (0 = any number)
        "citizen_to_crowd",  # amount
        "crowd_pick",  # amount
        "ready_spell",  # amount
        "gain_spell",  # a spell of the ritual column's element
        "potion",  # kind: "remedy" | "practical" | "any" | a potion id
        "return_card",  # amount: discarded action cards back to hand
        "magic_mirror",  # borrow the ability of a witch not in your coven
        "passive",  # an ongoing modifier: name, amount
    }
)
"""Effect names a content pack may use; the engine implements each (tests check both lists agree)."""

WISDOM_SOURCES: tuple[str, ...] = (
    "brewing",
    "plead",
    "trials",
    "ritual",
    "spells",
    "divination",
    "patients",
    "loyal_citizens",
    "charms",
    "potions",
    "resources",
    "omens",
    "other",
    "penalties",
)
"""Where Wisdom is booked (an effect's ``source = ...``); the engine's ``results.SOURCES`` is this tuple."""

CAUSE_FAMILIES: dict[str, str] = {
    "action": "actions",
    "witch": "witches",
    "building": "buildings",
    "spell": "spells",
    "animal": "animals",
    "omen": "omens",
    "potion": "potions",
    "brew": "potions",
    "ritual_row": "ritual",
    "patient": "patients",
    "crowd_pick": "crowd",
    "trial": "trials",
    "divination": "divination",
    "end": "scoring",
    "capture": "penalties",
    "overflow": "penalties",
}
"""The Wisdom family of a cause id, by its prefix (a content kind, ``witch:johanna`` -> witches; a module's
components such as ``animal:`` and ``omen:`` included): each family is a players column ``wisdom_from_<family>``."""

READINGS: dict[str, tuple[str, ...]] = {
    "hunter_direction": ("counterclockwise", "clockwise"),
    "fox_ability": ("after-move", "the-move"),
    "practical_potions": ("own-turn", "after-card"),
    "remember_abilities": ("card-text", "played-card", "copied-card"),
    "spiritual_link_dragomir": ("two-uses", "one-use"),
    "remember_chant": ("raises", "no-raise"),
    "plead_empty_chamber": ("witch-needed", "any-chamber"),
}
"""The readings a designer can switch (rules.toml [readings], docs/rules.md) and the values the engine plays."""

PASSIVE_KINDS: frozenset[str] = frozenset(
    {
        "brew_discount",  # pay `amount` fewer ingredients in total when brewing
        "collect_extra",  # Collect gains `amount` more lunar ingredients (of types you collected)
        "heal_extra",  # heal up to `amount` more patients
        "heal_any_track",  # a heal may advance any disease track (Edith)
        "move_extra",  # Move main moves `amount` more steps
        "trial_recall",  # as trial winner recall `winner` citizens; after crowd picks recall `after_picks`
    }
)

STATS: frozenset[str] = frozenset(
    {
        "witches",
        "patients_healed",
        "diseases_healed",
        "ritual_row",
        "suspicion",
        "crowd_loyal",
        "practical_brewed",
        "trials_won",
        "spells",
        "resources",
        "charms",
        "potions",
        "captures",
        "ingredients_gained",
        "goals_scored",
        "wisdom_lead",  # Wisdom minus the Black Widow's (solo)
    }
)
"""Player statistics that goals and scoring spells can read."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect: a named hook and its parameters (``effect = "ingredient", kind = "any"``)."""

    kind: str
    amount: int = 1
    arg: str = ""  # kind/name/source, depending on the effect
    source: str = "other"


@dataclass(frozen=True, slots=True)
class Ability:
    """A witch's or building's ability: triggered effects or a passive modifier."""

    trigger: str = ""  # "play:<action>", "after_trial" or "" for a passive ability
    effects: tuple[Effect, ...] = ()
    passive: str = ""  # passive modifier name
    amount: int = 0
    amount2: int = 0  # second parameter (trial_recall: after_picks)


WIDOW_EFFECTS: frozenset[str] = frozenset(
    {
        "widow_wisdom",  # amount: Widow Wisdom
        "chase",  # amount: steps her leader moves toward the player's leader
        "take_patient",  # the lowest-numbered patient leaves the board
        "widow_suspicion",  # amount (negative lowers)
        "widow_citizen",  # amount: Widow citizens to the crowd
        "widow_plead",  # amount: Widow citizens into the first trial chamber
        "repeat_last",  # her previous card's effects again
        "block_ritual",  # her marker climbs the ritual track and blocks the cell it stands on
    }
)
"""Effects of the Black Widow's action markers (solo, W2)."""


@dataclass(frozen=True, slots=True)
class Tribulation:
    """A solo end-of-game condition (W4): ``check`` = (stat, op, value); ``basic`` replaces it in Basic mode."""

    id: str
    name: str
    check: tuple[str, str, int]
    basic: tuple[str, str, int] | None
    provenance: str


@dataclass(frozen=True, slots=True)
class Widow:
    """The Black Widow automa of solo mode (W1-W4)."""

    suspicion_start: int
    match_suspicion: int
    citizens: int
    spiders: int
    spider_steps: int
    spider_suspicion: int
    trial_win_wisdom: int
    needed: int
    needed_shapeshifting: int
    cards: FrozenDict[str, tuple[Effect, ...]]
    tribulations: tuple[Tribulation, ...]


@dataclass(frozen=True, slots=True)
class Action:
    id: str
    name: str
    bonus: str  # "also" | "instead" | "strengthen"
    full_only: bool
    provenance: str
    module: str = ""  # module that adds the card ("shapeshifting"), "" for the base game
    icon: str = ""  # action whose icon the card carries (Shapeshift: chant), "" for its own


ANIMAL_ABILITIES: frozenset[str] = frozenset(
    {
        "crowd_picks_instead",  # Serpent
        "brew_without",  # Toad
        "move_to_ingredient",  # Fox
        "lunar_extra",  # Squirrel
        "recruit_near_town",  # Cat
        "plead_extra",  # Owl
        "pay_to_ready",  # Goat
        "heal_gain",  # Hare
    }
)
"""Animal ability hooks the engine implements (Shapeshifting module)."""


@dataclass(frozen=True, slots=True)
class Animal:
    """An animal tile (S7): its four actions (leftmost first) and the ability used with the leftmost one."""

    id: str
    name: str
    colour: str
    actions: tuple[str, ...]
    ability: str
    amount: int  # picks / max / amount, depending on the ability
    amount2: int  # bonus_picks (Serpent)
    ingredient: int  # ingredient index the ability names (Toad, Goat: spent/waived; Fox, Hare: gained), -1 for none
    near: int  # ingredient index printed on the area to end next to (Fox), -1 for none
    provenance: str


OMEN_HOOKS: FrozenDict[str, tuple[str, ...]] = FrozenDict(
    {
        # seed-named halves (RULINGS O4)
        "alchemists_gift": ("love_cost", "other_cost"),  # Love Potion from any love_cost ingredients, others other_cost
        "ready_extra": ("amount",),  # readying a spell readies `amount` more (not as a crowd pick after a trial)
        "heal_any_remedy": (),  # any Remedy heals any patient (track of the patient; Edith: any)
        "exile_witch": (),  # each player marks a coven witch face down (ability off), exiled at the season's end
        "free_practical": ("brewed",),  # a Brew that brews at least `brewed` potions also gains a free Practical one
        "buildings_anywhere": (),  # building abilities need no adjacency (outcrops and shrines still do)
        "offering_cost": ("amount",),  # an offering to enter a ribbon row costs `amount` ingredients
        "trial_picks": ("amount", "max"),  # crowd picks after the trials change by `amount`, at most `max`
        "spiritual_link": ("everyone", "excluded"),  # the acquitted witch's ability for the trial winner, once
        "forbid_action": ("action",),  # the action cannot be played
        "no_abilities": (),  # no coven witch or animal abilities (a mirrored witch still works)
        "raise_costs_wisdom": ("amount",),  # each suspicion raise costs `amount` Wisdom
        "match_player_extra": ("amount",),  # matching another player raises suspicion by `amount` more
        # assumed halves
        "on_play": ("action", "effects"),  # playing the action (its icon) also applies the effects
        "play_penalty": ("action", "amount"),  # playing the action (its icon) costs `amount` Wisdom
        "season_start": ("effects",),  # each player applies the effects when the Omen comes into effect
        "season_pay": ("amount", "wisdom"),  # each player pays `amount` resources; `wisdom` per one not paid
        "brew_limit": ("amount",),  # Brew brews at most `amount` potions
        "buildings_closed": (),  # building abilities do not apply
        "trial_wisdom": ("amount",),  # a trial winner's Wisdom changes by `amount`
        # the Witches' Sabbath (O5): resolves at once, about the trials of the last season
        "sabbath_won": ("amount",),  # `amount` Wisdom per trial of the last season you won
        "sabbath_absent": ("amount",),  # lose `amount` Wisdom per trial of the last season without your citizen in it
    }
)
"""Omen half hooks the engine implements and their parameters (ints unless named in OMEN_PARAM_KINDS)."""
OMEN_PARAM_KINDS: FrozenDict[str, str] = FrozenDict(
    {
        "action": "action",
        "effects": "effects",
        "everyone": "witches",
        "excluded": "witches",
    }
)


@dataclass(frozen=True, slots=True)
class OmenHalf:
    """One half of an Omen card: a named hook and its parameters (``effect = "offering_cost", amount = 0``)."""

    name: str
    hook: str
    params: FrozenDict[str, object]
    provenance: str


@dataclass(frozen=True, slots=True)
class Omen:
    """An Omen card (O1): a bright (positive, optional) and a dark (negative, mandatory) half."""

    id: str
    name: str
    bright: OmenHalf
    dark: OmenHalf
    sabbath: bool
    provenance: str


@dataclass(frozen=True, slots=True)
class Potion:
    id: str
    name: str
    kind: str  # "remedy" | "practical"
    cures: str  # disease id for remedies
    use: str  # practical use: calming | flying | love | ritual-oil
    recipe: tuple[int, ...]  # ingredient indices
    wisdom: int
    provenance: str


@dataclass(frozen=True, slots=True)
class Disease:
    id: str
    name: str
    rewards: tuple[Effect, ...]
    end_values: tuple[int, ...]
    provenance: str


@dataclass(frozen=True, slots=True)
class Area:
    id: str
    q: int
    r: int
    ingredient: int  # index into INGREDIENTS, -1 for none
    river: bool
    town: bool
    hospital: bool
    outcrop: bool
    shrine: str  # element or ""
    patient_spaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Spell:
    id: str
    name: str
    element: str
    kind: str  # "scoring" | "regular"
    requires: str
    ongoing: bool
    effects: tuple[Effect, ...]
    per: str
    unit: int
    amount: int
    provenance: str


@dataclass(frozen=True, slots=True)
class Witch:
    id: str
    name: str
    ability: Ability
    provenance: str


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    ability: Ability
    provenance: str


@dataclass(frozen=True, slots=True)
class Goal:
    id: str
    name: str
    stat: str
    op: str  # ">=" | "<="
    value: int
    wisdom: int
    full_only: bool
    provenance: str


@dataclass(frozen=True, slots=True)
class Rules:
    """The general numbers of rules.toml."""

    seasons: tuple[str, ...]
    turns_per_season: int
    loyal_citizens: int
    witches_dealt: int
    witches_kept: int
    max_witches: int
    goals_dealt: int
    start_crystals: int
    start_charms: int
    neutral_crowd: int
    buildings_on_board: int
    suspicion_start: int
    suspicion_min: int
    suspicion_max: int
    match_player: int
    match_septima: int
    ritual_oil: int
    overflow_wisdom_loss: int
    angry_by_level: tuple[int, ...]
    patients_on_board: FrozenDict[int, int]
    all_tracks_bonus: int
    trial_seats: FrozenDict[int, int]
    winner_wisdom: int
    winner_recall: int
    pick_thresholds: tuple[int, ...]
    recall_after_picks: int
    crowd_move_steps: int
    crowd_suspicion: int
    plead_wisdom: int
    brew_max: int
    heal_max: int
    move_steps: int
    chant_suspicion: int
    chant_bonus_suspicion: int
    brew_bonus_discount: int
    calming_suspicion: int
    potion_supply: int
    ritual_top_wisdom: int
    loyal_scores: tuple[tuple[int, int], ...]
    charm_wisdom: int
    potion_wisdom: int
    resources_per_wisdom: int
    hunter_die: tuple[int, ...]
    hunter_start_spaces: FrozenDict[int, tuple[int, ...]]
    hunter_enter_seasons: tuple[str, ...]
    lunar_extra_icons: int
    crystal_supply: int
    shapeshift_bonus_suspicion: int
    readings: Readings
    forced_witches: tuple[tuple[int, int], ...] = ()
    """(seat, witch index) pairs: the witch is dealt to that seat and kept (rules.toml ``[setup.forced]``)."""
    forced_spells: tuple[tuple[int, int], ...] = ()
    """(seat, spell index) pairs: the spell is in that seat's hand at the start of a Full game
    (``[setup.forced_spells]``)."""
    forced_goals: tuple[tuple[int, int], ...] = ()
    """(seat, goal index) pairs: the goal is one of that seat's dealt goals (``[setup.forced_goals]``)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of an ambiguous rule: the value in force, the values allowed, where it comes from, what it
    means."""

    value: str
    allowed: tuple[str, ...]
    provenance: str
    description: str


@dataclass(frozen=True, slots=True)
class Readings:
    """The readings in force (rules.toml [readings]), one per ``READINGS`` name."""

    hunter_direction: Reading
    fox_ability: Reading
    practical_potions: Reading
    remember_abilities: Reading
    spiritual_link_dragomir: Reading
    remember_chant: Reading
    plead_empty_chamber: Reading


@dataclass(frozen=True, slots=True)
class Ritual:
    columns: tuple[tuple[str, ...], ...]  # elements per column
    start_column: int
    rows: tuple[tuple[str, ...], ...]  # rows[0] = row 1
    ribbons: FrozenDict[int, tuple[int, tuple[Effect, ...]]]  # row -> (offering, rewards)


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the engine needs, validated. ``hash`` identifies the exact pack (after overrides)."""

    rules: Rules
    actions: tuple[Action, ...]
    potions: tuple[Potion, ...]
    diseases: tuple[Disease, ...]
    patients: tuple[tuple[int, str], ...]  # (disease index, flag colour) per patient tile
    areas: tuple[Area, ...]
    ritual: Ritual
    spells: tuple[Spell, ...]
    witches: tuple[Witch, ...]
    buildings: tuple[Building, ...]
    goals: tuple[Goal, ...]
    animals: tuple[Animal, ...]
    widow: Widow
    hash: str
    provenance: FrozenDict[str, FrozenDict[str, int]] = field(default_factory=FrozenDict)  # file -> tag -> count
    assumed: FrozenDict[str, tuple[str, ...]] = field(default_factory=FrozenDict)
    """Partly assumed items: their name in the content tree (``witches.johanna``, ``setup``, ``omens.paranoia.dark``)
    -> the fields assumed (``assumed = [...]`` beside ``provenance``)."""
    omens: tuple[Omen, ...] = ()
    omen_threshold: FrozenDict[int, int] = field(default_factory=FrozenDict)  # players -> suspicion for the dark half
    omen_deck_size: int = 3  # cards above the Witches' Sabbath


pickle_by_constructor(globals())  # compiled (mypyc) frozen dataclasses must unpickle too (issue #19)
