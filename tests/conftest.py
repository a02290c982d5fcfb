"""Shared fixtures: the built-in content pack, loaded once."""

from __future__ import annotations

import pytest

from septima_sim.content import Content, load_content


@pytest.fixture(scope="session")
def content() -> Content:
    return load_content()
