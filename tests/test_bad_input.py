"""Every bad input to every command, through the installed console script in a subprocess: exit code 2, exactly one
line on stderr naming the problem, no traceback, and no file created or changed (docs/errors.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from septima_sim.regression import codec
from tests.helpers import script

TINY = """
name = "tiny"
games_per_cell = {games}
seed = 3
shard_size = 2

[matrix]
players = [2]
lineup = ["all-random"]
{extra}
"""

Setup = Callable[[Path, dict[str, Path]], None]


def cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed ``septima-sim`` script, run in ``cwd``."""
    return script(*args, cwd=cwd)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A small finished run and a small baseline that the cases copy and damage."""
    root = tmp_path_factory.mktemp("made")
    (root / "tiny.toml").write_text(TINY.format(games=6, extra=""))
    done = cli(["run", "tiny.toml", "--out", "run", "--jobs", "1", "--quiet"], root)
    assert done.returncode == 0, done.stderr
    done = cli(["baseline", "tiny.toml", "--out", "baseline.json", "--jobs", "1"], root)
    assert done.returncode == 0, done.stderr
    return {"run": root / "run", "baseline": root / "baseline.json", "config": root / "tiny.toml"}


# ---------------------------------------------------------------------------------------------- setups
def nothing(tmp: Path, made: dict[str, Path]) -> None:
    """No files needed."""


def write(name: str, text: str | bytes) -> Setup:
    """A file with this content (bytes written as they are)."""

    def setup(tmp: Path, made: dict[str, Path]) -> None:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)

    return setup


def config(extra: str = "", games: int = 4, name: str = "c.toml") -> Setup:
    """An experiment config: the tiny one plus ``extra`` TOML."""
    return write(name, TINY.format(games=games, extra=extra))


def replaced(old: str, new: str, extra: str = "") -> Setup:
    """The tiny config with one piece of text replaced."""
    return write("c.toml", TINY.format(games=4, extra=extra).replace(old, new, 1))


def hostile_lineup(name: str) -> Setup:
    """A config defining and playing a lineup with this name."""
    return replaced('"all-random"', json.dumps(name), f'[lineups]\n{json.dumps(name)} = ["random", "random"]')


def good_config(tmp: Path, made: dict[str, Path]) -> None:
    config()(tmp, made)


def both(*setups: Setup) -> Setup:
    def setup(tmp: Path, made: dict[str, Path]) -> None:
        for s in setups:
            s(tmp, made)

    return setup


def copy_run(change: Callable[[Path], object] = lambda run: None) -> Setup:
    """A copy of the small run as ``run/``, then changed."""

    def setup(tmp: Path, made: dict[str, Path]) -> None:
        shutil.copytree(made["run"], tmp / "run")
        change(tmp / "run")

    return setup


def copy_baseline(change: Callable[[dict], object] | None = None) -> Setup:
    """A copy of the small baseline as ``b.json``, optionally changed as JSON."""

    def setup(tmp: Path, made: dict[str, Path]) -> None:
        data = json.loads(made["baseline"].read_text())
        if change is not None:
            change(data)
        (tmp / "b.json").write_text(json.dumps(data))

    return setup


def first_shard_file(run: Path, table: str = "games") -> Path:
    manifest = json.loads((run / "manifest.json").read_text())
    shard = next(iter(manifest["shards"].values()))
    return run / shard["files"][table]["path"]


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def unfinish(run: Path) -> None:
    """The run as if interrupted after its first shard: later shards gone from the manifest and disk."""
    manifest = json.loads((run / "manifest.json").read_text())
    keys = list(manifest["shards"])
    for key in keys[1:]:
        for info in manifest["shards"].pop(key)["files"].values():
            (run / info["path"]).unlink()
    manifest["status"] = "interrupted"
    (run / "manifest.json").write_text(json.dumps(manifest))


def content_pack(change: Callable[[Path], object]) -> Setup:
    """A copy of the built-in content pack as ``pack/``, then changed."""

    def setup(tmp: Path, made: dict[str, Path]) -> None:
        import septima_sim.content

        shutil.copytree(Path(septima_sim.content.__file__).parent / "base", tmp / "pack")
        change(tmp / "pack")

    return setup


def edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        file = root / path
        file.write_text(file.read_text().replace(old, new, 1))

    return change


def lock_by_this_process(run: Path) -> None:
    (run / ".lock").write_text(f"{os.getpid()}\n")


# ---------------------------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Case:
    id: str
    args: list[str]
    message: str
    setup: Setup = nothing
    marks: list[pytest.MarkDecorator] = field(default_factory=list)


HOSTILE = {
    "traversal": "x/../../../../outside/pwned",
    "shell": "z;touch INJECTED;#",
    "html": "<img src=x onerror=alert(1)>",
}

CASES = [
    # usage errors of the CLI framework
    Case("unknown-option", ["run", "--job", "2"], "No such option: --job"),
    Case("unknown-command", ["frob"], "No such command"),
    Case("jobs-not-a-number", ["run", "--jobs", "abc"], "Invalid value for '--jobs'"),
    Case("players-not-a-number", ["play", "--players", "two"], "Invalid value for '--players'"),
    Case("check-misspelt-option", ["check", "--baselin", "x"], "No such option: --baselin"),
    Case("report-missing-argument", ["report"], "Missing argument"),
    Case("baseline-missing-out", ["baseline", "c.toml"], "Missing option '--out'", good_config),
    Case("check-missing-baseline", ["check"], "Missing option '--baseline'"),
    Case("seed-not-an-int", ["play", "--seed", "1.5"], "Invalid value for '--seed'"),
    Case("tolerance-not-a-number", ["report", "run", "--tolerance", "x"], "Invalid value for '--tolerance'"),
    Case("option-needs-value", ["rules", "--content"], "requires an argument"),
    Case("extra-argument", ["play", "--shapeshifting", "yes"], "unexpected extra argument"),
    # play
    Case("play-negative-seed", ["play", "--seed", "-1"], "--seed must be between 0 and"),
    Case("play-huge-seed", ["play", "--seed", "99999999999999999999"], "--seed must be between 0 and"),
    Case("play-5-players", ["play", "--players", "5"], "players must be 1..4"),
    Case("play-0-players", ["play", "--players", "0"], "players must be 1..4"),
    Case("play-bad-mode", ["play", "--mode", "party"], "mode must be 'full' or 'basic'"),
    Case("play-bad-format", ["play", "--format", "xml"], "--format must be text or jsonl"),
    Case("play-unknown-lineup", ["play", "--lineup", "nope"], "unknown lineup 'nope'"),
    Case("play-traversal-lineup", ["play", "--lineup", "../../etc/passwd"], "unknown lineup"),
    Case("play-basic-with-module", ["play", "--mode", "basic", "--omens"], "Full game only"),
    Case("play-missing-content", ["play", "--content", "nowhere"], "not a directory"),
    Case("play-replay-missing-run", ["play", "--replay", "nowhere", "--game", "a:1"], "not a run directory"),
    Case("play-replay-bad-game", ["play", "--replay", "run", "--game", "nocolon"], "--game CELL:INDEX", copy_run()),
    Case("play-game-without-replay", ["play", "--game", "x:1"], "--replay RUN_DIR"),
    Case("play-replay-unknown-cell", ["play", "--replay", "run", "--game", "nope:1"], "no cell 'nope'", copy_run()),
    Case(
        "play-replay-index-out",
        ["play", "--replay", "run", "--game", "p2-full-ss0-om0-none-all-random:99"],
        "index 99 outside",
        copy_run(),
    ),
    # rules
    Case("rules-missing-content", ["rules", "--content", "nowhere"], "not a directory"),
    Case("rules-content-is-a-file", ["rules", "--content", "f.txt"], "not a directory", write("f.txt", "x")),
    Case(
        "rules-binary-content-file",
        ["rules", "--content", "pack"],
        "rules.toml",
        content_pack(lambda p: (p / "rules.toml").write_bytes(b"\xff\xfe\x00\x81binary")),
    ),
    Case(
        "rules-empty-seasons",
        ["rules", "--content", "pack"],
        "seasons",
        content_pack(edit("rules.toml", 'seasons = ["autumn", "winter", "spring", "summer"]', "seasons = []")),
    ),
    # run: the config file
    Case("run-missing-config", ["run", "nope.toml"], "no such config file"),
    Case("run-config-is-a-dir", ["run", "d"], "is a directory", lambda t, m: (t / "d").mkdir()),
    Case("run-binary-config", ["run", "b.toml"], "not a UTF-8 text", write("b.toml", b"\x89PNG\r\n\x1a\n\xff\x00")),
    Case("run-invalid-toml", ["run", "b.toml"], "invalid TOML", write("b.toml", "name = [unclosed")),
    Case("run-unknown-key", ["run", "c.toml"], "Extra inputs are not permitted", config("colour = 'red'")),
    Case("run-players-5", ["run", "c.toml"], "matrix.players.0", replaced("players = [2]", "players = [5]")),
    Case("run-zero-games", ["run", "c.toml"], "games_per_cell", config(games=0)),
    Case("run-10e12-games", ["run", "c.toml"], "less than or equal to 10000000", config(games=1_000_000_000_000)),
    Case("run-games-option-0", ["run", "c.toml", "--games", "0"], "--games must be between 1 and", good_config),
    Case(
        "run-games-option-huge",
        ["run", "c.toml", "--games", "100000000000"],
        "--games must be between 1 and",
        good_config,
    ),
    Case("run-jobs-0", ["run", "c.toml", "--jobs", "0"], "--jobs must be", good_config),
    Case("run-negative-seed", ["run", "c.toml", "--seed", "-1"], "seed", good_config),
    Case(
        "run-unknown-backend", ["run", "c.toml", "--backend", "spark"], "--backend must be local or dask", good_config
    ),
    Case("run-scheduler-without-dask", ["run", "c.toml", "--scheduler", "tcp://x:1"], "--scheduler needs", good_config),
    Case(
        "run-traversal-name",
        ["run", "c.toml"],
        "name: String should match pattern",
        replaced('name = "tiny"', 'name = "../../evil"'),
    ),
    Case("run-unknown-lineup", ["run", "c.toml"], "unknown lineup 'nope'", replaced('"all-random"', '"nope"')),
    Case(
        "run-unknown-persona",
        ["run", "c.toml"],
        "unknown persona 'nobody'",
        replaced('"all-random"', '"mine"', '[lineups]\nmine = ["nobody"]'),
    ),
    Case(
        "run-lineup-wrong-length",
        ["run", "c.toml"],
        "lineup 'mine' lists 3 personas, one per seat, but the table has 2 player(s)",
        replaced('"all-random"', '"mine"', '[lineups]\nmine = ["random", "balanced", "random"]'),
    ),
    Case(
        "run-shipped-lineup-wrong-length",
        ["run", "c.toml"],
        "lineup 'search-vs-balanced-2p' lists 2 personas, one per seat, but the table has 3 player(s)",
        replaced('players = [2]\nlineup = ["all-random"]', 'players = [3]\nlineup = ["search-vs-balanced-2p"]'),
    ),
    Case(
        "run-lineup-bad-pool",
        ["run", "c.toml"],
        "lineups.mine",
        replaced('"all-random"', '"mine"', "[lineups]\nmine = { pool = [] }"),
    ),
    Case(
        "play-lineup-wrong-length",
        ["play", "--players", "3", "--lineup", "search-vs-balanced-2p"],
        "lineup 'search-vs-balanced-2p' lists 2 personas, one per seat, but the table has 3 player(s)",
    ),
    Case(
        "run-bad-search-budget",
        ["run", "c.toml"],
        "bad search budget",
        replaced('"all-random"', '"mine"', '[lineups]\nmine = ["search:x"]'),
    ),
    Case(
        "run-unknown-override-path",
        ["run", "c.toml"],
        "suspicion.strat",
        config('[overrides]\n"suspicion.strat" = [1]'),
    ),
    Case(
        "run-internal-override-path",
        ["run", "c.toml"],
        "_files",
        config('[overrides]\n"_files.game" = ["x"]'),
    ),
    Case(
        "run-unplayable-turns",
        ["run", "c.toml"],
        "turns_per_season",
        config('[overrides]\n"game.turns_per_season" = [100]'),
    ),
    Case("run-negative-count", ["run", "c.toml"], "suspicion.start", config('[overrides]\n"suspicion.start" = [-5]')),
    Case(
        "run-unknown-omen-deck",
        ["run", "c.toml"],
        "unknown Omen deck",
        replaced("players = [2]", 'players = [2]\nomens = [true]\nomen_deck = ["odd"]'),
    ),
    Case(
        "run-basic-with-module",
        ["run", "c.toml"],
        "Full game only",
        replaced("players = [2]", 'players = [2]\nmode = ["basic"]\nomens = [true]'),
    ),
    Case("run-exclude-unknown-axis", ["run", "c.toml"], "unknown axis 'colour'", config("[[exclude]]\ncolour = 1")),
    Case("run-exclude-everything", ["run", "c.toml"], "leave no cell", config("[[exclude]]\nplayers = 2")),
    Case(
        "run-missing-content-pack",
        ["run", "c.toml"],
        "not a directory",
        write("c.toml", 'content = "nowhere"\n' + TINY.format(games=4, extra="")),
    ),
    Case(
        "run-content-empty-seasons",
        ["run", "c.toml", "--content", "pack"],
        "seasons",
        both(
            good_config,
            content_pack(edit("rules.toml", 'seasons = ["autumn", "winter", "spring", "summer"]', "seasons = []")),
        ),
    ),
    # run: the output directory
    Case(
        "run-out-is-a-file",
        ["run", "c.toml", "--out", "f.txt"],
        "exists and is not a directory",
        both(good_config, write("f.txt", "keep me")),
    ),
    Case(
        "run-out-is-a-file-force",
        ["run", "c.toml", "--out", "f.txt", "--force"],
        "exists and is not a directory",
        both(good_config, write("f.txt", "keep me")),
    ),
    Case("run-out-exists", ["run", "c.toml", "--out", "run"], "exists (use --resume", both(good_config, copy_run())),
    Case(
        "run-force-foreign-dir",
        ["run", "c.toml", "--out", "webapp", "--force"],
        "--force replaces only a septima-sim run directory",
        both(good_config, write("webapp/manifest.json", '{"name": "my web app"}'), write("webapp/index.html", "<p>")),
    ),
    Case(
        "run-force-no-manifest",
        ["run", "c.toml", "--out", "docs", "--force"],
        "no manifest.json",
        both(good_config, write("docs/notes.txt", "precious")),
    ),
    Case(
        "run-out-under-a-file",
        ["run", "c.toml", "--out", "f.txt/run"],
        "is not a directory",
        both(good_config, write("f.txt", "x")),
    ),
    Case(
        "run-force-locked-run",
        ["run", "c.toml", "--out", "run", "--force"],
        "is being written by process",
        both(good_config, copy_run(lock_by_this_process)),
    ),
    # run --resume
    Case("resume-missing", ["run", "--resume", "nowhere"], "not a run directory"),
    Case(
        "resume-with-config",
        ["run", "c.toml", "--resume", "run"],
        "--resume continues a run",
        both(good_config, copy_run()),
    ),
    Case("resume-with-games", ["run", "--resume", "run", "--games", "5"], "--resume continues a run", copy_run()),
    Case(
        "resume-foreign-manifest",
        ["run", "--resume", "run"],
        "not a septima-sim run manifest",
        copy_run(lambda r: (r / "manifest.json").write_text('{"name": "not ours"}')),
    ),
    Case("resume-locked", ["run", "--resume", "run"], "is being written by process", copy_run(lock_by_this_process)),
    Case(
        "resume-changed-config",
        ["run", "--resume", "run"],
        "does not match the manifest",
        copy_run(
            lambda r: (r / "config.toml").write_text((r / "config.toml").read_text().replace("seed = 3", "seed = 4"))
        ),
    ),
    Case(
        "resume-binary-config",
        ["run", "--resume", "run"],
        "not a UTF-8 text file",
        copy_run(lambda r: (r / "config.toml").write_bytes(b"\xff\xfe\x00")),
    ),
    # report
    Case("report-missing-run", ["report", "nowhere"], "no such run directory"),
    Case("report-foreign-dir", ["report", "d"], "not a run directory", write("d/notes.txt", "hi")),
    Case(
        "report-non-json-manifest",
        ["report", "run"],
        "unreadable or truncated manifest",
        copy_run(lambda r: (r / "manifest.json").write_bytes(b"\x00\xffnot json")),
    ),
    Case(
        "report-truncated-manifest",
        ["report", "run"],
        "unreadable or truncated manifest",
        copy_run(lambda r: truncate(r / "manifest.json")),
    ),
    Case(
        "report-foreign-manifest",
        ["report", "run"],
        "not a septima-sim run manifest",
        copy_run(lambda r: (r / "manifest.json").write_text("{}")),
    ),
    Case("report-deleted-shard", ["report", "run"], "missing", copy_run(lambda r: first_shard_file(r).unlink())),
    Case(
        "report-truncated-shard",
        ["report", "run"],
        "sha256 differs",
        copy_run(lambda r: truncate(first_shard_file(r, "players"))),
    ),
    Case("report-unfinished-run", ["report", "run"], "unfinished run: 4 of 6 games are missing", copy_run(unfinish)),
    Case("report-tolerance-0", ["report", "run", "--tolerance", "0"], "--tolerance must be between", copy_run()),
    Case(
        "report-out-is-a-file",
        ["report", "run", "--out", "f.txt"],
        "exists and is not a directory",
        both(copy_run(), write("f.txt", "x")),
    ),
    Case(
        "report-out-under-a-file",
        ["report", "run", "--out", "f.txt/rep"],
        "is not a directory",
        both(copy_run(), write("f.txt", "x")),
    ),
    Case(
        "run-too-many-cells",
        ["run", "c.toml"],
        "at most 10,000",
        config(
            "[overrides]\n"
            + "".join(
                f'"{p}" = {list(range(1, 23))}\n'
                for p in ("suspicion.start", "omens.threshold.4", "actions.plead.wisdom")
            )
        ),
    ),
    Case("report-compare-missing", ["report", "run", "--compare", "nowhere"], "no such run directory", copy_run()),
    # baseline
    Case("baseline-missing-config", ["baseline", "nope.toml", "--out", "b.json"], "no such config file"),
    Case(
        "baseline-out-is-a-dir",
        ["baseline", "c.toml", "--out", "d"],
        "is a directory",
        both(good_config, lambda t, m: (t / "d").mkdir()),
    ),
    Case(
        "baseline-out-under-a-file",
        ["baseline", "c.toml", "--out", "f.txt/b.json"],
        "is not a directory",
        both(good_config, write("f.txt", "x")),
    ),
    Case("baseline-games-0", ["baseline", "c.toml", "--out", "b.json", "--games", "0"], "--games must be", good_config),
    Case(
        "baseline-negative-seed",
        ["baseline", "c.toml", "--out", "b.json", "--seed", "-1"],
        "--seed must be",
        good_config,
    ),
    Case("baseline-jobs-0", ["baseline", "c.toml", "--out", "b.json", "--jobs", "0"], "--jobs must be", good_config),
    Case("baseline-bad-config", ["baseline", "c.toml", "--out", "b.json"], "games_per_cell", config(games=-1)),
    # check
    Case("check-missing-baseline-file", ["check", "--baseline", "nope.json"], "cannot read the baseline"),
    Case("check-non-json-baseline", ["check", "--baseline", "b.json"], "invalid JSON", write("b.json", "{oops")),
    Case("check-binary-baseline", ["check", "--baseline", "b.json"], "b.json", write("b.json", b"\xff\xfe\x00\x81")),
    Case(
        "check-foreign-baseline", ["check", "--baseline", "b.json"], "not a septima-sim baseline", write("b.json", "{}")
    ),
    Case(
        "check-other-schema-version",
        ["check", "--baseline", "b.json"],
        "schema",
        copy_baseline(lambda d: d.update(schema_version=999)),
    ),
    Case("check-jobs-0", ["check", "--baseline", "b.json", "--jobs", "0"], "--jobs must be", copy_baseline()),
    Case(
        "check-junit-is-a-dir",
        ["check", "--baseline", "b.json", "--junit", "d"],
        "is a directory",
        both(copy_baseline(), lambda t, m: (t / "d").mkdir()),
    ),
    Case(
        "check-missing-tolerance-file",
        ["check", "--baseline", "b.json", "--tolerance", "nope.toml"],
        "cannot read the tolerance file",
        copy_baseline(),
    ),
    Case(
        "check-truncated-outcomes",
        ["check", "--baseline", "b.json"],
        "does not match its checksum",
        copy_baseline(
            lambda d: [c.update(outcomes=c["outcomes"][: len(c["outcomes"]) // 2]) for c in d["cells"].values()]
        ),
    ),
    Case(
        "check-metric-removed",
        ["check", "--baseline", "b.json"],
        "does not match its checksum",
        copy_baseline(
            lambda d: [
                c.update(outcomes=codec.encode(codec.decode(c["outcomes"]).drop("winning_score")))
                for c in d["cells"].values()
            ]
        ),
    ),
]


def snapshot(root: Path) -> dict[str, tuple[int, int] | None]:
    """Every path under ``root``: a file with its size and modification time, a directory as None."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def _param(case: Case) -> object:
    return pytest.param(case, id=case.id, marks=list(case.marks))


def test_the_table_covers_every_command() -> None:
    commands = {c.args[0] for c in CASES}
    assert {"run", "play", "report", "baseline", "check", "rules"} <= commands
    assert len(CASES) >= 60 and len({c.id for c in CASES}) == len(CASES)


@pytest.mark.slow
@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(case: Case, tmp_path: Path, made: dict[str, Path]) -> None:
    case.setup(tmp_path, made)
    before = snapshot(tmp_path)
    out = cli(case.args, tmp_path)
    lines = out.stderr.splitlines()
    assert out.returncode == 2, out.stderr
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in out.stderr
    assert case.message in lines[0]
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------------------------------------- hostile names
NAME_FIELDS: dict[str, Callable[[str], Setup]] = {
    "run-name": lambda v: replaced('name = "tiny"', f"name = {json.dumps(v)}"),
    "lineup-name": hostile_lineup,
    "persona-name": lambda v: replaced('"all-random"', '"mine"', f'[lineups]\nmine = [{json.dumps(v)}, "random"]'),
    "omen-id": lambda v: replaced("players = [2]", f"players = [2]\nomens = [true]\nomen_deck = [[{json.dumps(v)}]]"),
}


@pytest.mark.slow
@pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("name_field", NAME_FIELDS)
def test_hostile_names_are_refused_and_nothing_is_written_anywhere(
    name_field: str, value: str, tmp_path: Path, made: dict[str, Path]
) -> None:
    work = tmp_path / "a" / "b" / "c" / "d" / "work"  # deep enough for the traversal to land inside tmp_path
    work.mkdir(parents=True)
    NAME_FIELDS[name_field](value)(work, made)
    before = snapshot(tmp_path)
    out = cli(["run", "c.toml", "--out", "out", "--jobs", "1", "--quiet"], work)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
    assert snapshot(tmp_path) == before  # no run directory, no outside/pwned, no INJECTED file


def test_persona_names_from_a_personas_file_are_checked() -> None:
    from septima_sim.players import load_personas
    from septima_sim.players.registry import UnknownPolicyError, register_personas

    balanced = load_personas()["balanced"]
    for value in HOSTILE.values():
        with pytest.raises(UnknownPolicyError, match="is not allowed"):
            register_personas({value: balanced})


@pytest.mark.parametrize("run_dir", ["runs/plain", "runs/a;touch INJECTED;#", "runs/$(rm -rf ~)", "runs/it's"])
def test_replay_commands_are_shell_quoted(run_dir: str) -> None:
    import shlex

    from septima_sim.runner import replay_command

    command = replay_command(run_dir, "p2-full-ss0-om0-none-all-random", 7)
    assert shlex.split(command) == [
        "septima-sim",
        "play",
        "--replay",
        run_dir,
        "--game",
        "p2-full-ss0-om0-none-all-random:7",
    ]


@pytest.mark.slow
def test_report_escapes_a_hostile_run_directory_name(tmp_path: Path, made: dict[str, Path]) -> None:
    hostile = tmp_path / HOSTILE["html"].replace("/", "")
    shutil.copytree(made["run"], hostile)
    out = cli(["report", str(hostile), "--out", "rep"], tmp_path)
    assert out.returncode == 0, out.stderr
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "<img src=x" not in page and "&lt;img src=x" in page


def test_debug_adds_the_traceback_to_a_bad_input(tmp_path: Path) -> None:
    out = cli(["--debug", "play", "--seed", "-1"], tmp_path)
    assert out.returncode == 2
    assert "Traceback" in out.stderr and out.stderr.splitlines()[-1].startswith("error: --seed must be")
