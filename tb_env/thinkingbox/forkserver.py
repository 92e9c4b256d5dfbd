"""Fork server: import an MCP server module once, fork a fresh copy of it per episode.

ThinkingBox's servers keep their database in module globals and `__reserved__init` only
adds to it, so every episode needs a process that has never served anyone. Starting
one costs ~3 s (imports, tool registration); forking an already-imported process costs
milliseconds and gives the child exactly the state the module had right after import.

This file runs *in the servers' interpreter* (`--server-python`, which has their pinned
fastmcp but not tb-env), so it uses the standard library only and is started as a
script: `python forkserver.py --module M --socket PATH [--path DIR]...`.

Protocol: after importing the module the server prints `READY` (or `ERROR <why>`) on
stdout and listens on the Unix socket PATH. Each connection is one episode, taken by a
child forked in advance (a few spares wait in accept(), and each one taken is replaced at
once): the child writes `PID <its pid>\n` on the connection, rebinds its stdin and stdout
to it and serves MCP over it (newline-delimited JSON-RPC, the stdio transport) until the
connection closes. The server exits when its stdin closes (tb-env
went away), so no fork server outlives its owner.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import inspect
import json
import os
import selectors
import signal
import socket
import sys


def _run_stdio(module: object) -> None:
    """Run the module's MCP server on whatever `sys.stdin`/`sys.stdout` are now."""
    server = getattr(module, "mcp", None) or getattr(module, "server", None)
    run = getattr(server, "run", None)
    if run is None:
        raise RuntimeError(f"{module!r} has no `mcp` server object with run()")
    kwargs: dict[str, object] = {"transport": "stdio"}
    if "show_banner" in inspect.signature(run).parameters:
        kwargs["show_banner"] = False  # fastmcp prints a banner on stderr otherwise
    run(**kwargs)


WARM_UP = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "warm-up", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
]


def _warm_up(module: object) -> None:
    """One throwaway MCP session (initialize, tools/list, end of input) in this process,
    before any fork: the lazy imports and caches of a server's first session (~25 ms)
    then happen once here instead of in every child. It touches no tool and no data."""
    r, w = os.pipe()
    with os.fdopen(w, "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(m) + "\n" for m in WARM_UP))
    saved = sys.stdin, sys.stdout
    sys.stdin = os.fdopen(r, "r", encoding="utf-8")
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    try:
        _run_stdio(module)
    except BaseException:  # an optimisation only: a server that cannot do it still forks
        pass
    finally:
        for f in (sys.stdin, sys.stdout):
            try:
                f.close()
            except Exception:
                pass
        sys.stdin, sys.stdout = saved


def _serve_child(module: object, conn: socket.socket) -> None:
    """In the child: the connection becomes stdin/stdout, then the module's MCP server runs."""
    fd = conn.fileno()
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    conn.close()
    sys.stdin = os.fdopen(0, "r", encoding="utf-8", closefd=False)
    sys.stdout = os.fdopen(1, "w", encoding="utf-8", closefd=False)
    try:
        _run_stdio(module)
    except BaseException as exc:
        sys.stderr.write(f"forkserver child: {type(exc).__name__}: {exc}\n")
    finally:
        os._exit(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", required=True)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--path", action="append", default=[], help="prepend to sys.path (may repeat)")
    ap.add_argument("--spares", type=int, default=2, help="children kept forked, waiting for a connection")
    args = ap.parse_args(argv)
    for p in reversed(args.path):
        sys.path.insert(0, p)
    try:
        module = importlib.import_module(args.module)
    except BaseException as exc:  # any import failure is reported on stdout, not raised
        print(f"ERROR {type(exc).__name__}: {exc}".replace("\n", " "), flush=True)
        return 2
    _warm_up(module)
    gc.collect()
    gc.freeze()  # children share the imported heap copy-on-write; the collector leaves it alone
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(args.socket)
    listener.listen(128)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    listener.setblocking(False)  # several spares wait on it; the one that loses a race retries
    lifeline = os.pipe()  # never written: spares see EOF on it when this server is gone
    sel = selectors.DefaultSelector()
    sel.register(sys.stdin, selectors.EVENT_READ, None)
    for _ in range(max(args.spares, 1)):
        _fork_spare(module, listener, sel, lifeline)
    print("READY", flush=True)
    while True:
        for key, _ in sel.select():
            if key.data is None:
                if not os.read(sys.stdin.fileno(), 4096):
                    return 0  # the owner closed our stdin: it is gone, and so are we
                continue
            sel.unregister(key.fd)  # a spare took a connection (or died): fork its successor
            os.close(key.fd)
            _fork_spare(module, listener, sel, lifeline)


def _fork_spare(module: object, listener: socket.socket, sel: selectors.BaseSelector,
                lifeline: tuple[int, int]) -> None:
    """Fork a child that waits in accept() itself, so a connection never waits for a fork.

    The child tells the server it was taken by closing its end of a pipe, says its pid to
    the client, and serves MCP on the connection."""
    r, w = os.pipe()
    pid = os.fork()
    if pid:
        os.close(w)
        sel.register(r, selectors.EVENT_READ, pid)
        return
    try:
        os.close(r)
        os.close(lifeline[1])
        sel.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        wait = selectors.DefaultSelector()
        wait.register(listener, selectors.EVENT_READ)
        wait.register(lifeline[0], selectors.EVENT_READ)
        while True:
            ready = [k.fileobj for k, _ in wait.select()]
            if lifeline[0] in ready:
                os._exit(0)  # the fork server is gone
            try:
                conn, _ = listener.accept()
                break
            except BlockingIOError:
                continue  # another spare took it
        wait.close()
        conn.setblocking(True)
        os.close(lifeline[0])
        os.close(w)
        listener.close()
        conn.sendall(f"PID {os.getpid()}\n".encode())
    except BaseException:
        os._exit(1)
    _serve_child(module, conn)

if __name__ == "__main__":
    sys.exit(main())
