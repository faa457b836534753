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

from apiscan.stub.introspect import ApiInfo, NotScaffoldable, describe
from apiscan.stub.render import check_module_text, stub_module_text
from apiscan.stub.samples import Inference, infer


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

    @property
    def paths(self) -> tuple[Path, ...]:
        """Every scaffold file of the API, whatever happened to it."""
        return (*self.written, *self.unchanged, *self.kept)


def write_stubs(apis: Sequence[str], out_dir: Path, force: bool = False) -> list[StubResult]:
    """Write ``<snake>.py`` and ``test_<snake>.py`` into ``out_dir`` for every API, in the
    order given (duplicates once). Imports torch (to read signatures and call the API on
    sample inputs); not MindSpore."""
    import torch

    results: list[StubResult] = []
    seen: set[str] = set()
    for api in apis:
        if api in seen:
            continue
        seen.add(api)
        try:
            info = describe(api)
        except NotScaffoldable as exc:
            results.append(StubResult(api, skipped=str(exc)))
            continue
        except Exception as exc:  # torch failing to introspect one name must not stop the rest
            reason = f"torch could not describe it ({type(exc).__name__}: {exc})"
            results.append(StubResult(api, skipped=reason))
            continue
        results.append(_write_one(info, Path(out_dir), torch.__version__, force))
    return results


def _files(info: ApiInfo, inference: Inference, torch_version: str) -> dict[str, str]:
    return {
        f"{info.snake}.py": stub_module_text(info, inference, torch_version),
        f"test_{info.snake}.py": check_module_text(info, inference),
    }


def _write_one(info: ApiInfo, out_dir: Path, torch_version: str, force: bool) -> StubResult:
    inference = infer(info)
    files = _files(info, inference, torch_version.split("+")[0])
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
    return StubResult(
        info.api,
        written=tuple(written),
        unchanged=tuple(unchanged),
        kept=tuple(kept),
        notes=_notes(info, inference),
    )


def _notes(info: ApiInfo, inference: Inference) -> tuple[str, ...]:
    """What the engineer must fill in beyond ``_compute``."""
    notes: list[str] = []
    if info.signature_source == "fallback":
        notes.append("signature unknown: the scaffold takes *args, **kwargs")
    if not inference.found:
        notes.append(f"no sample inputs ({inference.error}): fill SAMPLES in the test")
        return tuple(notes)
    if len(inference.observations) == 1:
        notes.append("output rules seen on one sample only")
    if any(r.kind == "todo" for r in inference.shape_rules):
        notes.append("output shape: TODO in _out_shape")
    return tuple(notes)
