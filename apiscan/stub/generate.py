"""``write_stubs``: one MindSpore custom-op scaffold and one test per PyTorch API.

Overwrite policy: a file that already holds exactly what would be generated is left alone
(``unchanged``); a file that differs, most likely because the engineer implemented
``_compute`` or edited the samples, is kept and reported (``kept``) unless ``force`` is
given. Running twice is therefore harmless, and work is never lost silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from apiscan.stub.compose import Proposal, module_text, proposal_for, snake, test_text
from apiscan.stub.introspect import (
    ApiInfo,
    NotInstalled,
    NotScaffoldable,
    describe,
    describe_static,
)
from apiscan.stub.render import check_module_text, stub_module_text
from apiscan.stub.samples import DATA_DEPENDENT, Inference, infer


@dataclass(frozen=True)
class StubResult:
    """What happened for one API. ``skipped`` is the reason no scaffold was made (empty when
    one was); ``notes`` say what the scaffold could not infer."""

    api: str
    written: tuple[Path, ...] = ()
    unchanged: tuple[Path, ...] = ()
    kept: tuple[Path, ...] = ()
    skipped: str = ""
    notes: tuple[str, ...] = field(default=())
    #: A reviewed composition of existing ops (nothing to implement), not an ``ops.Custom``
    #: scaffold whose ``_compute`` the user writes.
    composed: bool = False

    @property
    def paths(self) -> tuple[Path, ...]:
        """Every scaffold file of the API, whatever happened to it."""
        return (*self.written, *self.unchanged, *self.kept)


def write_stubs(
    apis: Sequence[str], out_dir: Path, force: bool = False, run_checks: bool = True
) -> list[StubResult]:
    """Write ``<snake>.py`` and ``test_<snake>.py`` into ``out_dir`` for every API, in the
    order given (duplicates once). An API with a reviewed composition of existing MindSpore
    ops gets that composition and its micro-test (run once here when ``run_checks`` and the
    frameworks are installed) instead of a custom-op scaffold. Imports torch (to read
    signatures and call the API on sample inputs) for the others; a torchvision API whose
    package is absent is scaffolded from the shipped signature index."""
    results: list[StubResult] = []
    seen: set[str] = set()
    for api in apis:
        if api in seen:
            continue
        seen.add(api)
        proposal = proposal_for(api)
        if proposal is not None:
            results.append(_write_composition(proposal, Path(out_dir), force, run_checks))
            continue
        import torch

        try:
            info = describe(api)
        except NotInstalled as exc:
            static = describe_static(api)
            if static is None:
                results.append(StubResult(api, skipped=str(exc)))
                continue
            results.append(_write_one(static, Path(out_dir), torch.__version__, force))
            continue
        except NotScaffoldable as exc:
            results.append(StubResult(api, skipped=str(exc)))
            continue
        except Exception as exc:  # torch failing to introspect one name must not stop the rest
            reason = f"torch could not describe it ({type(exc).__name__}: {exc})"
            results.append(StubResult(api, skipped=reason))
            continue
        results.append(_write_one(info, Path(out_dir), torch.__version__, force))
    return results


def _write_composition(
    proposal: Proposal, out_dir: Path, force: bool, run_checks: bool
) -> StubResult:
    name = snake(proposal)
    files = {f"{name}.py": module_text(proposal), f"test_{name}.py": test_text(proposal)}
    written, unchanged, kept = _write_files(files, out_dir, force)
    notes = [proposal.summary]
    if run_checks:
        notes.append(_check(proposal.api))
    return StubResult(
        proposal.api,
        written=tuple(written),
        unchanged=tuple(unchanged),
        kept=tuple(kept),
        notes=tuple(notes),
        composed=True,
    )


def _check(api: str) -> str:
    """The composition's micro-test result on CPU (cached like ``apiscan verify``'s)."""
    import importlib.util

    if any(importlib.util.find_spec(m) is None for m in ("torch", "mindspore")):
        return f"micro-test not run (torch and MindSpore needed): apiscan verify {api}"
    from apiscan.verify.catalogue import cases_for
    from apiscan.verify.runner import Runner, default_cache

    cases = [c for c in cases_for(api) if "composition" in c.tags]
    with Runner("CPU", "float32", cache=default_cache()) as runner:
        results = runner.run(cases)
    passed = sum(r.status == "pass" for r in results)
    worst = max((r.max_abs or 0.0 for r in results), default=0.0)
    verdict = "passed" if passed == len(results) else "FAILED"
    failed = [f"{r.case_id}: {r.status} {r.detail[:120]}" for r in results if r.status != "pass"]
    tail = f"; {'; '.join(failed)}" if failed else ""
    return (
        f"micro-test {verdict} on CPU float32 against PyTorch: {passed}/{len(results)} cases, "
        f"max abs {worst:.3g}{tail}"
    )


def _write_files(
    files: dict[str, str], out_dir: Path, force: bool
) -> tuple[list[Path], list[Path], list[Path]]:
    """(written, unchanged, kept): see the module docstring for the overwrite policy."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    unchanged: list[Path] = []
    kept: list[Path] = []
    for name, text in files.items():
        path = out_dir / name
        if path.exists():
            current = path.read_bytes()
            if current == text.encode("utf-8"):
                unchanged.append(path)
                continue
            if not force:
                kept.append(path)
                continue
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written, unchanged, kept


def _files(info: ApiInfo, inference: Inference, torch_version: str) -> dict[str, str]:
    return {
        f"{info.snake}.py": stub_module_text(info, inference, torch_version),
        f"test_{info.snake}.py": check_module_text(info, inference),
    }


def _write_one(info: ApiInfo, out_dir: Path, torch_version: str, force: bool) -> StubResult:
    if info.signature_source == "index":
        inference = Inference(
            error=f"{info.api.split('.')[0]} is not installed: no sample call",
            data_dependent=info.name in DATA_DEPENDENT,
        )
    else:
        inference = infer(info)
    files = _files(info, inference, torch_version.split("+")[0])
    written, unchanged, kept = _write_files(files, out_dir, force)
    return StubResult(
        info.api,
        written=tuple(written),
        unchanged=tuple(unchanged),
        kept=tuple(kept),
        notes=_notes(info, inference),
    )


_DATA_DEPENDENT_NOTE = (
    "output shape depends on the input values (data-dependent): ops.Custom needs it before "
    "running, so bound it (a maximum size plus a count) or compose existing ops"
)


def _notes(info: ApiInfo, inference: Inference) -> tuple[str, ...]:
    """What the engineer must fill in beyond ``_compute``."""
    notes: list[str] = []
    if info.signature_source == "fallback":
        notes.append("signature unknown: the scaffold takes *args, **kwargs")
    if not inference.found:
        notes.append(f"no sample inputs ({inference.error}): fill SAMPLES in the test")
        if inference.data_dependent:
            notes.append(_DATA_DEPENDENT_NOTE)
        return tuple(notes)
    if len(inference.observations) == 1:
        notes.append("output rules seen on one sample only")
    if inference.data_dependent:
        notes.append(_DATA_DEPENDENT_NOTE)
    elif any(r.kind == "todo" for r in inference.shape_rules):
        notes.append("output shape: TODO in _out_shape")
    return tuple(notes)
