"""Fuzz benchmark: generated (hypothesmith) and byte-mutated Python files through a real scan.

For every file it checks what the reliability issue promises: the scan does not crash, every
file is accounted for (listed in the report or carrying an error finding), and a file that
Python's own ``compile()`` accepts gets no error finding ("false error"). Files Python
rejects must carry one ("missed error"). Usage::

    python scripts/fuzz.py [--generated 2500] [--mutated 2500] [--notebooks 200] [--seed 0]
                           [--corpus DIR_OR_WHEEL ...] [--no-fixtures]

Seeds for the mutations are the project's own fixtures (unless ``--no-fixtures``), plus the
``.py`` files of every ``--corpus``: a directory (read only) or a wheel / zip / tar archive read
in place (``pip download --no-deps -d /tmp/w transformers``; nothing is extracted). Mutations
are byte-level edits plus the constructs that have split CPython and LibCST before: tab and
form-feed indentation, a doubled BOM, compile-stage errors, thousands of concatenated
literals, long operator chains, CR-only line ends, Python 3.12 syntax. Notebooks wrap mutated
sources in nbformat 4 (and a few broken ones: deep JSON, huge numbers, not JSON). Prints one
summary line per measure and exits 1 when any crash, lost file, false error or missed error
was seen. The test suite runs the same checks with a small budget
(``tests/reliability/test_faithful_parsing.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tarfile
import tempfile
import time
import warnings
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Error codes that are deliberate notes or limits, not claims that the code is broken: an
#: empty module (E010), a size limit (E007), a nesting depth Python itself nearly refuses
#: (E008). They are counted apart.
NOT_FALSE_ERRORS = frozenset({"E007", "E008", "E010"})

#: Byte sequences that have broken parsers before: form feeds, CR/CRLF, continuation at EOF,
#: invalid UTF-8, BOM, tabs, non-ASCII identifiers, null bytes.
SPICES = (
    b"\f",
    b"\r\n",
    b"\r",
    b"\\\r\n",
    b"\\\n",
    b"\t",
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"# \xff\xfe comment\n",
    b"\x00",
    b"    ",
    b"\xc3\xa9",
    b"\n\f",
    b"\f    ",
    b"#",
    b"'",
    b'"""',
    b"(",
    b")",
    b":",
    b"\\",
)


#: Statements appended by the structural mutations: valid in 3.11 unless marked.
TAILS = (
    b"x_ = (" + b" ".join([b"'a'"] * 3000) + b")\n",  # LibCST's walk recursed per literal
    b"z_ = f'{(lambda: 1)()}'\n",
    b"w_ = " + b" and ".join([b"a"] * 5000) + b"\n",
    b"v_ = " + b" + ".join([b"a"] * 600) + b"\n",
    b"return 1\n",  # compile stage: 'return' outside function
    b"def dup_(a, a):\n    pass\n",  # compile stage: duplicate argument
    b"def brk_():\n    break\n",  # compile stage: 'break' outside loop
    b"type Alias_ = int\n",  # Python 3.12
    b'q_ = f"{d["k"]}"\n',  # Python 3.12
    b"async def aw_():\n    return [await x async for x in y]\n",
    b"class C_:\n\tdef f(self):\n\t\treturn 1\n",
)


def _retab(data: bytes, rng: random.Random) -> bytes:
    """Tabs for indentation: every four leading spaces of every line (valid when the file
    was), or eight leading spaces of one line (valid or not, as Python decides)."""
    lines = data.split(b"\n")
    if rng.random() < 0.5:
        out = []
        for line in lines:
            stripped = line.lstrip(b" ")
            width = len(line) - len(stripped)
            out.append(b"\t" * (width // 4) + b" " * (width % 4) + stripped)
        return b"\n".join(out)
    indented = [i for i, line in enumerate(lines) if line.startswith(b"        ")]
    if indented:
        i = rng.choice(indented)
        lines[i] = b"\t" + lines[i][8:]
    return b"\n".join(lines)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three edits: insert a spice or a random byte, delete, duplicate or swap a line,
    truncate, prefix/suffix a spice (the edges are where parsers differ), or one of the
    structural ones (tabs, BOMs, a statement of :data:`TAILS`, CR-only line ends)."""
    for _ in range(rng.randint(1, 3)):
        n = len(data)
        op = rng.randrange(13)
        at = rng.randint(0, n)
        if op == 0:
            data = data[:at] + rng.choice(SPICES) + data[at:]
        elif op == 1:
            data = data[:at] + bytes([rng.randrange(256)]) + data[at:]
        elif op == 2 and n:
            end = min(n, at + rng.randint(1, 8))
            data = data[:at] + data[end:]
        elif op == 3:
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))])
            data = b"\n".join(lines)
        elif op == 4:
            lines = data.split(b"\n")
            if len(lines) > 1:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif op == 5:
            data = data[:at]
        elif op == 6:
            # a form feed at the start of an indented line (Python resets the column there)
            lines = data.split(b"\n")
            indented = [i for i, line in enumerate(lines) if line.startswith(b" ")]
            if indented:
                i = rng.choice(indented)
                lines[i] = b"\f" + lines[i]
            data = b"\n".join(lines)
        elif op == 7:
            data = data.rstrip(b"\n") + rng.choice((b"\n\\\r\n", b"\r\n\\\r\n", b"\n\\", b"\n"))
        elif op == 8:
            data = data.replace(b"\n", b"\r\n") if rng.random() < 0.5 else data + b"\n# \xff\n"
        elif op == 9:
            data = _retab(data, rng)
        elif op == 10:
            data = b"\xef\xbb\xbf" * rng.randint(1, 2) + data.lstrip(b"\xef\xbb\xbf")
        elif op == 11:
            data = data.rstrip(b"\n") + b"\n" + rng.choice(TAILS)
        else:
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")  # CR-only line ends
    return data


def python_accepts(data: bytes | str) -> bool:
    """Whether CPython compiles ``data`` (the ground truth for "false error"); a notebook's
    code is text (a BOM in a cell is a character, not an encoding mark)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(data, "<fuzz>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return False
    return True


@dataclass
class Tally:
    """What the checks found, with a few examples of each problem kept for the report."""

    files: int = 0
    crashes: int = 0
    lost: int = 0
    false_errors: int = 0
    missed_errors: int = 0
    notes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def problem(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.examples.setdefault(kind, [])
        if len(self.examples[kind]) < 5:
            self.examples[kind].append(what)

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.lost or self.false_errors)


def judge(tally: Tally, name: str, data: bytes, codes: list[str] | None) -> None:
    """Account for one file: ``codes`` are its error findings' codes, ``None`` if the scan
    lost it. A notebook (``name`` ends in ``.ipynb``) is judged by the code of its cells, and
    one nobody can read must carry an error."""
    tally.files += 1
    if codes is None:
        tally.problem("lost", name)
        return
    if "E009" in codes:
        tally.problem("crashes", f"{name}: E009")
    real = [c for c in codes if c not in NOT_FALSE_ERRORS]
    tally.notes.update(c for c in codes if c in NOT_FALSE_ERRORS)
    if name.endswith(".ipynb"):
        code = notebook_code(data)
        if code is None:
            if not codes:
                tally.problem("missed_errors", f"{name}: unreadable notebook, no error")
            return
        accepted = python_accepts(_ipython_blanked(code))
    else:
        accepted = python_accepts(data)
    if accepted and real:
        tally.problem("false_errors", f"{name}: {real} {data[:80]!r}")
    elif not accepted and not codes:
        tally.problem("missed_errors", f"{name}: {data[:80]!r}")


def seeds(corpora: Iterable[Path], fixtures: bool = True) -> list[bytes]:
    """Mutation seeds: the fixtures' Python files, then each corpus's (sorted: reproducible).
    A corpus is a directory or an archive (wheel, zip, tar) whose members are read in place."""
    roots = [REPO / "fixtures"] if fixtures else []
    out = []
    for root in [*roots, *corpora]:
        for data in _python_files(root):
            if 0 < len(data) < 60_000:
                out.append(data)
    return out


def _python_files(root: Path) -> Iterable[bytes]:
    if root.is_dir():
        for path in sorted(root.rglob("*.py")):
            try:
                yield path.read_bytes()
            except OSError:
                continue
    elif root.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(root) as archive:
            for name in sorted(archive.namelist()):
                if name.endswith(".py"):
                    yield archive.read(name)
    elif tarfile.is_tarfile(root):
        with tarfile.open(root) as archive:
            for member in sorted(archive.getmembers(), key=lambda m: m.name):
                handle = archive.extractfile(member) if member.name.endswith(".py") else None
                if handle is not None:
                    yield handle.read()


def mutated(n: int, seed: int, corpora: Iterable[Path] = (), fixtures: bool = True) -> list[bytes]:
    rng = random.Random(seed)
    base = seeds(corpora, fixtures)
    return [mutate(rng.choice(base), rng) for _ in range(n)]


def notebooks(sources: list[bytes], seed: int) -> list[bytes]:
    """Each source as a notebook (cells split at blank lines, a Markdown cell between), plus,
    one in ten, a notebook no reader can take: nested 1,200 levels deep, not JSON, or holding
    a 5,000-digit number (which is valid JSON: its code must still be read)."""
    rng = random.Random(seed)
    out = []
    for data in sources:
        text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
        cells = [
            {"cell_type": "code", "metadata": {}, "source": part, "outputs": []}
            for part in text.split("\n\n")
        ]
        cells.insert(len(cells) // 2, {"cell_type": "markdown", "metadata": {}, "source": "#"})
        document = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        raw = json.dumps(document).encode()
        roll = rng.random()
        if roll < 0.03:
            raw = b'{"cells": [' + b"[" * 1200 + b"]" * 1200 + b"]}"
        elif roll < 0.06:
            raw = raw[: len(raw) // 2]
        elif roll < 0.1:
            raw = raw.replace(b'"nbformat": 4', b'"nbformat": 4, "big": ' + b"9" * 5000)
        out.append(raw)
    return out


def notebook_code(data: bytes) -> bytes | None:
    """The code a notebook's cells join to (as apiscan reads it), or None when it is not a
    notebook anyone can read (then it must get one error finding)."""
    try:
        document = json.loads(data, parse_int=lambda text: 0)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        return None
    parts = []
    for cell in document["cells"]:
        if not isinstance(cell, dict):
            return None
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            parts.append("".join(source) if isinstance(source, list) else str(source))
    lines = "\n".join(parts).splitlines()
    return "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass")


def generated(n: int, seed: int) -> list[bytes]:
    """``n`` programs from hypothesmith's grammar-based strategy (deterministic per seed)."""
    if n <= 0:
        return []
    import hypothesmith
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    out: list[bytes] = []

    @hseed(seed)
    @settings(
        max_examples=n,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(hypothesmith.from_grammar() | hypothesmith.from_node())
    def collect(source: str) -> None:
        data = source.encode("utf-8", "surrogatepass")
        if data not in seen:
            seen.add(data)
            out.append(data)

    seen: set[bytes] = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # hypothesmith compiles its programs: SyntaxWarnings
        collect()
    return out


def _ipython_blanked(code: bytes) -> str:
    """A notebook's code as apiscan compiles it: IPython's magics and shell lines blanked the
    way :mod:`apiscan.notebook` blanks them (mutations rarely make any)."""
    from apiscan.notebook import _not_python, _stand_in

    text = code.decode("utf-8", "surrogatepass")
    lines = [_stand_in(line) if _not_python(line) else line for line in text.split("\n")]
    return "\n".join(lines)


def scan_batch(files: list[bytes], jobs: int, suffix: str = ".py") -> dict[str, list[str] | None]:
    """Scan ``files`` written into one temporary directory through the real pipeline (the
    worker pool's isolation included); error codes per file name, ``None`` when lost."""
    from apiscan.model import ErrorFinding
    from apiscan.pipeline import ScanOptions, scan

    with tempfile.TemporaryDirectory(prefix="apiscan-fuzz-") as tmp:
        names = [f"f{i:05d}{suffix}" for i in range(len(files))]
        for name, data in zip(names, files, strict=True):
            (Path(tmp) / name).write_bytes(data)
        result = scan(ScanOptions(tmp, cache_dir=None, jobs=jobs))
    listed = {f.path for f in result.files}
    codes: dict[str, list[str]] = {}
    for finding in result.findings:
        if isinstance(finding, ErrorFinding):
            codes.setdefault(finding.path, []).append(finding.code)
    return {n: codes.get(n, []) if (n in listed or n in codes) else None for n in names}


def run(
    batches: Iterable[tuple[str, list[bytes]]],
    jobs: int,
    batch_size: int = 1000,
    on_batch: Callable[[str, int], None] | None = None,
) -> Tally:
    tally = Tally()
    for label, files in batches:
        suffix = ".ipynb" if label == "notebooks" else ".py"
        for start in range(0, len(files), batch_size):
            chunk = files[start : start + batch_size]
            try:
                verdicts = scan_batch(chunk, jobs, suffix)
            except Exception as exc:  # the whole scan died: every file in it is lost
                tally.problem("crashes", f"{label} batch at {start}: {type(exc).__name__}: {exc}")
                verdicts = {f"f{i:05d}{suffix}": None for i in range(len(chunk))}
            for i, data in enumerate(chunk):
                name = f"f{i:05d}{suffix}"
                judge(tally, f"{label}[{start + i}]{suffix}", data, verdicts[name])
            if on_batch:
                on_batch(label, start + len(chunk))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=2500)
    parser.add_argument("--mutated", type=int, default=2500)
    parser.add_argument("--notebooks", type=int, default=0, help="notebooks made of mutations")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--corpus", type=Path, action="append", default=[], help="a directory or an archive"
    )
    parser.add_argument(
        "--no-fixtures", action="store_true", help="seed from the corpora alone (new code only)"
    )
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    gen = generated(args.generated, args.seed)
    t_gen = time.perf_counter() - t0
    fixtures = not args.no_fixtures
    mut = mutated(args.mutated, args.seed, args.corpus, fixtures)
    nbs = notebooks(mutated(args.notebooks, args.seed + 1, args.corpus, fixtures), args.seed)
    t1 = time.perf_counter()
    tally = run(
        [("generated", gen), ("mutated", mut), ("notebooks", nbs)],
        args.jobs,
        on_batch=lambda label, n: print(f"  {label}: {n} scanned", file=sys.stderr),
    )
    t_scan = time.perf_counter() - t1
    rejected = sum(not python_accepts(d) for d in [*gen, *mut])
    print(
        f"files:          {tally.files} ({len(gen)} generated, {len(mut)} mutated,"
        f" {len(nbs)} notebooks; {rejected} of the .py files rejected by compile())"
    )
    print(f"seconds:        {t_scan:.1f} scanning (+ {t_gen:.1f} generating)")
    print(f"crashes:        {tally.crashes}")
    print(f"lost files:     {tally.lost}")
    print(f"false errors:   {tally.false_errors} (Python compiles it, an error finding)")
    print(f"missed errors:  {tally.missed_errors} (Python rejects, no error finding)")
    print(f"notes:          {dict(sorted(tally.notes.items()))}")
    for kind, examples in sorted(tally.examples.items()):
        for example in examples:
            print(f"  {kind}: {example}")
    return 0 if tally.ok and not tally.missed_errors else 1


if __name__ == "__main__":
    sys.exit(main())
