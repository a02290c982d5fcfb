"""The replay viewer: the recording is the real game with exact public snapshots, the page is self-contained and
escaped, the CLI writes it (fresh and from a run), and in headless Chromium the controls step to the game record."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.game import Game
from septima_sim.players import builtin_lineups, make_policy
from septima_sim.replay import record_game, render_page, write_game_page
from septima_sim.replay.page import delta_frames, script_json
from septima_sim.replay.snapshot import public_state

SCRIPT = Path(sys.executable).with_name("septima-sim")
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync",
]  # fmt: skip
BOTH = GameConfig(players=4, mode="full", shapeshifting=True, omens=True)
DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)


def policies(players: int, seed: int, lineup: str = "heuristic-mix") -> list[Any]:
    return [make_policy(n) for n in builtin_lineups()[lineup].seat_personas(lineup, players, seed)]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, check=False, timeout=300)


def page_data(html: str) -> dict[str, Any]:
    found = DATA.search(html)
    assert found is not None
    return json.loads(found.group(1))


def undelta(deltas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The inverse of ``delta_frames`` (what the page's script does at load)."""
    frames = [deltas[0]]
    for delta in deltas[1:]:
        cur = dict(frames[-1])
        for key, value in delta.items():
            if key == "players":
                cur["players"] = [{**p, **value.get(str(s), {})} for s, p in enumerate(frames[-1]["players"])]
            else:
                cur[key] = value
        frames.append(cur)
    return frames


@pytest.fixture(scope="module")
def recording(content: Content):  # type: ignore[no-untyped-def]
    return record_game(BOTH, content, policies(4, 3), 3)


# ------------------------------------------------------------------------------------------------ recording
def test_recording_is_the_same_game_as_play_game(recording, content: Content) -> None:  # type: ignore[no-untyped-def]
    events: list[dict[str, Any]] = []
    reference = play_game(BOTH, content, policies(4, 3), 3, events.append)
    assert recording.result.game == reference.game and recording.result.players == reference.players
    assert recording.events == events
    assert len(recording.frames) == len(events) + 2


def test_snapshots_are_taken_right_after_each_event(recording) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for i, e in enumerate(recording.events):
        frame = recording.frames[i + 1]
        assert (frame["season"], frame["turn"]) == (e["season"], e["turn"])
        if e["seat"] >= 0:
            seat = frame["players"][e["seat"]]
            if e.get("suspicion_after") is not None:
                assert seat["suspicion"] == e["suspicion_after"]
                checked += 1
            if e.get("wisdom_after") is not None:
                assert seat["wisdom"] == e["wisdom_after"]
                checked += 1
            if e["kind"] == "action":
                assert seat["played"] == e["action"]
    assert checked > 100
    final = recording.frames[-1]
    assert [p["wisdom"] for p in final["players"]] == [r["wisdom"] for r in recording.result.players]
    assert [p["suspicion"] for p in final["players"]] == [r["suspicion_end"] for r in recording.result.players]


def test_snapshots_hold_no_hidden_information(content: Content) -> None:
    """Reshuffling every deck and bag and redealing the other seats' goals leaves the snapshot unchanged."""
    game = Game(BOTH, content, policies(4, 5), 5)
    game.setup()
    before = public_state(game)
    rng = random.Random(1)
    for pile in (game.s.witch_deck, game.s.patient_stack, game.s.septima_bag, game.s.goal_deck):
        rng.shuffle(pile)
    deck = game.module("omens").deck  # type: ignore[attr-defined]
    hidden = deck[1:-1]  # the face-up next card and the Sabbath at the bottom are public (O1)
    rng.shuffle(hidden)
    deck[1:-1] = hidden
    for row in game.s.market:
        rng.shuffle(row.deck)
    game.s.goals = game.s.goals[1:] + game.s.goals[:1]
    assert public_state(game) == before
    assert "goals" not in json.dumps(before)


def test_delta_frames_round_trip_and_stay_small(recording) -> None:  # type: ignore[no-untyped-def]
    deltas = delta_frames(recording.frames)
    assert undelta(deltas) == recording.frames
    assert len(json.dumps(deltas)) < len(json.dumps(recording.frames)) / 5


# ------------------------------------------------------------------------------------------------ page
def test_script_json_cannot_close_the_script_element() -> None:
    data = {"name": "</script><!-- <b>", "url": "https://example.org", "sep": "a\u2028b\u2029c"}
    text = script_json(data)
    for bad in ("<", "</", "<!--", "\u2028", "\u2029", "://"):
        assert bad not in text
    assert json.loads(text) == data


def test_page_escapes_user_names_and_has_no_external_reference(recording) -> None:  # type: ignore[no-untyped-def]
    evil = '<img src=x onerror="alert(1)">'
    recording = copy.deepcopy(recording)
    recording.result.players[0]["policy"] = evil
    recording.names["personas"][0] = evil
    html = render_page(recording, "lineup </script><b>x</b>")
    assert "<img" not in html and "<b>x" not in html
    assert "&lt;img src=x" in html and "&lt;/script&gt;&lt;b&gt;x" in html
    assert html.count("</script>") == 2  # the data block and the viewer's script
    assert "http://" not in html and "https://" not in html
    assert page_data(html)["names"]["personas"][0] == evil


# ------------------------------------------------------------------------------------------------ command line
def test_cli_html_is_the_same_game_as_jsonl(tmp_path: Path) -> None:
    args = ["play", "--players", "3", "--seed", "8", "--omens", "--lineup", "heuristic-mix"]
    jsonl = cli(*args, "--format", "jsonl")
    assert jsonl.returncode == 0, jsonl.stderr
    lines = [json.loads(x) for x in jsonl.stdout.splitlines()]
    out = tmp_path / "game.html"
    html = cli(*args, "--format", "html", "--out", str(out))
    assert html.returncode == 0, html.stderr
    assert html.stdout.strip() == str(out)
    text = out.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text
    data = page_data(text)
    assert data["events"] == [{k: v for k, v in e.items() if k != "changes"} for e in lines[:-1]]  # frames hold them
    assert data["final"]["wisdom"] == [p["wisdom"] for p in lines[-1]["players"]]
    assert data["final"]["suspicion"] == [p["suspicion_end"] for p in lines[-1]["players"]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "html"], "--format html needs --out"),
        (["--out", "x.html"], "--format html needs --out"),
        (["--format", "pdf"], "--format must be text or jsonl (or html with --out FILE)"),
        (["--format", "html", "--out", "/no/such/dir/game.html"], "does not exist"),
    ],
)
def test_cli_bad_html_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    out = cli("play", *args)
    assert out.returncode == 2
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640)])
def test_cli_html_page_gets_the_ordinary_file_mode(tmp_path: Path, umask: int, mode: int) -> None:
    """Written like open() writes: 0o666 less the umask (the temporary file it is renamed from was 0600)."""
    page = tmp_path / "game.html"
    args = [str(SCRIPT), "play", "--players", "2", "--format", "html", "--out", str(page)]
    done = subprocess.run(args, capture_output=True, text=True, check=False, preexec_fn=lambda: os.umask(umask))
    assert done.returncode == 0, done.stderr
    assert page.stat().st_mode & 0o777 == mode


def test_cli_html_refuses_an_existing_out_file_unless_force(tmp_path: Path) -> None:
    page = tmp_path / "existing.html"
    page.write_text("hi")
    args = ["play", "--players", "2", "--format", "html", "--out", str(page)]
    refused = cli(*args)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert f"--out {page} exists (use --force to replace it)" in refused.stderr and page.read_text() == "hi"
    folder = tmp_path / "folder.html"
    folder.mkdir()
    assert "is not a file" in cli("play", "--players", "2", "--format", "html", "--out", str(folder), "--force").stderr
    replaced = cli(*args, "--force")
    assert replaced.returncode == 0, replaced.stderr
    assert page.read_text(encoding="utf-8").lower().lower().startswith("<!doctype html>")


@pytest.mark.slow
def test_replay_of_a_run_game_as_html(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(
        'name = "tiny"\ngames_per_cell = 2\nseed = 5\n[matrix]\nplayers = [2]\nmode = ["full"]\n'
        'shapeshifting = [true]\nomens = [false]\nlineup = ["all-random"]\n'
    )
    run = cli("run", str(config), "--out", str(tmp_path / "run"), "--jobs", "1", "--quiet")
    assert run.returncode == 0, run.stderr
    cell = next((tmp_path / "run" / "games").iterdir()).name.removeprefix("cell=")
    jsonl = cli("play", "--replay", str(tmp_path / "run"), "--game", f"{cell}:1", "--format", "jsonl")
    end = json.loads(jsonl.stdout.splitlines()[-1])
    out = tmp_path / "g.html"
    page = cli("play", "--replay", str(tmp_path / "run"), "--game", f"{cell}:1", "--format", "html", "--out", str(out))
    assert page.returncode == 0, page.stderr
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["final"]["wisdom"] == [p["wisdom"] for p in end["players"]]
    assert data["config"]["seed"] == end["game"]["seed"]
    again = write_game_page(tmp_path / "run", cell, 1, tmp_path / "lib.html")
    assert page_data(again.read_text(encoding="utf-8")) == data


# ------------------------------------------------------------------------------------------------ browser
@pytest.fixture(scope="module")
def browser_page():  # type: ignore[no-untyped-def]
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport={"width": 1400, "height": 1300})
        browser.close()


def test_page_steps_through_the_game_in_chromium(recording, browser_page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    path = tmp_path / "game.html"
    path.write_text(render_page(recording, "4 players · both modules"), encoding="utf-8")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    label = page.get_by_test_id("turn-label")
    assert label.text_content() == "Season 1 · Turn 1"
    assert page.get_by_test_id("board").locator("polygon").count() == len(recording.board["areas"])
    assert page.get_by_test_id("event-list").locator("li").count() == len(recording.frames)
    page.get_by_test_id("next-turn").click()
    assert label.text_content() == "Season 1 · Turn 2"
    page.get_by_test_id("prev-turn").click()
    assert label.text_content() == "Season 1 · Turn 1"
    page.keyboard.press("ArrowRight")
    assert page.locator(".events li.current").get_attribute("data-frame") == "1"
    page.get_by_test_id("season-3").click()
    assert label.text_content().startswith("Season 3 ·")
    page.keyboard.press("Home")
    for _ in range(8):
        page.keyboard.press("ArrowDown")
    shot = tmp_path / "mid-game.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.keyboard.press("Home")
    labels = page.evaluate(
        """() => { const next = document.querySelector('[data-testid=next]'), out = [];
        const label = document.querySelector('[data-testid=turn-label]');
        out.push(label.textContent);
        while (!next.disabled) { next.click(); out.push(label.textContent); }
        return out; }"""
    )
    assert len(labels) == len(recording.frames)
    keys = [tuple(int(x) for x in re.fullmatch(r"Season (\d) · Turn (\d)", t).groups()) for t in labels]  # type: ignore[union-attr]
    assert keys == sorted(keys) and keys[0] == (1, 1) and keys[-1] == (4, 5)
    assert len(set(keys)) == 20
    for row in recording.result.players:
        seat = row["seat"]
        assert page.get_by_test_id(f"seat-{seat}-wisdom").text_content() == str(row["wisdom"])
        assert page.get_by_test_id(f"seat-{seat}-suspicion").text_content() == str(row["suspicion_end"])
        assert page.get_by_test_id(f"final-{seat}-wisdom").text_content() == str(row["wisdom"])
    assert page.get_by_test_id("final-scores").is_visible()
    assert page.get_by_test_id("next").is_disabled()
    assert not errors, errors


def test_solo_page_shows_the_widow_and_plays(content: Content, browser_page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    solo = record_game(GameConfig(players=1, mode="full"), content, policies(1, 2, "all-balanced"), 2)
    solo.events[0]["cause"] = "<b>a cause</b>"  # events may carry a cause (issue 13): shown, as text
    path = tmp_path / "solo.html"
    path.write_text(render_page(solo, "solo"), encoding="utf-8")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    counter = page.get_by_test_id("counter")
    start = counter.text_content()
    page.get_by_test_id("play").click()
    page.wait_for_function(f"document.querySelector('[data-testid=counter]').textContent !== {json.dumps(start)}")
    page.get_by_test_id("play").click()  # pause
    assert "play" in page.get_by_test_id("play").text_content()
    assert page.get_by_test_id("widow").is_visible()
    causes = page.locator(".events li .cause").all_text_contents()
    assert causes[0] == "cause: <b>a cause</b>" and len(causes) == len(solo.events)  # every event names its cause
    assert page.locator(".events li .cause b").count() == 0
    page.keyboard.press("End")
    game = solo.result.game
    assert page.get_by_test_id("widow-wisdom").text_content() == str(game["widow_wisdom"])
    assert page.get_by_test_id("widow-suspicion").text_content() == str(game["widow_suspicion"])
    assert page.get_by_test_id("seat-0-wisdom").text_content() == str(solo.result.players[0]["wisdom"])
    assert "Black Widow" in page.get_by_test_id("final-scores").text_content()
    assert not errors, errors


def test_a_replay_page_of_a_game_with_a_search_player(tmp_path: Path) -> None:
    """``search`` branches at the draft from the recorder's checkpoint before setup; the replay plays setup apart
    (to look after it), which skipped that checkpoint, so the page of any game with a search seat (and the report's
    example pages of a search lineup) failed with an internal error."""
    from tests.helpers import script

    out = tmp_path / "game.html"
    done = script("play", "--players", "2", "--lineup", "search:2,balanced", "--format", "html", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").lower().startswith("<!doctype html>")
