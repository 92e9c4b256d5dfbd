"""Shared fixtures: the `mini` test domain, registered once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

import tb_env

PACKS = Path(__file__).parent / "packs"


@pytest.fixture(scope="session")
def mini() -> tb_env.Domain:
    """A two-table domain whose rows the tests can reason about exactly."""
    if "mini" in tb_env.list_domains():
        return tb_env.get_domain("mini")
    return tb_env.register_domain(PACKS / "mini")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
