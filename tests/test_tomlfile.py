"""One reader for every TOML file a user gives: each problem is one line naming the file, as the caller's error."""

from __future__ import annotations

from pathlib import Path

import pytest

from septima_sim.content import ContentError
from septima_sim.experiment import ExperimentError, load_experiment
from septima_sim.players import PersonaError, load_personas
from septima_sim.tomlfile import read_toml
from septima_sim.tune.schema import TuneError, read


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "no such config file"),
        (lambda p: p.mkdir(), "is a directory, expected a TOML file"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00"), "not a UTF-8 text file (a config file is TOML text)"),
        (lambda p: p.write_text("a = [unclosed"), "invalid TOML: "),
    ],
    ids=["missing", "folder", "binary", "invalid"],
)
def test_every_problem_is_one_line_of_the_callers_error(tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "x.toml"
    make(path)
    with pytest.raises(ExperimentError) as caught:
        read_toml(path, ExperimentError, "config file")
    assert str(caught.value).startswith(f"{path}: {message}") and "\n" not in str(caught.value)


def test_the_readers_of_user_files_share_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("a = [unclosed")
    for reader, error in ((load_experiment, ExperimentError), (read, TuneError), (load_personas, PersonaError)):
        with pytest.raises(error, match="invalid TOML"):
            reader(bad)
    with pytest.raises(ContentError, match=r"^nope\.toml: no such content file$"):
        read_toml(tmp_path / "nope.toml", ContentError, "content file", "nope.toml")
