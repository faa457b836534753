"""Hand-made scan results the reporter tests render, and the builders that make them.

They are built here, not by running a scan, so the reporters are tested on exactly the cases
that matter to them (every status, probable sites, unsupported parameters, errors, Unicode,
characters that need escaping, an empty scan) and stay independent of the analysis stages.
"""

from __future__ import annotations

from collections.abc import Callable

from apiscan.model import (
    ApiFinding,
    ErrorFinding,
    FileSummary,
    Finding,
    MappingInfo,
    ScanResult,
    Span,
    namespace_of,
)

MAPPING = MappingInfo(
    ms_version="2.4.0",
    merged=True,
    sources=(
        {"branch": "r2.4.0", "commit": "fddde6706bb5cfd2d2e02c68e4c416394f33df0e"},
        {"branch": "r2.6.0", "commit": "8618b1ccb1991f63466f0d5b26963538c0988227"},
    ),
)

_TARGETS = {
    "consistent": "mindspore.ops.{}",
    "different": "mindspore.nn.{}",
}

CONV_NOTE = (
    "MindSpore's pad_mode takes 'same' | 'valid' | 'pad' where PyTorch's padding_mode takes "
    "'zeros', 'reflect', 'replicate' or 'circular'; the default weight initialisation differs "
    "too (参数初始化不同)."
)


def api(
    path: str,
    line: int,
    column: int,
    name: str,
    status: str,
    *,
    confidence: str = "certain",
    usage: str = "call",
    note: str = "",
    params: tuple[str, ...] = (),
    function: str = "",
    target: str | None = None,
) -> ApiFinding:
    """An API finding with the fields a matcher would derive from ``name`` and ``status``."""
    short = name.rsplit(".", 1)[-1]
    if target is None and status in _TARGETS:
        target = _TARGETS[status].format(short)
    return ApiFinding(
        path=path,
        span=Span(line, column, line, column + len(name)),
        api=name,
        status=status,
        mindspore_api=target,
        confidence=confidence,
        note=note,
        usage=usage,
        namespace=namespace_of(name),
        function=function,
        diff_url=f"https://www.mindspore.cn/docs/en/r2.4.0/note/api_mapping/pytorch_diff/{short}.html"
        if status == "different"
        else "",
        mapping_version="2.4.0" if status != "unknown" else None,
        unsupported_params=params,
        target_exists=True if target else None,
    )


def error(path: str, line: int, code: str, message: str) -> ErrorFinding:
    return ErrorFinding(path=path, span=Span(line, 1, line, 2), code=code, message=message)


def result(files: list[FileSummary], findings: list[Finding]) -> ScanResult:
    """A result with findings in the order the pipeline guarantees (sorted by sort key)."""
    return ScanResult(
        root="/srv/repos/tinydet",
        tool_version="0.1.0",
        mapping=MAPPING,
        files=tuple(sorted(files, key=lambda f: f.path)),
        findings=tuple(sorted(findings, key=lambda f: f.sort_key())),
        torch_api_version="2.13.0",
        stats={"seconds": 1.25},
    )


def mixed() -> ScanResult:
    """Every status, probable sites, unsupported parameters, errors, Unicode, a quiet file."""
    conv = "torch.nn.Conv2d"
    findings: list[Finding] = [
        api(
            "tinydet/backbone.py",
            12,
            16,
            conv,
            "different",
            note=CONV_NOTE,
            params=("padding_mode",),
            function="Backbone.__init__",
        ),
        api(
            "tinydet/backbone.py",
            13,
            16,
            conv,
            "different",
            note=CONV_NOTE,
            function="Backbone.__init__",
        ),
        api(
            "tinydet/backbone.py",
            20,
            9,
            "torch.nn.functional.relu",
            "consistent",
            function="Backbone.forward",
        ),
        api(
            "tinydet/backbone.py",
            21,
            13,
            "torch.Tensor.view",
            "different",
            confidence="probable",
            note="MindSpore's view needs a contiguous tensor.",
            target="mindspore.Tensor.view",
            function="Backbone.forward",
        ),
        api(
            "tinydet/head.py",
            5,
            5,
            conv,
            "different",
            note=CONV_NOTE,
            params=("device", "padding_mode"),
            function="Head.__init__",
        ),
        api(
            "tinydet/head.py",
            30,
            16,
            "torch.nn.functional.grid_sample",
            "missing",
            function="Head.forward",
        ),
        api(
            "tinydet/head.py",
            31,
            16,
            "torch.nn.functional.grid_sample",
            "missing",
            function="Head.forward",
        ),
        api(
            "tinydet/head.py",
            31,
            40,
            "torch.nn.functional.grid_sample",
            "missing",
            function="Head.forward",
        ),
        api(
            "tinydet/head.py",
            44,
            9,
            "torch.Tensor.pin_memory",
            "missing",
            confidence="probable",
            function="Head.load",
        ),
        api(
            "tinydet/módulo_ß.py",
            3,
            1,
            "torch.nn.Module",
            "consistent",
            usage="base_class",
            target="mindspore.nn.Cell",
        ),
        api(
            "tinydet/módulo_ß.py",
            7,
            9,
            "torch.cuda.amp.autocast",
            "missing",
            usage="context_manager",
            function="Módulo.forward",
        ),
        api(
            "tinydet/módulo_ß.py",
            9,
            12,
            "torch.special.erfcx",
            "unknown",
            function="Módulo.forward",
        ),
        api(
            "tinydet/loss.py",
            18,
            12,
            "torch.Tensor.view",
            "different",
            confidence="probable",
            note="MindSpore's view needs a contiguous tensor.",
            target="mindspore.Tensor.view",
            function="loss",
        ),
        error("tinydet/broken.py", 4, "E003", "invalid syntax (<unknown>, line 4) | print x"),
        error("tinydet/legacy|old.py", 1, "E002", "'utf-8' codec can't decode byte 0xff"),
        error("tinydet/legacy|old.py", 9, "E009", "internal error: RecursionError in resolve"),
    ]
    files = [
        FileSummary("tinydet/backbone.py", 58, 4, 0),
        FileSummary("tinydet/head.py", 61, 5, 0),
        FileSummary("tinydet/módulo_ß.py", 12, 3, 0),
        FileSummary("tinydet/loss.py", 25, 1, 0),
        FileSummary("tinydet/broken.py", 7, 0, 1),
        FileSummary("tinydet/legacy|old.py", 0, 0, 2),
        FileSummary("tinydet/__init__.py", 3, 0, 0),
    ]
    return result(files, findings)


def empty() -> ScanResult:
    """A scan of a directory with no Python files at all."""
    return result([], [])


def errors_only() -> ScanResult:
    """Nothing could be analysed: every file failed."""
    return result(
        [FileSummary("a.py", 0, 0, 1), FileSummary("b/c.py", 3, 0, 1)],
        [
            error("b/c.py", 2, "E003", "unexpected indent"),
            error("a.py", 1, "E001", "permission denied"),
        ],
    )


CASES: dict[str, Callable[[], ScanResult]] = {
    "empty": empty,
    "errors_only": errors_only,
    "mixed": mixed,
}
