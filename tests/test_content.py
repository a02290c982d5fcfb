"""The content pack loads, every item has a provenance, and a broken pack fails with the file and key named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from septima_sim.content import EFFECT_KINDS, Content, ContentError, load_content
from septima_sim.content.loader import BASE_DIR
from septima_sim.engine.effects import IMPLEMENTED_EFFECTS


def test_every_effect_kind_is_implemented() -> None:
    assert IMPLEMENTED_EFFECTS == EFFECT_KINDS


def test_pack_holds_the_named_components(content: Content) -> None:
    assert {"aylana", "tommy", "edith", "dragomir", "johanna", "bryn"} <= {w.id for w in content.witches}
    assert len(content.witches) == 20
    assert len(content.buildings) == 6
    assert {"magic-mirror", "vision-of-the-past"} <= {s.id for s in content.spells}
    for element in ("earth", "air", "fire"):
        of_element = [s for s in content.spells if s.element == element]
        assert sum(s.kind == "scoring" for s in of_element) == 2
        assert sum(s.kind == "regular" for s in of_element) == 6
    assert [a.id for a in content.actions if a.full_only] == ["ritual"]
    assert {"river", "town", "hospital", "outcrop"} <= {
        f for a in content.areas for f in ("river", "town", "hospital", "outcrop") if getattr(a, f)
    }
    assert sorted(a.shrine for a in content.areas if a.shrine) == ["air", "earth", "fire"]


def test_every_item_has_a_known_provenance(content: Content) -> None:
    tags = {"seed-base", "seed-expansion", "public", "assumed"}
    for counts in content.provenance.values():
        assert set(counts) <= tags
    for item in (*content.witches, *content.spells, *content.buildings, *content.goals, *content.potions):
        assert item.provenance in tags


def _copy_pack(tmp_path: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(BASE_DIR, dest)
    return dest


def _edit(pack: Path, file: str, old: str, new: str) -> None:
    path = pack / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "potions.toml",
            'recipe = ["herb", "mushroom"]',
            'recipe = ["herb", "mushrom"]',
            "potions.toml: potions.infection-remedy.recipe: unknown ingredient 'mushrom'",
        ),
        (
            "witches.toml",
            'trigger = "play:remember"',
            'trigger = "play:dance"',
            "witches.toml: witches.aylana.trigger: unknown action 'dance'",
        ),
        ("spells.toml", 'requires = "collect"', 'requires = "sing"', "spells.toml: spells.root-growth.requires"),
        ("rules.toml", "start = 2 ", "start = 12 ", "rules.toml: suspicion.start: 12 is outside the track -1..8"),
        (
            "rules.toml",
            "loyal_citizens = 6",
            "loyal_citizens = -6",
            "rules.toml: setup.loyal_citizens: Input should be greater than or equal to 0 (got -6)",
        ),
        ("potions.toml", "wisdom = 3", "wisdom = -3", "potions.toml: potions.calming-potion.wisdom"),
        (
            "ritual.toml",
            '"collect",  "heal"',
            '"collect",  "heel"',
            "ritual.toml: ritual.rows[0][1]: unknown action 'heel' (did you mean heal?",
        ),
        ("goals.toml", 'stat = "witches"', 'stat = "wizards"', "goals.toml: goals.coven-of-four.stat"),
        ("buildings.toml", 'effect = "ingredient"', 'effect = "ingredients"', "unknown effect 'ingredients'"),
        (
            "witches.toml",
            'provenance = "seed-base"',
            'provenance = "rumour"',
            "witches.toml: witches.aylana.provenance: unknown provenance tag 'rumour'",
        ),
        ("map.toml", "q = 1\nr = 0", "q = 0\nr = 0", "map.toml: map.areas.river-meadow: two areas at (0, 0)"),
    ],
)
def test_broken_pack_names_file_and_key(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    pack = _copy_pack(tmp_path)
    _edit(pack, file, old, new)
    with pytest.raises(ContentError) as err:
        load_content(pack)
    assert message in str(err.value)


def test_malformed_toml_names_the_file(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    (pack / "spells.toml").write_text("[[spell]\nid = 1")
    with pytest.raises(ContentError, match=r"^spells.toml: invalid TOML"):
        load_content(pack)


def test_missing_file_is_named(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    (pack / "goals.toml").unlink()
    with pytest.raises(ContentError, match=r"goals\.toml: file missing"):
        load_content(pack)


def test_overrides_change_values_and_the_hash(content: Content) -> None:
    changed = load_content(overrides={"actions.plead.wisdom": 4, "potions.flying-ointment.wisdom": 2})
    assert changed.rules.plead_wisdom == 4
    assert next(p for p in changed.potions if p.id == "flying-ointment").wisdom == 2
    assert changed.hash != content.hash
    assert load_content().hash == content.hash


def test_unknown_override_names_the_nearest_paths() -> None:
    with pytest.raises(ContentError, match=r"did you mean potions\.flying-ointment\.wisdom"):
        load_content(overrides={"potions.flying-ointment.wisdon": 2})


def test_override_of_impossible_value_is_rejected() -> None:
    with pytest.raises(ContentError, match=r"suspicion\.start"):
        load_content(overrides={"suspicion.start": 20})


@pytest.mark.parametrize(
    ("file", "data", "message"),
    [
        ("spells.toml", bytes(range(256)), r"^spells\.toml: not a UTF-8 text file"),
        ("goals.toml", 'name = "caf\xe9"\n'.encode("latin-1"), r"^goals\.toml: not a UTF-8 text file"),
        ("map.toml", b"\x00\x01\x02", r"^map\.toml: invalid TOML"),
        (
            "witches.toml",
            b'[witch]\nid = "x"\n',
            r"^witches\.toml: witch: expected an array of tables \(\[\[witch\]\]\)",
        ),
        ("rules.toml", b"[game]\nseasons = 3\n", r"^rules\.toml: game\.seasons: Input should be a valid list"),
    ],
)
def test_unreadable_file_is_one_line_naming_it(tmp_path: Path, file: str, data: bytes, message: str) -> None:
    pack = _copy_pack(tmp_path)
    (pack / file).write_bytes(data)
    with pytest.raises(ContentError, match=message) as err:
        load_content(pack)
    assert "\n" not in str(err.value)


def test_a_directory_in_place_of_a_file_is_named(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    (pack / "omens.toml").unlink()
    (pack / "omens.toml").mkdir()
    with pytest.raises(ContentError, match=r"^omens\.toml: is a directory, not a regular file"):
        load_content(pack)


def test_a_key_the_schema_does_not_declare_is_refused_with_the_nearest(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    _edit(pack, "potions.toml", "wisdom = 3", "wisdon = 3")
    with pytest.raises(
        ContentError, match=r"potions\.calming-potion\.wisdon: unknown key 'wisdon' \(did you mean wisdom"
    ):
        load_content(pack)


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    pack = _copy_pack(tmp_path)
    assert load_content(pack).rules.plead_wisdom == 2
    _edit(pack, "actions.toml", "wisdom = 2", "wisdom = 5")
    assert load_content(pack).rules.plead_wisdom == 5
