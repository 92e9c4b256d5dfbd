"""A file-backed SQLite backend for fault tests: each episode's copy is a real file.

The default backend keeps episodes in memory, where nothing outside the process can lock
or fill them; this one writes the same template image to a temporary file per episode
and opens it with tb-env's own `SQLiteDatabase`, so a second process's lock or a full
disk hits the code path every SQLite episode uses."""

from __future__ import annotations

import os
import sqlite3
import tempfile

from tb_env.backends.sqlite import SQLiteBackend
from tb_env.domain.database import Database, SQLiteDatabase
from tb_env.domain.pack import Domain
from tb_env.domain.task import Task


class FileSQLiteBackend(SQLiteBackend):
    name = "sqlite-file"

    def __init__(self, folder: str, busy_timeout_s: float = 0.05):
        super().__init__()
        self.folder = folder
        self.busy_timeout_s = busy_timeout_s

    async def open(self, domain: Domain, task: Task | None) -> Database:
        fd, path = tempfile.mkstemp(suffix=".sqlite", dir=self.folder)
        os.close(fd)
        mem = self.connect(domain, task)
        disk = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout_s)
        mem.backup(disk)
        mem.close()
        return SQLiteDatabase(disk, domain.metadata, domain.now, path, tracks_changes=True)

    async def close(self, db: Database) -> None:
        await db.close()
        os.unlink(db.name)
