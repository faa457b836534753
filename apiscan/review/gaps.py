"""What stands between the repository and MindSpore: API coverage, the missing and different APIs
of the network graph, dynamic shapes, sparse tensors, native extensions and third-party packages.

The first four come straight from the scan's findings (the review never re-decides a status or
a scope). Extensions and third-party packages need what the scan does not look at: non-Python
files in the tree, Triton kernels, and the packages other than torch the files import, which
the workers record from the syntax (:mod:`apiscan.extract.syntax`).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path, PurePosixPath

from apiscan.discovery import SKIP_DIRS
from apiscan.extract.records import FileAnalysis
from apiscan.mapping.match import memory_only
from apiscan.model import DISPOSITIONS, SCOPES, STATUS_ORDER, ApiFinding, ScanResult
from apiscan.program.index import Hierarchy
from apiscan.review.model import Gap, ThirdParty, Where, WorkItem
from apiscan.review.names import NameValues
from apiscan.review.oplibs import network_library_uses
from apiscan.review.sources import place, with_facts
from apiscan.rewrite import is_setting, recomputing
from apiscan.rewrite.composed import COMPOSE_NOTE, composed
from apiscan.rewrite.idioms import RECOMPUTE_FUNCTION
from apiscan.rewrite.known import gap_rewrite

#: Statuses that need work, in the order the review lists them.
#: A candidate is a gap until a micro-test verifies it (then it is "verified", not listed).
GAP_STATUSES: tuple[str, ...] = ("missing", "candidate", "different")
#: Places listed per gap (the JSON and the HTML link each; the count says how many there are).
GAP_PLACES = 5
#: Native sources that make a custom extension: CUDA kernels and the C++ that binds them.
NATIVE_SUFFIXES: dict[str, str] = {
    ".cu": "CUDA source",
    ".cuh": "CUDA header",
    ".cpp": "C++ source",
    ".cc": "C++ source",
    ".cxx": "C++ source",
    # compiled host code (CenterNet's soft-NMS, RITM's distance maps): it runs on numpy
    # arrays and can stay as it is, but it is a build step, and where the network calls it
    # a host round trip (listed under Porting work)
    ".pyx": "Cython source",
}
CPP_EXTENSION = "torch.utils.cpp_extension"
AUTOGRAD_FUNCTION = "torch.autograd.Function"
#: Why a compiled op every user imports with a fallback is counted apart (an acceleration the
#: code runs without: :func:`~apiscan.review.work.optional_kernels`).
OPTIONAL_KERNEL = "optional kernel"
#: Decorators that compile a function into a GPU kernel (``@triton.jit``, ``@triton.autotune``).
TRITON = ("triton.jit", "triton.autotune", "triton.heuristics")
#: The module that may offer substitutions for gaps (issue 4); used when it is installed.
SUGGEST_MODULE = "apiscan.suggest"

Suggester = Callable[[str, str], str]

#: Method names that lists, dicts, sets and strings share with ``torch.Tensor``: a call of one
#: on a receiver not proven a tensor (``outputs.values()``) is no tensor computation.
CONTAINER_METHODS = frozenset(
    name
    for kind in (dict, list, set, str, tuple, bytes)
    for name in dir(kind)
    if not name.startswith("_")
)


def is_uncertain_method(f: ApiFinding) -> bool:
    """A method call whose receiver is not known to be a torch object: the scan guessed the
    owner (``probable``), or the name is also a list/dict/str method (``outputs.values()``,
    ``Boxes.scale`` on a detectron2 structure). Such a finding is never a gap of the review."""
    owner, _, method = f.api.rpartition(".")
    if f.usage != "call" or not owner[:1] or not owner.rpartition(".")[2][:1].isupper():
        return False
    if f.confidence == "probable":
        # A guessed owner still names a plausible substitution; it is never an idiom, a
        # custom op or a gap (Boxes.scale is not GradScaler.scale).
        return f.disposition in ("idiom", "custom-op", "gap")
    return owner == "torch.Tensor" and (method in CONTAINER_METHODS or method.startswith("__"))


def is_custom_op(f: ApiFinding) -> bool:
    """A tensor computation that remains after rewrites and compositions: the scan's custom-op
    disposition, less uncertain receivers and thin wrappers of existing ops."""
    return (
        f.disposition == "custom-op"
        and not is_uncertain_method(f)
        and not composed(f.api)
        and not is_private(f.api)
        and not is_setting(f.api)
    )


def is_private(api: str) -> bool:
    """A library's private helper (``torchvision.ops.misc._output_size``): version plumbing
    behind a public op, rewritten with its caller, never an op to implement."""
    return any(part.startswith("_") and not part.startswith("__") for part in api.split("."))


def counted(f: ApiFinding) -> bool:
    """Whether a finding is work the review counts (a type annotation is not, nor an
    uncertain receiver, nor a data loader's attribute read)."""
    return f.is_call_site and not is_uncertain_method(f) and not loader_attribute_read(f)


#: Packages whose objects' attributes a script reads as plain values.
_LOADER_PACKAGES = ("torch.utils.data.",)


def loader_attribute_read(f: ApiFinding) -> bool:
    """Whether a finding with no known counterpart is a data loader's attribute read, not a
    call (YOLOP's ``len(val_loader.dataset)``, ``train_loader.sampler.set_epoch(epoch)``):
    the loader is rewritten as a whole (a ``GeneratorDataset``), so the attribute is no API
    of its own to port."""
    last = f.api.rpartition(".")[2]
    return (
        f.disposition in ("gap", "rewrite", "delete")
        and f.status == "missing"
        and not f.rewrite
        and f.usage == "reference"
        and f.api.startswith(_LOADER_PACKAGES)
        and last[:1].islower()
    )


def coverage(result: ScanResult) -> dict[str, dict[str, int]]:
    """Call sites by scope and status; every scope and status present, zeros included, so
    that a reader (or a plot) sees which cells are empty."""
    counts = Counter((f.scope, f.status) for f in result.call_site_findings)
    return {scope: {s: counts.get((scope, s), 0) for s in STATUS_ORDER} for scope in SCOPES}


def load_suggester() -> Suggester | None:
    """``apiscan.suggest.suggestion(api, status) -> str`` when that module is installed."""
    try:
        module = importlib.import_module(SUGGEST_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != SUGGEST_MODULE:
            raise
        return None
    hook = getattr(module, "suggestion", None)
    return hook if callable(hook) else None


def network_gaps(
    result: ScanResult,
    suggester: Suggester | None = None,
    places: int = GAP_PLACES,
    names: NameValues | None = None,
    covered: Callable[[ApiFinding], bool] | None = None,
) -> tuple[Gap, ...]:
    """Missing, candidate and different APIs used in the network graph, one entry per
    (API, status, disposition): the sites of one API a port treats differently are listed
    apart (LLaMA's ``freqs_cis.to(h.device)``, a device move to delete, beside
    ``cache_k.to(xq)``, a cast to another tensor's dtype to rewrite as ``astype``), most used
    first. The note is the one most of the uses got (notes differ when the
    parameters passed differ); ties go to the first place in the file order. ``names``
    (the values the repository gives each name) tells a parameter that cannot be dropped
    from one passed through a name that only ever holds a harmless literal. ``covered``
    findings are counted by a work item instead (a data transform's torch layers)."""
    groups: dict[tuple[str, str, str], list[ApiFinding]] = {}
    for f in result.api_findings:
        if covered is not None and covered(f):
            continue
        if f.scope == "network" and f.status in GAP_STATUSES and counted(f):
            groups.setdefault((f.api, f.status, _disposition(f)), []).append(f)
    gaps = []
    for (api, status, _), found in groups.items():
        found.sort(key=lambda f: f.sort_key())
        notes = Counter(f.note for f in found)
        note = max(notes, key=lambda n: (notes[n], -[f.note for f in found].index(n)))
        target = next((f.mindspore_api for f in found if f.mindspore_api), None)
        shown = next((f for f in found if f.rewrite), found[0])
        gaps.append(
            Gap(
                api=api,
                status=status,
                uses=len(found),
                where=tuple(_places(found, places)),
                mindspore_api=target,
                note=note,
                suggestion=runnable_verify(
                    _proposal(shown, names) or (suggester(api, status) if suggester else "")
                ),
                disposition=_disposition(shown),
            )
        )
    order = {s: i for i, s in enumerate(GAP_STATUSES)}
    work = {d: i for i, d in enumerate(DISPOSITIONS)}
    return tuple(
        sorted(gaps, key=lambda g: (work.get(g.disposition, 9), order[g.status], -g.uses, g.api))
    )


def _known_way(finding: ApiFinding) -> tuple[str, str] | None:
    """(disposition, how) of a finding the scan disposed by a known way
    (:mod:`apiscan.rewrite.known`), or of a gap whose guessed receiver kept it from one;
    None otherwise."""
    known = gap_rewrite(finding.api) if finding.status == "missing" else None
    if known is None or finding.rewrite:
        return None
    if finding.disposition == "gap" or (finding.disposition, finding.rewrite_note) == known:
        return known
    return None


def _disposition(finding: ApiFinding) -> str:
    """The finding's disposition; a composition of existing ops is a rewrite, not a custom op,
    and a gap with a known way is that way."""
    if finding.disposition == "custom-op" and (composed(finding.api) or is_private(finding.api)):
        return "rewrite"
    known = _known_way(finding)
    return known[0] if known is not None else finding.disposition


_VERIFY = re.compile(r"apiscan verify ([\w.]*\w)")


def has_verify_case(api: str) -> bool:
    """Whether the verification catalogue has a case for ``api`` (read when the review is
    built, so a case added to the catalogue is recommended at once)."""
    from apiscan.verify.catalogue import cases_for  # plain data: no torch, no MindSpore

    return bool(cases_for(api))


def uncovered_params(api: str, params: Iterable[str]) -> list[str]:
    """Of ``params`` (the parameters a verify command is recommended for), those no case
    of ``api`` in the catalogue passes (``log_target`` with no ``log_target=`` in any case's
    PyTorch expression): the command then does not test why it is recommended, and the
    review says so."""
    from apiscan.resolve.torch_api import load_torch_api
    from apiscan.verify.catalogue import cases_for  # plain data: no torch, no MindSpore
    from apiscan.verify.coverage import passed_params

    index = load_torch_api()
    signature = index.params(index.canonical(api) or api) or ()
    passed = {name for case in cases_for(api) for name in passed_params(case, signature)}
    return [p for p in params if p not in passed]


def _default_only(sites: Sequence[ApiFinding], param: str) -> bool:
    """Whether every call of ``sites`` that differs in ``param`` gives it torch's default:
    passed as that default's text, or left out where the difference is the default's."""
    for f in sites:
        if f.args is None:
            continue  # a reference (``pool=nn.AvgPool3d``) passes nothing: no call to judge
        for c in f.param_changes:
            if c.param != param:
                continue
            given = f.args.keyword(param)
            if given is None and c.kind == "default":
                continue
            if given is None or c.torch_default is None or given != c.torch_default:
                return False
    return True


def verify_device_limit(api: str) -> str:
    """Why ``api``'s cases cannot run on a CPU machine (the catalogue's own record), ""
    when they can."""
    from apiscan.verify.catalogue import device_limit  # plain data: no torch, no MindSpore

    return device_limit(api, "CPU")


def runnable_verify(text: str) -> str:
    """``text`` with each ``apiscan verify X`` that has no case in the catalogue replaced by
    what can be done instead: the review never recommends a command that exits 2. A command
    whose cases MindSpore cannot run on CPU (``torch.Tensor.uniform_``: no InplaceUniform
    kernel) names the device it runs on and says why, since on a CPU machine every case
    would be skipped."""

    def runnable(m: re.Match[str]) -> str:
        api = m.group(1)
        if not has_verify_case(api):
            return "no micro-test in the catalogue yet: compare it by hand"
        limit = verify_device_limit(api)
        if limit:
            return f"{m.group(0)} --device Ascend (its case cannot run on CPU: {limit})"
        return m.group(0)

    return _VERIFY.sub(runnable, text)


#: Parameters that place or lay out a result, never change its values: a difference in them
#: is no reason to verify first (``arange(..., device=...)``).
_PLACEMENT = frozenset({"device", "layout", "pin_memory", "memory_format", "non_blocking"})
#: The ops whose numerics a port most often gets wrong, by their last name: recurrent layers
#: (gate order, weight layout), losses (reductions, blanks, infinities), attention,
#: resampling (corners, antialiasing), top-k and sorting (ties), deformable and RoI ops.
_PARITY_CRITICAL = re.compile(
    r"^(?:RNN|LSTM|GRU)(?:Cell)?$|Loss$|_loss$|attention|Attention|interpolate|Upsample"
    r"|grid_sample|affine_grid|topk|sort$|deform|roi_align|ctc"
)
#: How much a verification case of each status can catch: a documented difference first,
#: then a same-name counterpart nobody has compared, then a consistent row.
_VERIFY_RISK = {"different": 0, "candidate": 1, "consistent": 2}


def verify_first(findings: Iterable[ApiFinding], limit: int = 5) -> list[str]:
    """The ``apiscan verify`` commands worth running first on the ported network's APIs,
    riskiest first, only for APIs with a case in the catalogue (every command runs). An API
    whose calls pass parameters that differ comes first (``grid_sample`` with
    ``align_corners``; not a parameter that only places the result or selects in-place
    memory behaviour), then the ops whose numerics a port most often gets wrong
    (:data:`_PARITY_CRITICAL`: recurrent layers, losses, attention, resampling, top-k), then
    the status (:data:`_VERIFY_RISK`: a documented difference, an unverified same name, a
    consistent row; a difference only in memory behaviour counts as consistent), then a
    layer or functional op before a tensor method, a Parameter or an initialiser, then more
    call sites. A command whose cases cannot run on CPU names the device and why
    (:func:`runnable_verify`); one whose cases pass none of a parameter it ranks by says
    so (:func:`uncovered_params`). Each entry: the command, then why in brackets."""
    by_api: dict[str, list[ApiFinding]] = {}
    for f in findings:
        if f.status in _VERIFY_RISK and f.is_call_site and not is_uncertain_method(f):
            by_api.setdefault(f.api, []).append(f)
    ranked = []
    for api, sites in by_api.items():
        if not has_verify_case(api):
            continue
        # a class passed as a value (``Head(pool=nn.AvgPool3d)``) passes no arguments: what
        # its finding says about omitted defaults belongs to the call that builds it later
        changes = [c for f in sites if f.args is not None for c in f.param_changes]
        params = sorted(
            {
                c.param
                for c in changes
                if c.kind != "general" and not memory_only(c) and c.param not in _PLACEMENT
            }
        )
        status = min((f.status for f in sites), key=_VERIFY_RISK.__getitem__)
        risk = _VERIFY_RISK[status]
        if status == "different" and changes and not params:
            risk = _VERIFY_RISK["consistent"]  # ``ReLU(inplace=True)``: same values
        critical = bool(_PARITY_CRITICAL.search(api.rpartition(".")[2]))
        # a tensor method, a Parameter or an initialiser reshapes, moves, wraps or runs once
        plumbing = api.startswith(("torch.Tensor.", "torch.nn.Parameter", "torch.nn.init."))
        ranked.append((not params, not critical, risk, plumbing, -len(sites), api, status, params))
    out = []
    for *_, count, api, status, params in sorted(ranked)[:limit]:
        sites = by_api[api]
        why = status + (f", passes {', '.join(params)}" if params else "")
        why += f", {-count} call site{'s' if count != -1 else ''}"
        # a case that leaves a parameter out runs torch's default: it covers the calls that
        # pass that default (SuperGlue's ``Conv1d(..., bias=True)``)
        missing = [p for p in uncovered_params(api, params) if not _default_only(sites, p)]
        if missing:
            # the command runs, but none of its cases passes what made it rank first
            why += f"; no case passes {', '.join(missing)}: compare that form by hand"
        out.append(f"{runnable_verify('apiscan verify ' + api)} ({why})")
    return out


#: The rewrite's note for a parameter MindSpore lacks, passed with a value it cannot drop.
_UNDROPPED = re.compile(r"^(\w+)=(.+?) cannot be dropped exactly: ")


def _proposal(finding: ApiFinding, names: NameValues | None = None) -> str:
    """The finding's own rewrite (rendered from its call) or idiom, never a test expression."""
    where = str(Where(finding.path, finding.span.line, finding.cell))
    undropped = _UNDROPPED.match(finding.rewrite_note or "")
    if undropped and names is not None:
        param, value = undropped.groups()
        literal = names.neutral(value)
        if literal is not None:
            return (
                f"{finding.disposition} ({where}): drop {param}: {value} is {literal} wherever "
                "the repository sets it, the MindSpore call's own behaviour"
            )
    composition = composed(finding.api)
    if composition and (
        finding.disposition == "custom-op" or finding.rewrite_note == COMPOSE_NOTE + composition
    ):
        return f"rewrite ({where}): {COMPOSE_NOTE}{composition}"
    if is_private(finding.api) and finding.disposition == "custom-op":
        return f"rewrite ({where}): a private helper of the library: rewrite the code around it"
    known = _known_way(finding)
    if known is not None:
        return f"{known[0]} ({where}): {known[1]}"
    if finding.rewrite:
        text = f"{finding.disposition} ({where}): {finding.rewrite}"
        return f"{text} — {finding.rewrite_note}" if finding.rewrite_note else text
    if finding.disposition == "delete":
        return f"delete ({where}) — {finding.rewrite_note}"
    if finding.rewrite_note:
        return f"{finding.disposition}: {finding.rewrite_note}"
    return ""


#: An integer literal or a tuple/list of them (``2``, ``(2, 2)``), as a call's text passes it.
_INTEGRAL = re.compile(r"^\d+$|^\(\s*\d+(?:\s*,\s*\d+)*\s*,?\s*\)$|^\[\s*\d+(?:\s*,\s*\d+)*\s*\]$")


def _passed_text(f: ApiFinding, param: str) -> str | None:
    """The text ``f``'s call passes for ``param``, by name or by position (the position its
    torch signature gives it); None when the call leaves it out or cannot be read."""
    if f.args is None or f.args.truncated:
        return None
    given = f.args.keyword(param)
    if given is not None:
        return given
    from apiscan.resolve.torch_api import load_torch_api

    index = load_torch_api()
    signature = [p[0] for p in index.params(index.canonical(f.api) or f.api) or ()]
    if param not in signature:
        return None
    at = signature.index(param)
    positional = f.args.positional
    if at < len(positional) and not any(a.startswith("*") for a in positional[: at + 1]):
        return positional[at]
    return None


def _integral(text: str, names: NameValues | None) -> bool:
    """Whether ``text`` is an int (or ints) wherever the repository sets it: a literal, or a
    name every literal it is given is one (``scale_factor=self.scale`` with ``scale=2``)."""
    if _INTEGRAL.match(text.strip()):
        return True
    if names is None or not re.fullmatch(r"[A-Za-z_][\w.]*", text):
        return False
    given = [v for v in names.candidates(text) if v != "None"]
    return bool(given) and all(_INTEGRAL.match(v) for v in given)


def float_only_passes(
    findings: Iterable[ApiFinding], names: NameValues | None = None
) -> Iterable[WorkItem]:
    """One item per API and parameter that a call passes as an int where MindSpore takes
    only a float (``torch.nn.Upsample(scale_factor=2)``: ``mint.nn.Upsample`` raises
    TypeError on ``2``, runs on ``2.0``), as the verification catalogue's cases record it
    (:func:`~apiscan.verify.catalogue.float_only`). The mapping table may call the row
    consistent: the item says the difference was measured, not documented. A value the code
    computes (``2 ** i``) or a name given no int literal is not claimed."""
    from apiscan.verify.catalogue import float_only  # plain data: no torch, no MindSpore

    groups: dict[tuple[str, str], list[tuple[ApiFinding, str]]] = {}
    for f in findings:
        if not f.is_call_site or is_uncertain_method(f):
            continue
        for param in float_only(f.api):
            text = _passed_text(f, param)
            if text is not None and _integral(text, names):
                groups.setdefault((f.api, param), []).append((f, text))
    for (api, param), found in sorted(groups.items()):
        found.sort(key=lambda p: p[0].sort_key())
        values = sorted({text for _, text in found})
        target = next((f.mindspore_api for f, _ in found if f.mindspore_api), None)
        counterpart = f"MindSpore's counterpart ({target})" if target else "MindSpore"
        documented = (
            "the mapping table calls the row consistent and its difference pages do not say so"
            if all(f.status == "consistent" for f, _ in found)
            else "the mapping's difference page does not say so"
        )
        literal = next((v for v in values if v.isdigit()), "2")
        example = f"{param}={literal}.0, not {literal}"
        yield WorkItem(
            kind="unsupported-param",
            what=f"{api}({param}={' | '.join(values)})",
            where=tuple(dict.fromkeys(Where(f.path, f.span.line, f.cell) for f, _ in found)),
            why=(
                f"{counterpart} takes {param} only as a float: an int raises TypeError where "
                f"torch accepts it (measured by the verification case; {documented}); pass "
                f"it as a float ({example}) at each call"
            ),
            uses=len(found),
        )


def _places(found: Iterable[ApiFinding], limit: int) -> list[Where]:
    out: list[Where] = []
    for f in found:
        where = Where(f.path, f.span.line, f.cell)
        if where not in out:
            out.append(where)
        if len(out) == limit:
            break
    return out


#: What a random resize that every composition crops to a fixed size after is told.
CROPPED_AFTER = (
    " (every composition using it crops or pads to a fixed size after it: each batch has one"
    " shape, not counted as an input pipeline to bucket)"
)


def dynamic_shape(
    result: ScanResult,
    apart: Callable[[str], str] | None = None,
    cropped: Collection[tuple[str, str]] = (),
) -> tuple[tuple[Where, str, str, str], ...]:
    """Every dynamic-shape finding as (where, rule, scope, message), in file order, less
    those of files counted apart (``apart(path)`` non-empty: a vendored copy's evaluation
    scripts, a module nothing imports), which the effort leaves out too. A random resize in
    ``cropped`` ((path, function), :func:`~apiscan.review.build.cropped_resizes`) says that
    a fixed-size crop follows it, as the effort reads it."""
    return tuple(
        (
            Where(f.path, f.span.line, f.cell),
            f.rule,
            f.scope,
            f.message + (CROPPED_AFTER if (f.path, f.function) in cropped else ""),
        )
        for f in result.shape_findings
        if apart is None or not apart(f.path)
    )


def is_sparse_api(api: str) -> bool:
    """``torch.sparse.*``, ``torch.sparse_coo_tensor`` and friends, ``Tensor.to_sparse*``,
    ``Tensor.is_sparse``: MindSpore's sparse support is narrow, so each use is a question."""
    return api.startswith("torch.sparse.") or "sparse" in api.rpartition(".")[2]


def sparse_uses(
    result: ScanResult,
    analyses: Sequence[FileAnalysis] = (),
    apart: Callable[[str], str] | None = None,
) -> tuple[Where, ...]:
    """Where sparse tensors are made or used (one place per line): torch's sparse APIs, and
    the ops of the sparse-tensor libraries the network uses (MinkowskiEngine's
    ``SparseTensor``, spconv; :mod:`apiscan.review.oplibs`), less the files counted apart
    (``apart(path)`` non-empty), as the effort counts them."""
    places = {
        Where(f.path, f.span.line, f.cell)
        for f in result.api_findings
        if is_sparse_api(f.api) and (apart is None or not apart(f.path))
    }
    for use in network_library_uses(result, analyses, apart):
        if use.sparse:
            places.update(where for _, where in use.ops)
    return tuple(sorted(places, key=lambda w: (w.path, w.cell, w.line)))


def native_sources(root: Path) -> list[tuple[str, Where]]:
    """CUDA/C++ files under ``root``, skipping the directories the scan skips (virtualenvs,
    build outputs, VCS data) so a vendored ``site-packages`` does not count as the project's."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and not (Path(dirpath, d) / "pyvenv.cfg").exists()
        )
        for name in sorted(filenames):
            kind = NATIVE_SUFFIXES.get(Path(name).suffix.lower())
            if kind is not None:
                rel = Path(dirpath, name).relative_to(root).as_posix()
                found.append((f"{kind} ({Path(name).suffix.lower()})", Where(rel, 1)))
    return found


def extensions(
    root: Path,
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    apart: Callable[[str], str] | None = None,
    unreached: Collection[tuple[str, str]] = frozenset(),
) -> tuple[tuple[str, Where], ...]:
    """Custom native code: CUDA/C++ files, ``torch.utils.cpp_extension`` uses (building or
    loading an extension), Triton kernels (``@triton.jit``) and ``torch.autograd.Function``
    subclasses (hand-written backward passes, usually around such an extension; an export
    stand-in with a ``symbolic`` method and no backward is not one), each with
    where it is. Code in files counted apart (``apart(path)`` non-empty: a visualiser's C++,
    a side project's kernels, a deployment example) is not the model's, and neither are
    ``cpp_extension``'s constants (``CUDA_HOME`` read by an environment report). The
    third-party libraries of compiled network ops the network uses (MinkowskiEngine, mmcv's
    ops...: :mod:`apiscan.review.oplibs`) are named too, one row each. A Function
    subclass of a class nothing the run reaches builds or calls (``unreached``: (path,
    module-level name), a vendored copy's unused ``MemoryEfficientMish`` and its nested
    Function) is no op to port."""
    found: set[tuple[str, Where]] = set(native_sources(root) if root.is_dir() else ())
    for f in result.api_findings:
        extension = f.api == CPP_EXTENSION or f.api.startswith(CPP_EXTENSION + ".")
        if extension and not f.api.rpartition(".")[2].isupper():
            found.add((f.api, Where(f.path, f.span.line, f.cell)))
    for fa, facts in with_facts(analyses):  # decorators named through the file's imports
        for qual, line, decorators in facts.decorators:
            if any(d.startswith(TRITON) for d in decorators):
                found.add(
                    (f"Triton kernel {qual} (CUDA only: a fallback or a port)", place(fa, line))
                )
    recomputed = recomputing(result.findings)
    for fa in analyses:
        if not fa.modules:
            continue
        for fact in fa.classes:
            cls = f"{fa.modules[0]}.{fact.qualname}"
            if AUTOGRAD_FUNCTION in hierarchy.torch_ancestors(cls):
                if (fa.path, fact.qualname.partition(".")[0]) in unreached:
                    continue
                if "symbolic" in fact.methods and "backward" not in fact.methods:
                    # an ONNX/TensorRT export stand-in (yolov9's ORT_NMS, TRT_NMS: forward
                    # returns placeholders, symbolic names the exported op): no op to port
                    continue
                where = place(fa, fact.line or 1)
                what = f"{AUTOGRAD_FUNCTION} subclass {fact.qualname}"
                if (fa.path, fact.qualname) in recomputed:
                    # gradient checkpointing by hand: MindSpore recomputes a Cell itself
                    what += f" ({RECOMPUTE_FUNCTION})"
                found.add((what, where))
    for use in network_library_uses(result, analyses, apart):
        names = ", ".join(name for name, _ in use.ops)
        found.add((f"{use.library} (third-party compiled ops: {names})", use.ops[0][1]))
    if apart is not None:
        found = {(what, where) for what, where in found if not apart(where.path)}
    return tuple(sorted(found, key=lambda e: (e[1].path, e[1].line, e[0])))


def sibling_module(path: str, top: str, paths: Collection[str]) -> bool:
    """Whether ``top``, imported by its bare name in the file ``path``, is a module or a
    package beside that file (``paths``: the repository's files). A script run as
    ``python x.py`` has its own folder first on ``sys.path``: a vendored extension's test
    script's ``from dcn_v2 import DCNv2`` imports the ``dcn_v2.py`` next to it, the
    repository's own code, never an installed package of that name."""
    folder = PurePosixPath(path).parent
    return str(folder / f"{top}.py") in paths or str(folder / top / "__init__.py") in paths


#: Frameworks a repository names its folder for the implementation in that framework after
#: (``tensorflow/`` beside ``pytorch/``): installed packages a namespace folder never shadows.
FRAMEWORK_FOLDERS = frozenset(
    {
        "tensorflow",
        "keras",
        "jax",
        "flax",
        "paddle",
        "mxnet",
        "chainer",
        "caffe",
        "caffe2",
        "theano",
        "oneflow",
        "megengine",
        "mindspore",
        "torch",
    }
)


def own_packages(analyses: Iterable[FileAnalysis]) -> set[str]:
    """The repository's own top-level packages: the first part of its files' module names,
    less a folder with no ``__init__.py`` named like a package the code imports from outside
    it (dgcnn-like ``tensorflow/`` beside ``pytorch/``: ``import tensorflow as tf`` there
    imports the installed framework, which a namespace folder never shadows). Such a top
    (one of :data:`FRAMEWORK_FOLDERS`: a folder for a compiled extension's package, like
    ``pointnet2/`` whose ``_ext`` the build installs, stays the repository's own) is
    told by a name a file uses from it (as its worker recorded the file's uses of each
    package: ``tf.placeholder`` is ``tensorflow.placeholder``) that no module of the folder
    begins, while no module of the repository has that bare name."""
    files = [fa for fa in analyses if not fa.errors]
    modules = {m for fa in files for m in fa.modules}
    tops = {m.partition(".")[0] for m in modules}
    shadowed: set[str] = set()
    for _, facts in with_facts(files, tests=True):
        for top, names in facts.package_uses:
            if top not in FRAMEWORK_FOLDERS or top not in tops or top in modules:
                continue
            for name in names:
                parts = name.split(".")
                if not any(".".join(parts[:n]) in modules for n in range(2, len(parts) + 1)):
                    shadowed.add(top)
                    break
    return tops - shadowed


#: Python 2's standard-library modules, imported as the fallback of their Python 3 names
#: (``try: import builtins except ImportError: import __builtin__ as builtins``): no package
#: to install.
PY2_STDLIB = frozenset(
    {
        "__builtin__",
        "cPickle",
        "cStringIO",
        "StringIO",
        "Queue",
        "ConfigParser",
        "urllib2",
        "urlparse",
        "httplib",
        "HTMLParser",
        "Tkinter",
        "tkMessageBox",
        "commands",
        "copy_reg",
        "thread",
        "cookielib",
        "SocketServer",
        "SimpleHTTPServer",
        "xmlrpclib",
    }
)


def third_party(analyses: Sequence[FileAnalysis]) -> tuple[ThirdParty, ...]:
    """Packages the code imports that are neither the standard library, torch, nor the
    repository's own (a module beside the importing file, :func:`sibling_module`, is its
    own too), with the dotted names used from each and how many files import it
    (the names each file uses from each package, as its worker recorded them)."""
    local = own_packages(analyses)
    excluded = local | set(sys.stdlib_module_names) | PY2_STDLIB | {"torch"}
    paths = {fa.path for fa in analyses}
    uses: dict[str, set[str]] = {}
    files: Counter[str] = Counter()
    for fa, facts in with_facts(analyses, tests=True):
        for top, names in facts.package_uses:
            if top in excluded or sibling_module(fa.path, top, paths):
                continue
            uses.setdefault(top, set()).update(names)
            files[top] += 1
    return tuple(
        ThirdParty(package=top, uses=tuple(sorted(uses[top])), files=files[top])
        for top in sorted(uses)
    )
