"""Jupyter notebooks (``.ipynb``) as Python source: code cells joined in order.

A notebook is scanned like a module whose text is its code cells one after another. IPython
syntax that is not Python is blanked, keeping the line count so positions stay exact: line
magics and shell escapes (``%time``, ``!pip install``, with their ``\\`` continuation lines)
become ``pass`` at their indentation (a shell command can be a loop's body), ``files = !ls``
becomes ``files = None``, help (``?obj``, ``obj?``) ``pass``, and whole cells under a cell
magic (``%%bash``) are blanked. Every line of the joined text knows
its cell (1-based, counting every cell of the notebook, Markdown ones too, as a reader counts
them) and its line within that cell, which is how findings are reported
(``nb.ipynb:cell 3:12``). A file that is not a notebook we can read becomes one error finding.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by the error path alone: discovery reads SUFFIX
    from apiscan.model import FileError

SUFFIX = ".ipynb"
#: The error code of a notebook that cannot be read as one (see apiscan/errors.py).
MALFORMED = "E011"
_SHELL_ASSIGNMENT = re.compile(r"^[\w\s,()\[\]*.]+=\s*!")  # files = !ls
_HELP = re.compile(r"^\?|^[\w.\[\]()]+\?{1,2}$")  # ?obj, obj?, obj.attr??


@dataclass(frozen=True, slots=True)
class NotebookSource:
    """The joined code and, per line of it (index 0 is line 1), (cell, line in cell)."""

    text: str
    lines: tuple[tuple[int, int], ...]


def is_notebook(path: str) -> bool:
    return path.endswith(SUFFIX)


def _error(message: str) -> FileError:
    from apiscan.model import FileError

    return FileError(MALFORMED, f"malformed notebook: {message}")


def notebook_source(data: bytes) -> NotebookSource | FileError:
    """The Python text of a notebook's code cells, or why it is not a notebook we can read."""
    try:
        # numbers are metadata here: a 5,000-digit one must not trip int max str digits
        document = json.loads(data.decode("utf-8-sig"), parse_int=_no_int)
    except UnicodeDecodeError as exc:
        return _error(f"not UTF-8 ({exc.reason} at byte {exc.start})")
    except json.JSONDecodeError as exc:
        return _error(f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})")
    except RecursionError:
        return _error("JSON nested too deeply to read")
    except ValueError as exc:  # a number longer than Python's int max str digits
        return _error(f"not JSON we can read ({exc})")
    if not isinstance(document, dict):
        return _error("the top level is not a JSON object")
    cells = document.get("cells")
    if cells is None and "worksheets" in document:
        return _error("nbformat 3 is not supported (open and save it with Jupyter to upgrade)")
    if not isinstance(cells, list):
        return _error('no "cells" list')
    out: list[str] = []
    where: list[tuple[int, int]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            return _error(f"cell {number} is not a JSON object")
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(part, str) for part in source):
            source = "".join(source)
        if not isinstance(source, str):
            return _error(f"cell {number}: source is neither a string nor a list of strings")
        lines = source.splitlines()
        magic_cell = bool(lines) and lines[0].lstrip().startswith("%%")
        continued = False  # a shell or magic line ending in "\\" goes on on the next line
        for index, line in enumerate(lines, start=1):
            if magic_cell:
                line = ""
            elif continued:
                continued = line.endswith("\\")
                line = ""
            elif _not_python(line):
                continued = line.endswith("\\")
                line = _stand_in(line)
            out.append(line)
            where.append((number, index))
    return NotebookSource("".join(f"{line}\n" for line in out), tuple(where))


def _not_python(line: str) -> bool:
    stripped = line.strip()
    return (
        stripped.startswith(("%", "!"))
        or bool(_HELP.match(stripped))
        or bool(_SHELL_ASSIGNMENT.match(stripped))
    )


def _stand_in(line: str) -> str:
    """A Python statement that takes the IPython line's place and keeps the block valid: a
    shell command can be the body of a ``for`` (``  !wget ...`` → ``  pass``), and
    ``files = !ls`` still binds ``files``."""
    indent = line[: len(line) - len(line.lstrip())]
    assignment = _SHELL_ASSIGNMENT.match(line.strip())
    if assignment:
        return f"{indent}{assignment.group(0)[:-1].rstrip()} None"
    return f"{indent}pass"


def _no_int(text: str) -> int:
    """JSON integers are never read from a notebook (execution counts, metadata)."""
    return 0
