"""Hand-made scan results the reporter tests render, and the builders that make them.

They are built here, not by running a scan, so the reporters are tested on exactly the cases
that matter to them (every status, probable sites, unsupported parameters, errors, Unicode,
characters that need escaping, an empty scan, dynamic-shape findings in every scope and
severity, with and without a MindSpore counterpart on the support lists) and stay independent
of the analysis stages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from apiscan.model import (
    ApiFinding,
    ChainStep,
    ErrorFinding,
    FileSummary,
    Finding,
    MappingInfo,
    ParamChange,
    ScanResult,
    ShapeFinding,
    Span,
    Substitution,
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
    scope: str = "host",
    changes: tuple[ParamChange, ...] = (),
    backends: tuple[str, ...] = (),
    targets: tuple[str, ...] = (),
    history: tuple[str, ...] = (),
    backend_gap: bool = False,
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
        scope=scope,
        mindspore_apis=targets or ((target,) if target else ()),
        param_changes=changes,
        backends=backends,
        backend_gap=backend_gap,
        history=history,
    )


#: (name, suggestion) of the dynamic-shape rules the cases use; the words are the cases' own.
SHAPE_RULES: dict[str, tuple[str, str]] = {
    "DS101": (
        "data-dependent-output",
        "Give the output a fixed size: pad to a known maximum and carry a validity mask, or "
        "move the computation out of the network into data processing.",
    ),
    "DS104": (
        "boolean-mask-index",
        "Keep the full tensor and weight or select with the mask (where, masked_fill, "
        "multiplication by the mask) instead of indexing with it.",
    ),
    "DS105": (
        "variable-topk-k",
        "Use a fixed maximum k and mask out the surplus entries.",
    ),
    "DS111": (
        "data-dependent-branch",
        "Compute both branches and choose element-wise with where / ops.select.",
    ),
    "DS131": (
        "unpadded-batches",
        "Pad every sample to a fixed size (or a few bucket sizes) in the collate function.",
    ),
}


KEEP_WRITE = "stored in `self.keep` by `Head.forward`"
UNIQUE_MESSAGE = (
    "torch.unique returns one element per distinct value: its length depends on the data"
)


def shape(
    path: str,
    line: int,
    column: int,
    rule: str,
    message: str,
    *,
    severity: str,
    scope: str,
    function: str = "",
    api: str = "",
    target: str | None = None,
    backends: tuple[str, ...] = (),
    chain: tuple[ChainStep, ...] = (),
) -> ShapeFinding:
    """A dynamic-shape finding with the rule's name and suggestion from :data:`SHAPE_RULES`."""
    name, suggestion = SHAPE_RULES[rule]
    return ShapeFinding(
        path=path,
        span=Span(line, column, line, column + 8),
        rule=rule,
        name=name,
        message=message,
        severity=severity,
        scope=scope,
        function=function,
        api=api,
        suggestion=suggestion,
        mindspore_api=target,
        backends=backends,
        chain=chain,
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
    """Every status, probable sites, unsupported parameters, errors, Unicode, a quiet file;
    API findings and dynamic-shape findings in every scope, dynamic shapes of every severity."""
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
            changes=(
                ParamChange("padding_mode", "unsupported", note="MindSpore has pad_mode."),
                ParamChange("bias", "renamed", "has_bias", "True", "False", "Default differs."),
                ParamChange("out", "general"),
            ),
            backends=("Ascend", "GPU", "CPU"),
            targets=("mindspore.nn.Conv2d", "mindspore.mint.nn.Conv2d"),
            history=("1.10: different → mindspore.nn.Conv2d",),
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
            scope="network",
            history=(
                "2.4: different → mindspore.ops.relu",
                "2.3: different → mindspore.ops.relu",
                "1.10: consistent → mindspore.ops.relu",
            ),
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
            scope="network",
            backends=("Ascend",),
            backend_gap=True,
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
            scope="network",
        ),
        api(
            "tinydet/head.py",
            31,
            16,
            "torch.nn.functional.grid_sample",
            "missing",
            function="Head.forward",
            scope="network",
        ),
        api(
            "tinydet/head.py",
            31,
            40,
            "torch.nn.functional.grid_sample",
            "missing",
            function="Head.forward",
            scope="network",
        ),
        api(
            "tinydet/head.py",
            33,
            18,
            "torch.unique",
            "consistent",
            target="mindspore.mint.unique",
            function="Head.forward",
            scope="network",
        ),
        shape(
            "tinydet/head.py",
            33,
            18,
            "DS101",
            UNIQUE_MESSAGE,
            severity="high",
            scope="network",
            function="Head.forward",
            api="torch.unique",
            target="mindspore.mint.unique",
            backends=("Ascend",),
        ),
        shape(
            "tinydet/head.py",
            35,
            16,
            "DS104",
            "boxes[keep | forced] keeps a data-dependent number of rows",
            severity="high",
            scope="network",
            function="Head.forward",
            chain=(
                ChainStep("tinydet/assign.py", 12, 16, "match", "returned by `match`"),
                ChainStep("tinydet/head.py", 34, 16, "Head.forward", KEEP_WRITE),
            ),
        ),
        api(
            "tinydet/head.py",
            36,
            12,
            "torch.topk",
            "consistent",
            target="mindspore.mint.topk",
            function="Head.forward",
            scope="network",
        ),
        shape(
            "tinydet/head.py",
            36,
            12,
            "DS105",
            "k = int(scores.sum().item()) is read from tensor values at run time",
            severity="medium",
            scope="network",
            function="Head.forward",
            api="torch.topk",
            target="mindspore.mint.topk",
            backends=("Ascend",),
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
            scope="network",
        ),
        api(
            "tinydet/módulo_ß.py",
            9,
            12,
            "torch.special.erfcx",
            "unknown",
            function="Módulo.forward",
            scope="network",
        ),
        shape(
            "tinydet/módulo_ß.py",
            10,
            16,
            "DS104",
            "puntuación[puntuación > umbral] keeps 0 … n elements, as many as pass the threshold",
            severity="high",
            scope="network",
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
            scope="network",
        ),
        api(
            "tinydet/loss.py",
            20,
            15,
            "torch.unique",
            "consistent",
            target="mindspore.ops.unique",
            function="loss",
            scope="network",
        ),
        shape(
            "tinydet/loss.py",
            20,
            15,
            "DS101",
            UNIQUE_MESSAGE,
            severity="high",
            scope="network",
            function="loss",
            api="torch.unique",
            target="mindspore.ops.unique",
            backends=("Ascend", "GPU", "CPU"),
        ),
        shape(
            "tinydet/loss.py",
            22,
            5,
            "DS111",
            "the condition (iou > 0.5).any() reads tensor values, and the branches return "
            "tensors of different shapes",
            severity="high",
            scope="network",
            function="loss",
        ),
        api(
            "tinydet/data.py",
            14,
            18,
            "torch.nonzero",
            "consistent",
            target="mindspore.ops.nonzero",
            function="CocoDataset.__getitem__",
            scope="data",
        ),
        shape(
            "tinydet/data.py",
            14,
            18,
            "DS101",
            "torch.nonzero returns one row per non-zero element: its length depends on the data",
            severity="low",
            scope="data",
            function="CocoDataset.__getitem__",
            api="torch.nonzero",
            target="mindspore.ops.nonzero",
            backends=("Ascend", "GPU", "CPU"),
        ),
        api(
            "tinydet/data.py",
            30,
            12,
            "torch.stack",
            "consistent",
            target="mindspore.ops.stack",
            function="collate",
            scope="data",
        ),
        shape(
            "tinydet/data.py",
            30,
            12,
            "DS131",
            "collate stacks samples of different sizes without padding them to a fixed size",
            severity="low",
            scope="data",
            function="collate",
            api="torch.stack",
            target="mindspore.ops.stack",
        ),
        shape(
            "tinydet/train.py",
            4,
            8,
            "DS104",
            "WEIGHTS[WEIGHTS > 0] keeps a data-dependent number of elements",
            severity="low",
            scope="host",
        ),
        shape(
            "tinydet/train.py",
            40,
            8,
            "DS111",
            "the condition loss.item() > 10 reads a tensor value",
            severity="medium",
            scope="host",
            function="main",
        ),
        api(
            "tinydet/ema.py",
            9,
            13,
            "torch.Tensor.add_",
            "candidate",
            target="mindspore.Tensor.add_",
            note="not in the mapping table; MindSpore 2.10.0 has mindspore.Tensor.add_ of the "
            "same name (unverified: a same name does not prove the same behaviour)",
            confidence="probable",
            function="ModelEMA.update",
        ),
        api(
            "tinydet/ema.py",
            11,
            17,
            "torch.Tensor.clone",
            "verified",
            target="mindspore.Tensor.clone",
            note="mindspore.Tensor.clone (same name; not in the mapping table) passed its "
            "micro-test torch.Tensor.clone",
            function="ModelEMA.update",
        ),
        error("tinydet/broken.py", 4, "E003", "invalid syntax (<unknown>, line 4) | print x"),
        error("tinydet/legacy|old.py", 1, "E002", "'utf-8' codec can't decode byte 0xff"),
        error("tinydet/legacy|old.py", 9, "E009", "internal error: RecursionError in resolve"),
    ]
    files = [
        FileSummary("tinydet/backbone.py", 58, 4, 0),
        FileSummary("tinydet/head.py", 61, 7, 0),
        FileSummary("tinydet/módulo_ß.py", 12, 3, 0),
        FileSummary("tinydet/loss.py", 25, 2, 0),
        FileSummary("tinydet/data.py", 33, 2, 0),
        FileSummary("tinydet/train.py", 45, 0, 0),
        FileSummary("tinydet/broken.py", 7, 0, 1),
        FileSummary("tinydet/legacy|old.py", 0, 0, 2),
        FileSummary("tinydet/__init__.py", 3, 0, 0),
        FileSummary("tinydet/ema.py", 14, 2, 0),
    ]
    return replace(result(files, findings), substitutions=SUBSTITUTIONS)


#: One substitution per verification outcome the reports distinguish.
SUBSTITUTIONS = (
    Substitution(
        api="torch.Tensor.clone",
        case_id="torch.Tensor.clone",
        strategy="same-name",
        ms_expr="x.clone()",
        note="",
        verification="pass",
        max_abs=0.0,
        threshold=1e-5,
        device="CPU",
        dtype="float32",
        mindspore_version="2.10.0",
    ),
    Substitution(
        api="torch.nn.Conv2d",
        case_id="torch.nn.Conv2d[padding_mode=reflect]",
        strategy="composed",
        ms_expr="msnn.Conv2d(3, 4, 3, pad_mode='valid')(ops.pad(x, (1, 1, 1, 1), mode='reflect'))",
        note="Reflect padding first, then a valid convolution | weights copied",
        verification="fail",
        max_abs=0.125,
        threshold=1e-5,
        device="CPU",
        dtype="float32",
        mindspore_version="2.10.0",
    ),
    Substitution(
        api="torch.nn.functional.grid_sample",
        case_id="torch.nn.functional.grid_sample",
        strategy="mapped",
        ms_expr="ops.grid_sample(x, grid, align_corners=False)",
        note="",
        verification="not run",
        threshold=1e-5,
        device="CPU",
        dtype="float32",
    ),
)


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


def shapes_only() -> ScanResult:
    """Dynamic-shape findings and no API use: a file known only from its findings, a rule
    whose findings word its suggestion two ways, a counterpart supported on no backend."""
    return result(
        [FileSummary("a.py", 5, 0, 0)],
        [
            shape(
                "a.py",
                2,
                5,
                "DS101",
                UNIQUE_MESSAGE,
                severity="high",
                scope="network",
                function="Net.forward",
                api="torch.unique",
                target="mindspore.ops.unique",
                backends=("Ascend", "GPU", "CPU"),
            ),
            replace(
                shape(
                    "b.py",
                    7,
                    1,
                    "DS101",
                    "torch.masked_select keeps as many elements as the mask selects",
                    severity="high",
                    scope="network",
                    function="Net.forward",
                    api="torch.masked_select",
                    target="mindspore.ops.masked_select",
                    chain=(
                        ChainStep("a.py", 3, 9, "count", "`n.item()` read from tensor data"),
                        ChainStep("a.py", 4, 12, "count", "passed as `k` to `pick` by `count`"),
                    ),
                ),
                suggestion="Multiply by the mask instead of selecting with it.",
            ),
        ],
    )


CASES: dict[str, Callable[[], ScanResult]] = {
    "empty": empty,
    "errors_only": errors_only,
    "mixed": mixed,
    "shapes_only": shapes_only,
}
