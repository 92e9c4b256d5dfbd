"""Chat-completion calls to OpenAI-compatible endpoints, with retries classified once.

The user simulator, the evaluated model and (later) the rubric judge all talk to such
endpoints. Their failures are the environment's, not the agent's: after the retries
run out the caller's `InfraError` subclass is raised, so the episode is marked
`infra_error` instead of scored. A 4xx other than 408/409/429 is not retried: a bad
request does not get better.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tb_env.errors import InfraError

T = TypeVar("T")


def make_client(base_url: str | None, api_key: str | None, timeout_s: float) -> Any:
    """An `openai.AsyncOpenAI` client; defaults from OPENAI_BASE_URL / OPENAI_API_KEY.

    The client's own retries are off: `call_with_retries` retries, so each failure is
    counted and classified in one place."""
    import openai

    return openai.AsyncOpenAI(
        base_url=base_url or os.environ.get("OPENAI_BASE_URL"),
        api_key=api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY",
        max_retries=0,
        timeout=timeout_s,
    )


def _retryable(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    return status is None or not (400 <= status < 500) or status in (408, 409, 429)


MAX_RETRY_AFTER_S = 60.0
# what a body that is not JSON, or JSON of the wrong shape, raises on its way through the
# client and `attempt`: a malformed answer, retried like a transport failure
MALFORMED = (ValueError, AttributeError, TypeError, KeyError, IndexError)


def _delay(exc: BaseException, n: int) -> float:
    """Back-off before retry n+1: the server's `Retry-After` (seconds) when it sent one
    (capped), else exponential."""
    response = getattr(exc, "response", None)
    value = getattr(response, "headers", {}).get("retry-after") if response is not None else None
    try:
        if value is not None:
            return max(0.0, min(float(value), MAX_RETRY_AFTER_S))
    except ValueError:
        pass  # an HTTP date: fall back to our own schedule
    return min(0.5 * 2**n, 8.0)


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]], error: type[InfraError], what: str, max_retries: int
) -> T:
    """Run `attempt` until it succeeds; after `max_retries` retries raise `error`.

    `attempt` may raise `error` itself for a malformed answer (no choices, no message),
    which is retried like a transport failure; so is a body that is not JSON or not of
    the expected shape."""
    import openai

    last: BaseException | None = None
    for n in range(max_retries + 1):
        try:
            return await attempt()
        except (TimeoutError, openai.APIError, error, *MALFORMED) as exc:
            last = exc
            if not _retryable(exc):
                break
            if n < max_retries:
                await asyncio.sleep(_delay(exc, n))
    raise error(f"{what} failed after {n + 1} attempts: {last}")
