"""Take a screenshot of an HTML page in headless Chromium: the review page's real-browser check.

A page that parses is not a page that renders: a stray ``<`` in an SVG label or a CSS typo
can leave a blank or broken page that no string assertion notices. This renders the page the
way a reader's browser would, offline, and writes a PNG that a test (or a person) can inspect.

    python scripts/screenshot_review.py PAGE.html OUT.png [--width 1280] [--height 2000]

Chromium comes from Debian's packages (``apt-get install -y chromium``). It runs with a
throw-away profile and with every background network feature off, so a page that tried to
load anything from the network would render without it rather than fetch it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

INSTALL_HINT = "install it with: apt-get update && apt-get install -y chromium"
#: Chromium normally finishes in a second or two; a hung browser must not hang a test run.
TIMEOUT_SECONDS = 120.0


class ScreenshotError(RuntimeError):
    """Chromium is absent, failed, or wrote no image."""


def chromium_command(
    browser: str, page: Path, out: Path, profile: Path, width: int, height: int
) -> list[str]:
    """The command line: headless, no sandbox (root in containers), no network side-traffic."""
    return [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--screenshot={out}",
        f"--window-size={width},{height}",
        page.resolve().as_uri(),
    ]


def screenshot(page: Path, out: Path, width: int = 1280, height: int = 2000) -> None:
    """Render ``page`` and write the top ``width`` x ``height`` pixels to ``out`` as PNG."""
    browser = shutil.which("chromium")
    if browser is None:
        raise ScreenshotError(f"chromium is not installed; {INSTALL_HINT}")
    if not page.is_file():
        raise ScreenshotError(f"no such page: {page}")
    out = out.resolve()
    out.unlink(missing_ok=True)  # an old image must not pass for a new one
    with tempfile.TemporaryDirectory(prefix="apiscan-chromium-") as profile:
        command = chromium_command(browser, page, out, Path(profile), width, height)
        # Its own session, so that on a timeout the browser and its helpers go together.
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            _, stderr = process.communicate(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise ScreenshotError(f"chromium did not finish in {TIMEOUT_SECONDS:.0f}s") from None
    if process.returncode != 0 or not out.is_file():
        tail = "\n".join(stderr.strip().splitlines()[-5:])
        raise ScreenshotError(f"chromium exited with {process.returncode} and no image:\n{tail}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=Path, help="the HTML file to render")
    parser.add_argument("out", type=Path, help="where to write the PNG")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=2000)
    args = parser.parse_args(argv)
    try:
        screenshot(args.page, args.out, args.width, args.height)
    except ScreenshotError as error:
        print(f"screenshot_review: {error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
