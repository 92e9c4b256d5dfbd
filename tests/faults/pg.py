"""PostgreSQL for the fault suite: reachable or a clear skip reason."""

from __future__ import annotations

import os

import pytest

from tb_env.backends.postgres import DEFAULT_DSN

from ..test_postgres import _pg_reachable

needs_postgres = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not _pg_reachable(),
        reason=f"no PostgreSQL at {os.environ.get('TB_PG_DSN', DEFAULT_DSN)} (or asyncpg missing)",
    ),
]
