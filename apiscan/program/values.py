"""Typed abstract values: the facts that cross function and file boundaries.

Inside one file's walk the extractor keeps its own cheap tuples (``apiscan.resolve.values``);
whatever leaves a function (its parameters as seen by callers, its return value, the attributes
it writes on ``self``) and whatever a worker hands to the main process is one of these frozen,
picklable records instead: no CST nodes, deterministic ``repr`` (it goes into cache keys).

The join is for facts about *one* parameter seen at several call sites, or one function's
several ``return`` statements. It keeps "may depend on data": a helper called with a static size
at one site and with a size read from tensor data at another gets the data-dependent fact, so
its findings fire (the precision policy, what to flag, belongs to the rules). An ``Unknown``
side carries no information and does not erase the other side, but it does make a tensor fact
uncertain (``certain=False``), which owners report as ``probable``, and a static one unknown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from apiscan.model import ChainStep

#: Containers deeper than this are widened to ``Unknown`` (recursion such as ``f([x])`` calling
#: itself would otherwise grow a fact without end).
MAX_DEPTH = 3
#: How many hops (calls, returns, attribute writes) a fact's chain keeps: the first ones, the
#: nearest to where it came from.
MAX_VIA = 6


@dataclass(frozen=True, slots=True)
class Site:
    """Where a fact was created: ``loss.py:88`` and the code there (``int(counts[i])``), in
    ``function`` (module-relative qualname) at ``column``."""

    path: str
    line: int
    text: str = ""
    column: int = 0
    function: str = ""
    end_line: int = 0
    end_column: int = 0
    #: the number is a length of a data-dependent shape (``len(x[mask])``, ``x.size(1)``),
    #: not a value read from the tensor: no host sync happens there
    shape_read: bool = False

    def __str__(self) -> str:
        return f"{self.path.rpartition('/')[2]}:{self.line}"

    def origin_words(self) -> str:
        """What happens at the site: "read from tensor data" or "a length of a data-dependent
        shape" (a size read needs no sync: the shape is known once the tensor exists)."""
        return "a length of a data-dependent shape" if self.shape_read else "read from tensor data"


@dataclass(frozen=True, slots=True)
class Hop:
    """One step a data-dependent fact took on its way to a finding, at ``path:line:column``:

    - ``call``: ``function`` calls ``callee`` there, passing the fact as parameter ``name``;
    - ``return``: ``function`` (defined there) returns it;
    - ``attr``: ``function`` (defined there) stores it in ``self.<name>``.

    Functions are module-relative qualnames (``Head.forward``), as on findings.
    """

    function: str
    kind: str = "call"
    path: str = ""
    line: int = 0
    column: int = 0
    name: str = ""
    callee: str = ""

    def message(self) -> str:
        """The step's words in a finding's chain."""
        if self.kind == "return":
            return f"returned by `{self.function}`"
        if self.kind == "attr":
            return f"stored in `self.{self.name}` by `{self.function}`"
        what = f" as `{self.name}`" if self.name else ""
        to = f" to `{self.callee}`" if self.callee else ""
        return f"passed{what}{to} by `{self.function}`"


@dataclass(frozen=True, slots=True)
class Unknown:
    """Nothing is known."""


@dataclass(frozen=True, slots=True)
class Static:
    """A host value that does not come from tensor data (a literal, a config number, a str).
    ``array``: a numpy-like array or a pandas frame (what a helper returning
    ``pd.read_csv(...)`` gives its callers), whose items and methods are never torch's.
    ``none``: ``None``, the default of a parameter no call site passes (:data:`NONE`)."""

    array: bool = False
    none: bool = False


@dataclass(frozen=True, slots=True)
class Tensor:
    """A tensor. ``dynamic``: its shape may depend on data (``nonzero``, ``x[mask]``...);
    ``boolean``: a mask; ``arg``: a ``forward`` argument, which may also be a plain number;
    ``certain``: False when some source only guessed it; ``via``: the calls, returns and
    attribute writes that carried it here."""

    dynamic: bool = False
    boolean: bool = False
    arg: bool = False
    certain: bool = True
    via: tuple[Hop, ...] = ()
    #: one sample's own tensor of a batch kept as a list (one image's targets, read from the
    #: per-image list a collate left unstacked and handed to a matcher): its first
    #: dimension is the number of objects in that sample
    sample: bool = False
    #: for a dynamic tensor, the one dimension known to vary (the rows a mask or an index of
    #: a data-dependent length selected: ``probas[valid.nonzero()]`` keeps its class
    #: dimension); None when any may. A callee reading another dimension (``probas.size(1)``)
    #: reads a static length, as the function that made the tensor would
    varying: int | None = None
    #: its values were decided by the code from constants and shapes, no data went in
    #: (``torch.IntTensor([self.hidden])``): a number read from it is no data either
    code: bool = False


@dataclass(frozen=True, slots=True)
class HostNumber:
    """A host number read from tensor data (``t.item()``, ``int(t)``, ``len(x[mask])``);
    ``site`` is the host sync, ``via`` the calls, returns and attribute writes that carried it."""

    site: Site | None = None
    via: tuple[Hop, ...] = ()


@dataclass(frozen=True, slots=True)
class RandomNumber:
    """A host number drawn at random (multi-scale training sizes); ``via`` the calls,
    returns and attribute writes that carried it."""

    via: tuple[Hop, ...] = ()


@dataclass(frozen=True, slots=True)
class HostData:
    """Tensor data taken to the host as an array (``t.cpu().numpy()``): what a helper handed
    it computes with numpy or scipy runs on tensor data. ``sized``: its length was decided by
    that data on the host (``np.nonzero``, scipy's solver, an array sized by ``int(a.max())``)
    at ``site``; ``elem``: what its elements are when they are arrays of such a length too
    (the rows of a sparse matrix built from the data), else None (numbers). A helper that
    returns one hands its caller an index or a loop count decided by data."""

    sized: bool = False
    site: Site | None = None
    elem: Fact | None = None
    #: decided from a tensor's data (what it indexes is a tensor, not another host array)
    tensor: bool = False
    via: tuple[Hop, ...] = ()


@dataclass(frozen=True, slots=True)
class Instance:
    """An instance of a class: a torch class or one of the repository's (qualified name)."""

    cls: str


@dataclass(frozen=True, slots=True)
class Seq:
    """A list, iterator or other sequence whose elements are all ``elem``. ``samples``: the
    elements are the samples of one batch kept as a list, each with its own shape (the
    per-image targets a detector's collate returns unstacked, moved to the device one by
    one and handed to the loss in another file): what is read from one of them, by
    iteration or by any position, has that sample's length. A list of feature levels or of
    layers is not one (each position has its own, fixed, shape)."""

    elem: Fact
    samples: bool = False


@dataclass(frozen=True, slots=True)
class Tup:
    """A tuple of known length (what ``return a, b`` gives its callers, element by element)."""

    elems: tuple[Fact, ...]


#: The field of a :class:`Dict` that stands for every key the code computes
#: (``{k + "0": v for k, v in pred.items()}`` merged into a batch): what any key not named
#: among the fields maps to. No constant key a program writes is spelled so.
OTHER_KEYS = "**"


@dataclass(frozen=True, slots=True)
class Dict:
    """A dict with constant string keys, field by field (sorted by key): a collate's batch
    (``{"images": ..., "mask_indices": ...}``) read by key in the training step keeps each
    field's fact. Only dicts holding some data-dependent field cross functions as one
    (:func:`dict_of`); the others stay what they were (nothing known)."""

    fields: tuple[tuple[str, Fact], ...]

    def get(self, key: str) -> Fact:
        other: Fact = UNKNOWN
        for k, v in self.fields:
            if k == key:
                return v
            if k == OTHER_KEYS:
                other = v
        return other


@dataclass(frozen=True, slots=True)
class Param:
    """Symbolic: whatever the enclosing function's parameter ``name`` holds. Only in worker
    records (a call site passing its own parameter on, ``return x``); the solver resolves it."""

    name: str
    #: an element of the parameter (what iterating it gives), not the parameter itself
    element: bool = False


@dataclass(frozen=True, slots=True)
class PassedOn:
    """What a function returns where (part of) it is one of its own parameters
    (``def default(val, d): return val if val is not None else d``), as its walk found it:
    ``returns`` with ``Param`` references, and the names of the parameters a call fills
    (``positional`` in order, the receiver first for a method, ``bound``; ``keywords`` those
    a keyword can fill). Only in a walk's environment: each call binds the parameters to its
    own arguments, where the solver's return fact is the join over every caller's (a tensor
    passed at one call would make a config number passed at another a tensor). ``declared``:
    what the function declares of the parameters it hands back (``x: torch.Tensor``), which
    stands where a call's argument says less (as in :func:`refine`)."""

    returns: Fact
    positional: tuple[str, ...]
    keywords: tuple[str, ...]
    bound: bool = False
    declared: tuple[tuple[str, Fact], ...] = ()


Fact = (
    Unknown
    | Static
    | Tensor
    | HostNumber
    | RandomNumber
    | HostData
    | Instance
    | Seq
    | Tup
    | Dict
    | Param
    | PassedOn
)

#: The loader class: an instance of it is a sequence of batches (see :func:`join`).
LOADER = "torch.utils.data.DataLoader"
#: Fields a dict fact keeps at most (a batch has a few; a config dict is not one).
MAX_FIELDS = 32

UNKNOWN = Unknown()
STATIC = Static()
#: A parameter left to its default ``None`` by every call site: a branch that runs only when
#: it is given (``if mask is not None:``) never runs (joined with anything else, the fact
#: is a plain ``Static``: "None" does not survive a join)
NONE = Static(none=True)
TENSOR = Tensor()


def _any_leaf(f: Fact, leaf: Callable[[Fact], bool]) -> bool:
    """Whether ``leaf`` holds for some element of ``f``, looking through sequences and tuples
    (the three predicates below differ only in what they ask of one element)."""
    if isinstance(f, Seq):
        return _any_leaf(f.elem, leaf)
    if isinstance(f, Tup):
        return any(_any_leaf(e, leaf) for e in f.elems)
    if isinstance(f, Dict):
        return any(_any_leaf(v, leaf) for _, v in f.fields)
    return leaf(f)


def _dynamic_leaf(f: Fact) -> bool:
    if isinstance(f, Tensor):
        return f.dynamic or f.boolean or f.sample
    if isinstance(f, HostData):
        return f.sized and f.tensor
    return isinstance(f, HostNumber | RandomNumber)


# is_dynamic and is_informative are :func:`_any_leaf` of their leaf tests, written out with
# exact type checks (no class derives from a fact's): the solver asks them for every fact it
# passes along, hundreds of thousands of times on a large repository.


def is_dynamic(f: Fact) -> bool:
    """Could this fact make a shape depend on data (or come from it)?"""
    kind = type(f)
    if kind is Tensor:
        return f.dynamic or f.boolean or f.sample  # type: ignore[union-attr]
    if kind is Seq:
        return f.samples or is_dynamic(f.elem)  # type: ignore[union-attr]
    if kind is Tup:
        return any(map(is_dynamic, f.elems))  # type: ignore[union-attr]
    if kind is Dict:
        return any(is_dynamic(v) for _, v in f.fields)  # type: ignore[union-attr]
    if kind is HostData:
        # sized from a tensor's data: a length to carry into the functions it reaches. Tensor
        # data on the host alone, or host data sized from other host data, is worth a walk
        # only where the walk found it matters (a parameter in a sensitive place)
        return f.sized and f.tensor  # type: ignore[union-attr]
    return kind is HostNumber or kind is RandomNumber


def holds_tensor(f: Fact) -> bool:
    """A tensor, or a list or tuple holding some (a per-image list of index tensors)."""
    return _any_leaf(f, lambda leaf: isinstance(leaf, Tensor))


def is_informative(f: Fact) -> bool:
    """Worth handing to a worker: anything but Unknown/Static/Param."""
    kind = type(f)
    if kind is Seq:
        return is_informative(f.elem)  # type: ignore[union-attr]
    if kind is Tup:
        return any(map(is_informative, f.elems))  # type: ignore[union-attr]
    if kind is Dict:
        return any(is_informative(v) for _, v in f.fields)  # type: ignore[union-attr]
    return kind is not Unknown and kind is not Static and kind is not Param


def holds_param(f: Fact) -> bool:
    """Whether ``f`` (a function's return as its walk found it) is, or holds, one of the
    function's own parameters."""
    return _any_leaf(f, lambda leaf: isinstance(leaf, Param))


def is_known(f: Fact) -> bool:
    """Anything but Unknown (a static value says "not a tensor", which owners need too)."""
    return _any_leaf(f, lambda leaf: not isinstance(leaf, Unknown | Param))


def depth(f: Fact) -> int:
    if isinstance(f, Seq):
        return 1 + depth(f.elem)
    if isinstance(f, Tup):
        return 1 + max((depth(e) for e in f.elems), default=0)
    if isinstance(f, Dict):
        return 1 + max((depth(v) for _, v in f.fields), default=0)
    return 0


def widen(f: Fact) -> Fact:
    """Cut containers nested deeper than :data:`MAX_DEPTH` (keeps the solver finite)."""
    return _cut(f, MAX_DEPTH)


def _cut(f: Fact, budget: int) -> Fact:
    if isinstance(f, Dict):
        if budget <= 0:
            return UNKNOWN
        return Dict(tuple((k, _cut(v, budget - 1)) for k, v in f.fields))
    if isinstance(f, Seq | Tup):
        if budget <= 0:
            return UNKNOWN
        if isinstance(f, Seq):
            return Seq(_cut(f.elem, budget - 1), f.samples)
        return Tup(tuple(_cut(e, budget - 1) for e in f.elems))
    return f


def _leaves(f: Fact, leaf: Callable[[Fact], Fact]) -> Fact:
    """``f`` with ``leaf`` applied to each fact a list, tuple or dict holds (their shapes
    kept: a list of samples stays one), and to ``f`` itself when it holds none."""
    if isinstance(f, Seq):
        return Seq(_leaves(f.elem, leaf), f.samples)
    if isinstance(f, Tup):
        return Tup(tuple(_leaves(e, leaf) for e in f.elems))
    if isinstance(f, Dict):
        return Dict(tuple((k, _leaves(v, leaf)) for k, v in f.fields))
    return leaf(f)


def at_construction(f: Fact) -> Fact:
    """``f`` as a constructor (``__init__``) sees it: a number read from tensor data or drawn
    at random while the model is being built is a constant for every step that follows
    (``dpr = [x.item() for x in torch.linspace(0, rate, depth)]`` passed to ``Block(...)``)."""
    return _leaves(
        f, lambda x: STATIC if isinstance(x, HostNumber | RandomNumber | HostData) else x
    )


def passed_by(f: Fact, hop: Hop | str) -> Fact:
    """``f`` as seen after ``hop`` (a call, a return, an attribute write) carried it; a bare
    name is a call by that function."""
    step = Hop(hop) if isinstance(hop, str) else hop

    def carried(x: Fact) -> Fact:
        if (isinstance(x, Tensor) and (x.dynamic or x.boolean or x.sample)) or isinstance(
            x, HostNumber | RandomNumber | HostData
        ):
            return replace(x, via=_via(x.via, step))
        return x

    return _leaves(f, carried)


def _via(via: tuple[Hop, ...], hop: Hop) -> tuple[Hop, ...]:
    """The chain with ``hop`` added; a hop of the same kind by the same function as the last
    one adds nothing (recursion), and the chain stops growing at :data:`MAX_VIA`."""
    if len(via) >= MAX_VIA or hop in via:
        return via
    if via and via[-1].function == hop.function and via[-1].kind == hop.kind:
        return via
    return (*via, hop)


def unsampled(f: Fact) -> Fact:
    """``f`` with no tensor marked as one sample's own (:attr:`Tensor.sample`): what a
    function returns or stores is joined over all its callers, and a helper returning its
    argument (``move_device_like(x, y)``) handed one image's targets by one caller would
    hand every other caller a sample. Lists of samples (:attr:`Seq.samples`, what a collate
    returns) stay what they are."""
    return _leaves(
        f, lambda x: replace(x, sample=False) if isinstance(x, Tensor) and x.sample else x
    )


def without_chain(f: Fact) -> Fact:
    """``f`` without its hops: what it says, not how it got here (two environments that
    differ only in chains give the same findings, with other words)."""
    if isinstance(f, Tensor | HostNumber | RandomNumber | HostData) and f.via:
        return replace(f, via=())
    if isinstance(f, Seq):
        return Seq(without_chain(f.elem), f.samples)
    if isinstance(f, Tup):
        return Tup(tuple(without_chain(e) for e in f.elems))
    if isinstance(f, Dict):
        return Dict(tuple((k, without_chain(v)) for k, v in f.fields))
    return f


def join(a: Fact, b: Fact) -> Fact:
    """Both facts at once (see the module docstring: "may be dynamic" survives)."""
    if a == b:
        return a
    if isinstance(a, Unknown):
        return _uncertain(b)
    if isinstance(b, Unknown):
        return _uncertain(a)
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        return Tensor(
            dynamic=a.dynamic or b.dynamic,
            boolean=_boolean(a, b),
            arg=a.arg or b.arg,
            certain=a.certain and b.certain,
            via=_dyn_via(a, b),
            sample=a.sample or b.sample,
            varying=_varying(a, b),
            code=a.code and b.code,
        )
    for x, y in ((a, b), (b, a)):
        if isinstance(x, HostNumber):
            if isinstance(y, HostNumber):
                return min(x, y, key=repr)  # deterministic whatever the order of the sites
            if isinstance(y, Static | RandomNumber):
                return x
        if isinstance(x, RandomNumber) and isinstance(y, Static):
            return x
        if isinstance(x, HostData):
            # sized wins: "may be decided by data" survives, as for host numbers
            if isinstance(y, HostData):
                if x.sized != y.sized:
                    return x if x.sized else y
                return min(x, y, key=repr)
            if isinstance(y, Static):
                return x
        if isinstance(x, RandomNumber) and isinstance(y, RandomNumber):
            return min(x, y, key=repr)
    if isinstance(a, Static) and isinstance(b, Static):
        return STATIC
    if isinstance(a, Dict) and isinstance(b, Dict):
        # a key one side lacks: what the other side says, made uncertain (``may be dynamic``
        # survives, as for ``Unknown``)
        left, right = dict(a.fields), dict(b.fields)
        keys = sorted({*left, *right})
        return widen(
            Dict(tuple((k, join(left.get(k, UNKNOWN), right.get(k, UNKNOWN))) for k in keys))
        )
    if isinstance(a, Seq | Tup) and isinstance(b, Seq | Tup):
        if isinstance(a, Tup) and isinstance(b, Tup) and len(a.elems) == len(b.elems):
            return widen(Tup(tuple(join(x, y) for x, y in zip(a.elems, b.elems, strict=True))))
        samples = any(isinstance(x, Seq) and x.samples for x in (a, b))
        return widen(Seq(join(_held(a), _held(b)), samples))
    for x, y in ((a, b), (b, a)):
        if (
            isinstance(x, Tup)
            and isinstance(y, Instance)
            and x.elems[:1] == (y,)
            and y.cls.partition(".")[0] != "torch"
        ):
            # a builder returning the model alone or with its loss (``if not training:
            # return model`` ... ``return model, criterion``): a caller unpacking it
            # (``model, criterion = build(args, training=True)``) gets each part; one that
            # binds a single name learns nothing either way
            return x
        if isinstance(x, Seq | Tup | Dict) and _guessed_tensor(y):
            # what an unresolved module call was guessed to return (a tensor) gives way to
            # the list the solver found it returns (a matcher's per-image index pairs), and
            # what a loop over a loader was guessed to yield, to the collate's batch dict
            return x
        if isinstance(x, Dict) and isinstance(y, Tensor) and y.arg and not y.via:
            # ``forward(self, data)`` declares a tensor it cannot be sure of: the dict a
            # caller hands it (a detector's keypoints merged into the batch) says more
            return x
        if isinstance(x, Seq) and isinstance(y, Instance) and y.cls == LOADER:
            # a loader whose batches are unknown (another caller's) gives way to one whose
            # batches are known (a collate's): a helper iterating either yields those
            return x
    return UNKNOWN


def _held(f: Seq | Tup) -> Fact:
    """What a sequence or tuple holds, as its own fact says (a list of samples holds
    tensors; :func:`element` is what reading one of them gives, one sample's own)."""
    return f.elem if isinstance(f, Seq) else join_all(f.elems)


def _guessed_tensor(f: Fact) -> bool:
    """A tensor only guessed from a call or a method name, with nothing known of its shape."""
    return isinstance(f, Tensor) and not (f.certain or f.dynamic or f.boolean or f.arg or f.via)


def _boolean(a: Tensor, b: Tensor) -> bool:
    """Is the join a mask? Both sides must be, except that a guessed tensor (``certain`` is
    False: a method name said "tensor", nothing said its dtype) does not veto the other
    side's mask; otherwise a first walk's guess, made before any fact reached the function,
    would erase a mask found once the facts arrive (the environments only grow)."""
    if a.boolean and b.boolean:
        return True
    return (a.boolean and not b.certain) or (b.boolean and not a.certain)


def _varying(a: Tensor, b: Tensor) -> int | None:
    """The dimension known to vary in the join: the dynamic side's (a static tensor varies in
    none), or the one both dynamic sides agree on; None when they name different ones."""
    if a.dynamic and b.dynamic:
        return a.varying if a.varying == b.varying else None
    return a.varying if a.dynamic else b.varying if b.dynamic else None


def _dyn_via(a: Tensor, b: Tensor) -> tuple[Hop, ...]:
    if a.dynamic or a.boolean or a.sample:
        return a.via
    return b.via


def _uncertain(f: Fact) -> Fact:
    """``f`` joined with Unknown. A tensor becomes a guess; a static value says nothing any
    more (``self.x = None`` on one path and an unknown value on another is not "known not a
    tensor": owners of ``x`` would be lost)."""
    if isinstance(f, Tensor) and f.certain:
        return replace(f, certain=False)
    if isinstance(f, Static):
        return UNKNOWN
    return f


def refine(declared: Fact, passed: Fact) -> Fact:
    """A parameter whose function declares what it is (an annotation, a default), passed
    ``passed`` by its callers: the declaration stands, the callers add "may be dynamic".

    ``forward``'s parameters are declared tensors only by convention (``arg``): where the
    callers pass a list or a tuple (``self.pool(features, proposals)``, one tensor per image),
    what they pass is what the function gets."""
    if isinstance(declared, Tensor) and declared.arg and isinstance(passed, Seq | Tup):
        return passed
    if isinstance(declared, Tensor) and isinstance(passed, Tensor):
        return replace(
            passed,
            certain=declared.certain or passed.certain,
            arg=passed.arg and declared.arg,
            boolean=passed.boolean or declared.boolean,
        )
    if isinstance(passed, Unknown):
        return declared
    if (
        isinstance(declared, Instance)
        and isinstance(passed, Instance)
        and declared.cls.partition(".")[0] == "torch"
        and passed.cls.partition(".")[0] != "torch"
    ):
        # ``criterion: torch.nn.Module`` passed the repository's loss module: its class is
        # what runs (``criterion(outputs, targets)`` is its ``forward``)
        return passed
    if isinstance(declared, Seq | Tup) and not isinstance(passed, Seq | Tup):
        return declared  # ``proposals: list[Tensor]``, whatever a caller's guess says
    if isinstance(declared, Seq) and isinstance(passed, Seq):
        # ``tensors: list[Tensor]`` passed a list of samples whose elements a caller only
        # guessed tensors: the declaration stands for the elements, the callers add "may be
        # dynamic" and "the samples of a batch"
        elem = refine(declared.elem, passed.elem)
        return widen(Seq(elem, declared.samples or passed.samples))
    return join(declared, passed)


def join_all(facts: list[Fact] | tuple[Fact, ...]) -> Fact:
    if not facts:
        return UNKNOWN
    out = facts[0]
    for f in facts[1:]:
        out = join(out, f)
    return out


def element(f: Fact) -> Fact:
    """What iterating over ``f`` yields."""
    if isinstance(f, Seq):
        if f.samples and isinstance(f.elem, Tensor) and not f.elem.sample:
            return replace(f.elem, sample=True)  # one image's own targets
        return f.elem
    if isinstance(f, Tup):
        return join_all(f.elems)
    if isinstance(f, Tensor):
        return f
    if isinstance(f, Dict):
        return STATIC  # iterating a dict gives its keys
    return UNKNOWN


def dict_of(fields: list[tuple[str, Fact]]) -> Fact:
    """The fact of a dict with these constant-key fields: a :class:`Dict` when some field may
    make a shape depend on data (a batch's ``mask_indices``), else ``UNKNOWN`` (a dict of
    losses or of options tells a callee nothing a walk would use)."""
    if len(fields) > MAX_FIELDS or not any(is_dynamic(v) for _, v in fields):
        return UNKNOWN
    return Dict(tuple(sorted(dict(fields).items())))


def describe(f: Fact, here: str = "") -> str:
    """Words for a finding: what the value is, where it came from and which functions passed
    it on to ``here`` (the function with the finding); "" when there is nothing to say."""
    if isinstance(f, HostNumber):
        if f.site is not None:
            code = f" `{f.site.text}`" if f.site.text else ""
            what = f"is{code} {f.site.origin_words()} at {f.site}"
        else:
            what = "is read from tensor data"
        return what + _chain(f.via, here)
    if isinstance(f, Tensor) and f.boolean:
        return "is a boolean mask" + _chain(f.via, here)
    if isinstance(f, Tensor) and f.dynamic:
        return "is a tensor whose shape depends on data" + _chain(f.via, here)
    if isinstance(f, Tensor) and f.sample:
        return "is one sample's tensor of a batch kept as a list" + _chain(f.via, here)
    if isinstance(f, RandomNumber) and f.via:
        return "is drawn at random" + _chain(f.via, here)
    if isinstance(f, HostData):
        if not f.sized:
            return "is tensor data taken to the host" + _chain(f.via, here)
        code = f" `{f.site.text}`" if f.site is not None and f.site.text else ""
        at = f" at {f.site}" if f.site is not None else ""
        return f"is host data whose length{code} decided from tensor data{at}" + _chain(f.via, here)
    leaf = _first_dynamic(f) if isinstance(f, Seq | Tup | Dict) else None
    if leaf is None and _holds_samples(f):
        return "is a batch's samples kept as a list, each with its own length"
    if leaf is not None:
        d = describe(leaf, here)
        # "holds a tensor whose shape depends on data, passed by ...": the leaf's own words
        return "holds a value that " + d if d else ""
    return ""


def _holds_samples(f: Fact) -> bool:
    """A list of per-sample values, or a tuple or list holding one."""
    if isinstance(f, Seq):
        return f.samples or _holds_samples(f.elem)
    if isinstance(f, Dict):
        return any(_holds_samples(v) for _, v in f.fields)
    return isinstance(f, Tup) and any(map(_holds_samples, f.elems))


def collated(f: Fact) -> Fact:
    """What a collate function returns (``f``) as the batches a loader yields see it: a list
    of tensors in it was left unstacked because its samples have their own shapes (each
    image its own number of boxes; a collate stacks what has one shape), so it is a list of
    samples (:attr:`Seq.samples`)."""
    if isinstance(f, Tup):
        return Tup(tuple(collated(e) for e in f.elems))
    if isinstance(f, Dict):
        return Dict(tuple((k, collated(v)) for k, v in f.fields))
    if isinstance(f, Seq) and isinstance(f.elem, Tensor) and not (f.elem.dynamic or f.elem.boolean):
        return Seq(f.elem, True)
    return f


def _first_dynamic(f: Fact) -> Fact | None:
    """The first element of a sequence or tuple fact that may make a shape depend on data."""
    if isinstance(f, Seq):
        return _first_dynamic(f.elem)
    if isinstance(f, Tup | Dict):
        for e in f.elems if isinstance(f, Tup) else (v for _, v in f.fields):
            found = _first_dynamic(e)
            if found is not None:
                return found
        return None
    return f if _dynamic_leaf(f) else None


def _chain(via: tuple[Hop, ...], here: str) -> str:
    """ ", passed by `A` → `B` → `here`": the functions whose calls carried the fact."""
    callers = [h.function for h in via if h.kind == "call"]
    if not callers:
        return ""
    names = [*callers, here] if here and here != callers[-1] else callers
    return ", passed by " + " → ".join(f"`{v}`" for v in names)


def steps(f: Fact) -> tuple[ChainStep, ...]:
    """The structured chain of a fact for a finding (what :func:`describe` says in words,
    one located step each): where a host number was read from tensor data, then every call,
    return and attribute write that carried it. Hops without a position are left out."""
    if isinstance(f, HostNumber):
        out = []
        if f.site is not None and f.site.line:
            code = f"`{f.site.text}` " if f.site.text else ""
            out.append(
                ChainStep(
                    f.site.path,
                    f.site.line,
                    max(f.site.column, 1),
                    f.site.function,
                    f"{code}{f.site.origin_words()}",
                )
            )
        return (*out, *_hop_steps(f.via))
    if isinstance(f, HostData) and f.sized and f.site is not None and f.site.line:
        code = f"`{f.site.text}` " if f.site.text else ""
        head = ChainStep(
            f.site.path,
            f.site.line,
            max(f.site.column, 1),
            f.site.function,
            f"{code}decided a length from tensor data on the host",
        )
        return (head, *_hop_steps(f.via))
    if isinstance(f, RandomNumber | HostData) or (
        isinstance(f, Tensor) and (f.dynamic or f.boolean or f.sample)
    ):
        return _hop_steps(f.via)
    leaf = _first_dynamic(f) if isinstance(f, Seq | Tup | Dict) else None
    return steps(leaf) if leaf is not None else ()


def _hop_steps(via: tuple[Hop, ...]) -> tuple[ChainStep, ...]:
    return tuple(
        ChainStep(h.path, h.line, max(h.column, 1), h.function, h.message())
        for h in via
        if h.path and h.line
    )
