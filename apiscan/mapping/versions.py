"""Which mapping tables ship and how a ``--ms-version`` names one.

Apart from :mod:`apiscan.mapping.store` (which re-exports all of this) so that the command
line can word its help and check a version without importing the table's record types: an
``apiscan --version`` or a scan of an empty directory never loads them.
"""

from __future__ import annotations

KNOWN_VERSIONS: tuple[str, ...] = ("2.6", "2.4", "2.3", "2.0", "1.10")
DEFAULT_VERSION: str = "2.6"


class UnknownVersionError(ValueError):
    """A mapping version no shipped table covers."""

    def __init__(self, version: str) -> None:
        self.version = version
        super().__init__(
            f"unknown MindSpore mapping version {version!r};"
            f" known versions: {', '.join(KNOWN_VERSIONS)}"
        )


def normalize_version(ms_version: str | None) -> str:
    """``None`` → the default; ``"2.4.0"``/``"r2.4.0"`` → ``"2.4"``; unknown → error."""
    if ms_version is None:
        return DEFAULT_VERSION
    text = ms_version.strip().removeprefix("r")
    parts = text.split(".")
    candidate = ".".join(parts[:2])
    if candidate in KNOWN_VERSIONS and all(part.isdigit() for part in parts):
        return candidate
    raise UnknownVersionError(ms_version)
