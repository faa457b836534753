"""Fuzz benchmark: generated (hypothesmith) and byte-mutated Python files through a real scan.

For every file it checks what the reliability issue promises: the scan does not crash, every
file is accounted for (listed in the report or carrying an error finding), and a file that
Python's own ``compile()`` accepts gets no error finding ("false error"). Files Python
rejects must carry one ("missed error"). Usage::

    python scripts/fuzz.py [--generated 2500] [--mutated 2500] [--seed 0] [--corpus DIR ...]

Seeds for the mutations are the project's own fixtures, plus any ``--corpus`` directories
(read only). Prints one summary line per measure and exits 1 when any crash, lost file or
false error was seen. The test suite runs the same checks with a small budget
(``tests/reliability/test_fuzz.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import warnings
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


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three byte-level edits: insert a spice or a random byte, delete, duplicate or
    swap a line, truncate, or prefix/suffix a spice (the edges are where parsers differ)."""
    for _ in range(rng.randint(1, 3)):
        n = len(data)
        op = rng.randrange(9)
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
        else:
            data = data.replace(b"\n", b"\r\n") if rng.random() < 0.5 else data + b"\n# \xff\n"
    return data


def python_accepts(data: bytes) -> bool:
    """Whether CPython compiles ``data`` (the ground truth for "false error")."""
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
    lost it."""
    tally.files += 1
    if codes is None:
        tally.problem("lost", name)
        return
    if "E009" in codes:
        tally.problem("crashes", f"{name}: E009")
    real = [c for c in codes if c not in NOT_FALSE_ERRORS]
    tally.notes.update(c for c in codes if c in NOT_FALSE_ERRORS)
    accepted = python_accepts(data)
    if accepted and real:
        tally.problem("false_errors", f"{name}: {real} {data[:80]!r}")
    elif not accepted and not codes:
        tally.problem("missed_errors", f"{name}: {data[:80]!r}")


def seeds(corpora: Iterable[Path]) -> list[bytes]:
    """Mutation seeds: the fixtures' Python files, then each corpus's (sorted: reproducible)."""
    roots = [REPO / "fixtures", *corpora]
    out = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if 0 < len(data) < 60_000:
                out.append(data)
    return out


def mutated(n: int, seed: int, corpora: Iterable[Path] = ()) -> list[bytes]:
    rng = random.Random(seed)
    base = seeds(corpora)
    return [mutate(rng.choice(base), rng) for _ in range(n)]


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


def scan_batch(files: list[bytes], jobs: int) -> dict[str, list[str] | None]:
    """Scan ``files`` written into one temporary directory through the real pipeline (the
    worker pool's isolation included); error codes per file name, ``None`` when lost."""
    from apiscan.model import ErrorFinding
    from apiscan.pipeline import ScanOptions, scan

    with tempfile.TemporaryDirectory(prefix="apiscan-fuzz-") as tmp:
        names = [f"f{i:05d}.py" for i in range(len(files))]
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
        for start in range(0, len(files), batch_size):
            chunk = files[start : start + batch_size]
            try:
                verdicts = scan_batch(chunk, jobs)
            except Exception as exc:  # the whole scan died: every file in it is lost
                tally.problem("crashes", f"{label} batch at {start}: {type(exc).__name__}: {exc}")
                verdicts = {f"f{i:05d}.py": None for i in range(len(chunk))}
            for i, data in enumerate(chunk):
                name = f"f{i:05d}.py"
                judge(tally, f"{label}[{start + i}]", data, verdicts[name])
            if on_batch:
                on_batch(label, start + len(chunk))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=2500)
    parser.add_argument("--mutated", type=int, default=2500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--corpus", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    gen = generated(args.generated, args.seed)
    t_gen = time.perf_counter() - t0
    mut = mutated(args.mutated, args.seed, args.corpus)
    t1 = time.perf_counter()
    tally = run(
        [("generated", gen), ("mutated", mut)],
        args.jobs,
        on_batch=lambda label, n: print(f"  {label}: {n} scanned", file=sys.stderr),
    )
    t_scan = time.perf_counter() - t1
    print(f"files:          {tally.files} ({len(gen)} generated, {len(mut)} mutated)")
    print(f"seconds:        {t_scan:.1f} scanning (+ {t_gen:.1f} generating)")
    print(f"crashes:        {tally.crashes}")
    print(f"lost files:     {tally.lost}")
    print(f"false errors:   {tally.false_errors}")
    print(f"missed errors:  {tally.missed_errors} (Python rejects, no error finding)")
    print(f"notes:          {dict(sorted(tally.notes.items()))}")
    for kind, examples in sorted(tally.examples.items()):
        for example in examples:
            print(f"  {kind}: {example}")
    return 0 if tally.ok else 1


if __name__ == "__main__":
    sys.exit(main())
