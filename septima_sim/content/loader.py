"""Read a content pack (TOML) into a tree, apply overrides, validate, and build the frozen Content."""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

from septima_sim.content.model import (
    ANIMAL_ABILITIES,
    EFFECT_KINDS,
    INGREDIENTS,
    OMEN_HOOKS,
    OMEN_PARAM_KINDS,
    PASSIVE_KINDS,
    STATS,
    WIDOW_EFFECTS,
    Ability,
    Action,
    Animal,
    Area,
    Building,
    Content,
    Disease,
    Effect,
    Goal,
    Omen,
    OmenHalf,
    Potion,
    Ritual,
    Rules,
    Spell,
    Tribulation,
    Widow,
    Witch,
)

BASE_DIR = Path(__file__).parent / "base"
PROVENANCE_TAGS = ("seed-base", "seed-expansion", "public", "assumed")

# item tables: TOML array name -> (tree namespace, file)
_ITEM_TABLES = {
    "ingredient": ("ingredients", "ingredients.toml"),
    "action": ("actions", "actions.toml"),
    "potion": ("potions", "potions.toml"),
    "disease": ("diseases", "patients.toml"),
    "patient": ("patient_tiles", "patients.toml"),
    "spell": ("spells", "spells.toml"),
    "witch": ("witches", "witches.toml"),
    "building": ("buildings", "buildings.toml"),
    "goal": ("goals", "goals.toml"),
    "animal": ("animals", "animals.toml"),
    "widow_card": ("widow_cards", "widow.toml"),
    "tribulation": ("tribulations", "widow.toml"),
}
_ITEM_KEYS = {"patient": "disease", "widow_card": "action"}  # the field that identifies an item (default: id)
_FILES = (
    "rules.toml",
    "ingredients.toml",
    "actions.toml",
    "potions.toml",
    "patients.toml",
    "map.toml",
    "ritual.toml",
    "spells.toml",
    "witches.toml",
    "buildings.toml",
    "goals.toml",
    "animals.toml",
    "widow.toml",
    "omens.toml",
)


class ContentError(ValueError):
    """A content pack is malformed; the message names the file and the key."""


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ContentError(f"{path.name}: file missing from content pack {path.parent}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: invalid TOML: {exc}") from None


def _keyed(items: list[dict[str, Any]], key: str, file: str, table: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(items):
        if key not in item:
            raise ContentError(f"{file}: {table}[{i}]: missing '{key}'")
        ident = str(item[key])
        if ident in out:
            raise ContentError(f"{file}: {table}.{ident}: duplicate id")
        out[ident] = {k: v for k, v in item.items() if k != key}
    return out


def content_tree(content_dir: Path | None = None) -> dict[str, Any]:
    """Read every file of a pack into one tree. Item lists become dicts keyed by id (plural namespace)."""
    root = Path(content_dir) if content_dir else BASE_DIR
    if not root.is_dir():
        raise ContentError(f"content pack {root}: not a directory")
    tree: dict[str, Any] = {"_files": {}}
    for file in _FILES:
        data = _read(root / file)
        if file == "rules.toml":
            for name, table in data.items():
                tree[name] = table
                tree["_files"][name] = file
        elif file == "map.toml":
            tree["map"] = {
                "provenance": data.get("provenance", ""),
                "areas": _keyed(data.get("area", []), "id", file, "area"),
            }
            tree["_files"]["map"] = file
        elif file == "ritual.toml":
            ritual = tree.setdefault("ritual", {})
            ritual.update({k: v for k, v in data.items() if k != "ribbon"})
            ritual["ribbons"] = {
                str(r["row"]): {k: v for k, v in r.items() if k != "row"} for r in data.get("ribbon", [])
            }
            tree["_files"]["ritual"] = file
        elif file == "omens.toml":  # numbers at the top, cards keyed by id beside them: omens.threshold.4, omens.<id>
            omens = {k: v for k, v in data.items() if k != "omen"}
            for ident, card in _keyed(data.get("omen", []), "id", file, "omen").items():
                if ident in omens:
                    raise ContentError(f"{file}: omen.{ident}: an Omen id may not be a table key")
                omens[ident] = card
            tree["omens"] = omens
            tree["_files"]["omens"] = file
        else:
            for table, items in data.items():
                if table in _ITEM_TABLES:
                    ns, _ = _ITEM_TABLES[table]
                    key = _ITEM_KEYS.get(table, "id")
                    tree[ns] = _keyed(items, key, file, table)
                    tree["_files"][ns] = file
                else:
                    tree[table] = items
                    tree["_files"][table] = file
    return tree


def leaf_paths(tree: dict[str, Any], prefix: str = "") -> list[str]:
    """Every dotted path to a scalar or list value in the tree (the valid override paths)."""
    out: list[str] = []
    for key, value in tree.items():
        if key == "_files":
            continue
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(leaf_paths(value, path + "."))
        else:
            out.append(path)
    return out


def apply_overrides(tree: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of the tree with dotted-path overrides applied; an unknown path names the nearest valid ones."""
    if not overrides:
        return tree
    tree = copy.deepcopy(tree)
    valid = leaf_paths(tree)
    for path, value in overrides.items():
        node: Any = tree
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                break
        if not isinstance(node, dict) or parts[-1] not in node or isinstance(node[parts[-1]], dict):
            near = difflib.get_close_matches(path, valid, n=3, cutoff=0.5)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise ContentError(f"override '{path}': no such content value{hint}")
        node[parts[-1]] = value
    return tree


def _hash(tree: dict[str, Any]) -> str:
    clean = {k: v for k, v in tree.items() if k != "_files"}
    return hashlib.sha256(json.dumps(clean, sort_keys=True, default=str).encode()).hexdigest()[:16]


def load_content(content_dir: Path | str | None = None, overrides: dict[str, Any] | None = None) -> Content:
    """Load, override and validate a content pack. Raises ContentError naming the file and key."""
    tree = apply_overrides(content_tree(Path(content_dir) if content_dir else None), overrides or {})
    return _Builder(tree).build()


class _Builder:
    """Validates the tree while building the dataclasses; every error names file and key."""

    def __init__(self, tree: dict[str, Any]) -> None:
        self.tree = tree
        self.files: dict[str, str] = tree.get("_files", {})
        self.provenance: dict[str, dict[str, int]] = {}

    # -- helpers -------------------------------------------------------------------------------------------
    def fail(self, ns: str, key: str, msg: str) -> ContentError:
        return ContentError(f"{self.files.get(ns, ns)}: {ns}.{key}: {msg}")

    def get(self, ns: str, key: str, kind: type | tuple[type, ...] = int, *, minimum: int | None = 0) -> Any:
        table = self.tree.get(ns)
        if not isinstance(table, dict) or key not in table:
            raise self.fail(ns, key, "missing")
        value = table[key]
        if isinstance(value, bool) and kind is int:
            raise self.fail(ns, key, f"expected an integer, got {value!r}")
        if not isinstance(value, kind):
            raise self.fail(ns, key, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
        if kind is int and minimum is not None and value < minimum:
            raise self.fail(ns, key, f"must be >= {minimum}, got {value}")
        return value

    def count(self, ns: str, tag: str) -> None:
        if tag not in PROVENANCE_TAGS:
            raise self.fail(ns, "provenance", f"unknown tag {tag!r} (use one of {', '.join(PROVENANCE_TAGS)})")
        file = self.files.get(ns, ns)
        self.provenance.setdefault(file, {}).setdefault(tag, 0)
        self.provenance[file][tag] += 1

    def items(self, ns: str) -> dict[str, dict[str, Any]]:
        items = self.tree.get(ns)
        if not isinstance(items, dict) or not items:
            raise self.fail(ns, "*", "no items")
        for ident, item in items.items():
            self.count(ns, str(item.get("provenance", "")) or "missing")
            del ident
        return items

    def ingredient(self, ns: str, key: str, name: Any) -> int:
        if name not in INGREDIENTS:
            raise self.fail(ns, key, f"unknown ingredient {name!r}")
        return INGREDIENTS.index(name)

    def effect(self, ns: str, key: str, raw: Any) -> Effect:
        if not isinstance(raw, dict) or "effect" not in raw:
            raise self.fail(ns, key, f"an effect needs 'effect = ...', got {raw!r}")
        kind = raw["effect"]
        if kind not in EFFECT_KINDS:
            near = difflib.get_close_matches(str(kind), sorted(EFFECT_KINDS), n=2)
            raise self.fail(
                ns, key, f"unknown effect {kind!r}" + (f" (did you mean {', '.join(near)}?)" if near else "")
            )
        amount = raw.get("amount", raw.get("steps", 1))
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise self.fail(ns, key, f"amount must be an integer, got {amount!r}")
        arg = str(raw.get("kind", raw.get("name", "")))
        if kind == "ingredient" and arg != "any":
            self.ingredient(ns, key, arg)
        if kind == "potion" and arg not in ("remedy", "practical", "any") and arg not in self.tree.get("potions", {}):
            raise self.fail(ns, key, f"unknown potion {arg!r}")
        if kind == "passive" and arg not in PASSIVE_KINDS:
            raise self.fail(ns, key, f"unknown passive {arg!r}")
        if kind in ("crystal", "charm", "citizen_to_crowd", "crowd_pick", "ready_spell", "return_card") and amount < 1:
            raise self.fail(ns, key, f"amount must be >= 1, got {amount}")
        return Effect(kind, amount, arg, str(raw.get("source", "other")))

    def ability(self, ns: str, ident: str, item: dict[str, Any], actions: set[str]) -> Ability:
        if "passive" in item:
            p = item["passive"]
            name = p.get("name") if isinstance(p, dict) else None
            if name not in PASSIVE_KINDS:
                raise self.fail(ns, f"{ident}.passive", f"unknown passive {name!r}")
            return Ability(
                passive=name, amount=int(p.get("amount", p.get("winner", 0))), amount2=int(p.get("after_picks", 0))
            )
        trigger = item.get("trigger")
        if not isinstance(trigger, str):
            raise self.fail(ns, f"{ident}.trigger", "an ability needs a trigger or a passive")
        if trigger.startswith("play:"):
            if trigger[5:] not in actions:
                raise self.fail(ns, f"{ident}.trigger", f"unknown action {trigger[5:]!r}")
        elif trigger != "after_trial":
            raise self.fail(ns, f"{ident}.trigger", f"unknown trigger {trigger!r} (play:<action> or after_trial)")
        effects = tuple(self.effect(ns, f"{ident}.effects", e) for e in item.get("effects", []))
        if not effects:
            raise self.fail(ns, f"{ident}.effects", "no effects")
        return Ability(trigger=trigger, effects=effects)

    # -- build ---------------------------------------------------------------------------------------------
    def build(self) -> Content:
        rules = self.rules()
        actions = tuple(
            Action(
                i,
                str(a.get("name", i)),
                str(a.get("bonus", "")),
                bool(a.get("full_only", False)),
                a["provenance"],
                str(a.get("module", "")),
                str(a.get("icon", "")),
            )
            for i, a in self.items("actions").items()
        )
        action_ids = {a.id for a in actions}
        for a in actions:
            if a.icon and a.icon not in action_ids:
                raise self.fail("actions", f"{a.id}.icon", f"unknown action {a.icon!r}")
            if a.module not in ("", "shapeshifting"):
                raise self.fail("actions", f"{a.id}.module", f"unknown module {a.module!r}")
        for a in actions:
            if a.bonus not in ("also", "instead", "strengthen"):
                raise self.fail("actions", f"{a.id}.bonus", f"must be also, instead or strengthen, got {a.bonus!r}")
        self.items("ingredients")
        diseases = self.diseases()
        disease_ids = [d.id for d in diseases]
        potions = self.potions(disease_ids)
        patients = self.patients(disease_ids)
        areas = self.areas()
        ritual = self.ritual(action_ids)
        spells = self.spells(action_ids)
        witches = tuple(
            Witch(i, str(w.get("name", i)), self.ability("witches", i, w, action_ids), w["provenance"])
            for i, w in self.items("witches").items()
        )
        buildings = tuple(
            Building(i, str(b.get("name", i)), self.ability("buildings", i, b, action_ids), b["provenance"])
            for i, b in self.items("buildings").items()
        )
        goals = self.goals()
        animals = self.animals(action_ids)
        omens, threshold, deck_size = self.omens(action_ids, {w.id for w in witches})
        widow = self.widow(action_ids)
        players_max = max(rules.patients_on_board)
        if len(witches) < rules.witches_dealt * players_max + 4 + 1:
            raise self.fail("witches", "*", f"{len(witches)} witches are too few for {players_max} players")
        if len(buildings) < rules.buildings_on_board:
            raise self.fail(
                "buildings", "*", f"{len(buildings)} buildings, but {rules.buildings_on_board} on the board"
            )
        towns = sum(a.town for a in areas)
        if towns < rules.buildings_on_board:
            raise self.fail("map", "areas", f"{towns} town areas for {rules.buildings_on_board} buildings")
        if len(goals) < rules.goals_dealt * players_max:
            raise self.fail("goals", "*", f"{len(goals)} goals are too few to deal {rules.goals_dealt} to 4 players")
        return Content(
            rules=rules,
            actions=actions,
            potions=potions,
            diseases=diseases,
            patients=patients,
            areas=areas,
            ritual=ritual,
            spells=spells,
            witches=witches,
            buildings=buildings,
            goals=goals,
            animals=animals,
            widow=widow,
            hash=_hash(self.tree),
            provenance=self.provenance,
            omens=omens,
            omen_threshold=threshold,
            omen_deck_size=deck_size,
        )

    def rules(self) -> Rules:
        g = self.get
        seasons = g("game", "seasons", list)
        smin = g("suspicion", "min", int, minimum=None)
        smax = g("suspicion", "max", int)
        start = g("suspicion", "start", int, minimum=None)
        if not smin <= start <= smax:
            raise self.fail("suspicion", "start", f"{start} is outside the track {smin}..{smax}")
        angry = g("suspicion", "angry_by_level", list)
        if len(angry) != smax - smin + 1:
            raise self.fail("suspicion", "angry_by_level", f"needs {smax - smin + 1} values (levels {smin}..{smax})")
        thresholds = g("crowd", "pick_thresholds", list)
        if thresholds != sorted(thresholds) or any(t < 1 for t in thresholds):
            raise self.fail("crowd", "pick_thresholds", "must be increasing positive numbers")
        die = g("hunters", "die", list)
        if not die or any((not isinstance(x, int)) or x < 0 for x in die):
            raise self.fail("hunters", "die", "faces must be non-negative integers")
        for ns in ("game", "setup", "suspicion", "board", "trials", "crowd", "ritual", "end", "hunters", "lunar"):
            self.count(ns, str(self.tree.get(ns, {}).get("provenance", "")) or "missing")

        def per_players(ns: str, key: str) -> dict[int, Any]:
            table = g(ns, key, dict)
            out = {int(k): v for k, v in table.items()}
            if sorted(out) != [1, 2, 3, 4]:
                raise self.fail(ns, key, "needs values for 1, 2, 3 and 4 players")
            return out

        seats = per_players("trials", "seats")
        if any(s < 1 for s in seats.values()):
            raise self.fail("trials", "seats", "a chamber needs at least 1 seat")
        return Rules(
            seasons=tuple(seasons),
            turns_per_season=g("game", "turns_per_season", int, minimum=1),
            loyal_citizens=g("setup", "loyal_citizens"),
            witches_dealt=g("setup", "witches_dealt", minimum=1),
            witches_kept=g("setup", "witches_kept", minimum=1),
            max_witches=g("setup", "max_witches", minimum=1),
            goals_dealt=g("setup", "goals_dealt"),
            start_crystals=g("setup", "start_crystals"),
            start_charms=g("setup", "start_charms"),
            neutral_crowd=g("setup", "neutral_crowd"),
            buildings_on_board=g("setup", "buildings_on_board"),
            suspicion_start=start,
            suspicion_min=smin,
            suspicion_max=smax,
            match_player=g("suspicion", "match_player"),
            match_septima=g("suspicion", "match_septima"),
            ritual_oil=g("suspicion", "ritual_oil"),
            overflow_wisdom_loss=g("suspicion", "overflow_wisdom_loss"),
            angry_by_level=tuple(angry),
            patients_on_board=per_players("board", "patients"),
            all_tracks_bonus=g("end", "all_tracks_bonus"),
            trial_seats=seats,
            winner_wisdom=g("trials", "winner_wisdom"),
            winner_recall=g("trials", "winner_recall"),
            pick_thresholds=tuple(thresholds),
            recall_after_picks=g("crowd", "recall_after_picks"),
            crowd_move_steps=g("crowd", "move_steps"),
            crowd_suspicion=g("crowd", "suspicion", minimum=None),
            plead_wisdom=g("actions", "plead", dict).get("wisdom", 0),
            brew_max=g("actions", "brew", dict).get("max", 3),
            heal_max=g("actions", "heal", dict).get("max", 2),
            move_steps=g("actions", "move", dict).get("steps", 3),
            chant_suspicion=g("actions", "chant", dict).get("suspicion", 0),
            chant_bonus_suspicion=g("actions", "chant", dict).get("bonus_suspicion", 0),
            brew_bonus_discount=g("actions", "brew", dict).get("discount", 0),
            calming_suspicion=g("potions", "calming-potion", dict).get("suspicion", 0),
            potion_supply=g("setup", "potion_supply", minimum=1),
            ritual_top_wisdom=g("ritual", "top_wisdom"),
            loyal_scores=tuple((int(a), int(b)) for a, b in g("end", "loyal_scores", list)),
            charm_wisdom=g("end", "charm_wisdom"),
            potion_wisdom=g("end", "potion_wisdom"),
            resources_per_wisdom=g("end", "resources_per_wisdom", minimum=1),
            hunter_die=tuple(die),
            hunter_start_spaces={k: tuple(v) for k, v in per_players("hunters", "start_spaces").items()},
            hunter_enter_seasons=tuple(g("hunters", "enter_seasons", list)),
            lunar_extra_icons=g("lunar", "extra_icons"),
            crystal_supply=g("crystal", "supply", minimum=1),
            shapeshift_bonus_suspicion=int(
                self.tree.get("actions", {}).get("shapeshift", {}).get("bonus_suspicion", 0)
            ),
        )

    def diseases(self) -> tuple[Disease, ...]:
        out = []
        for i, d in self.items("diseases").items():
            rewards = tuple(self.effect("diseases", f"{i}.rewards", e) for e in d.get("rewards", []))
            ends = d.get("end_values", [])
            if len(ends) != len(rewards) + 1 or any(not isinstance(v, int) or v < 0 for v in ends):
                raise self.fail(
                    "diseases", f"{i}.end_values", "needs one non-negative value per track step (rewards + 1)"
                )
            out.append(Disease(i, str(d.get("name", i)), rewards, tuple(ends), d["provenance"]))
        return tuple(out)

    def potions(self, diseases: list[str]) -> tuple[Potion, ...]:
        out = []
        for i, p in self.items("potions").items():
            kind = p.get("kind")
            if kind not in ("remedy", "practical"):
                raise self.fail("potions", f"{i}.kind", f"must be remedy or practical, got {kind!r}")
            recipe = p.get("recipe", [])
            if not recipe:
                raise self.fail("potions", f"{i}.recipe", "empty recipe")
            cost = tuple(self.ingredient("potions", f"{i}.recipe", x) for x in recipe)
            cures = str(p.get("cures", ""))
            if kind == "remedy" and cures not in diseases:
                raise self.fail("potions", f"{i}.cures", f"unknown disease {cures!r}")
            use = str(p.get("use", ""))
            if kind == "practical" and use not in ("calming", "flying", "love", "ritual-oil"):
                raise self.fail("potions", f"{i}.use", f"unknown practical use {use!r}")
            wisdom = p.get("wisdom", 0)
            if not isinstance(wisdom, int) or wisdom < 0:
                raise self.fail("potions", f"{i}.wisdom", f"must be a non-negative integer, got {wisdom!r}")
            out.append(Potion(i, str(p.get("name", i)), kind, cures, use, cost, wisdom, p["provenance"]))
        return tuple(out)

    def patients(self, diseases: list[str]) -> tuple[tuple[int, str], ...]:
        out = []
        for d, p in self.items("patient_tiles").items():
            if d not in diseases:
                raise self.fail("patient_tiles", d, f"unknown disease {d!r}")
            out.extend((diseases.index(d), str(flag)) for flag in p.get("flags", []))
        return tuple(out)

    def areas(self) -> tuple[Area, ...]:
        self.count("map", str(self.tree.get("map", {}).get("provenance", "")) or "missing")
        areas = self.tree.get("map", {}).get("areas", {})
        if not areas:
            raise self.fail("map", "areas", "no areas")
        out = []
        seen: set[tuple[int, int]] = set()
        for i, a in areas.items():
            q, r = a.get("q"), a.get("r")
            if not isinstance(q, int) or not isinstance(r, int):
                raise self.fail("map", f"areas.{i}", "needs integer q and r")
            if (q, r) in seen:
                raise self.fail("map", f"areas.{i}", f"two areas at ({q}, {r})")
            seen.add((q, r))
            ing = self.ingredient("map", f"areas.{i}.ingredient", a["ingredient"]) if "ingredient" in a else -1
            shrine = str(a.get("shrine", ""))
            if shrine and shrine not in ("earth", "air", "fire"):
                raise self.fail("map", f"areas.{i}.shrine", f"unknown element {shrine!r}")
            out.append(
                Area(
                    i,
                    q,
                    r,
                    ing,
                    bool(a.get("river")),
                    bool(a.get("town")),
                    bool(a.get("hospital")),
                    bool(a.get("outcrop")),
                    shrine,
                    tuple(a.get("patient_spaces", [])),
                )
            )
        return tuple(out)

    def ritual(self, actions: set[str]) -> Ritual:
        r = self.tree.get("ritual", {})
        columns = r.get("columns", [])
        rows = r.get("rows", [])
        if not columns or not rows:
            raise self.fail("ritual", "rows", "the ritual track needs columns and rows")
        for y, row in enumerate(rows):
            if len(row) != len(columns):
                raise self.fail("ritual", f"rows[{y}]", f"needs {len(columns)} cells")
            for cell in row:
                if cell not in actions:
                    raise self.fail("ritual", f"rows[{y}]", f"unknown action {cell!r}")
        ribbons: dict[int, tuple[int, tuple[Effect, ...]]] = {}
        for row, rib in r.get("ribbons", {}).items():
            if not 1 <= int(row) <= len(rows):
                raise self.fail("ritual", f"ribbons.{row}", "row outside the track")
            ribbons[int(row)] = (
                int(rib.get("offering", 0)),
                tuple(self.effect("ritual", f"ribbons.{row}.rewards", e) for e in rib.get("rewards", [])),
            )
        start = r.get("start_column", 0)
        if not 0 <= start < len(columns):
            raise self.fail("ritual", "start_column", "outside the track")
        return Ritual(tuple(tuple(c) for c in columns), start, tuple(tuple(x) for x in rows), ribbons)

    def spells(self, actions: set[str]) -> tuple[Spell, ...]:
        out = []
        for i, s in self.items("spells").items():
            element, kind = s.get("element"), s.get("kind")
            if element not in ("earth", "air", "fire"):
                raise self.fail("spells", f"{i}.element", f"unknown element {element!r}")
            if kind not in ("scoring", "regular"):
                raise self.fail("spells", f"{i}.kind", f"must be scoring or regular, got {kind!r}")
            requires = str(s.get("requires", ""))
            if requires and requires not in actions:
                raise self.fail("spells", f"{i}.requires", f"unknown action {requires!r}")
            per = str(s.get("per", ""))
            if kind == "scoring" and per not in STATS:
                raise self.fail("spells", f"{i}.per", f"unknown statistic {per!r}")
            unit = int(s.get("unit", 1))
            if unit < 1:
                raise self.fail("spells", f"{i}.unit", "must be >= 1")
            effects = tuple(self.effect("spells", f"{i}.effects", e) for e in s.get("effects", []))
            if kind == "regular" and not effects:
                raise self.fail("spells", f"{i}.effects", "a regular spell needs effects")
            out.append(
                Spell(
                    i,
                    str(s.get("name", i)),
                    element,
                    kind,
                    requires,
                    bool(s.get("ongoing", False)),
                    effects,
                    per,
                    unit,
                    int(s.get("amount", 0)),
                    s["provenance"],
                )
            )
        return tuple(out)

    def condition(self, ns: str, ident: str, cond: dict[str, Any]) -> None:
        """A `stat op value` condition (goals, Tribulations): a known statistic compared by >= or <=."""
        if cond.get("stat") not in STATS:
            raise self.fail(ns, f"{ident}.stat", f"unknown statistic {cond.get('stat')!r}")
        if cond.get("op") not in (">=", "<="):
            raise self.fail(ns, f"{ident}.op", "must be >= or <=")

    def goals(self) -> tuple[Goal, ...]:
        out = []
        for i, gl in self.items("goals").items():
            self.condition("goals", i, gl)
            wisdom = gl.get("wisdom")
            if not isinstance(wisdom, int) or wisdom < 0:
                raise self.fail("goals", f"{i}.wisdom", f"must be a non-negative integer, got {wisdom!r}")
            out.append(
                Goal(
                    i,
                    str(gl.get("name", i)),
                    gl["stat"],
                    gl["op"],
                    int(gl.get("value", 0)),
                    wisdom,
                    bool(gl.get("full_only", False)),
                    gl["provenance"],
                )
            )
        return tuple(out)

    def animals(self, actions: set[str]) -> tuple[Animal, ...]:
        out = []
        for i, a in self.items("animals").items():
            acts = a.get("actions", [])
            if len(acts) != 4 or any(x not in actions for x in acts):
                raise self.fail("animals", f"{i}.actions", f"needs 4 known actions, got {acts!r}")
            ability = a.get("ability")
            if ability not in ANIMAL_ABILITIES:
                raise self.fail("animals", f"{i}.ability", f"unknown animal ability {ability!r}")
            ing = a.get("ingredient", a.get("gain"))
            out.append(
                Animal(
                    i,
                    str(a.get("name", i)),
                    str(a.get("colour", "")),
                    tuple(acts),
                    ability,
                    int(a.get("picks", a.get("max", a.get("amount", 0)))),
                    int(a.get("bonus_picks", 0)),
                    self.ingredient("animals", f"{i}.ingredient", ing) if ing is not None else -1,
                    self.ingredient("animals", f"{i}.near", a["near"]) if "near" in a else -1,
                    a["provenance"],
                )
            )
        return tuple(out)

    def widow(self, actions: set[str]) -> Widow:
        """The Black Widow automa (W1-W4): numbers, her effect per action marker, the Tribulations."""
        self.count("widow", str(self.tree.get("widow", {}).get("provenance", "")) or "missing")
        cards: dict[str, tuple[Effect, ...]] = {}
        for action, item in self.items("widow_cards").items():
            if action not in actions:
                raise self.fail("widow_cards", action, f"unknown action {action!r}")
            effects = []
            for raw in item.get("effects", []):
                kind = raw.get("effect") if isinstance(raw, dict) else None
                if kind not in WIDOW_EFFECTS:
                    raise self.fail("widow_cards", f"{action}.effects", f"unknown Widow effect {kind!r}")
                effects.append(Effect(kind, int(raw.get("amount", 1))))
            cards[action] = tuple(effects)
        tribulations = []
        for i, t in self.items("tribulations").items():
            basic = t.get("basic", {})
            for cond in (t, basic) if basic else (t,):
                self.condition("tribulations", i, cond)
            tribulations.append(
                Tribulation(
                    i,
                    str(t.get("name", i)),
                    (t["stat"], t["op"], int(t.get("value", 0))),
                    (basic["stat"], basic["op"], int(basic.get("value", 0))) if basic else None,
                    t["provenance"],
                )
            )
        g = self.get
        return Widow(
            suspicion_start=g("widow", "suspicion_start", minimum=None),
            match_suspicion=g("widow", "match_suspicion"),
            citizens=g("widow", "citizens"),
            spiders=g("widow", "spiders"),
            spider_steps=g("widow", "spider_steps"),
            spider_suspicion=g("widow", "spider_suspicion"),
            trial_win_wisdom=g("widow", "trial_win_wisdom"),
            needed=g("widow", "tribulations_needed"),
            needed_shapeshifting=g("widow", "tribulations_needed_shapeshifting"),
            cards=cards,
            tribulations=tuple(tribulations),
        )

    def omens(self, actions: set[str], witches: set[str]) -> tuple[tuple[Omen, ...], dict[int, int], int]:
        """The Omen cards (O1), the dark-half threshold per player count (O3) and the deck size."""
        table = self.tree.get("omens", {})
        self.count("omens", str(table.get("provenance", "")) or "missing")
        threshold = {int(k): v for k, v in self.get("omens", "threshold", dict).items()}
        if sorted(threshold) != [1, 2, 3, 4] or any(not isinstance(v, int) or v < 0 for v in threshold.values()):
            raise self.fail("omens", "threshold", "needs a non-negative total for 1, 2, 3 and 4 players")
        deck_size = self.get("omens", "deck_size", minimum=1)
        cards = []
        for i, c in table.items():
            if not isinstance(c, dict) or i == "threshold":
                continue
            self.count("omens", str(c.get("provenance", "")) or "missing")
            bright, dark = (self.omen_half(f"{i}.{side}", c.get(side), actions, witches) for side in ("bright", "dark"))
            cards.append(Omen(i, str(c.get("name", i)), bright, dark, bool(c.get("sabbath", False)), c["provenance"]))
        for c in cards:  # the Sabbath's hooks resolve at once at the game end; the others act during a season
            for side, half in (("bright", c.bright), ("dark", c.dark)):
                if half.hook.startswith("sabbath_") != c.sabbath:
                    rule = "the Sabbath needs a sabbath_* hook" if c.sabbath else "sabbath_* hooks are the Sabbath's"
                    raise self.fail("omens", f"{c.id}.{side}.effect", f"{half.hook!r}: {rule}")
        sabbaths = sum(c.sabbath for c in cards)
        if sabbaths != 1:
            raise self.fail("omens", "*", f"needs exactly one Witches' Sabbath (sabbath = true), got {sabbaths}")
        if len(cards) - 1 < deck_size:
            raise self.fail("omens", "deck_size", f"{deck_size} cards above the Sabbath, but {len(cards) - 1} cards")
        return tuple(cards), threshold, deck_size

    def omen_half(self, key: str, raw: Any, actions: set[str], witches: set[str]) -> OmenHalf:
        """One half: `effect` names a hook of OMEN_HOOKS; its parameters are checked by kind."""
        if not isinstance(raw, dict):
            raise self.fail("omens", key, "missing (every Omen card has a bright and a dark half)")
        hook = raw.get("effect")
        if hook not in OMEN_HOOKS:
            near = difflib.get_close_matches(str(hook), sorted(OMEN_HOOKS), n=2)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise self.fail("omens", f"{key}.effect", f"unknown Omen hook {hook!r}{hint}")
        self.count("omens", str(raw.get("provenance", "")) or "missing")
        params: dict[str, object] = {}
        for name in OMEN_HOOKS[hook]:
            if name not in raw:
                raise self.fail("omens", f"{key}.{name}", f"missing (hook {hook} needs {', '.join(OMEN_HOOKS[hook])})")
            value, kind = raw[name], OMEN_PARAM_KINDS.get(name, "int")
            if kind == "action" and value not in actions:
                raise self.fail("omens", f"{key}.{name}", f"unknown action {value!r}")
            if kind == "witches" and (not isinstance(value, list) or any(w not in witches for w in value)):
                raise self.fail("omens", f"{key}.{name}", f"needs a list of known witch ids, got {value!r}")
            if kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise self.fail("omens", f"{key}.{name}", f"expected an integer, got {value!r}")
            if kind == "effects":  # Wisdom from an Omen goes to the `omens` source
                value = tuple(
                    Effect(e.kind, e.amount, e.arg, "omens")
                    for e in (self.effect("omens", f"{key}.{name}", x) for x in value or [])
                )
                if not value:
                    raise self.fail("omens", f"{key}.{name}", "no effects")
            params[name] = tuple(value) if isinstance(value, list) else value
        return OmenHalf(str(raw.get("name", key)), hook, params, raw["provenance"])
