"""What a per-file worker returns: plain, picklable facts (never CST nodes).

These records cross process boundaries and live in the on-disk cache, so they hold only strings,
numbers and tuples. Cross-file questions (re-exports through the repo's own modules, classes whose
bases live in another file) are answered after the join from ``exports`` and ``classes``.
"""

from __future__ import annotations

from dataclasses import dataclass

from apiscan.extract.loss_path import LossPath
from apiscan.extract.syntax import SyntaxFacts
from apiscan.model import ApiUse, ChainStep, FileError, Span
from apiscan.program.values import Fact
from apiscan.slotinit import use_slot_inits

#: Suffix of the export keys that say what a module-level function returns
#: (``("build_model()", "inst:tinydet.model.Detector")``).
RETURNS = "()"


@dataclass(frozen=True, slots=True)
class ClassFact:
    """A class defined in the file: enough to decide later whether it is an ``nn.Module``."""

    qualname: str  # module-relative, e.g. "Backbone" or "Outer.Inner"
    bases: tuple[str, ...]  # qualified names: "torch.nn.Module", "tinydet.layers.Conv", "" unknown
    methods: tuple[str, ...]
    line: int = 0  # of the ``class`` statement (0: not known), where reports point


@dataclass(frozen=True, slots=True)
class PendingMember:
    """``recv.attr`` where ``recv`` is an instance of a class defined in another file.

    Whether ``attr`` is a torch API (``torch.nn.Module.parameters``) or a user method depends on
    that class's bases, which only the join knows. ``fallback`` is the name-based guess to use if
    the class cannot be resolved at all (``""`` for none).
    """

    cls: str
    attr: str
    use: ApiUse  # api is empty until resolved
    fallback: str = ""


@dataclass(frozen=True, slots=True)
class FunctionFact:
    """A function or method defined in the file (a node of the repository's call graph)."""

    qualname: str  # module-relative: "collate", "Backbone.forward", nested: "outer.inner"
    cls: str  # module-relative qualname of the class a method belongs to, else ""
    line: int
    #: decorated ``@torch.no_grad()`` or ``@torch.inference_mode()``: it differentiates
    #: nothing, so a name like ``estimate_loss`` does not make it a loss the network compiles
    no_grad: bool = False


#: The gradient-off contexts a decorator may name (what ``@torch.no_grad()`` resolves to).
NO_GRAD_CONTEXTS = frozenset(
    {
        "torch.no_grad",
        "torch.inference_mode",
        "torch.autograd.no_grad",
        "torch.autograd.inference_mode",
        "torch.autograd.grad_mode.no_grad",
        "torch.autograd.grad_mode.inference_mode",
    }
)


#: Callee prefix of ``obj.name(...)`` where ``obj``'s class is unknown (``?.to_heatmap``).
ANY_RECEIVER = "?"
#: Role of a method read without a call (``{"labels": self.loss_labels}``) or named through
#: ``getattr(self, "loss_" + name)``: it may run wherever the reader's code runs.
REF = "ref"
#: What the DataLoader calls on a dataset object (``__getitems__`` is the batched fetch).
DATASET_METHODS = ("__getitem__", "__getitems__", "__iter__", "__len__")
#: Argument roles that hand a callable or an object to the data-loading machinery, and what the
#: machinery then calls on an object (or class) passed so. One home for the extractor, which
#: records calls with these roles, and for the call graph and scopes, which read them.
#: ``transform`` and friends may be plain callables or ``nn.Module`` transforms (``forward``).
DATA_ROLES: dict[str, tuple[str, ...]] = {
    "collate_fn": ("__call__",),
    "worker_init_fn": ("__call__",),
    "transform": ("__call__", "forward"),
    "transforms": ("__call__", "forward"),
    "target_transform": ("__call__", "forward"),
    "dataset": DATASET_METHODS,
    "sampler": ("__iter__", "__len__"),
    "batch_sampler": ("__iter__", "__len__"),
}


@dataclass(frozen=True, slots=True)
class CallFact:
    """An edge of the call graph, as far as one file can tell.

    ``callee`` is a fully qualified name when the target is known: a repo function
    (``tinydet.loss.focal_loss``), a method of a repo class (``tinydet.head.Head.forward`` for
    ``self.head(x)`` where ``self.head = Head()``, or ``tinydet.model.Detector.decode`` for
    ``self.decode(...)``). ``role`` says how the callee is used: ``call``, or one of
    :data:`DATA_ROLES` (``collate_fn``, ``transform``, ``dataset``...) when passed as such an
    argument (``DataLoader(ds, collate_fn=collate)``; the first positional argument of
    ``DataLoader`` is its ``dataset``), which is how data-processing code is found. An object
    passed so is named by its class (``pkg.data.Rows`` for ``dataset=Rows()``): the role says
    which methods run.
    """

    caller: str  # module-relative qualname of the enclosing function, "" at module level
    callee: str
    line: int
    role: str = "call"


@dataclass(frozen=True, slots=True)
class ShapeHit:
    """A dynamic-shape rule matched in this file (scope and severity are added after the join)."""

    rule: str
    span: Span
    function: str
    api: str = ""
    detail: str = ""  # what makes it dynamic here, e.g. "k = boxes.shape[0] read at runtime"
    #: where the offending value came from when another function made it (origin first)
    chain: tuple[ChainStep, ...] = ()
    #: the file the hit is in when it is not the analysed one (a host sync in a helper of
    #: another file whose number this file uses as a size); "" for this file
    path: str = ""
    #: reported only where the function runs in the network graph (scope ``network``)
    network_only: bool = False
    #: reported only where the function runs in the data pipeline (scope ``data``)
    data_only: bool = False
    #: the shape came in with one sample or only a length of it is read
    #: (:attr:`apiscan.model.ShapeFinding.inherited`)
    inherited: bool = False
    #: which case of its rule the hit is (:attr:`apiscan.model.ShapeFinding.case`)
    case: str = ""


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """A parameter of a function: how it is passed and what the function alone knows of it
    (``declared``: from its annotation, its default, or ``forward``'s tensor arguments)."""

    name: str
    kind: str  # "pos" (positional or keyword), "posonly", "kwonly", "star", "starstar"
    declared: Fact
    has_default: bool = False
    #: the default is the literal ``None`` (a call site that leaves it passes ``None``)
    default_none: bool = False


@dataclass(frozen=True, slots=True)
class FunctionSummary:
    """What a function looks like from outside: the solver's per-function record.

    ``params`` lists every parameter, ``self`` included when ``bound`` (a method called on an
    instance, whose first parameter is the receiver); ``returns`` is the join of its ``return``
    statements (a :class:`~apiscan.program.values.Tup` keeps tuple elements apart);
    ``self_attrs`` are the attributes it writes on ``self``.
    """

    qualname: str  # module-relative
    cls: str  # module-relative class qualname for methods, else ""
    params: tuple[ParamInfo, ...]
    bound: bool
    returns: Fact
    self_attrs: tuple[tuple[str, Fact], ...] = ()
    #: (attribute, line, column) of the first ``self.attr = ...`` handing on a data-dependent
    #: value, attribute "" for the first such ``return``: where a chain shows the step
    carried_at: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CallSite:
    """One call of a repository function, with the abstract arguments passed.

    ``callee`` is spelled as in :class:`CallFact`; ``bound`` says the receiver fills the
    callee's first parameter (``self.match(...)``, ``head(x)`` → ``Head.forward``, ``Cls(...)``
    → ``__init__``). ``star``: some ``*args``/``**kwargs`` were passed (positions after it are
    not trusted).
    """

    caller: str
    callee: str
    line: int
    args: tuple[Fact, ...]
    keywords: tuple[tuple[str, Fact], ...]
    bound: bool
    star: bool = False
    column: int = 0


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    path: str
    modules: tuple[str, ...]
    sha256: str
    lines: int
    uses: tuple[ApiUse, ...] = ()
    pending: tuple[PendingMember, ...] = ()
    exports: tuple[tuple[str, str], ...] = ()  # module-level name -> qualified name it is bound to
    classes: tuple[ClassFact, ...] = ()
    local_refs: tuple[str, ...] = ()  # repo-local qualified names the file looked up
    errors: tuple[FileError, ...] = ()
    position_fallback: bool = False  # positions came from PositionProvider (the slow path)
    functions: tuple[FunctionFact, ...] = ()
    calls: tuple[CallFact, ...] = ()
    shape_hits: tuple[ShapeHit, ...] = ()
    #: (line, rule ids) for every ``# apiscan: ignore[DS101]`` comment; () ids = all rules
    suppressions: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: per-function summaries and per-call-site arguments, for the whole-program solver
    summaries: tuple[FunctionSummary, ...] = ()
    sites: tuple[CallSite, ...] = ()
    #: (span, api, function, parameter): probable owners on a receiver that is (or was
    #: computed by tensor methods from) a parameter; certain once the solver proves it a tensor
    param_uses: tuple[tuple[Span, str, str, str], ...] = ()
    #: "p:<function>:<parameter>" keys whose being a tensor would change a dynamic-shape
    #: finding (``x[:n]`` with ``n`` from data): a solver fact for one re-walks the file
    sensitive: tuple[str, ...] = ()
    #: the whole-program facts this analysis was made with (its task's ``env``)
    env: tuple[tuple[str, Fact], ...] = ()
    #: A notebook's (cell, line in cell) for each line of its joined code; () for a module.
    cells: tuple[tuple[int, int], ...] = ()
    #: what the text says beyond torch APIs (imports, ``self.x`` assignments and calls,
    #: model-zoo constructors, host round trips...), for the review; None when not parsed
    syntax: SyntaxFacts | None = None
    #: the calls between a model's outputs and the backward pass of each training step
    #: (:mod:`apiscan.extract.loss_path`): the scope pass makes their callees network
    loss_paths: tuple[LossPath, ...] = ()
    #: the attribute names the file stores on objects (``m.type = t``, tuple targets,
    #: augmented assignments and ``for`` targets included), sorted: a torch method of one of
    #: these names that some file reads without calling it is the repository's attribute,
    #: not the method (the join drops the use); the review's one list of the attributes a
    #: file writes (``m.momentum = ...``, ``p.requires_grad = False``)
    stored_attrs: tuple[str, ...] = ()
    #: (function, line) of each string formatting that reads a tensor's values on the host
    #: (``'%10.4g' % (*mloss,)``, ``f"{loss:.3f}"``, ``"{:.4f}".format(loss)``: each element
    #: converted to a Python number, a device synchronisation): the review's per-step reads
    formatted: tuple[tuple[str, int], ...] = ()


def _pickled_as_calls(*classes: type) -> None:
    """Pickle each record class as a call of its constructor with its fields: the
    ``__getstate__``/``__setstate__`` a slotted dataclass gets look its fields up and set
    them one by one in Python, for each of the hundreds of thousands of records a cold scan
    sends from the workers and stores in the cache (a third of its pickling CPU). Records
    pickled the old way still load (the dataclass' ``__setstate__`` stays)."""
    from dataclasses import fields
    from operator import attrgetter

    for cls in classes:
        names = tuple(f.name for f in fields(cls))
        assert all(f.init for f in fields(cls)), cls  # every field goes through __init__
        get = attrgetter(*names)
        if len(names) == 1:
            cls.__reduce__ = lambda self, c=cls, g=get: (c, (g(self),))  # type: ignore[method-assign]
        else:
            cls.__reduce__ = lambda self, c=cls, g=get: (c, g(self))  # type: ignore[method-assign]


def _record_classes() -> tuple[type, ...]:
    from apiscan import model
    from apiscan.extract import input_steps, loss_path, models, syntax
    from apiscan.extract import values as file_values
    from apiscan.program import values

    return (
        ClassFact,
        PendingMember,
        FunctionFact,
        CallFact,
        ShapeHit,
        ParamInfo,
        FunctionSummary,
        CallSite,
        FileAnalysis,
        model.Span,
        model.ApiUse,
        model.CallArgs,
        model.FileError,
        model.ChainStep,
        syntax.SyntaxFacts,
        loss_path.LossPath,
        syntax.ZooCall,
        syntax.HostTrip,
        syntax.Pipeline,
        syntax.RegistrySetup,
        syntax.LazyAugmentations,
        input_steps.InputStep,
        file_values.AssignValues,
        file_values.DefValues,
        file_values.CallValues,
        file_values.IfValues,
        file_values.UpdateValues,
        file_values.LoopValues,
        file_values.FileValues,
        models.ModelFacts,
        models.Expr,
        models.Function,
        models.Assign,
        values.Site,
        values.Hop,
        values.Tensor,
        values.HostNumber,
        values.RandomNumber,
        values.HostData,
        values.Instance,
        values.Seq,
        values.Tup,
        values.Param,
    )


# (a class that packs itself keeps its own ``__reduce__``: FileValues)
_pickled_as_calls(*(cls for cls in _record_classes() if "__reduce__" not in vars(cls)))
# Built in the workers and again in the main process as each analysis is unpickled
# (constructor calls, see above): a third less CPU with slot stores.
use_slot_inits(*_record_classes())
