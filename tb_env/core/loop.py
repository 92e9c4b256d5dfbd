"""The private event-loop thread behind the sync API.

`TBEnv.reset/step/close` run the async core on this loop, never on the caller's, so they
work from plain scripts and from code already inside a running loop (Jupyter, async
trainers), where `asyncio.run` would fail. One daemon thread serves every env of the
process; it starts on the first sync call, not at import or construction.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def _get_loop() -> asyncio.AbstractEventLoop:
    global _loop, _thread
    with _lock:
        if _loop is None or not _thread or not _thread.is_alive():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def serve() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            _thread = threading.Thread(target=serve, name="tb-env-loop", daemon=True)
            _thread.start()
            ready.wait()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the private loop and wait for its result."""
    loop = _get_loop()
    if threading.current_thread() is _thread:
        coro.close()
        raise RuntimeError("tb-env's sync API was called from its own loop thread; use the async API there")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


def started() -> bool:
    """Whether the private loop thread is running (tests check construction starts none)."""
    return _thread is not None and _thread.is_alive()
