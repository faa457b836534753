"""Reporters: render a :class:`~apiscan.model.ScanResult` as text, JSON, CSV or Markdown.

Importing this package is cheap on purpose; the formats themselves load on first use through
:func:`get_reporter`.
"""

from apiscan.report.base import Reporter, formats, get_reporter, register

__all__ = ["Reporter", "formats", "get_reporter", "register"]
