"""The repository's files as the review reads them: the records the scan's workers wrote.

Every section reads what the workers recorded from each file's syntax while the scan had its
tree (:func:`with_facts`; :mod:`apiscan.extract.syntax`: imports, packages used, ``self.x``
assignments and calls, model-zoo constructors, host round trips, the spans and kinds of defs,
threaded pipelines, registries, lazy-config augmentations, cuDNN switches, flips written as
indexing, weight-initialisation routines, the inference path's steps), the recipe's value
records (:mod:`apiscan.extract.values`) and the model tree's (:mod:`apiscan.extract.models`).
No file is read or parsed again: a review after a scan works from the cache alone. Only the
files the scan analysed without error count; a notebook's lines are those of its joined code
cells, mapped back to cells by :func:`place`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import PurePosixPath

from apiscan.extract.records import FileAnalysis
from apiscan.extract.syntax import TEXT_LIMIT, SyntaxFacts
from apiscan.extract.values import CallValues
from apiscan.review.model import Where
from apiscan.review.roles import BACKWARD_APIS, LIBRARY_TRAINER, TORCH_FRAMEWORKS, TRAINING_STEP
from apiscan.scope.classify import is_test_path

__all__ = [
    "TEXT_LIMIT",
    "import_place",
    "imported_modules",
    "is_test_path",
    "place",
    "self_tests",
    "with_facts",
    "with_values",
]


def place(fa: FileAnalysis, line: int) -> Where:
    """A line of the text the scan parsed (a notebook's joined code) as a reader finds it:
    ``nb.ipynb:cell 3:12`` in a notebook, the line itself in a module."""
    if fa.cells and 0 < line <= len(fa.cells):
        cell, in_cell = fa.cells[line - 1]
        return Where(fa.path, in_cell, cell)
    return Where(fa.path, line)


def import_place(fa: FileAnalysis, facts: SyntaxFacts | None, name: str) -> Where | None:
    """Where the import bringing the dotted ``name`` into ``fa`` is written (the statement of
    the longest imported name that ``name`` is or starts with, relative imports resolved from
    the file's package), for a name the file reaches with no call of it written; None when no
    import names it (a star import, a name bound another way)."""
    if facts is None or not fa.modules:
        return None
    module = fa.modules[0]
    package = module if fa.path.endswith("__init__.py") else module.rpartition(".")[0]
    best: tuple[int, int] | None = None
    for written, line in facts.import_lines:
        full = written
        if written.startswith("."):
            rest = written.lstrip(".")
            parts = package.split(".") if package else []
            up = len(written) - len(rest) - 1
            if up > len(parts):
                continue
            base = ".".join(parts[: len(parts) - up])
            full = f"{base}.{rest}" if base and rest else (base or rest)
        named = name == full or name.startswith(full + ".")
        if named and (best is None or len(full) > best[0]):
            best = (len(full), line)
    return place(fa, best[1]) if best is not None else None


def with_facts(
    analyses: Iterable[FileAnalysis], tests: bool = False
) -> Iterator[tuple[FileAnalysis, SyntaxFacts]]:
    """The files the scan analysed without error, in path order, with the facts its worker
    read from their syntax (test files only when ``tests``): what the review reads instead of
    parsing a file again."""
    for fa in sorted(analyses, key=lambda a: a.path):
        if fa.errors or fa.syntax is None or (not tests and is_test_path(fa.path)):
            continue
        yield fa, fa.syntax


def with_values(analyses: Iterable[FileAnalysis]) -> list[FileAnalysis]:
    """The files, in the order given and tests left out, whose worker recorded value records
    (:mod:`apiscan.extract.values`): where the code that reads a config (``merge_from_file``,
    ``hyperparams['lr']``, ``json.load``) is found."""
    return [
        fa
        for fa in analyses
        if not fa.errors
        and fa.syntax is not None
        and fa.syntax.values is not None
        and not is_test_path(fa.path)
    ]


def imported_modules(analyses: Iterable[FileAnalysis]) -> set[str]:
    """Every module of the repository another file refers to, with the packages above it
    (``a.b.C`` used elsewhere makes ``a``, ``a.b`` and ``a.b.C`` imported). A file naming its
    own module's names imports nothing: a module is a library when others use it. A bare
    script name several folders share (a collection of examples, each with its own
    ``train.py``) is the importer's own folder's script, as Python finds it beside the
    script it runs: ``from train import train`` in ``mnist_hogwild/main.py`` imports
    ``mnist_hogwild.train``, not ``time_sequence_prediction/train.py``."""
    files = list(analyses)
    homes: dict[str, list[tuple[str, str]]] = {}  # bare name -> (folder, dotted module)
    for fa in files:
        dotted = [m for m in fa.modules if "." in m]
        for m in fa.modules:
            if "." not in m and dotted:
                homes.setdefault(m, []).append((str(PurePosixPath(fa.path).parent), dotted[0]))
    out: set[str] = set()
    for fa in files:
        folder = str(PurePosixPath(fa.path).parent)
        for ref in fa.local_refs:
            parts = ref.split(".")
            if not parts or ref.rpartition(".")[0] in fa.modules:
                continue
            shared = homes.get(parts[0], [])
            if len(shared) > 1:
                here = next((d for p, d in shared if p == folder), None)
                if here is not None:
                    parts = [*here.split("."), *parts[1:]]
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def self_tests(analyses: Sequence[FileAnalysis]) -> dict[str, tuple[int, int]]:
    """path → lines of the ``if __name__ == "__main__":`` block of each module that other
    files of the repository import: a library module trying itself out (a backbone file's
    self-test setting ``cudnn.deterministic``, a scheduler module building a ResNet to plot
    its schedule), never the training entry, which nothing imports. The recipe, the work
    items and the model tree read this one rule."""
    referenced = imported_modules(analyses)
    subclasses = trainer_subclasses(analyses)
    return {
        fa.path: fa.syntax.main_block
        for fa in analyses
        if fa.syntax is not None
        and fa.syntax.main_block != (0, 0)
        and any(m in referenced for m in fa.modules)
        # a training run, whatever imports a helper from its module (latent-diffusion's
        # ``scripts/inpaint.py`` imports ``instantiate_from_config`` from ``main.py``)
        and not fits_with(fa, TORCH_FRAMEWORKS, fa.syntax.main_block)
        # ... or one handed to a library's trainer (stanford_alpaca's ``train.py``, whose
        # ``train()`` builds ``transformers.Trainer``, though a tool imports a helper of it)
        and fa.syntax is not None
        and not any(trainer_calls(fa.syntax))
        # (or a subclass of it the repository defines: LLaVA's ``LLaVATrainer``)
        and not trainer_lines(fa, subclasses)
        # ... or one whose own functions run the backward pass (YOLOv5's train.py, whose
        # ``train()`` steps the optimizer, though a tuning script imports ``train`` from it)
        and not _own_backward(fa, fa.syntax.main_block)
    }


def _own_backward(fa: FileAnalysis, main_block: tuple[int, int]) -> bool:
    """Whether ``fa`` runs a backward pass or builds one of torch's optimizers outside its
    ``__main__`` block: a training loop of its own, which the block starts (an entry whose
    ``get_optimizer`` builds the optimizer that a solver of another module steps)."""
    first, last = main_block
    return any(
        (
            use.api in BACKWARD_APIS
            or (use.usage == "call" and TRAINING_STEP.match(use.api) is not None)
        )
        and not first <= use.span.line <= last
        for use in fa.uses
    )


def trainer_calls(facts: SyntaxFacts) -> Iterator[CallValues]:
    """The calls of a library trainer class (:data:`~apiscan.review.roles.LIBRARY_TRAINER`)
    by its absolute name in a file: the one reading :mod:`apiscan.review.trainers` and the
    self-test rule share."""
    from apiscan.review.oplibs import absolute_call_values

    return (call for name, call in absolute_call_values(facts) if LIBRARY_TRAINER.match(name))


def trainer_subclasses(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The repository's classes deriving from a library trainer, by module and qualified
    name (LLaVA's ``llava.train.llava_trainer.LLaVATrainer(Trainer)``)."""
    return frozenset(
        f"{m}.{c.qualname}"
        for fa in analyses
        for c in fa.classes
        if any(LIBRARY_TRAINER.match(b) for b in c.bases)
        for m in fa.modules
    )


def trainer_lines(fa: FileAnalysis, subclasses: frozenset[str]) -> set[int]:
    """The lines of ``fa`` where it builds one of the repository's trainer ``subclasses``
    (resolved through its imports: a subclass defined in another file counts)."""
    return {
        c.line
        for c in fa.calls
        if c.role == "call" and c.callee.removesuffix(".__init__") in subclasses
    }


def fits_with(fa: FileAnalysis, frameworks: Iterable[str], lines: tuple[int, int] = (0, 0)) -> bool:
    """Whether a file hands a model to one of the torch training ``frameworks`` to train:
    it imports the framework and calls a ``fit`` (``trainer.fit(model, data)``), within
    ``lines`` when given. The framework then runs the module's training hooks, which no call
    of the file names."""
    syntax = fa.syntax
    if syntax is None or not any(
        name.partition(".")[0] in frameworks for _, name in syntax.imports
    ):
        return False
    first, last = lines
    return any(
        c.role == "call"
        and c.callee.rpartition(".")[2] == "fit"
        and (not last or first <= c.line <= last)
        for c in fa.calls
    )
