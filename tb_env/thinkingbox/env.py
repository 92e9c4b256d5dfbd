"""`tb_env/ThinkingBox-v0`: ThinkingBox-Bench v1.0 as one gymnasium env.

`gym.make("tb_env/ThinkingBox-v0", data_dir=...)` loads the release from a
`thinkingbox-data` checkout, registers its five scenarios as domains and picks the task
at reset (`options={"task_id": ...}`, or by seed). Everything else is `TBEnv`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tb_env.core.env import TBEnv
from tb_env.errors import ThinkingBoxDataError
from tb_env.thinkingbox.importer import GET_DATA, register_thinkingbox


class ThinkingBoxEnv(TBEnv):
    def __init__(
        self,
        data_dir: str | Path | None = None,
        server_python: str | None = None,
        testlist: str | Path | None = None,
        launcher: Any = None,
        **kwargs: Any,
    ):
        if data_dir is None:
            raise ThinkingBoxDataError(f"tb_env/ThinkingBox-v0 needs data_dir= (a thinkingbox-data checkout); {GET_DATA}.")
        self.release = register_thinkingbox(data_dir, server_python, testlist=testlist, launcher=launcher)
        kwargs.setdefault("task_ids", self.release.task_ids)
        super().__init__(domain=None, split=None, **kwargs)
