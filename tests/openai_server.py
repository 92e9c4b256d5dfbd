"""A tiny OpenAI-compatible HTTP server for tests: real sockets, real `openai` client.

Each test scripts it: `server.replies` is a queue of what the next requests get (a
message dict, an HTTP status code to fail with, `("status", code, headers)` to fail
with headers such as Retry-After, `("stall", seconds)` before the default answer,
`"garbage"` for a 200 whose body is not JSON, or `"truncated"` for a 200 whose body is
cut off before its Content-Length); `server.responder`, if set, computes the answer from the request body
instead (same kinds of values). `server.requests` records every JSON body received.
`/v1/completions` requests get the message's `content` as the completion text.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    def __init__(self) -> None:
        self.replies: deque[Any] = deque()
        self.requests: list[dict[str, Any]] = []
        self.default: dict[str, Any] = {"role": "assistant", "content": "ok ###STOP###"}
        self.responder: Any = None
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.requests.append(body)
                    if fake.replies:
                        reply = fake.replies.popleft()
                    elif fake.responder is not None:
                        reply = fake.responder(body)
                    else:
                        reply = fake.default
                if isinstance(reply, tuple) and reply[0] == "stall":
                    time.sleep(reply[1])
                    reply = fake.default
                if reply in ("garbage", "truncated"):
                    whole = b'{"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role"'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(whole) * (2 if reply == "truncated" else 1)))
                    self.end_headers()
                    self.wfile.write(whole)
                    self.close_connection = True
                    return
                headers: dict[str, str] = {}
                if isinstance(reply, tuple) and reply[0] == "status":
                    _, reply, headers = reply
                if isinstance(reply, int):
                    payload = json.dumps({"error": {"message": f"injected {reply}", "type": "server_error"}}).encode()
                    self.send_response(reply)
                    if reply == 429 and not headers:
                        self.send_header("Retry-After", "0")
                    for k, v in headers.items():
                        self.send_header(k, v)
                else:
                    if self.path.endswith("/completions") and not self.path.endswith("/chat/completions"):
                        choice = {"index": 0, "text": reply.get("content") or "", "finish_reason": "stop"}
                        kind = "text_completion"
                    else:
                        choice = {"index": 0, "message": reply, "finish_reason": "stop"}
                        kind = "chat.completion"
                    payload = json.dumps(
                        {
                            "id": f"cmpl-{len(fake.requests)}",
                            "object": kind,
                            "created": 0,
                            "model": body.get("model", "fake"),
                            "choices": [choice],
                            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
                        }
                    ).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a time-out test): nothing to answer

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
