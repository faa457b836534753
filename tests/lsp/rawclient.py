"""A bare LSP client over a subprocess's stdio: framing written and read by hand, so that
tests can start the server in any working directory and send malformed input on purpose."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def server_command() -> list[str]:
    """``apiscan lsp`` the way an editor starts it: the console script next to this Python
    (``python -m apiscan`` where it is not installed, which puts the working directory on
    sys.path first: the harder case for isolation)."""
    script = Path(sys.executable).parent / "apiscan"
    if script.exists():
        return [str(script), "lsp"]
    return [sys.executable, "-m", "apiscan", "lsp"]


class RawClient:
    """Send framed JSON-RPC messages (or any bytes) and collect what the server says."""

    def __init__(self, cwd: Path, command: list[str] | None = None, env: dict | None = None):
        self.proc = subprocess.Popen(
            command or server_command(),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = out.read(length)
            try:
                self.messages.put(json.loads(body))
            except ValueError:
                continue

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None, timeout: float = 60) -> dict[str, Any]:
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == ident and "method" not in m, timeout)

    def wait(self, match: Any, timeout: float = 60) -> dict[str, Any]:
        """The first message (seen or to come) that ``match`` accepts; answers the server's
        own requests (configuration, registration) with null on the way."""
        for m in self.seen:
            if match(m):
                return m
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                m = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(m)
            if "method" in m and "id" in m:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            if match(m):
                return m
        raise AssertionError(f"no matching message in {timeout} s; seen: {self.seen[-5:]}")

    def initialize(self, root: Path) -> dict[str, Any]:
        reply = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "capabilities": {},
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "initializationOptions": {"debounceMs": 10},
            },
        )
        self.notify("initialized", {})
        return reply

    def diagnostics(self, uri: str, timeout: float = 60) -> list[dict[str, Any]]:
        m = self.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            timeout,
        )
        return m["params"]["diagnostics"]

    def close(self, timeout: float = 10) -> int:
        if self.proc.poll() is None:
            try:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit")
            except (AssertionError, OSError):
                pass
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if stream is not None:
                    stream.close()
