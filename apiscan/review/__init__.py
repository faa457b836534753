"""The pre-migration feasibility review (``apiscan review``): the training recipe, the network's
structure, the API gaps and a transparent effort estimate, built on top of one scan.

Renderers are looked up by format name and imported only when asked for, so that the Markdown
format never pays for the HTML page's code and a format whose module is absent fails with a
clear message instead of an import error at start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from apiscan.review.model import Review

Renderer = Callable[[Review], str]

#: format name -> (module, function) rendering a Review as that format.
RENDERERS: dict[str, tuple[str, str]] = {
    "markdown": ("apiscan.review.markdown", "render_markdown"),
    "html": ("apiscan.review.html", "render_html"),
    "json": ("apiscan.review.json", "render_json"),
}


class RendererUnavailable(LookupError):
    """A known format whose module is not installed (or not written yet)."""


def get_renderer(fmt: str) -> Renderer:
    """The render function of ``fmt``; ``KeyError`` for an unknown format,
    :class:`RendererUnavailable` when its module cannot be found."""
    module_name, function = RENDERERS[fmt]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise  # the module exists but something it needs does not: a real bug
        raise RendererUnavailable(
            f"the {fmt} review format is not available: module {module_name} is missing"
        ) from None
    render: Renderer = getattr(module, function)
    return render
