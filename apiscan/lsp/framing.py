"""The server's input, framed and validated before pygls reads it.

pygls reads ``Content-Length`` headers and bodies as they come: a length of
``99999999999999999999`` crashed the server (it tried to read that much), a wrong length left it
alive but deaf (out of step with every later message), and a body that is not JSON got no reply.
:class:`FramedInput` sits between stdin and pygls and hands pygls only well-formed messages,
each re-framed with its true length:

- a header block is whatever precedes a blank line; anything before a ``Content-Length`` line
  (the tail of a message whose length was wrong) is skipped, so the stream resynchronises on the
  next header;
- a length that is not a number, or above :data:`MAX_BODY`, is answered with a JSON-RPC error
  and the stream resynchronises;
- a body is read up to its length, but a body that is complete JSON while no more bytes are
  waiting, or that runs into the next message's header, ends there (a length too large does
  not swallow the next message nor wait for bytes that never come);
- a body that is not JSON is answered with a JSON-RPC parse error (``-32700``, ``id`` null).

Replies go through :class:`LockedOutput`, the same writer pygls uses, one message at a time.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import threading
from typing import BinaryIO

#: The largest message body accepted (a whole notebook of a large project fits many times).
MAX_BODY = 256 << 20
_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\S*)", re.IGNORECASE)
_NEXT_HEADER = re.compile(rb"Content-Length[ \t]*:", re.IGNORECASE)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600


class LockedOutput:
    """stdout for pygls and for our own error replies: one whole message per write."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def write(self, data: bytes) -> int:
        with self.lock:
            written = self.stream.write(data)
            self.stream.flush()
        return written

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.stream.close()


class FramedInput:
    """The ``readline``/``read`` pygls's reader calls, serving validated messages only."""

    def __init__(self, fd: int, out: LockedOutput) -> None:
        self.fd, self.out = fd, out
        self.buf = b""  # raw bytes read from the client, not yet framed
        self.ready = b""  # one re-framed message, as pygls is reading it
        self.eof = False

    # ---------------------------------------------------------------- pygls's side
    def readline(self) -> bytes:
        if not self.ready and not self._next():
            return b""
        end = self.ready.find(b"\n") + 1 or len(self.ready)
        line, self.ready = self.ready[:end], self.ready[end:]
        return line

    def read(self, n: int) -> bytes:
        if not self.ready and not self._next():
            return b""
        data, self.ready = self.ready[:n], self.ready[n:]
        return data

    # ---------------------------------------------------------------- raw input
    def _fill(self, wait: bool = True) -> bool:
        """Read what the client sent (blocking unless ``wait`` is false); False at the end."""
        if self.eof:
            return False
        if not wait:
            ready, _, _ = select.select([self.fd], [], [], 0)
            if not ready:
                return False
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def _line(self) -> bytes | None:
        while b"\n" not in self.buf:
            if len(self.buf) > 1 << 16:  # a "header" line this long is noise: skip it
                self.buf = self.buf[-64:]
            if not self._fill():
                return None
        end = self.buf.index(b"\n") + 1
        line, self.buf = self.buf[:end], self.buf[end:]
        return line

    def _next(self) -> bool:
        """Frame the next valid message into ``ready``; False at the end of the input."""
        while True:
            length = self._headers()
            if length is None:
                return False
            if isinstance(length, str):  # a header we cannot use: say so, resynchronise
                self._reply(INVALID_REQUEST, length)
                continue
            body = self._body(length)
            try:
                json.loads(body)
            except (ValueError, RecursionError):
                self._reply(PARSE_ERROR, "Parse error: the message body is not valid JSON")
                continue
            self.ready = b"Content-Length: %d\r\n\r\n" % len(body) + body
            return True

    def _headers(self) -> int | str | None:
        """The next header block's Content-Length (skipping anything before it); a message
        when its value is unusable; None at the end of the input."""
        value: bytes | None = None
        while True:
            line = self._line()
            if line is None:
                return None
            if value is None:
                found = _HEADER.search(line)
                if found is None:
                    continue  # not a header: the tail of a mis-framed message
                value = found.group(1)
                continue
            if not line.strip():
                break  # the blank line ending the header block
        if not value.isdigit():
            return f"bad Content-Length header: {value[:40].decode('ascii', 'replace')!r}"
        length = int(value)
        if length > MAX_BODY:
            return f"Content-Length {value[:40].decode('ascii')} is above the limit of {MAX_BODY}"
        return length

    def _body(self, length: int) -> bytes:
        """``length`` bytes, or fewer where the declared length is wrong (see the module
        docstring); what follows a short body stays in the buffer for the next header."""
        while True:
            window = self.buf[:length]
            cut = _complete_before_header(window)
            if cut is not None:  # the next message began inside this one's declared length
                body, self.buf = self.buf[:cut], self.buf[cut:]
                return body
            if len(self.buf) >= length:
                body, self.buf = self.buf[:length], self.buf[length:]
                return body
            if self.buf.rstrip().endswith((b"}", b"]")) and _is_json(self.buf):
                if not self._fill(wait=False):  # complete, and nothing more is coming now
                    body, self.buf = self.buf, b""
                    return body
                continue
            if not self._fill():
                body, self.buf = self.buf, b""
                return body

    def _reply(self, code: int, message: str) -> None:
        error = {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}
        body = json.dumps(error).encode("utf-8")
        with contextlib.suppress(OSError, ValueError):  # the client is gone: the input ends
            self.out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _complete_before_header(window: bytes) -> int | None:
    """Where a header starts in ``window`` right after a complete JSON body (a header inside
    a JSON string cannot follow one), else None."""
    for found in _NEXT_HEADER.finditer(window):
        if found.start() and _is_json(window[: found.start()]):
            return found.start()
    return None


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True
