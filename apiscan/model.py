"""The one results model of apiscan.

Every stage after the per-file workers speaks in these frozen dataclasses, and every reporter
reads only :class:`ScanResult`. Nothing here holds a LibCST node: workers run in other processes
and their results are cached on disk, so they must be plain, picklable records.

Positions are 1-based lines and 1-based columns counted in characters (not bytes);
``end_column`` points one past the last character (the SARIF convention), so a one-character
token at column 5 has ``column=5, end_column=6``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from apiscan.slotinit import pickle_as_calls, use_slot_inits

SCHEMA_VERSION = "1.7"

#: ``candidate``: an unverified counterpart: the tables lack the API but MindSpore has one of
#: the same name (or an obvious namespace move), or a table names a target without describing
#: the mapping (most r1.10 rows: no difference documented, none ruled out);
#: ``verified``: such a candidate whose micro-test passed (``apiscan verify``).
Status = Literal["consistent", "different", "missing", "candidate", "verified", "unknown"]
#: Where code runs: inside the network graph (reachable from an nn.Module's forward or a loss),
#: in data processing (Dataset, collate, transforms), or on the host (training loop, tools).
Scope = Literal["network", "data", "host"]
SCOPES: tuple[str, ...] = ("network", "data", "host")
Severity = Literal["high", "medium", "low"]
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")
Confidence = Literal["certain", "probable"]
Usage = Literal[
    "call", "reference", "base_class", "decorator", "context_manager", "operator", "annotation"
]

#: Order in which statuses are listed everywhere (worst first).
STATUS_ORDER: tuple[str, ...] = (
    "missing",
    "candidate",
    "different",
    "verified",
    "consistent",
    "unknown",
)

#: Namespaces the summary groups by, most specific first (longest-prefix match).
NAMESPACES: tuple[str, ...] = (
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.nn.Module",
    "torch.nn",
    "torch.Tensor",
    "torch.optim",
    "torch.utils.data",
    "torch.utils",
    "torch.linalg",
    "torch.fft",
    "torch.special",
    "torch.distributed",
    "torch.cuda",
    "torch.amp",
    "torch.autograd",
    "torch.jit",
    "torch.distributions",
    "torch",
    "torchvision.transforms",
    "torchvision.ops",
    "torchvision.models",
    "torchvision.datasets",
    "torchvision.io",
    "torchvision",
    "torchaudio.transforms",
    "torchaudio.datasets",
    "torchaudio",
    "torchtext",
)


def namespace_of(api: str) -> str:
    """The summary namespace of a public API name (``torch.nn.Conv2d`` → ``torch.nn``)."""
    for ns in NAMESPACES:
        if api == ns or api.startswith(ns + "."):
            return ns
    return api.split(".", 1)[0]


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """Where something is in a file (see the module docstring for the conventions)."""

    line: int
    column: int
    end_line: int
    end_column: int


#: What a finding asks of the person migrating (see :mod:`apiscan.rewrite`): ``delete`` the
#: call (no counterpart needed: device moves, cache flushes), apply an ``idiom`` (a pattern
#: rewrite of framework plumbing: train step, AMP, checkpoints), ``rewrite`` the call (an API
#: substitution), write a ``custom-op`` (a tensor computation with no counterpart), or a
#: ``gap`` (nothing known). ``none``: nothing to change beyond the mechanical rename of a
#: consistent row (or not a public torch API).
Disposition = Literal["delete", "idiom", "rewrite", "custom-op", "gap", "none"]
DISPOSITIONS: tuple[str, ...] = ("delete", "idiom", "rewrite", "custom-op", "gap", "none")


@dataclass(frozen=True, slots=True)
class CallArgs:
    """The source text of one call's arguments, recorded by the per-file worker so that
    rewrites are rendered from the call itself and no reporter re-reads the code.

    ``receiver`` is the text before the method name (``x`` in ``x.sigmoid_()``; empty for a
    plain name). A ``*args`` argument is kept as its text with the star (``"*sizes"``);
    ``star`` says the call passes ``**kwargs``, whose names are not known statically. A text
    longer than :data:`ARG_TEXT_LIMIT` characters is kept as ``""`` with ``truncated`` set:
    the renderer then declines rather than guessing.
    """

    receiver: str = ""
    positional: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()
    star: bool = False
    truncated: bool = False

    def keyword(self, name: str) -> str | None:
        return next((text for key, text in self.keywords if key == name), None)


#: Longest argument (or receiver) text a :class:`CallArgs` keeps.
ARG_TEXT_LIMIT = 120


@dataclass(frozen=True, slots=True)
class ApiUse:
    """One use of a PyTorch API found in one file, before any mapping is applied.

    ``api`` is the public path the code spelled, resolved through imports (``F.conv2d`` is
    ``torch.nn.functional.conv2d``), so that searching the code for it finds the call; paths
    through private modules (``torch.nn.modules.conv.Conv2d``) become the canonical name.
    ``canonical`` is the canonical name of the same object (``torch.conv2d``; equal to ``api``
    when the code spelled it so), empty when ``api`` is not a public API; the matcher tries both.
    ``positional`` and ``keywords`` describe the call's arguments, so that the matcher can tell
    which parameters a call passes without re-reading the source.
    """

    api: str
    span: Span
    usage: str
    confidence: str
    function: str = ""
    positional: int = 0
    keywords: tuple[str, ...] = ()
    star_args: bool = False
    canonical: str = ""
    args: CallArgs | None = None


@dataclass(frozen=True, slots=True)
class FileError:
    """Why a file could not be analysed (fully or at all)."""

    code: str
    message: str
    span: Span = Span(1, 1, 1, 1)


@dataclass(frozen=True, slots=True)
class ParamChange:
    """One parameter difference a call actually hits, and what to write instead.

    ``kind`` is ``unsupported`` (MindSpore has no counterpart), ``renamed`` (write
    ``ms_param=``), ``default`` (the call relies on, or passes, a value whose default or
    meaning differs), ``input`` (MindSpore's operator takes it when called, as its input
    ``ms_param``, several parameters packed into one tensor where the page lists fewer
    inputs: nms's boxes and scores in ``bboxes``) or ``general`` (a general difference
    parameter: drop it; by the tables' own rules it does not break consistency). Defaults
    are the ``repr`` texts of the real signatures (``0.01``), None when unknown.
    """

    param: str
    kind: str
    ms_param: str = ""
    torch_default: str | None = None
    ms_default: str | None = None
    note: str = ""

    def describe(self) -> str:
        """One line for a report: which parameter, what to write, which default changed,
        then the diff page's words."""
        text = self.headline()
        if self.note and self.kind != "general":
            text = f"{text}: {self.note}"
        return text

    def headline(self) -> str:
        """:meth:`describe` without the diff page's words."""
        if self.kind == "renamed" and self.ms_param.startswith("*"):
            text = f"{self.param}=: pass it by position ({self.ms_param})"
        elif self.kind == "renamed":
            text = f"{self.param}= → {self.ms_param}="
        elif self.kind == "unsupported":
            text = f"{self.param}=: no MindSpore counterpart"
        elif self.kind == "input":
            text = f"{self.param}: goes into the operator's input {self.ms_param}"
        elif self.kind == "general" and self.param == "out":
            # the result lives in the out tensor: dropping the keyword alone loses it
            text = (
                "out=: drop it and assign the result to the out tensor (target = op(...)): "
                "the result lives there (a general difference parameter, not a difference)"
            )
        elif self.kind == "general":
            text = f"{self.param}=: drop it (a general difference parameter, not a difference)"
        elif self.ms_param and self.ms_param != self.param:
            text = f"{self.param} (MindSpore {self.ms_param}): default differs"
        else:
            text = f"{self.param}: default or meaning differs"
        defaults = self.defaults()
        return f"{text} ({defaults})" if defaults else text

    def defaults(self) -> str:
        """``PyTorch negative_slope=0.01, MindSpore alpha=0.2`` when the defaults differ."""
        if self.torch_default == self.ms_default:
            return ""
        ms_name = self.ms_param or self.param
        parts = []
        if self.torch_default is not None:
            parts.append(f"PyTorch {self.param}={self.torch_default}")
        if self.ms_default is not None:
            parts.append(f"MindSpore {ms_name}={self.ms_default}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class ApiFinding:
    """A use of a PyTorch API matched against the mapping table."""

    path: str
    span: Span
    api: str
    status: str
    mindspore_api: str | None
    confidence: str
    note: str
    usage: str
    namespace: str
    function: str = ""
    diff_url: str = ""
    mapping_version: str | None = None
    unsupported_params: tuple[str, ...] = ()
    target_exists: bool | None = None
    scope: str = "host"
    #: The canonical name of ``api``'s object (``torch.conv2d`` for
    #: ``torch.nn.functional.conv2d``, ``api`` itself when canonical); empty when unknown.
    canonical: str = ""
    #: Every target the table row lists (``mindspore_api`` is the one suggested).
    mindspore_apis: tuple[str, ...] = ()
    #: The parameter differences this call hits (see :class:`ParamChange`).
    param_changes: tuple[ParamChange, ...] = ()
    #: Platforms ``mindspore_api``'s docstring lists under "Supported Platforms"
    #: (Ascend, GPU, CPU); empty when it documents none.
    backends: tuple[str, ...] = ()
    #: True when ``--target`` names a platform ``mindspore_api`` is not documented for.
    backend_gap: bool = False
    #: What older tables said about the API ("1.10: different → mindspore.ops.SeLU").
    history: tuple[str, ...] = ()
    #: A notebook's cell (1-based, every cell counted); 0 outside notebooks. ``span`` is then
    #: within that cell.
    cell: int = 0
    #: The call's argument texts (None for a reference, a base class, a decorator...).
    args: CallArgs | None = None
    #: Filled after the scan by :mod:`apiscan.rewrite` (see :data:`Disposition`).
    disposition: str = "none"
    #: The rewritten text of this very call (rendered from ``args``), or an idiom's template.
    rewrite: str = ""
    #: Why there is no exact rewrite, or the condition the rewrite relies on.
    rewrite_note: str = ""
    #: For an idiom: the official migration-guide page it comes from.
    rewrite_source: str = ""
    #: The micro-test of this call's own form (``apiscan PATH --verify``): "verified for the
    #: form used at a.py:3 (...)", "fails for this form: max abs 12.1 (...)", or "".
    form_check: str = ""
    #: Whether MindTorch 0.4.0 provides this API (None: unknown, the data is not shipped).
    mindtorch: bool | None = None

    kind: Literal["api"] = "api"

    @property
    def rule(self) -> str:
        return API_RULES[self.status]

    @property
    def is_call_site(self) -> bool:
        """Whether this use is code to port, counted among the call sites. A type annotation
        (``def f(x: nn.Module)``, ``encoder: nn.Module``) is a hint: at most renamed with the
        import it names, never a call to change, so it stays a finding (its usage says
        ``annotation``) that no count of call sites includes."""
        return self.usage != "annotation"

    def sort_key(self) -> tuple[str, int, int, int, str, str]:
        return (self.path, self.cell, self.span.line, self.span.column, self.kind, self.api)


@dataclass(frozen=True, slots=True)
class ErrorFinding:
    """A file (or part of one) that could not be analysed; it reaches every report."""

    path: str
    span: Span
    code: str
    message: str
    #: A notebook's cell (1-based, every cell counted); 0 outside notebooks. ``span`` is then
    #: within that cell.
    cell: int = 0

    kind: Literal["error"] = "error"

    @property
    def rule(self) -> str:
        return self.code

    def sort_key(self) -> tuple[str, int, int, int, str, str]:
        return (self.path, self.cell, self.span.line, self.span.column, self.kind, self.code)


@dataclass(frozen=True, slots=True, order=True)
class ChainStep:
    """One step of where a dynamic-shape finding's data-dependent value came from, when it
    crossed functions: the host sync that read it from tensor data, then each call that passed
    it on (``passed as `k` to `topk_helper` by `Loss.forward` ``), return or attribute write.

    ``path`` is relative to the scanned directory (POSIX), ``line``/``column`` 1-based (see the
    module docstring), ``function`` the module-relative qualified name of the function the step
    is in (``Loss.forward``; empty at module level), ``message`` a few words for an editor's
    related-information list, ``cell`` the notebook cell the line counts in (as a finding's).
    """

    path: str
    line: int
    column: int
    function: str
    message: str
    #: in a notebook: the 1-based cell, ``line`` counting within it (0 elsewhere)
    cell: int = 0


@dataclass(frozen=True, slots=True)
class ShapeFinding:
    """A place where tensor shapes depend on data (see ``apiscan rules`` for the catalogue).

    ``severity`` depends on ``scope``: dynamic shapes hurt inside the network graph, which
    MindSpore compiles for fixed shapes, and matter little in data processing or on the host.
    ``backends`` lists where the MindSpore counterpart supports dynamic shape (from the official
    support lists), or is empty when it is not listed.
    """

    path: str
    span: Span
    rule: str
    name: str
    message: str
    severity: str
    scope: str
    function: str = ""
    api: str = ""
    suggestion: str = ""
    mindspore_api: str | None = None
    backends: tuple[str, ...] = ()
    #: A notebook's cell (1-based, every cell counted); 0 outside notebooks. ``span`` is then
    #: within that cell.
    cell: int = 0
    #: Where the value that makes this place dynamic came from when another function made it
    #: (origin first, then each hop toward this finding); empty when it is made right here.
    chain: tuple[ChainStep, ...] = ()
    #: The shape came in with one sample the function was handed (an op computing on it, a
    #: size read from it), or the place only reads a length of a tensor whose shape varies (a
    #: reshape, a slice bound, a loop or a test over that length): the function's own ops take
    #: any shape, the one that varies is decided elsewhere. Set by the rule that made the
    #: finding; the review's effort reads it.
    inherited: bool = False
    #: Which case of its rule the finding is, where the review tells them apart; set by the
    #: rule, as the words it says of that case (constants of :mod:`apiscan.extract.shapes`):
    #: a DS119 input pipeline of images resized to a randomly drawn size (``RANDOM_RESIZE``,
    #: multi-scale training) or of batches padded to their largest sample
    #: (``BATCH_PADDING``); a host array that comes back as a tensor's index (``HOST_INDEX``);
    #: host data whose length is a list repeated a number of times read from data
    #: (``SIZED_LIST``: only a size left the device). "" otherwise.
    case: str = ""

    kind: Literal["dynamic_shape"] = "dynamic_shape"

    def sort_key(self) -> tuple[str, int, int, int, str, str]:
        return (self.path, self.cell, self.span.line, self.span.column, self.kind, self.rule)


Finding = ApiFinding | ErrorFinding | ShapeFinding


def position(line: int, column: int | None = None, cell: int = 0) -> str:
    """``12:5``, or in a notebook ``cell 3:12:5`` (the line counted within the cell)."""
    where = f"{line}" if column is None else f"{line}:{column}"
    return f"cell {cell}:{where}" if cell else where


#: Stable rule ids for API findings (never reused; see ``apiscan rules`` later).
API_RULES: dict[str, str] = {
    "missing": "API001",
    "different": "API002",
    "consistent": "API003",
    "unknown": "API004",
    "candidate": "API005",
    "verified": "API006",
}


@dataclass(frozen=True, slots=True)
class FileSummary:
    """Per-file facts every report can show without re-analysing."""

    path: str
    lines: int
    api_uses: int  # call sites (ApiFinding.is_call_site): no type annotation
    errors: int


@dataclass(frozen=True)
class MappingInfo:
    ms_version: str
    merged: bool
    sources: tuple[dict[str, str], ...]


@dataclass(frozen=True)
class Substitution:
    """One catalogue substitution for an API the scan found missing, different or only a
    candidate, with the result of its micro-test as cached by ``apiscan verify`` (``"not
    run"`` when the cache holds none for this MindSpore version, device and dtype).

    Reporters link each such API to these rows; the expression is the very one the
    micro-test runs (see :mod:`apiscan.verify.cases`).
    """

    api: str
    case_id: str
    strategy: str
    ms_expr: str
    note: str
    verification: str
    max_abs: float | None = None
    threshold: float | None = None
    device: str = ""
    dtype: str = ""
    mindspore_version: str = ""
    #: Why a claim did not hold beyond the numbers: "error on CPU: no kernel for
    #: mindspore.mint.full" (empty otherwise).
    detail: str = ""

    @property
    def verified(self) -> bool:
        return self.verification == "pass"

    def describe(self) -> str:
        """One line: the verification result with its difference and where it ran."""
        if self.verification == "not run":
            return f"not run (apiscan verify {self.api})"
        where = f"{self.device} {self.dtype}, MindSpore {self.mindspore_version}"
        if self.detail:
            return f"{self.detail} ({where})"
        if self.max_abs is None or self.threshold is None:
            return f"{self.verification} ({where})"
        diff = f"max abs {self.max_abs:.3g}, threshold {self.threshold:g}"
        return f"{self.verification}: {diff} ({where})"


@dataclass(frozen=True)
class ScanResult:
    """Everything a scan found; reporters render it and nothing else."""

    root: str
    tool_version: str
    mapping: MappingInfo
    files: tuple[FileSummary, ...]
    findings: tuple[Finding, ...]
    torch_api_version: str = ""
    stats: dict[str, float] = field(default_factory=dict, compare=False)
    #: Catalogue substitutions of the missing/different/candidate APIs found, sorted by
    #: (api, case_id); filled after the scan from the verification cache.
    substitutions: tuple[Substitution, ...] = ()
    #: Files whose whole-program facts were cut: the re-walk their new facts asked for was
    #: over the scan's byte budget, so they keep an earlier walk and a dynamic-shape finding
    #: those facts would give, in them or in the code they pass values to, may be missing (a
    #: scan of fewer files may find it). Sorted.
    facts_cut: tuple[str, ...] = ()

    def substitutions_for(self, api: str) -> tuple[Substitution, ...]:
        return tuple(s for s in self.substitutions if s.api == api)

    # Computed once per result (it is frozen; a changed copy is a new object): reporters ask
    # for them per row (a report's proposals: once per API shown, over every finding).
    @cached_property
    def api_findings(self) -> tuple[ApiFinding, ...]:
        return tuple(f for f in self.findings if isinstance(f, ApiFinding))

    @cached_property
    def call_site_findings(self) -> tuple[ApiFinding, ...]:
        """The API findings every count of call sites is made of: the summary, the report's
        tables and the review's work (see :attr:`ApiFinding.is_call_site`)."""
        return tuple(f for f in self.api_findings if f.is_call_site)

    @cached_property
    def shape_findings(self) -> tuple[ShapeFinding, ...]:
        return tuple(f for f in self.findings if isinstance(f, ShapeFinding))

    @cached_property
    def error_findings(self) -> tuple[ErrorFinding, ...]:
        return tuple(f for f in self.findings if isinstance(f, ErrorFinding))

    def summary(self) -> dict[str, object]:
        """The numbers every report leads with, computed once from the findings.

        Coverage counts call sites (every use but a type annotation) and distinct APIs
        separately: a team estimating effort cares about both "how many places" and "how many
        things to learn".
        """
        apis = self.call_site_findings
        sites = Counter(f.status for f in apis)
        distinct: dict[str, set[str]] = {s: set() for s in STATUS_ORDER}
        for f in apis:
            distinct[f.status].add(f.api)
        n_sites = len(apis)
        n_distinct = len({f.api for f in apis})
        by_ns: dict[str, Counter[str]] = {}
        for f in apis:
            by_ns.setdefault(f.namespace, Counter())[f.status] += 1
        return {
            "files": len(self.files),
            "files_with_errors": len({f.path for f in self.error_findings}),
            "lines": sum(f.lines for f in self.files),
            "call_sites": n_sites,
            "distinct_apis": n_distinct,
            "probable_sites": sum(1 for f in apis if f.confidence == "probable"),
            "by_status": {
                s: {
                    "call_sites": sites.get(s, 0),
                    "call_sites_pct": _pct(sites.get(s, 0), n_sites),
                    "apis": len(distinct[s]),
                    "apis_pct": _pct(len(distinct[s]), n_distinct),
                }
                for s in STATUS_ORDER
            },
            "by_namespace": {
                ns: {s: c.get(s, 0) for s in STATUS_ORDER} | {"total": sum(c.values())}
                for ns, c in sorted(by_ns.items())
            },
            "errors": len(self.error_findings),
            "by_disposition": {
                d: {
                    "call_sites": sum(1 for f in apis if f.disposition == d),
                    "apis": len({f.api for f in apis if f.disposition == d}),
                    "network_sites": sum(
                        1 for f in apis if f.disposition == d and f.scope == "network"
                    ),
                }
                for d in DISPOSITIONS
            },
            "by_scope": {
                s: {
                    "call_sites": sum(1 for f in apis if f.scope == s),
                    "dynamic_shape": sum(1 for f in self.shape_findings if f.scope == s),
                }
                for s in SCOPES
            },
            "dynamic_shape": {
                "findings": len(self.shape_findings),
                "by_severity": {
                    sev: sum(1 for f in self.shape_findings if f.severity == sev)
                    for sev in SEVERITIES
                },
                "by_rule": dict(sorted(Counter(f.rule for f in self.shape_findings).items())),
                # only when some were cut: a small repository's document stays as it was
                **({"facts_cut": list(self.facts_cut)} if self.facts_cut else {}),
            },
        }


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


# A large scan builds, copies (scope, rewrite, form check) and caches tens of thousands of
# findings: slot-storing constructors and pickling as constructor calls (see apiscan.slotinit).
use_slot_inits(ApiFinding, ShapeFinding, ErrorFinding, ParamChange, FileSummary)
pickle_as_calls(ApiFinding, ShapeFinding, ErrorFinding, ParamChange, FileSummary)
