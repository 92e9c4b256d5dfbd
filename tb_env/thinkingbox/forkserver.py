"""Fork server: import an MCP server module once, fork a fresh copy of it per episode.

ThinkingBox's servers keep their database in module globals and `__reserved__init` only
adds to it, so every episode needs a process that has never served anyone. Starting
one costs ~3 s (imports, tool registration); forking an already-imported process costs
milliseconds and gives the child exactly the state the module had right after import.

This file runs *in the servers' interpreter* (`--server-python`, which has their pinned
fastmcp but not tb-env), so it uses the standard library only and is started as a
script: `python forkserver.py --module M --socket PATH [--path DIR]...`.

Protocol: after importing the module the server prints `READY` (or `ERROR <why>`) on
stdout and listens on the Unix socket PATH. Each connection is one episode: the server
forks, writes `PID <child pid>\n` on the connection, and the child rebinds its stdin and
stdout to the connection and serves MCP over it (newline-delimited JSON-RPC, the stdio
transport) until the connection closes. The server exits when its stdin closes (tb-env
went away), so no fork server outlives its owner.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import selectors
import signal
import socket
import sys


def _serve_child(module: object, conn: socket.socket) -> None:
    """In the child: the connection becomes stdin/stdout, then the module's MCP server runs."""
    fd = conn.fileno()
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    conn.close()
    server = getattr(module, "mcp", None) or getattr(module, "server", None)
    run = getattr(server, "run", None)
    if run is None:
        sys.stderr.write(f"forkserver: {module!r} has no `mcp` server object with run()\n")
        os._exit(3)
    kwargs: dict[str, object] = {"transport": "stdio"}
    if "show_banner" in inspect.signature(run).parameters:
        kwargs["show_banner"] = False  # fastmcp prints a banner on stderr otherwise
    try:
        run(**kwargs)
    finally:
        os._exit(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", required=True)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--path", action="append", default=[], help="prepend to sys.path (may repeat)")
    args = ap.parse_args(argv)
    for p in reversed(args.path):
        sys.path.insert(0, p)
    try:
        module = importlib.import_module(args.module)
    except BaseException as exc:  # any import failure is reported on stdout, not raised
        print(f"ERROR {type(exc).__name__}: {exc}".replace("\n", " "), flush=True)
        return 2
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(args.socket)
    listener.listen(128)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    print("READY", flush=True)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(sys.stdin, selectors.EVENT_READ, "stdin")
    while True:
        for key, _ in sel.select():
            if key.data == "stdin":
                if not os.read(sys.stdin.fileno(), 4096):
                    return 0  # the owner closed our stdin: it is gone, and so are we
                continue
            conn, _ = listener.accept()
            pid = os.fork()
            if pid == 0:
                sel.close()
                listener.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                _serve_child(module, conn)
            try:
                conn.sendall(f"PID {pid}\n".encode())
            except OSError:
                pass  # the client went away before the child started; the child sees EOF
            conn.close()


if __name__ == "__main__":
    sys.exit(main())
