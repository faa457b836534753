"""Dynamic-shape detection, riding on the extractor's traversal and its value lattice.

The extractor already knows, for every expression, whether it is a tensor, a constant, or
something else. Dynamic shape needs three more facts, kept in the same tuples:

- ``("tensor", "dyn")``: a tensor whose *shape* depends on data (the result of ``nonzero``,
  ``unique``, ``masked_select``, ``x[mask]``...). Its ``.shape``/``len()`` are data too.
- ``("tensor", "bool")``: a boolean mask (a comparison of tensors, ``&``/``|`` of masks...).
- ``("nontorch", ("dyn", node))``: a host number read from tensor *values* (``t.item()``,
  ``int(t)``, ``.tolist()``, ``len()`` of a dynamic tensor); ``node`` is where the host sync
  happened, so the sync itself can be reported when the number ends up as a size.
- ``("nontorch", "rand")``: a host number drawn at random (multi-scale training sizes).
- ``("nontorch", ("host", node))``: host data whose *length* was decided by data (a numpy
  or scipy call on tensor data, ``np.nonzero``, a list comprehension filtered on tensor
  values); ``node`` is where. Brought back to torch (``torch.as_tensor``) it is a round trip
  (DS121) giving a data-dependent tensor.
- ``("nontorch", "sample")``: a size of one sample's field in a batch kept unstacked
  (``len(t["boxes"])`` of a per-image target): each sample has its own;
  ``("nontorch", "elemsize")``: a size of an element of an iterated sequence (an image of a
  batch list, or one feature level: not flagged by itself); ``("nontorch", "batchmax")``: the
  largest of either (padding to it gives every batch its own shape, DS119);
  :data:`SIZES_TENSOR` / :data:`BATCH_MAX_TENSOR` the same held in tensors.
- per-sample values (identity, :meth:`ShapeTracker.sample`): an element of a sequence that is
  iterated (``for t in targets``, weak) and the fields read from it by key (``t["labels"]``,
  strong: a record per sample); fields concatenated along the first dimension give a
  data-dependent total (DS120).

A value read from ``x.shape`` of a static tensor, a literal, or an attribute set at construction
is static; a plain function parameter is unknown and not flagged (precision first).

Each hit names a rule of the catalogue (``apiscan rules``); scope and severity are added after
the join, when the call graph says whether the function runs in the network graph.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from apiscan.extract.tree import children_of
from apiscan.model import ChainStep
from apiscan.resolve.values import ARRAY, NONTORCH, PTENSOR, TENSOR, Val

DYN_TENSOR: Val = ("tensor", "dyn")
BOOL_TENSOR: Val = ("tensor", "bool")
RAND: Val = ("nontorch", "rand")
#: a number drawn at random on some paths only (``seq_len = np.random.randint(...)`` under
#: ``if self.random_seq_len:``, the configured length otherwise): a slice of that length
#: varies per sample where the switch is on; a resize, whose switches the review weighs
#: (multi-scale flags), still needs a number drawn on every path (:data:`RAND`)
MAYBE_RAND: Val = ("nontorch", "maybe-rand")
SAMPLE_SIZE: Val = ("nontorch", "sample")
#: a size of an element of an iterated sequence (a sample, or a feature level: not known to
#: vary by itself; the largest of them is a batch maximum all the same)
ELEM_SIZE: Val = ("nontorch", "elemsize")
#: a numpy array holding a tensor's data (``t.cpu().numpy()``)
HOST_DATA: Val = ("nontorch", "hostdata")
#: a boolean numpy array made by a numpy predicate (``np.isin(keys, pos_keys)``,
#: ``np.logical_not(m)``): selecting an array with it gives host data of a data-dependent
#: length, and brought into torch (``torch.from_numpy``) it is a mask
HOST_MASK: Val = ("nontorch", "hostmask")
#: the same, computed from tensor data (``np.isin(t.cpu().numpy(), keys)``)
TENSOR_HOST_MASK: Val = ("nontorch", "tensormask")


def is_host_mask(v: Val) -> bool:
    return v in (HOST_MASK, TENSOR_HOST_MASK)


#: The strength of a per-sample value that is one of a list a collate left unstacked (see
#: :meth:`ShapeTracker.sample`).
COLLATED = 2

BATCH_MAX: Val = ("nontorch", "batchmax")
#: a tensor holding the sizes of the elements of a batch (``torch.as_tensor(img.shape[-2:])``
#: per image, ``torch.stack`` of them), and the largest of them along the batch
#: (``.max(0).values``): padding to it is padding to the batch maximum, whatever the sizes
#: were written as (detectron2's ``ImageList.from_tensors``)
SIZES_TENSOR: Val = ("tensor", "elemsizes")
BATCH_MAX_TENSOR: Val = ("tensor", "batchmax")


#: The detail of a value-dependent op found on a receiver only guessed to be a tensor.
GUESSED_RECEIVER = (
    "the receiver's type is not resolved; the method is a Tensor's, so it is probably a tensor"
)


def host_dyn(origin: Any, elem: Val | None = None, tensor: bool = False) -> Val:
    """Host data whose length was decided by data at ``origin``; ``elem``: what its elements
    are when they are such data too (a sequence of arrays as long as data says, else None:
    numbers); ``tensor``: the data it was decided from is a tensor's (taken to the host, or
    a number or a mask read from tensor values), so whatever it indexes gathers a tensor
    rather than another host array."""
    if elem is None and not tensor:
        return ("nontorch", ("host", origin))
    return ("nontorch", ("host", origin, elem, tensor))


def from_tensor(v: Val) -> bool:
    """Host data sized by data that was decided from tensor data (see :func:`host_dyn`), or a
    sequence holding some."""
    if v[0] == "nontorch":
        return is_host_dyn(v) and len(v[1]) > 3 and bool(v[1][3])
    return v[0] in ("seq", "tuple") and _any_elem(v, from_tensor)


def tensor_derived(v: Val) -> bool:
    """A value computed from tensor data: a tensor, its data on the host, a number or a mask
    read from it, host data sized from it."""
    return (
        (v[0] == "tensor" and v[1] != "arg")
        or v in (HOST_DATA, TENSOR_HOST_MASK)
        or _holds_dyn_number(v)
        or from_tensor(v)
    )


def _of_python_data(args: Sequence[Val]) -> bool:
    """Arguments that are plain Python data: some list or tuple built in Python (of plain
    numbers, strings, or values nothing is known of), the others such lists or plain
    values; no tensor, no tensor data on the host, no array (which may hold data loaded or
    taken from a tensor)."""

    def plain(v: Val, depth: int = 0) -> bool:
        if v[0] == "unknown" or v == NONTORCH:
            return True
        if depth < 3 and v[0] == "seq":
            return plain(v[1], depth + 1)
        if depth < 3 and v[0] == "tuple":
            return all(plain(e, depth + 1) for e in v[1])
        return False

    return any(v[0] in ("seq", "tuple") for v in args) and all(plain(v) for v in args)


def is_host_dyn(v: Val) -> bool:
    """Host data of a data-dependent length (or a sequence/tuple holding some)."""
    if v[0] == "nontorch":
        return isinstance(v[1], tuple) and v[1][:1] == ("host",)
    return v[0] in ("seq", "tuple") and _any_elem(v, is_host_dyn)


def _from_tensor_data(v: Val) -> bool:
    """Host data whose extent was decided by a tensor's values (``range(t.min(), t.max())``)."""
    return (
        v[0] == "nontorch"
        and isinstance(v[1], tuple)
        and v[1][:1] == ("host",)
        and (len(v[1]) > 3 and bool(v[1][3]))
    )


def host_elem(v: Val) -> Val | None:
    """What iterating host data sized by data yields when it is a sequence of such arrays
    (the rows of a sparse matrix built from tensor data, a list comprehension over one);
    None for a plain array, whose elements are numbers (or rows of a static length)."""
    if v[0] == "nontorch" and is_host_dyn(v) and len(v[1]) > 2:
        return v[1][2]  # type: ignore[no-any-return]  # None for numbers
    return None


def sized_on_host(v: Val) -> bool:
    """Host data whose own length was decided by data (an array, or a sequence of arrays
    as long as the data says), not a list of a static length that holds such arrays."""
    return v[0] == "nontorch" and is_host_dyn(v)


def sized_by_tensor(v: Val) -> bool:
    """:func:`sized_on_host` from a tensor's data (:func:`from_tensor`): a loop over it or a
    branch on its length follows what the network computed. One decided from a host array
    (``np.unique`` of a label image a dataset read, a sampler's group ids) is host work that
    no graph compiles."""
    return sized_on_host(v) and from_tensor(v)


def is_dyn_number(v: Val) -> bool:
    return v[0] == "nontorch" and isinstance(v[1], tuple) and v[1][:1] == ("dyn",)


def dyn_number(origin: cst.CSTNode | None) -> Val:
    return ("nontorch", ("dyn", origin))


def is_dyn_tensor(v: Val) -> bool:
    return v == DYN_TENSOR


def takes_tensor_only(v: Val) -> bool:
    """An index only a tensor takes: a boolean mask, an index tensor of a data-dependent
    length or an index array sized on the host by data (a list or dict indexed with one would
    fail), so ``value[keep]`` indexes a tensor even when nothing else says what ``value``
    is (an array would take it too, but one decided from a tensor's data goes back to the
    tensors it came from: a round trip)."""
    return v == BOOL_TENSOR or is_dyn_tensor(v) or sized_by_tensor(v)


def record_of_dynamic(v: Val) -> bool:
    """A tuple of tensors, one of them of a data-dependent shape (a matcher's ``(rows, cols)``
    for one image): appended to an empty list, the list holds such records, as a list
    comprehension building the same would."""
    return v[0] == "tuple" and all(e[0] == "tensor" for e in v[1]) and _any_elem(v, is_dyn_tensor)


def is_variable(v: Val) -> bool:
    """Would this value make a shape vary at run time? (a tensor, or a number from data)"""
    return (
        (v[0] == "tensor" and v[1] != "arg")
        or is_dyn_number(v)
        or v == SAMPLE_SIZE
        or (v[0] in ("seq", "tuple") and _any_elem(v, is_variable))
    )


def _any_elem(v: Val, pred: Callable[[Val], bool]) -> bool:
    if v[0] == "seq":
        return pred(v[1])
    if v[0] == "tuple":
        return any(pred(e) for e in v[1])
    return False


def _origins(v: Val) -> list[Any]:
    """The host syncs a value's numbers came from: CST nodes for syncs in this walk, solver
    facts (:class:`~apiscan.program.values.HostNumber`) for syncs made elsewhere."""
    if is_dyn_number(v):
        node = v[1][1]
        return [node] if node is not None else []
    if v[0] == "seq":
        return _origins(v[1])
    if v[0] == "tuple":
        return [o for e in v[1] for o in _origins(e)]
    return []


#: Ops that always give a data-dependent shape: api suffix -> rule id.
ALWAYS_DYNAMIC: dict[str, str] = {
    "unique": "DS101",
    "unique_consecutive": "DS101",
    "masked_select": "DS102",
    "nonzero": "DS103",
    "argwhere": "DS103",
    "nonzero_static": "",  # the static alternative: fine
    "bincount": "DS106",
}
#: Size-like positional arguments per op (None: every positional argument is a size).
SIZE_ARGS: dict[str, tuple[str, tuple[int, ...] | None, tuple[str, ...]]] = {
    # name: (rule, positional indexes (None = all), keyword names)
    "topk": ("DS110", (0,), ("k",)),
    "narrow": ("DS109", (1, 2), ("start", "length")),
    "split": ("DS109", (0,), ("split_size_or_sections", "split_size")),
    "tensor_split": ("DS109", (0,), ("indices_or_sections", "sections", "indices")),
    "reshape": ("DS113", None, ("shape",)),
    "view": ("DS113", None, ("size",)),
    "expand": ("DS113", None, ("size",)),
    "repeat": ("DS113", None, ("repeats",)),
    "tile": ("DS113", None, ("dims",)),
    "new_zeros": ("DS113", None, ("size",)),
    "new_ones": ("DS113", None, ("size",)),
    "new_empty": ("DS113", None, ("size",)),
    "new_full": ("DS113", (0,), ("size",)),
    # the legacy ``Tensor.new`` given sizes (``img.new(*batch_shape)``, ``img.new(n, 4)``);
    # given data it is no size (:func:`_size_args`)
    "new": ("DS113", None, ()),
    "zeros": ("DS113", None, ("size",)),
    "ones": ("DS113", None, ("size",)),
    "empty": ("DS113", None, ("size",)),
    "full": ("DS113", (0,), ("size",)),
    "rand": ("DS113", None, ("size",)),
    "randn": ("DS113", None, ("size",)),
    "arange": ("DS113", None, ("start", "end", "step")),
    "linspace": ("DS113", (2,), ("steps",)),
    # ``randint(high, size)`` / ``randint(low, high, size)``: the bounds are no size
    "randint": ("DS113", (), ("size",)),
    # a scale factor decides the output's size as much as a size does
    "interpolate": ("DS113", (0, 1), ("size", "scale_factor")),
    "pad": ("DS113", (0,), ("pad",)),
    "sum": ("DS112", (0,), ("dim",)),
    "mean": ("DS112", (0,), ("dim",)),
    "amax": ("DS112", (0,), ("dim",)),
    "amin": ("DS112", (0,), ("dim",)),
    "prod": ("DS112", (0,), ("dim",)),
    "std": ("DS112", (0,), ("dim",)),
    "var": ("DS112", (0,), ("dim",)),
    "logsumexp": ("DS112", (0,), ("dim",)),
    "transpose": ("DS112", (0, 1), ("dim0", "dim1")),
    "permute": ("DS112", None, ("dims",)),
    "movedim": ("DS112", (0, 1), ("source", "destination")),
    # the legacy typed constructors given sizes (``torch.LongTensor(len(batch), n)``); given
    # data (a list) they are no size (:func:`_legacy_data`)
    **dict.fromkeys(
        (
            "Tensor",
            "FloatTensor",
            "LongTensor",
            "IntTensor",
            "DoubleTensor",
            "HalfTensor",
            "ByteTensor",
            "BoolTensor",
        ),
        ("DS113", None, ()),
    ),
    "multinomial": ("DS114", (0,), ("num_samples",)),
    "randperm": ("DS114", (0,), ("n",)),
}
#: Ops whose size is the last of two or more positional arguments, the others bounds of the
#: values drawn (``torch.randint(0, len(idx), (1,))`` draws one number, whatever ``idx``).
LAST_IS_SIZE = frozenset({"randint"})
#: Ops whose index argument gives the output its length: (positional index, keyword).
INDEX_ARGS: dict[str, tuple[int, str]] = {
    "index_select": (1, "index"),
    "gather": (1, "index"),
    "take": (0, "index"),
    "take_along_dim": (0, "indices"),
}
#: Factories: no input tensor comes first.
FACTORIES = frozenset(
    {"zeros", "ones", "empty", "full", "rand", "randn", "arange", "randint", "randperm", "linspace"}
)
#: In-place segment reductions: dynamic when the output tensor's length came from data.
SEGMENT_OPS = frozenset(
    {
        "index_add",
        "index_add_",
        "scatter_add",
        "scatter_add_",
        "scatter_reduce",
        "scatter_reduce_",
        "index_reduce",
        "index_reduce_",
        "index_put",
        "index_put_",
    }
)
#: Reductions: their result on a dynamic tensor is taken as static (``x[keep].sum()``; with a
#: ``dim`` the other dimensions may still vary, a precision-first approximation).
#: Ops returning ``(values, indices)`` of their input's own shape (see ``on_torch_call``).
ORDERINGS = frozenset({"sort", "cummax", "cummin"})
REDUCTIONS = frozenset(
    {"sum", "mean", "max", "min", "any", "all", "numel", "item", "argmax", "argmin"}
)
#: torch functions that bring host data back (a round trip when its length came from data).
FROM_HOST = frozenset(
    {
        "as_tensor",
        "tensor",
        "from_numpy",
        "asarray",
        "Tensor",
        "LongTensor",
        "FloatTensor",
        "IntTensor",
        "ByteTensor",
        "BoolTensor",
        "DoubleTensor",
    }
)
#: numpy functions whose result's length is read from the values of their input.
NUMPY_DATA_LENGTH = frozenset(
    {
        "nonzero",
        "flatnonzero",
        "argwhere",
        "unique",
        "compress",
        "extract",
        "setdiff1d",
        "intersect1d",
        "union1d",
        "trim_zeros",
        # as long as the largest value plus one
        "bincount",
    }
)
#: numpy functions that return one array per dimension of their input (``np.nonzero(m)[0]``
#: is the first dimension's indices, not the first of them).
NUMPY_PER_DIM = frozenset({"nonzero", "where", "unravel_index"})
#: numpy predicates: element-wise truths, a boolean array (:data:`HOST_MASK`).
NUMPY_PREDICATES = frozenset(
    {
        "isin",
        "in1d",
        "logical_not",
        "logical_and",
        "logical_or",
        "logical_xor",
        "isnan",
        "isinf",
        "isfinite",
        "isclose",
    }
)
#: numpy functions whose positional arguments are sizes (given one read from tensor data,
#: the array is as long as the data says).
NUMPY_SIZED = frozenset(
    {"zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity", "tile", "repeat"}
)
#: numpy reductions: called without an axis on host data sized by data, one number.
NUMPY_REDUCTIONS = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "amax",
        "amin",
        "prod",
        "std",
        "var",
        "median",
        "any",
        "all",
        "argmax",
        "argmin",
        "count_nonzero",
        "average",
        "size",
        "ndim",
        "shape",
        "isscalar",
    }
)
#: scipy.sparse matrix constructors: built from tensor data, each row stores as many entries
#: as the data says (``[row.data for row in csr_matrix(...)]``).
SPARSE_MATRICES = frozenset(
    {"csr_matrix", "csc_matrix", "coo_matrix", "lil_matrix", "csr_array", "csc_array", "coo_array"}
)
#: scipy functions whose result's length is read from the values of their input (filters,
#: transforms and distances keep the input's shape and are not listed).
SCIPY_DATA_LENGTH = frozenset(
    {
        "linear_sum_assignment",
        "find_peaks",
        "argrelextrema",
        "argrelmax",
        "argrelmin",
        "label",
        "find_objects",
        "find",
        "connected_components",
    }
)
#: numpy.random functions that draw numbers used as sizes (others return arrays).
RANDOM_SCALARS = frozenset({"randint", "choice", "uniform", "random_integers"})
#: What DS119 says of a resize to a randomly drawn size.
RANDOM_RESIZE = "images are resized to a randomly drawn size"
#: What DS111 says of an index array sized on the host (``emb[rows_of[k]]`` with ``rows_of``
#: from scipy on ``assign.cpu().numpy()``): the data came back as an index, a round trip.
HOST_INDEX = "the index is host data"
#: The host call a finding names for a list repeated a number of times read from data
#: (``torch.tensor([i] * len(keep))``, RetinaNet's per-class labels after NMS): only the
#: data-dependent length left the device, no tensor value.
SIZED_LIST = "a list repeated a number of times read from data"
#: What DS113 says of a size drawn at random on the host where the network runs.
RANDOM_SIZE = (
    "a size is drawn at random on the host at every step (random.randint, np.random): each "
    "draw gives the result a new shape, and the graph is compiled again"
)
#: What DS119 says of a sample sliced to a length drawn at random.
RANDOM_LENGTH = (
    "each sample is sliced to a length drawn at random (x[s : s + n] with n random), so "
    "every batch has its own length"
)
#: What DS104 says of a host value stored through a mask followed by full slices (see
#: :meth:`ShapeTracker.settle_stores` for the compiled graphs behind it).
SLICED_MASK_STORE = (
    "a value stored through a boolean mask beside full slices goes through the selected "
    "positions (NonZero, then TensorScatterUpdate) in MindSpore's graph; with the mask "
    "alone (x[mask] = v, which means the same) it compiles to one Select and the shape "
    "stays static"
)

#: What a finding says of a shape that is one sample's own (DS120 where an op computes on one
#: sample's tensor) and of a size read from one sample (DS113...): the shape came in with the
#: sample, handed over by the function's callers; the function's own ops are shape-polymorphic
#: (a hit that says so is :attr:`Hit.inherited`, which the review's effort reads).
SAMPLE_SHAPE_WORDS = "its shape is that sample's own"
SAMPLE_SIZE_WORDS = "is the size of one sample of a batch kept unstacked"
#: What a finding says of a size, bound, trip count or test read from the shape of a tensor
#: whose shape depends on data: the op only carries the varying length on (it needs no
#: rewrite of its own once the tensor's source is padded to a fixed size).
LENGTH_WORDS = "a length of a data-dependent shape"
#: What DS119 says of a tensor sized by the largest sample of the batch.
BATCH_PADDING = "padded to the largest sample of each batch, so every batch has its own shape"
#: torch functions joining a sequence of tensors along an existing dimension.
JOIN_NAMES = frozenset({"cat", "concat", "concatenate"})
NMS_NAMES = frozenset({"nms", "batched_nms", "multiclass_nms", "box_nms", "soft_nms"})
RESIZE_WORDS = ("resize", "interpolate", "rescale")
#: Builtins a loop iterates through: as many steps as their argument(s) have elements.
#: Tensor methods and functions that keep one sample's tensor as it is (its own length
#: still, no shape computed from it: moved, cast, its size or rank read, tested, or copied
#: into another tensor's slot: ``padded[i, :, :h, :w].copy_(img)`` is the method form of the
#: store ``padded[i, :, :h, :w] = img``, which gives the destination's shape).
SAMPLE_KEEPING = frozenset(
    {"float", "double", "half", "bfloat16", "long", "int", "to", "type", "contiguous"}
    | {"detach", "clone", "cpu", "cuda", "size", "dim", "numel", "is_tensor", "numpy"}
    | {"is_floating_point", "get_device", "requires_grad_", "item", "tolist", "__len__"}
    | {"copy_"}
)

LOOP_THROUGH = frozenset({"enumerate", "zip", "reversed", "sorted", "list", "tuple", "iter"})


@dataclass(slots=True)
class Hit:
    rule: str
    start: tuple[cst.CSTNode, str]
    end: tuple[cst.CSTNode, str]
    function: str
    api: str = ""
    detail: str = ""
    chain: tuple[ChainStep, ...] = ()
    #: reported only where the function runs in the network graph (a data pipeline computes
    #: on one sample at a time, eagerly, whatever its length)
    network_only: bool = False
    #: reported only where the function runs in the data pipeline (scope ``data``): a
    #: sample cut to a length drawn at random is an input pipeline there, where a training
    #: loop or a network doing the same is other work
    data_only: bool = False
    #: the shape came in with one sample the function was handed, or the place only reads a
    #: length of a data-dependent shape (:attr:`apiscan.model.ShapeFinding.inherited`)
    inherited: bool = False
    #: which case of its rule the hit is (:attr:`apiscan.model.ShapeFinding.case`)
    case: str = ""


GETITEM = "torch.Tensor.__getitem__"
SETITEM = "torch.Tensor.__setitem__"

#: What a DS104 store says when the value is read through the same mask (``x[m] = y[m]``):
#: the result has ``x``'s static shape, and a rewrite without the selection keeps it so.
SAME_MASK_STORE = (
    "the value is read through the same mask, so the result keeps the target's static shape: "
    "torch.where(mask, value, target) (ops.where, or masked_scatter) writes it without "
    "selecting rows, while the store as written builds the list of selected positions "
    "(NonZero, then TensorScatterUpdate) in MindSpore's graph"
)


@dataclass(frozen=True, slots=True)
class PendingStore:
    """A store ``x[index] = value`` waiting for its value (:meth:`ShapeTracker.settle_stores`)."""

    node: cst.CSTNode
    rule: str
    api: str
    why: str
    chain: tuple[ChainStep, ...]
    #: whether a host value keeps the store quiet
    host_quiet: bool = True
    #: the mask is the first index and full slices the rest (``x[mask, :] = v``): with a
    #: host value, what the finding says is that the mask alone would keep it static
    sliced_mask: bool = False
    #: ``why`` says the bound only reads a length of a data-dependent shape (:attr:`Hit.inherited`)
    inherited: bool = False
    #: which case of the rule ``why`` says (:attr:`Hit.case`)
    case: str = ""


#: Words for a value and the located steps behind them (see :meth:`ShapeTracker._why`).
Why = tuple[str, tuple[ChainStep, ...]]


def _unexplained(_v: Val) -> Why:
    return "", ()


@dataclass(slots=True)
class ShapeTracker:
    """Collects dynamic-shape hits for one file; called by the extractor at its hook points."""

    function: Callable[[], str]
    silent: Callable[[], bool]
    #: words for a value the whole-program solver supplied (where it came from), else "",
    #: with the structured chain of the same (origin first)
    explain: Callable[[Val], Why] = _unexplained
    hits: list[Hit] = field(default_factory=list)
    #: id(dynamic tensor) -> (it, the one dimension known to vary)
    _dims: dict[int, tuple[Val, int]] = field(default_factory=dict)
    _synced: set[int] = field(default_factory=set)
    #: host syncs made in another function (a solver fact's site) whose number is used as a
    #: size here: (site, words), once per site
    remote_syncs: list[tuple[Any, str]] = field(default_factory=list)
    #: id of a sync node -> the function it is written in (a helper returning ``t.item()``
    #: is where the sync happens, not the caller that uses the number as a size)
    _sync_function: dict[int, str] = field(default_factory=dict)
    #: ids of nodes that read a length of a data-dependent shape (``x.size(1)``,
    #: ``len(x[mask])``): a number that varies with data, but no host sync
    _shape_reads: set[int] = field(default_factory=set)
    #: ids of the nodes reading a number out of a tensor's data already on the host
    #: (:meth:`on_host_read`)
    _host_reads: set[int] = field(default_factory=set)
    _pipeline_reported: set[str] = field(default_factory=set)
    #: id(value) -> (value, why): values made here from a supplied one whose explanation
    #: they keep (``x.shape[0]`` of a parameter the solver proved a data-dependent tensor)
    _relayed: dict[int, tuple[Val, Why]] = field(default_factory=dict)
    #: function -> its first resize to a random size (node, api, words, chain), until the
    #: function ends
    _resized: dict[str, tuple[cst.CSTNode, str, str, tuple[ChainStep, ...]]] = field(
        default_factory=dict
    )
    #: functions that read a fixed-size crop after such a resize
    _cropped: set[str] = field(default_factory=set)
    #: function -> its first slice of a length drawn at random, until the function ends
    _lengths: dict[str, cst.CSTNode] = field(default_factory=dict)
    #: function -> the names such a slice cut from (``im`` of ``im[y : y + h_crop]``), and
    #: the names the cut is bound to (``cropped`` of ``cropped = im[y : y + h, x : x + w]``)
    _sliced: dict[str, frozenset[str]] = field(default_factory=dict)
    #: the latest slice of a length drawn at random (:meth:`bind_cut`, :meth:`reduced`)
    _last_cut: cst.CSTNode | None = None
    #: the latest interpolation to a size given outright (:meth:`restored`)
    _last_restore: cst.CSTNode | None = None
    #: True while the targets of a plain ``=`` are visited (before its value is known)
    defer_stores: bool = False
    #: ``x[mask] = value`` stores waiting for the value (see :meth:`settle_stores`): the node,
    #: the words and the chain of their DS104 hit
    _pending_stores: list[PendingStore] = field(default_factory=list)
    #: id(value) -> (value, strong): per-sample values — elements of an iterated sequence
    #: (weak when the sequence may be a tensor, whose rows all have one shape) and the fields
    #: read from them by key (strong: ``t["labels"]`` proves ``t`` a record, not a row)
    _samples: dict[int, tuple[Val, bool]] = field(default_factory=dict)
    #: id -> the shapes read from per-sample fields (their first entry is per-sample)
    _sample_shapes: dict[int, Val] = field(default_factory=dict)
    #: id -> the indices an ordering (``sort``) gave of a tensor of a data-dependent shape:
    #: a permutation, whose gather reorders rather than selects
    _orders: dict[int, Val] = field(default_factory=dict)
    #: id -> (the shape of a dynamic tensor whose varying dimension is known, that dimension):
    #: its other entries are static
    _shape_dims: dict[int, tuple[Val, int]] = field(default_factory=dict)
    #: id(call node) of ``range(n)`` / ``enumerate(x)`` / ``zip(...)`` -> the values that make
    #: its number of elements data (``n`` read from tensor data, ``x`` of a data-dependent
    #: shape), for :meth:`on_loop`
    _counted: dict[int, list[Val]] = field(default_factory=dict)
    #: ids of host lists read from a tensor of a data-dependent shape (``keep.tolist()``):
    #: their length is data too; ``_keep`` holds them so that the ids stay theirs
    _dyn_lists: set[int] = field(default_factory=set)
    _keep: list[Val] = field(default_factory=list)
    #: how many bodies of data-dependent ``if``s the walk is inside; per enclosing loop,
    #: whether such an ``if`` may ``continue``/``break`` it (the rest of its body is then
    #: conditional on data too)
    _data_ifs: int = 0
    _cut_loops: list[bool] = field(default_factory=list)
    #: id -> data-dependent tensors made by a value-dependent op on a receiver only guessed
    #: to be a tensor (:meth:`on_guessed_call`), and what was computed from them: their
    #: methods are probable Tensor methods, not certain ones
    _guessed: dict[int, Val] = field(default_factory=dict)

    #: (function, name) of sequences whose elements had their position written into them
    #: (``for i, boxes in enumerate(targets): boxes[:, 0] = i``), see :meth:`tag_samples`
    _tagged: set[tuple[str, str]] = field(default_factory=set)
    #: functions that have their finding for one sample's tensor reaching an op (one each:
    #: what is computed from it inherits its length, see :meth:`on_sample_use`)
    _sample_used: set[str] = field(default_factory=set)
    #: id(call node) of ``range(n)`` with ``n`` one sample's own size -> ``n``
    _sample_counted: dict[int, Val] = field(default_factory=dict)

    # ---------------------------------------------------------------- per-sample values
    def tag_samples(self, name: str) -> None:
        """The elements of the sequence ``name`` were each tagged with their position (the
        image a target row belongs to): rows only need that tag when samples bring their own
        numbers of them, so joining them along the rows gives a total that is data (DS120)."""
        self._tagged.add((self.function(), name))

    def sample(self, v: Val, strong: bool | int) -> Val:
        """``v`` as a per-sample value (a new tuple, so that only this binding is one).
        ``strong``: False for an element of some iterated sequence, True for one sample of a
        batch known as such, :data:`COLLATED` for one of a list a collate left unstacked
        (each sample its own first dimension: the number of objects in it)."""
        if self._samples.get(id(v), (None, False))[0] is v and not strong:
            return v
        out = (v[0], v[1])
        self._samples[id(out)] = (out, strong)
        return out

    def sample_kind(self, v: Val) -> bool | int | None:
        """None when ``v`` is no per-sample value, else whether it is a strong one."""
        entry = self._samples.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def batch_sample(self, v: Val) -> bool:
        """Whether ``v`` is a strong per-sample value: one sample of a batch known as such (a
        field read by key from a per-sample record, an element of a list of samples a
        collate returned unstacked), not merely an element of some list. A list of them is
        what crosses into other functions as a list of samples (``pv.Seq.samples``)."""
        return self.sample_kind(v) in (True, COLLATED)

    def sample_tensor(self, v: Val) -> bool:
        """Whether ``v`` is one sample's own tensor of a list a collate left unstacked
        (``targets[idx]`` of a detector's per-image targets, handed on to a matcher), whose
        first dimension is the number of objects in that sample. A field read by key from
        some record (``x["image"]``) is not known to be one: images are often resized to one
        size before they are listed."""
        entry = self._samples.get(id(v))
        return v[0] == "tensor" and entry is not None and entry[0] is v and entry[1] == COLLATED

    def on_sample_use(self, node: cst.CSTNode, vals: Sequence[Val], api: str = "") -> None:
        """One sample's own tensor among ``vals`` reaches a tensor op (``api``): every shape
        computed from it is that sample's number of objects, a new one at every step of a
        graph (DS120, in the network only). One finding per function, at the first such op:
        reads that keep the sample (``t[:, :4]``, ``.cuda()``, ``.float()``) report nothing,
        what is computed from the sample inherits its length without being reported again,
        and a helper of the repository handed the sample gets it as such (the finding is
        where the helper computes with it)."""
        if self.silent() or not any(map(self.sample_tensor, vals)):
            return
        fn = self.function()
        if fn in self._sample_used:
            return
        self._sample_used.add(fn)
        words, _ = self._explained(next(v for v in vals if self.sample_tensor(v)))
        what = "a tensor op computes on one sample's tensor"
        self._sample_hit(node, api, f"{what} ({words})" if words else what)

    def _sample_hit(self, node: cst.CSTNode, api: str, what: str) -> None:
        """The DS120 hit for one sample's length reaching the graph (network scope only)."""
        detail = (
            f"{what}: {SAMPLE_SHAPE_WORDS} (in a detector's targets, the number of "
            "objects in it), and each sample of the batch has its own"
        )
        fn = self.function()
        self.hits.append(
            Hit("DS120", (node, "s"), (node, "e"), fn, api, detail, (), True, inherited=True)
        )

    def sample_size(self, v: Val, dim: int | None = 0) -> Val | None:
        """What a length read from ``v`` along ``dim`` is: the first dimension of one
        sample's field (``len(t["boxes"])``: each sample its own, :data:`SAMPLE_SIZE`), any
        other size of it or of an element of a sequence (:data:`ELEM_SIZE`: the boxes' width,
        an image's height), else None."""
        kind = self.sample_kind(v)
        if kind is None:
            return None
        return SAMPLE_SIZE if kind and dim == 0 else ELEM_SIZE

    def shape_entry(self, shape: Val, index: int | None) -> Val | None:
        """``t["boxes"].shape[0]``: the first entry of a per-sample field's shape;
        ``probas.shape[1]`` of a tensor whose rows only vary (:meth:`varying_dim`): a static
        length. None when ``shape`` is neither or ``index`` is no literal."""
        varying = self._shape_dims.get(id(shape))
        if varying is not None and varying[0] is shape:
            return NONTORCH if index is not None and index != varying[1] else None
        entry = self._sample_shapes.get(id(shape))
        if entry is None or entry is not shape:
            return None
        return SAMPLE_SIZE if index == 0 else ELEM_SIZE

    def hit(
        self,
        rule: str,
        node: cst.CSTNode,
        api: str = "",
        detail: str = "",
        start: tuple[cst.CSTNode, str] | None = None,
        function: str | None = None,
        chain: tuple[ChainStep, ...] = (),
        inherited: bool = False,
        case: str = "",
    ) -> None:
        """Record a hit of ``rule``; ``inherited``: ``detail`` says the shape came in with
        one sample or is only a length read from a data-dependent shape (:attr:`Hit.inherited`);
        ``case``: which case of the rule it is (:attr:`Hit.case`)."""
        if not rule or self.silent():
            return
        fn = self.function() if function is None else function
        self.hits.append(
            Hit(
                rule,
                start or (node, "s"),
                (node, "e"),
                fn,
                api,
                detail,
                chain,
                inherited=inherited,
                case=case,
            )
        )

    def hit_count(self) -> int:
        """How many findings the walk has made so far (a branch that added some is one
        whose never running would change the report)."""
        return len(self.hits)

    def _varying(self, dim: int) -> Val:
        """A dynamic tensor whose dimension ``dim`` is the one that varies (new tuple)."""
        v: Val = ("tensor", "dyn")
        v = (v[0], v[1])
        self._dims[id(v)] = (v, dim)
        return v

    def vary_new(self, dim: int) -> Val:
        """A new dynamic tensor varying along ``dim`` only."""
        return self._varying(dim)

    def vary(self, v: Val, dim: int) -> None:
        """Mark the dynamic tensor ``v`` (this very tuple) as varying along ``dim`` only."""
        self._dims[id(v)] = (v, dim)

    def shared_dim(self, vals: Sequence[Val]) -> int | None:
        """The one dimension every dynamic tensor among ``vals`` varies along (the others
        static tensors or numbers, broadcast to them), else None."""
        dims = {self.varying_dim(v) for v in vals if is_dyn_tensor(v)}
        if len(dims) != 1 or any(v[0] not in ("tensor", "nontorch") for v in vals):
            return None
        return next(iter(dims))

    def varying_dim(self, v: Val) -> int | None:
        entry = self._dims.get(id(v))
        return entry[1] if entry is not None and entry[0] is v else None

    def _source_words(self, vals: Sequence[Val]) -> tuple[str, bool]:
        """How the offending numbers vary: read from tensor data, or only the length of a
        data-dependent shape (``min(10, ious.size(1))``: no sync, still a varying size), or
        the size of one sample; with whether it is one of the last two (the hit's
        ``inherited``: the varying shape is decided elsewhere)."""
        origins = [o for v in vals for o in _origins(v)]
        if not origins and any(v == SAMPLE_SIZE or _any_elem(v, SAMPLE_SIZE.__eq__) for v in vals):
            return f"{SAMPLE_SIZE_WORDS} (each has its own)", True
        if origins and all(self._read_from_shape(o) for o in origins):
            return f"is {LENGTH_WORDS}", True
        return "is read from tensor data at run time", False

    def _why(self, detail: str, vals: Sequence[Val]) -> Why:
        """``detail``, and where the offending value came from when another function made it
        (``k`` is ``int(counts[i])`` read from tensor data at loss.py:88, passed by ...), with
        the same as located steps (the finding's structured chain)."""
        stack = list(vals)
        while stack:
            v = stack.pop(0)
            words, chain = self._explained(v)
            if words:
                return f"{detail}: {words}", chain
            if v[0] == "seq":
                stack.append(v[1])
            elif v[0] == "tuple":
                stack.extend(v[1])
        return detail, ()

    def relay(self, sources: Sequence[Val], out: Val) -> Val:
        """``out`` (computed from ``sources``: an element of a container, the result of an op
        on a data-dependent tensor) keeping the first explanation found among the sources, so
        that a finding further on names where the shape came from rather than the op that
        only carried it. ``out`` itself when nothing is explained or it carries no data."""
        if not (is_dyn_tensor(out) or out == BOOL_TENSOR or out[0] in ("seq", "tuple")):
            return out
        if self._explained(out)[0]:
            return out  # its own words (a tuple element the solver supplied) say more
        why = self._why("", sources)
        if any(map(self.guessed, sources)) and is_dyn_tensor(out):
            copy = self._guess((out[0], out[1]))  # ``guessed.nonzero().squeeze(1)``
            if why[0]:
                self._relayed[id(copy)] = (copy, (why[0].removeprefix(": "), why[1]))
            dim = self.varying_dim(out)
            if dim is not None:
                self._dims[id(copy)] = (copy, dim)
            return copy
        if not why[0]:
            return out
        copy = (out[0], out[1])
        self._relayed[id(copy)] = (copy, (why[0].removeprefix(": "), why[1]))
        dim = self.varying_dim(out)
        if dim is not None:
            self._dims[id(copy)] = (copy, dim)
        if self._orders.get(id(out)) is out:
            self._orders[id(copy)] = copy
        return copy

    def _explained(self, v: Val) -> Why:
        relayed = self._relayed.get(id(v))
        if relayed is not None and relayed[0] is v:
            return relayed[1]
        return self.explain(v)

    def read_from_data(self, v: Val) -> bool:
        """A host number read from tensor values (a sync), not only a length of a
        data-dependent shape (``x.shape[-1]`` of a masked tensor may well be static)."""
        return is_dyn_number(v) and any(not self._read_from_shape(o) for o in _origins(v))

    def sync_function(self, node: cst.CSTNode) -> str:
        """The function a host sync is written in ("" when unknown)."""
        return self._sync_function.get(id(node), "")

    def is_shape_read(self, node: object) -> bool:
        """Whether ``node`` reads a length of a data-dependent shape rather than tensor data."""
        return id(node) in self._shape_reads

    def _read_from_shape(self, origin: object) -> bool:
        """An origin made here (a node) or by the solver in another function (its site) that
        is a length of a data-dependent shape."""
        site = getattr(origin, "site", None)
        return self.is_shape_read(origin) or bool(getattr(site, "shape_read", False))

    def _syncs(self, v: Val, what: str) -> None:
        """Report each host sync whose number ends up as a size (once per sync). A length of
        a data-dependent shape is no sync: the size use is reported by its own rule."""
        for origin in _origins(v):
            if self._read_from_shape(origin):
                continue
            site = getattr(origin, "site", None)
            if site is not None and site.end_line and not self.silent():
                if all(s != site for s, _ in self.remote_syncs):
                    where = self.function()
                    used = f" in `{where}`" if where else ""
                    self.remote_syncs.append((site, f"the value is then used as {what}{used}"))
                continue
            if id(origin) not in self._synced and isinstance(origin, cst.Call):
                self._synced.add(id(origin))
                self.hit(
                    "DS118",
                    origin,
                    detail=f"the value is then used as {what}",
                    function=self._sync_function.get(id(origin)),
                )

    # ---------------------------------------------------------------- torch calls
    def on_torch_call(
        self,
        api: str,
        node: cst.Call,
        recv: Val | None,
        args: Sequence[Val],
        kwargs: dict[str, Val],
        result: Val,
    ) -> Val:
        """A call of torch API ``api`` (``recv`` is the tensor for methods)."""
        name = api.rpartition(".")[2]
        sized = _size_args(name, recv, args, kwargs, any(a.star == "*" for a in node.args))
        if name not in SAMPLE_KEEPING and not (sized and any(map(_batch_max, sized[1]))):
            # an op sized by the batch maximum (``F.pad(img, [0, max_w - w, ...])``,
            # ``img.new_full(batch_shape, 0)``) gives its output the batch's largest shape,
            # not the sample's: padding a list of samples to one tensor is DS119's finding
            # (below), the more specific one, and no per-sample total is computed
            self.on_sample_use(
                node, [*([recv] if recv is not None else ()), *args, *kwargs.values()], api
            )
        sizes = _batch_sizes(name, recv, args, kwargs, result)
        if sizes is not None:
            return sizes
        if name in FROM_HOST and recv is None:
            came = [a for a in [*args, *kwargs.values()] if is_host_dyn(a)]
            if came:
                words, case = self._round_trip_words(came)
                self.hit("DS121", node, api, words, case=case)
                # ``torch.as_tensor([a <= m for a in areas], dtype=torch.bool)``: still a
                # boolean mask (DS104 where it indexes), whatever host data it came from
                return BOOL_TENSOR if result == BOOL_TENSOR else DYN_TENSOR
            if args and is_host_mask(args[0]):
                return BOOL_TENSOR  # ``torch.from_numpy(np.isin(keys, pos))``: a mask
            if args and (is_dyn_tensor(args[0]) or args[0] == BOOL_TENSOR):
                # ``torch.as_tensor(keep, device=d)`` of a tensor is that tensor: still the mask
                # (or the index tensor of a data-dependent length) it was
                return args[0]
        if name in JOIN_NAMES and recv is None and args and _joins_first_dim(node):
            parts = args[0]
            if parts[0] == "seq" and self.sample_kind(parts[1]):
                self.hit(
                    "DS120",
                    node,
                    api,
                    "each sample of the batch has its own length: the total is data",
                )
                return DYN_TENSOR
            first = node.args[0].value if node.args else None
            if type(first) is cst.Name and (self.function(), first.value) in self._tagged:
                self.hit(
                    "DS120",
                    node,
                    api,
                    "each part's rows were tagged with the position of the sample they belong "
                    "to: samples of their own lengths are joined, and the total is data",
                )
                return DYN_TENSOR
        rule = ALWAYS_DYNAMIC.get(name)
        first = recv if recv is not None else (args[0] if args else NONTORCH)
        if rule is not None and first == SIZES_TENSOR:
            # ``unique`` of the crop widths (``torch.tensor([c.shape[-1] for c in crops])``):
            # sizes of shapes are not data anywhere in the lattice (``torch.zeros(img.shape[-1])``
            # is not flagged), so a value-dependent op on them has a shape the input shapes decide
            return ("seq", TENSOR) if _returns_tuple(node) else TENSOR
        if rule is not None:
            if rule:
                self.hit(rule, node, api)
                if _returns_tuple(node):
                    return ("seq", DYN_TENSOR)  # nonzero(as_tuple=True), unique(return_counts=)
                return _dyn_like(result)
            return result
        if name == "where" and len(args) + (recv is not None) == 1 and not kwargs:
            self.hit("DS103", node, api, "torch.where with only a condition is nonzero")
            return ("seq", DYN_TENSOR)  # one index tensor per dimension
        if name == "repeat_interleave":
            # torch.repeat_interleave(x, repeats) / x.repeat_interleave(repeats) /
            # torch.repeat_interleave(repeats) (the one-argument form)
            # (``repeats=`` by keyword leaves only the input among the positional arguments)
            if "repeats" in kwargs:
                reps = kwargs["repeats"]
            else:
                pos = 1 if recv is None and len(args) > 1 else 0
                reps = args[pos] if len(args) > pos else NONTORCH
            if reps[0] == "tensor" or is_dyn_number(reps):
                why, chain = self._why("repeats is a tensor: the output length is data", [reps])
                self.hit("DS105", node, api, why, chain=chain)
                return DYN_TENSOR
            return result
        if name == "one_hot":
            if len(args) < 2 and "num_classes" not in kwargs:
                self.hit("DS107", node, api, "without num_classes it is max(input) + 1")
                return result
            if _minus_one_classes(node):
                self.hit("DS107", node, api, "num_classes=-1 makes it max(input) + 1")
                return result
            width = args[1] if len(args) > 1 else kwargs.get("num_classes", NONTORCH)
            if is_variable(width) and not _batch_max(width):
                # ``num_classes=len(torch.unique(labels))``: the width is read from the data
                written = _classes_text(node)
                named = f"num_classes=`{written}`" if written else "num_classes"
                words, inherited = self._source_words([width])
                why, chain = self._why(f"{named} {words}", [width])
                self.hit("DS107", node, api, why, chain=chain, inherited=inherited)
                self._syncs(width, "num_classes")
                return DYN_TENSOR
            return result
        if name == "pad_packed_sequence" and recv is None and "total_length" not in kwargs:
            # packing itself leaves no shape behind (MindSpore's RNNs take the padded batch
            # and ``seq_length``); unpacking without total_length gives max(lengths)
            if len(args) < 4:
                self.hit(
                    "DS113",
                    node,
                    api,
                    "without total_length the output is as long as the longest of the "
                    "lengths: its length is read from their values",
                )
            return result
        if name == "pad_sequence":
            self.pipeline(
                node,
                api,
                "sequences are padded to the longest of each batch, so "
                "every batch has its own length",
            )
            return result
        if name in SEGMENT_OPS and recv is not None and is_dyn_tensor(recv):
            self.hit("DS115", node, api, "the output's length was read from the index values")
            return DYN_TENSOR
        index = INDEX_ARGS.get(name)
        if index is not None:
            pos, kw = index
            if recv is None:
                pos += 1
            idx = args[pos] if len(args) > pos else kwargs.get(kw, NONTORCH)
            if is_dyn_tensor(idx):
                why, chain = self._why("the index comes from a data-dependent op", [idx])
                self.hit("DS111", node, api, why, chain=chain)
                return DYN_TENSOR
        if sized is not None:
            rule, chosen = sized
            padded = [a for a in chosen if _batch_max(a)]
            bad = [a for a in chosen if is_variable(a) and not _batch_max(a)]
            if name[:1].isupper():
                # a legacy typed constructor is read for batch padding only: its other sizes
                # (``torch.FloatTensor(sum(self.num_classes), d)``, a parameter's) are left to
                # the ops that use the tensor, as before
                bad = []
            if bad:
                what = {
                    "DS110": "k",
                    "DS109": "a slice bound",
                    "DS112": "an axis",
                    "DS114": "a sample count",
                }.get(rule, "a size")
                words, inherited = self._source_words(bad)
                why, chain = self._why(f"{what} {words}", bad)
                self.hit(rule, node, api, why, chain=chain, inherited=inherited)
                for a in bad:
                    self._syncs(a, what)
                dim = _sized_dim(name, chosen) if result[0] == "tensor" else None
                if dim is not None:
                    return self._varying(dim)  # ``anchors.view(1, N, 4)``: dimension 1 varies
                return _dyn_like(result) if result[0] in ("tensor", "seq") else result
            if padded:
                # each tensor sized by the batch maximum is a shape of its own (the images and
                # their padding mask): reported where it is built, not once per function
                self.hit("DS119", node, api, BATCH_PADDING, case=BATCH_PADDING)
            drawn = [a for a in chosen if a == RAND or _any_elem(a, lambda e: e == RAND)]
            if name == "interpolate" and drawn:
                self.random_resize(node, api, *self._why(RANDOM_RESIZE, drawn))
            elif name == "interpolate" and _resized_to_fixed_size(node):
                # ``out = F.interpolate(out, size=(h0 // sf, w0 // sf))`` with ``h0``, ``w0``
                # read before a random resize: the degraded image is brought back to one
                # size where the result replaces it (:meth:`restored`)
                self._last_restore = node
            elif drawn and rule == "DS113" and not self.silent():
                # ``latent.repeat(1, inject_index, 1)`` with ``inject_index = random.
                # randint(...)`` in a generator's forward: a new shape at every step (a data
                # pipeline drawing sizes per sample is DS119's, where it batches them)
                self.hits.append(
                    Hit(rule, (node, "s"), (node, "e"), self.function(), api, RANDOM_SIZE, (), True)
                )
        source = recv if recv is not None else (args[0] if args else None)
        if (
            name in ORDERINGS
            and source is not None
            and is_dyn_tensor(source)
            and result[0] in ("seq", "tuple")
        ):
            # ``values, perm = torch.sort(errors)`` of a tensor of a data-dependent shape:
            # both have that shape (a gather by ``perm`` is as long as ``errors``)
            dim = self.varying_dim(source)
            out = self.relay([source], self._varying(dim) if dim is not None else DYN_TENSOR)
            order = self.relay([source], self._varying(dim) if dim is not None else DYN_TENSOR)
            if order is out:
                order = (order[0], order[1])
                if dim is not None:
                    self.vary(order, dim)
            self._orders[id(order)] = order
            return ("tuple", (out, order))
        if (
            recv is not None
            and is_dyn_tensor(recv)
            and result[0] == "tensor"
            and sized is not None
            and name in _SHAPE_GIVING
            and sized[1]
            and not _infers_a_size(node)
        ):
            # ``anchors.view(b, n, 1, 4)`` with every size static and none left to infer
            # (``-1``): the result has that static shape, whatever the receiver's was
            return TENSOR
        if recv is not None and is_dyn_tensor(recv) and result[0] == "tensor":
            # the owner table hands the receiver back for tensor methods; a reduction's result
            # is static whatever the receiver's shape, unless it reduces another dimension
            # than the one known to vary (``x[:, mask].argmax(0)`` keeps the masked length)
            if name not in REDUCTIONS:
                # ``x.flatten()``: one dimension left, the one that varies; ``x.abs()``,
                # ``x.contiguous()``: the receiver's shape, the same dimension varying
                dim = 0 if _flattens(node) else None
                if dim is None and name in KEEPS_SHAPE:
                    dim = self.varying_dim(recv)
                return self.relay([recv], self._varying(dim) if dim is not None else DYN_TENSOR)
            varying, reduced = self.varying_dim(recv), _reduced_dim(node)
            if varying is not None and reduced is not None and reduced != varying:
                return self._varying(varying - 1 if reduced < varying else varying)
            return TENSOR
        if recv is None and result[0] == "tensor" and _reduced_loss(name, node):
            # ``F.cross_entropy(logits[valid], targets[valid], reduction="sum")``: one number
            return TENSOR
        if (
            recv is None
            and result[0] == "tensor"
            and name not in FACTORIES
            and not (name in REDUCTIONS and len(args) == 1)
            and any(is_dyn_tensor(a) or _any_elem(a, is_dyn_tensor) for a in args)
        ):
            # torch.cat([x[mask], ...]), torch.max(dyn, other): still data; an elementwise
            # op of tensors varying along one dimension varies along it
            elementwise = name in KEEPS_SHAPE and (
                name not in REDUCTIONS or (len(args) > 1 and args[1][0] == "tensor")
            )  # ``torch.max(a, b)``, not ``torch.max(x, 0)``
            dim = self.shared_dim(args) if elementwise else None
            return self.relay(args, self._varying(dim) if dim is not None else DYN_TENSOR)
        return result

    def on_guessed_call(self, api: str, node: cst.Call, result: Val) -> Val | None:
        """``field.nonzero()`` on a receiver whose type the walk did not resolve (a tensor
        kept in a repository container: ``boxlist.get_field("labels")``, an untyped
        parameter) but whose method only a tensor has here: the owner pass guessed a probable
        ``torch.Tensor`` method, and an op whose output length is read from the values
        (:data:`ALWAYS_DYNAMIC`) is data-dependent on that receiver as on a known tensor.
        None when ``api`` is no such op. Arrays, pandas objects and other known non-tensors
        never reach here: their kinds are known before the method is looked up."""
        rule = ALWAYS_DYNAMIC.get(api.rpartition(".")[2])
        if not rule or not api.startswith("torch.Tensor."):
            return None
        self.hit(rule, node, api, GUESSED_RECEIVER)
        out = self._guess((DYN_TENSOR[0], DYN_TENSOR[1]))  # a new tuple: identity is the fact
        # one tensor unless asked for more (``return_counts=``): ``for c in x.unique()`` then
        # meets one row at a time, ``masks[c]`` a static shape
        return ("seq", out) if _returns_tuple(node) else out

    def _guess(self, v: Val) -> Val:
        self._guessed[id(v)] = v
        return v

    def guessed(self, v: Val) -> bool:
        """Whether ``v`` is only as much a tensor as a guessed receiver was (see
        :meth:`on_guessed_call`): a data-dependent shape all the same, a probable owner."""
        entry = self._guessed.get(id(v))
        return entry is not None and entry is v

    def _round_trip_words(self, vals: Sequence[Val], index: bool = False) -> tuple[str, str]:
        """Which host call decided the length of the data coming back (``index``: the data
        is a host array indexing a tensor), with the hit's case (:attr:`Hit.case`):
        :data:`SIZED_LIST` when that call is a list repeated by a number, else
        :data:`HOST_INDEX` for an index, else ""."""
        lead = f"{HOST_INDEX}: " if index else ""
        case = HOST_INDEX if index else ""
        for v in vals:
            stack = [v]
            while stack:
                x = stack.pop()
                if x[0] == "nontorch" and is_host_dyn(x):
                    origin = x[1][1]
                    what = _call_text(origin)
                    if what:
                        return (
                            f"{lead}`{what}` computed its length on the host from data; back "
                            "in torch it is a data-dependent shape",
                            SIZED_LIST if what == SIZED_LIST else case,
                        )
                elif x[0] == "seq":
                    stack.append(x[1])
                elif x[0] == "tuple":
                    stack.extend(x[1])
        return f"{lead}host data whose length was decided by data comes back into torch", case

    # ---------------------------------------------------------------- containers
    def collect(self, held: Val, added: Val) -> Val | None:
        """``kept.append(boxes[keep])``: a list that collects a tensor of data-dependent
        shape holds data-dependent tensors from then on (what ``torch.cat(kept)``,
        ``len(kept[0])`` and ``for b in kept: len(b)`` read), whatever it held before, and
        one that collects dicts holding such tensors holds those dicts; None when ``added``
        changes nothing."""
        if is_dyn_tensor(held) or (held[0] == "dict" and any(is_dyn_tensor(v) for _, v in held[1])):
            return None
        if is_dyn_tensor(added):
            return self.relay([added], DYN_TENSOR)
        if added == BOOL_TENSOR and held[0] == "unknown":
            # ``masks.append(scores > t)`` into a list that held nothing known: a list of
            # masks (what ``for m in masks: x[m]`` selects with)
            return BOOL_TENSOR
        if added[0] == "dict" and any(is_dyn_tensor(v) for _, v in added[1]):
            # ``result.append({"boxes": boxes[i], ...})``: one record per image, whose fields
            # ``[p["boxes"] for p in result]`` reads back
            return added
        return None

    def keep_collections(self, names: dict[str, Val], paths: Sequence[dict[str, Val]]) -> None:
        """After an ``if``: a list or dict that holds data-dependent tensors on one path
        (``kp = [p["boxes"] for p in detections]``, then ``if self.training: kp = []`` filled
        otherwise) may hold them after it, whatever the last path walked left in ``names``."""
        for name, v in list(names.items()):
            if v[0] not in ("seq", "dict", "unknown") or _holds_dyn(v):
                continue
            for path in paths:
                other = path.get(name)
                if (
                    other is not None
                    and other is not v
                    and _holds_dyn(other)
                    and v[0] in (other[0], "unknown")
                ):
                    names[name] = other
                    break

    # ---------------------------------------------------------------- host syncs
    def on_sync(self, node: cst.CSTNode, source: Val) -> Val:
        """``t.item()``, ``int(t)``, ``t.tolist()``, ``len(dyn)``: a number from data."""
        if source == BATCH_MAX_TENSOR:
            # the batch's largest sizes read back (``max_size.tolist()``): a batch's shape
            listed = type(node) is cst.Call and _method(node) == "tolist"
            return ("seq", BATCH_MAX) if listed else BATCH_MAX
        if source[0] == "tensor":
            self._sync_function.setdefault(id(node), self.function())
            number = dyn_number(node)
            if is_dyn_tensor(source):
                self._dyn_lists.add(id(number))  # ``keep.tolist()``: as many as survived
                self._keep.append(number)
            return number
        if is_dyn_number(source):
            return source
        return NONTORCH

    def on_host_read(self, node: cst.CSTNode) -> Val:
        """``int(point[2])`` of a numpy array holding a tensor's data (``t.cpu().numpy()``):
        a number read from data, a size of its own as a synced one is, but one read on the
        host, where the round trip already took the work (reported there): a branch on it is
        plain Python, not a branch in a graph (:meth:`on_condition`)."""
        self.unbranched(node)
        return self.on_sync(node, TENSOR)

    def unbranched(self, node: cst.CSTNode) -> None:
        """A number read at ``node`` is a size where it is used as one, but a branch on it
        is not reported (:meth:`on_condition`): read on the host from a numpy array, or by
        ``.item()`` of a value only guessed a tensor (a loss logged, a numpy scalar)."""
        self._host_reads.add(id(node))

    def size_read(self, node: cst.CSTNode, source: Val) -> Val:
        """``x.size(1)``, ``x.numel()``, ``len(x)`` of a data-dependent tensor: a number that
        varies with data, read from the shape (no host sync)."""
        self._sync_function.setdefault(id(node), self.function())
        return self._length(node, source)

    def shape_of(self, node: cst.CSTNode, source: Val) -> Val:
        """``x.shape`` / ``x.size()``: static for static tensors, data for dynamic ones, one
        sample's own for a per-sample value."""
        kind = self.sample_kind(source)
        if kind is not None:
            shape = ("seq", ELEM_SIZE)
            if kind:
                self._sample_shapes[id(shape)] = shape
            return shape
        if not is_dyn_tensor(source):
            return ("seq", NONTORCH)
        shape = ("seq", self._length(node, source))
        dim = self.varying_dim(source)
        if dim is not None:
            self._shape_dims[id(shape)] = (shape, dim)
        return shape

    def _length(self, node: cst.CSTNode, source: Val) -> Val:
        """A length read at ``node`` from the data-dependent ``source``, explained as it is."""
        self._shape_reads.add(id(node))
        number = dyn_number(node)
        why = self._explained(source)
        if why[0]:
            self._relayed[id(number)] = (number, why)
        return number

    # ---------------------------------------------------------------- indexing
    def on_subscript(
        self,
        node: cst.Subscript,
        recv: Val,
        indexes: Sequence[Val],
        bounds: Sequence[Val],
        store: bool,
        scalar_first: bool = False,
    ) -> Val | None:
        """``x[...]`` on a tensor; returns the result's value when it is data-dependent.

        ``scalar_first``: the first index is one number (``keep[0]``, ``masks[i]`` with ``i``
        an element of an index tensor), which takes one row of the data-dependent first
        dimension: the rest has a static shape."""
        if recv[0] != "tensor":
            return None
        for idx in indexes:
            if idx == BOOL_TENSOR or is_host_mask(idx):
                why, chain = self._why("indexing with a boolean mask", [idx])
                if store and self.defer_stores:
                    # settle_stores decides, once the stored value is known
                    self._pending_stores.append(
                        PendingStore(
                            node,
                            "DS104",
                            SETITEM,
                            why,
                            chain,
                            len(node.slice) == 1,
                            len(node.slice) > 1 and _mask_then_full_slices(node, idx is indexes[0]),
                        )
                    )
                else:
                    api = "torch.Tensor.__setitem__" if store else "torch.Tensor.__getitem__"
                    self.hit("DS104", node, api, why, chain=chain)
                dim = _indexed_dim(node)
                return self._varying(dim) if dim is not None else DYN_TENSOR
            if self._orders.get(id(idx)) is idx and not store:
                # ``fg[perm]`` with ``perm`` from ``sort``: a reordering of rows as many as
                # the sorted tensor's, whose length is what it carries on, no new shape
                return self.relay([idx], DYN_TENSOR)
            if is_dyn_tensor(idx) or (idx[0] in ("tuple", "seq") and _any_elem(idx, is_dyn_tensor)):
                why, chain = self._why("the index comes from a data-dependent op", [idx])
                if store and self.defer_stores:
                    self._pending_stores.append(PendingStore(node, "DS111", GETITEM, why, chain))
                else:
                    self.hit("DS111", node, "torch.Tensor.__getitem__", why, chain=chain)
                if recv[1] is False and self.guessed(idx):
                    # ``boxes[inds]``, ``boxes`` untyped and ``inds`` from a guessed receiver:
                    # the result is as much a tensor as either
                    return self._guess((DYN_TENSOR[0], DYN_TENSOR[1]))
                # ``pred[b, a, gj, gi]``: one row per index, the other dimensions as they were
                dim = _indexed_dim(node)
                return self._varying(dim) if dim is not None and is_dyn_tensor(idx) else DYN_TENSOR
        for idx in indexes:
            if idx[0] == "nontorch" and is_host_dyn(idx):
                # ``emb[np.nonzero(a == k)[0]]``, ``feats[rows_of[k]]``: an index array sized on
                # the host from tensor data comes back as the index: a gather of that length
                words, case = self._round_trip_words([idx], index=True)
                why, chain = self._why(words, [idx])
                if store and self.defer_stores:
                    self._pending_stores.append(
                        PendingStore(node, "DS111", GETITEM, why, chain, case=case)
                    )
                else:
                    self.hit("DS111", node, GETITEM, why, chain=chain, case=case)
                return DYN_TENSOR
        bad = [b for b in bounds if is_variable(b)]
        if bad:
            words, inherited = self._source_words(bad)
            why, chain = self._why(f"a slice bound {words}", bad)
            if store and self.defer_stores:
                self._pending_stores.append(
                    PendingStore(node, "DS109", GETITEM, why, chain, inherited=inherited)
                )
            else:
                self.hit("DS109", node, GETITEM, why, chain=chain, inherited=inherited)
            for b in bad:
                self._syncs(b, "a slice bound")
            dim = _sliced_dim(node) if not is_dyn_tensor(recv) else None
            # ``gt[:, :, :n]``: the one dimension the bound cuts varies, the others keep
            # their sizes (``gt.shape[1]`` after it is still static)
            return self._varying(dim) if dim is not None else DYN_TENSOR
        if not is_dyn_tensor(recv):
            return None
        if scalar_first and self.varying_dim(recv) in (None, 0):
            return TENSOR
        dim = _kept_dim(node, self.varying_dim(recv))
        if dim == -1:
            return TENSOR  # ``x[:, 0]`` with dimension 1 varying: one element of it
        return self.relay([recv], self._varying(dim) if dim is not None else DYN_TENSOR)

    def settle_stores(self, value: Val, computed: bool = False, same_mask: bool = False) -> None:
        """Decide the deferred ``x[mask] = value`` hits once the value is known.

        With the mask as the only index and a host value (``x[mask] = 0``, ``x[keep] =
        padding_idx``), MindSpore lowers the store to ``Select`` over the whole tensor: the
        graph keeps its static shape. Every other form of a host value's store goes through
        the list of selected positions, even where it means the same: compiled by MindSpore
        2.10.0 on CPU in graph mode (``Cell.construct`` and ``mindspore.jit``, a (4, 3)
        tensor and a (4,) or (3,) mask), the validated IR (``save_graphs``) of ``x[m] = 0``
        and ``x[m] = 1.5`` holds ``BroadcastTo`` + ``Select`` and no dynamic shape, while
        ``x[m, :] = 0``, ``x[m, ...] = 0``, ``y[m, :, :] = 0``, ``x[:, m] = 1.0`` and
        ``x[..., m] = 0`` all build ``NonZero`` (``(4) -> (-1, 1)``) +
        ``TensorScatterUpdate`` (indices and updates of dynamic rank ``(-2)``), the graph
        split in seven kernel graphs. So ``x[mask, :] = 0`` stays reported, saying that the
        mask alone keeps the shape static (:attr:`PendingStore.sliced_mask`).
        A tensor value may hold one row per ``True`` (``x[mask] = y``): still reported, and
        so is an unknown value ``computed`` by a call or an index (``x[keep] = t.cls[idx]``),
        which may be one.

        The same holds of a store through an index tensor of data-dependent length or
        between slice bounds read from data (``pos_mask[pos_idx] = 1``, ``logits[k, a:b] =
        -inf``): a host value fills a region of a tensor whose own shape stays static, so the
        line creates no shape; the index is reported where it was made (DS103, DS108...) and
        a host sync of the bounds as DS118. A tensor value (``classes[idx] = labels``) is
        reported: it must hold one row per index.

        ``same_mask``: the value is read through the mask the store writes through (``x[m] =
        y[m]``, ``x[m] = y[m] * 2``): still reported (as written, MindSpore builds the
        positions, and the read ``y[m]`` has a data-dependent shape at run time), with the
        rewrite whose result is static (:data:`SAME_MASK_STORE`)."""
        pending, self._pending_stores = self._pending_stores, []
        host = value[0] == "nontorch" or (value[0] == "unknown" and not computed)
        quiet = host and (not is_dyn_number(value) or _scalar_read(value))
        for p in pending:
            if quiet and p.host_quiet:
                continue
            why = SLICED_MASK_STORE if quiet and p.sliced_mask else p.why
            if same_mask and p.rule == "DS104":
                why = SAME_MASK_STORE
            said = why == p.why  # the store's words replaced: they say neither fact
            self.hit(
                p.rule,
                p.node,
                p.api,
                why,
                chain=p.chain,
                inherited=p.inherited and said,
                case=p.case if said else "",
            )

    # ---------------------------------------------------------------- control flow
    def on_condition(self, node: cst.CSTNode, test: Val, keyword: str) -> bool:
        """``if``/``while``/``x if c else y`` on a value computed from tensor data."""
        origins = _origins(test)
        if origins and all(id(o) in self._host_reads for o in origins):
            # a branch on numbers of a numpy array: host code, not a branch in a graph, yet
            # what it appends to is as long as data says (kept for the round trip back)
            return True
        if (test[0] == "tensor" and test[1] != "arg") or is_dyn_number(test):
            detail = f"the {keyword} condition reads tensor values"
            length = is_dyn_number(test) and not self.read_from_data(test)
            if length:
                # ``if num_targets:`` with ``num_targets = b.shape[0]`` of a gathered index
                detail = f"the {keyword} condition reads {LENGTH_WORDS}"
            why, chain = self._why(detail, [test])
            self.hit("DS116", node, detail=why, chain=chain, inherited=length)
            return True
        return False

    def enter_if(self, dynamic: bool, body: cst.BaseSuite) -> None:
        """The walk enters an ``if`` (``dynamic``: its condition reads data)."""
        if not dynamic:
            return
        self._data_ifs += 1
        if self._cut_loops and _leaves_loop(body):
            self._cut_loops[-1] = True

    def leave_if(self, dynamic: bool) -> None:
        if dynamic:
            self._data_ifs -= 1

    def enter_loop(self) -> None:
        self._cut_loops.append(False)

    def leave_loop(self) -> None:
        self._cut_loops.pop()

    def conditional(self) -> bool:
        """Does the code being walked run only when tensor data says so (inside a
        data-dependent ``if``, or after one that may skip the rest of the loop body)?"""
        return self._data_ifs > 0 or any(self._cut_loops)

    def on_membership(self, node: cst.CSTNode, item: Val, containers: Sequence[Val] = ()) -> Val:
        """``item in container``: a truth read from tensor data when ``item`` is a number read
        from it (``label.item() in thing_ids``) or the container's extent is
        (``ignore not in range(target.min(), target.max())``), else a host value. A tensor
        itself is looked up by identity in a set or dict (``if p in memo``): no data is
        read."""
        if is_dyn_number(item):
            return item
        if any(_from_tensor_data(c) for c in containers):
            return dyn_number(node)
        return NONTORCH

    def of_sizes(self, result: Val, args: Sequence[Val]) -> Val:
        """What a repository function returns when it is handed the sizes of every element
        of a batch (``largest_per_axis([img.shape for img in images])``) and gives back host
        numbers: an aggregate of them (the largest, a sum), which varies from batch to batch
        like :data:`BATCH_MAX`. A tensor or a known value it returns stays what it is."""
        plain = result[1] if result[0] == "seq" else result
        if (result[0] in ("unknown", "ret") or result in (TENSOR, PTENSOR)) and any(
            _one_elem_sizes(a) for a in args
        ):
            return SIZES_TENSOR  # ``shapes_to_tensor(image_size)``: one image's sizes
        if plain[0] not in ("unknown", "ret", "nontorch") or (plain[0] == "nontorch" and plain[1]):
            return result
        if any(_element_sizes(a) for a in args):
            return ("seq", BATCH_MAX)
        return result

    def on_builtin(self, name: str, node: cst.CSTNode | None, args: Sequence[Val]) -> None:
        """``range(n)``, ``enumerate(x)``, ``zip(a, b)``...: remember whether the number of
        elements they yield is data (see :meth:`on_loop`)."""
        if type(node) is not cst.Call:
            return
        if name == "range":
            bad = [a for a in args if is_dyn_number(a) or (a[0] == "tensor" and a[1] != "arg")]
            counted = [a for a in args if a == SAMPLE_SIZE]
            if counted and not bad:
                self._sample_counted[id(node)] = counted[0]
        elif name in LOOP_THROUGH:
            bad = [
                a
                for a in args
                if is_dyn_tensor(a) or id(a) in self._dyn_lists or sized_by_tensor(a)
            ]
            bad += [v for arg in node.args for v in self._counted.get(id(arg.value), ())]
            if name == "zip" and len(bad) < len(args):
                # zip stops at its shortest argument: beside a sequence of static length
                # (``zip(scores, labels, boxes)`` of one batch) the count is that length
                return
        else:
            return
        if bad:
            self._counted[id(node)] = bad

    def on_builtin_compare(self, name: str, node: cst.Call, tensor: Val) -> None:
        """``max(t, 1)``, ``min(1.0, t)``: Python's builtin compares the tensor with the
        other arguments to choose one, a truth read on the host like an ``if`` (DS116)."""
        detail = (
            f"Python's {name}() compares a tensor with its other arguments on the host to pick "
            "one; torch.clamp keeps the choice in the graph"
        )
        why, chain = self._why(detail, [tensor])
        self.hit("DS116", node, detail=why, chain=chain)

    def on_loop(self, node: cst.BaseExpression, it: Val, keyword: str = "for") -> bool:
        """A loop over ``it`` (written ``node``) whose number of iterations is data: a tensor
        of a data-dependent shape (``for i in keep``, ``enumerate(labels[mask])``) or a
        ``range`` of a number read from tensor data (``range(int(count))``). A graph unrolls
        a loop over a tensor when compiling, so it needs that number ahead of time; iterating
        a static tensor, a per-sample list or a shape-sized ``range`` is fine."""
        dyn = is_dyn_tensor(it) or id(it) in self._dyn_lists or sized_by_tensor(it)
        if id(node) in self._sample_counted and not self.silent():
            # ``for j in range(len(t["boxes"]))``: once per object of one sample
            fn = self.function()
            if fn not in self._sample_used:
                self._sample_used.add(fn)
                self._sample_hit(node, "", f"the {keyword} loop runs once per object of one sample")
            return False
        # ``range(int(count))``: the numbers read from data that count the loop say why (a
        # trip count, and their host sync) better than the range they make
        bad = self._counted.get(id(node)) or ([it] if dyn else [])
        if not bad or _joined_along_another_dim(node):
            return False
        numbers = [
            v
            for v in bad
            if v[0] != "tensor" and id(v) not in self._dyn_lists and not sized_on_host(v)
        ]
        inherited = False
        if numbers:
            words, inherited = self._source_words(numbers)
            what = f"its trip count {words}"
        else:
            what = "it runs once per element of a data-dependent shape"
        detail = f"the {keyword} loop runs a data-dependent number of times: {what}"
        why, chain = self._why(detail, bad)
        self.hit("DS116", node, detail=why, chain=chain, inherited=inherited)
        for v in numbers:
            self._syncs(v, "a loop's trip count")
        return True

    def on_branches(self, node: cst.CSTNode, pairs: Sequence[tuple[Val, Val]]) -> None:
        """A data-dependent ``if`` whose branches give the same name (or the function's
        result) tensors of different shapes: (value in the if branch, value in the other)."""
        for a, b in pairs:
            if a[0] == "tensor" and b[0] == "tensor" and _shape_class(a) != _shape_class(b):
                self.hit("DS117", node, detail="one branch gives a data-dependent shape")
                return

    # ---------------------------------------------------------------- other code
    def on_foreign_call(
        self,
        q: str,
        node: cst.Call,
        args: Sequence[Val],
        keywords: Sequence[str] = (),
        kwvals: Sequence[Val] = (),
    ) -> Val | None:
        """Calls outside torch: torchvision-style NMS, segment ops, random sizes, resizes,
        numpy and scipy on tensor data (:meth:`_host_library_call`)."""
        last = q.rpartition(".")[2]
        if last in NMS_NAMES:
            self.hit("DS108", node, q, "how many boxes survive depends on the scores")
            return DYN_TENSOR
        root = q.partition(".")[0]
        if root in ("numpy", "scipy") and not q.startswith("numpy.random."):
            host = self._host_library_call(q, node, args, kwvals)
            if host is not None:
                return host
        if root == "torch_scatter" and last.startswith(("scatter", "segment")):
            if "dim_size" not in keywords:
                self.hit("DS115", node, q, "without dim_size the output length is max(index)+1")
                return DYN_TENSOR
            return None
        if root == "random" or (q.startswith("numpy.random.") and last in RANDOM_SCALARS):
            if last in ("choice", "choices", "sample") and any(is_variable(a) for a in args):
                self.hit(
                    "DS114",
                    node,
                    q,
                    "sampling from tensor data or with a count read from tensor data",
                )
                return DYN_TENSOR
            if q == "numpy.random.choice" and (len(args) > 1 or "size" in keywords):
                return ARRAY  # ``np.random.choice(n, k)``: k numbers drawn, an array
            return RAND
        if root == "math":
            for a in args:
                if is_dyn_number(a) or a == RAND:
                    return a
        if any(w in last.lower() for w in RESIZE_WORDS):
            sizes = _output_sizes(last, args, keywords, kwvals)
            if any(a == RAND or _any_elem(a, lambda e: e == RAND) for a in sizes):
                self.random_resize(node, q)
            elif isinstance(node, cst.Call) and _resized_to_fixed_size(node):
                # the randomly resized (or cut) image is brought back to one size
                self.on_window(_resized_whole(node))
        return None

    def _host_library_call(
        self, q: str, node: cst.Call, args: Sequence[Val], kwvals: Sequence[Val]
    ) -> Val | None:
        """A numpy or scipy call whose result's length is decided by data on the host
        (:func:`host_dyn`), else None:

        - a function whose output length is read from its input's values (``np.nonzero``,
          ``np.bincount``, ``np.where(cond)``; scipy's solver given tensor data);
        - any call given a size read from tensor data (``np.zeros(int(a.max()) + 1)``,
          ``csr_matrix(..., shape=(int(a.max()) + 1, n))``);
        - numpy carrying such data on (``np.unravel_index(rows, shape)``, ``np.sort``),
          except a reduction to one number (no ``axis``).

        Functions that give one array per dimension (``np.nonzero``) give a tuple of them,
        so ``np.nonzero(m)[0]`` is the first; a sparse matrix built from a size read from
        data has rows of data-dependent lengths too (:func:`host_elem`)."""
        last = q.rpartition(".")[2]
        root = q.partition(".")[0]
        if root == "numpy" and args and _element_sizes(args[0]):
            # ``np.array([int(im.shape[0]) for im in imgs])``: still the sizes of the batch's
            # elements; ``np.max`` of them (``.max()`` on the array, see
            # :func:`sizes_maximum`) is the batch's largest
            if last in ("array", "asarray"):
                return args[0]
            if last in ("max", "amax"):
                return sizes_maximum(args[0], len(args) > 1 or "axis" in _keyword_names(node))
        tensor = any(tensor_derived(v) for v in [*args, *kwvals])
        if root == "numpy" and last in NUMPY_PREDICATES:
            return TENSOR_HOST_MASK if tensor else HOST_MASK
        axis = "axis" in _keyword_names(node) or len(args) > 1
        if root == "numpy" and last == "where" and len(args) != 1:
            return None  # np.where(cond, a, b): the shape of its operands
        if root == "numpy" and last in NUMPY_DATA_LENGTH and _of_python_data([*args, *kwvals]):
            # ``np.intersect1d(list(log.keys()), keys)``: lists of names and config values
            # built in Python, no tensor among them, give a host array (no tensor shape)
            return ("seq", ARRAY) if last in NUMPY_PER_DIM or _returns_tuple(node) else ARRAY
        if (root == "numpy" and last in NUMPY_DATA_LENGTH | {"where"}) or (
            root == "scipy"
            and last in SCIPY_DATA_LENGTH
            and any(v[0] == "tensor" or v == HOST_DATA for v in args)
        ):
            made = host_dyn(node, tensor=tensor)  # a length decided by data, on the host
            # scipy's give tuples (rows and columns, peaks and properties, one array per
            # dimension), as do numpy's per-dimension ones and ``return_*=True``
            if root == "scipy" or last in NUMPY_PER_DIM or _returns_tuple(node):
                return ("seq", made)
            return made
        sizes = list(args) if root == "numpy" and last in NUMPY_SIZED else []
        sizes += [v for k, v in zip(_keyword_names(node), kwvals, strict=False) if k == "shape"]
        if any(_holds_dyn_number(v) for v in sizes):
            # sized by a number read from tensor data: decided from it
            if last in SPARSE_MATRICES:
                return host_dyn(node, host_dyn(node, tensor=True), tensor=True)
            return host_dyn(node, tensor=True)
        carried = next((v for v in args if sized_on_host(v)), None)
        if root != "numpy" or carried is None:
            return None
        if last in NUMPY_REDUCTIONS and not axis:
            return None
        return ("seq", carried) if last in NUMPY_PER_DIM else carried

    def pipeline(
        self,
        node: cst.CSTNode,
        api: str,
        detail: str = RANDOM_RESIZE,
        function: str | None = None,
        chain: tuple[ChainStep, ...] = (),
        case: str = "",
    ) -> None:
        """Variable input shapes from the data pipeline: reported once per function;
        ``case``: which one, when the review tells it apart (:attr:`Hit.case`)."""
        fn = self.function() if function is None else function
        if fn in self._pipeline_reported:
            return
        self._pipeline_reported.add(fn)
        self.hit("DS119", node, api, detail, function=fn, chain=chain, case=case)

    def random_length(self, node: cst.CSTNode) -> None:
        """A slice whose length is drawn at random (``rgbs[s : s + seq_len]`` with
        ``seq_len = np.random.randint(...)``): each sample has its own length, an input
        pipeline of varying shapes where the data pipeline runs it (``data_only``); a random
        start with a fixed length (``x[s : s + 64]``) is a crop of one size and never comes
        here. Reported when the function ends (:meth:`end_function`), unless the function
        brings the sample back to one size afterwards (a resize to a fixed size, a fixed
        crop: :meth:`on_window`) or has a pipeline of every scope already: once per
        function, as :meth:`pipeline` reports."""
        if not self.silent():
            self._last_cut = node
            self._lengths.setdefault(self.function(), node)
            if type(node) is cst.Subscript:
                cut = frozenset(n.value for n in _plain_names(node.value))
                self._sliced[self.function()] = self._sliced.get(self.function(), cut) | cut
            # where the network runs it, the slice is a new length at every step
            detail = f"a slice bound {RANDOM_SIZE.removeprefix('a size ')}"
            self.hits.append(
                Hit("DS109", (node, "s"), (node, "e"), self.function(), GETITEM, detail, (), True)
            )

    def bind_cut(self, value: cst.CSTNode, names: Sequence[str]) -> None:
        """``cropped = image[y : y + h, x : x + w]`` with a random ``h``: the names bound to
        the slice just read hold the cut sample, so a resize of one of them to a size given
        outright (``cv2.resize(cropped, (size, size))``) brings the whole cut back to one
        size, as a resize of the name it was cut from does."""
        if value is not self._last_cut or not names:
            return
        fn = self.function()
        self._sliced[fn] = self._sliced.get(fn, frozenset()) | frozenset(names)

    def restored(self, value: cst.CSTNode, names: Sequence[str]) -> None:
        """``out = F.interpolate(out, size=(h0 // sf, w0 // sf))``: an interpolation to a size
        given outright (read before a random resize, not from the image) whose result
        replaces the image it was given brings that image back to one size. One kept beside
        the randomly resized image (``fixed = F.interpolate(image, size=(320, 320))``, both
        returned) leaves the random size where it was."""
        if value is not self._last_restore:
            return
        whole = _resized_whole(value) if isinstance(value, cst.Call) else ""
        if whole and whole in names:
            self.on_window(whole)

    def reduced(self, value: cst.CSTNode) -> None:
        """The slice just read is reduced to one number at once (``mask[t : t + h, l : l +
        w].sum()``, ``x[s : s + n].mean()``): its random length reaches no sample, so it
        makes no pipeline of varying shape (its DS109, a slice of varying length where the
        network runs it, stays)."""
        if value is not self._last_cut:
            return
        fn = self.function()
        if self._lengths.get(fn) is value:
            del self._lengths[fn]

    def random_resize(
        self,
        node: cst.CSTNode,
        api: str,
        detail: str = RANDOM_RESIZE,
        chain: tuple[ChainStep, ...] = (),
    ) -> None:
        """A resize to a randomly drawn size. Whether the batch shape varies is decided when
        the function ends (:meth:`end_function`): a fixed-size crop read after it (mixup and
        mosaic paste a randomly scaled image and cut the target size back out) keeps the
        output's shape."""
        self._resized.setdefault(self.function(), (node, api, detail, chain))

    def on_window(self, whole: str = "") -> None:
        """A crop of fixed extent was read (``img[y : y + h, x : x + w]`` or ``img[:h, :w]``
        with ``h``, ``w`` not drawn at random nor read from tensor data), or an image was
        resized to a size given outright; ``whole``: the plain name that resize was given
        (``im`` of ``cv2.resize(im, (size, size))``), "" for an element or an expression."""
        fn = self.function()
        # a frame resized in a loop over the frames (``for i in range(len(rgbs)):
        # cv2.resize(rgbs[i], size)``) leaves as many frames as were cut: a random length
        # stays; only a resize or crop of the whole sample brings it back to one size. In
        # a loop, that is a resize of the very array the random slice cut (a random crop
        # retried until it fits, then ``cv2.resize(im, (size, size))``: every sample has
        # that size), not of a loop's element
        whole_cut = bool(whole) and whole in self._sliced.get(fn, frozenset())
        if fn in self._resized or (fn in self._lengths and (not self._cut_loops or whole_cut)):
            self._cropped.add(fn)

    def end_function(self, fn: str) -> None:
        """The walk leaves function ``fn``: report its random resize unless it was cropped
        back to a fixed size afterwards."""
        pending = self._resized.pop(fn, None)
        cropped = fn in self._cropped
        self._cropped.discard(fn)
        if pending is not None and not cropped:
            node, api, detail, chain = pending
            self.pipeline(node, api, detail, function=fn, chain=chain, case=RANDOM_RESIZE)
        sliced = self._lengths.pop(fn, None)
        self._sliced.pop(fn, None)
        if sliced is not None and not cropped and fn not in self._pipeline_reported:
            self._pipeline_reported.add(fn)
            self.hits.append(
                Hit(
                    "DS119",
                    (sliced, "s"),
                    (sliced, "e"),
                    fn,
                    GETITEM,
                    RANDOM_LENGTH,
                    data_only=True,
                )
            )


def _leaves_loop(body: cst.BaseSuite) -> bool:
    """A ``continue`` or ``break`` among the body's own statements (not in a nested loop)."""
    lines = body.body
    for stmt in lines:
        small = stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ()
        if isinstance(body, cst.SimpleStatementSuite):
            small = (stmt,)
        if any(type(s) in (cst.Continue, cst.Break) for s in small):
            return True
    return False


#: Keywords of a resize that scale the input rather than give the output's size.
_SCALE_KEYWORDS = frozenset({"fx", "fy", "scale_factor", "scale"})


#: Resizes that cut a box out first, by the position and the keyword of their output size:
#: the box may be drawn at random (a random-sized crop, ``resized_crop(img, i, j, h, w,
#: size)``), the output has the size given all the same.
CROP_RESIZES: dict[str, tuple[int, str]] = {"resized_crop": (5, "size")}


def _output_sizes(
    name: str, args: Sequence[Val], keywords: Sequence[str], kwvals: Sequence[Val]
) -> list[Val]:
    """The arguments of a resize that can give its output a random size: the output size of
    a crop-and-resize (:data:`CROP_RESIZES`), every positional argument of another resize."""
    where = CROP_RESIZES.get(name)
    if where is None:
        return list(args)
    pos, kw = where
    out = [args[pos]] if len(args) > pos else []
    return out + [v for k, v in zip(keywords, kwvals, strict=False) if k == kw]


def _resized_to_fixed_size(node: cst.Call) -> bool:
    """``cv2.resize(img, (w0 // sf, h0 // sf))`` with ``w0``, ``h0`` read before a random
    resize: an output size given outright (second argument, ``dsize=`` or ``size=``), not a
    scale, that reads nothing of the image being resized, so every output of the function
    has that size whatever size was drawn before (BSRGAN's degradation resizes at random,
    then back to the input size over the scale factor)."""
    positional = [a for a in node.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    if not positional:
        return False
    # the names the image is read through (``img`` of ``img[: int(frac * 100)]``)
    images = {n.value for n in _plain_names(positional[0].value)}
    if not images:
        return False
    if _SCALE_KEYWORDS & keywords.keys() or any(a.star for a in node.args):
        return False
    size = positional[1].value if len(positional) > 1 else None
    size = size if size is not None else keywords.get("dsize", keywords.get("size"))
    if size is None or (type(size) is cst.Name and size.value == "None"):
        return False
    return not any(n.value in images for n in _plain_names(size))


def _resized_whole(node: cst.Call) -> str:
    """The plain name a resize is given as its image (``im`` of ``cv2.resize(im, (s, s))``),
    "" when it is given an element or an expression (``rgbs[i]``, ``img / 255``)."""
    first = next((a.value for a in node.args if a.keyword is None and not a.star), None)
    return first.value if type(first) is cst.Name else ""


def _plain_names(node: cst.CSTNode) -> list[cst.Name]:
    """The names an expression reads, attribute names left out (``frac`` and ``img`` of
    ``img[: int(frac * 100)]``, ``self`` of ``self.size``)."""
    out: list[cst.Name] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.append(n)
        elif type(n) is cst.Attribute:
            stack.append(n.value)
        else:
            stack.extend(children_of(n))
    return out


def names_read(node: cst.Call) -> list[str]:
    """The plain names read in a call's arguments (``int(box[2] - box[0])`` reads ``box``)."""
    out: list[str] = []
    stack: list[cst.CSTNode] = [a.value for a in node.args]
    while stack:
        n = stack.pop()
        if type(n) is cst.Name:
            out.append(n.value)
        elif type(n) in (cst.Subscript, cst.BinaryOperation, cst.UnaryOperation, cst.Index):
            stack.extend(children_of(n))
        elif type(n) is cst.SubscriptElement:
            stack.append(n.slice)
    return out


def _reduced_loss(name: str, node: cst.Call) -> bool:
    """A loss function of ``torch.nn.functional`` (``cross_entropy``, ``l1_loss``...) called
    with its default reduction or a literal one other than ``"none"``: a single number,
    whatever the shapes of its inputs."""
    if name not in ("cross_entropy", "nll_loss", "binary_cross_entropy") and not (
        name.endswith("_loss") or name.startswith("binary_cross_entropy")
    ):
        return False
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == "reduction":
            v = arg.value
            return type(v) is cst.SimpleString and v.evaluated_value != "none"
    return True


def _scalar_read(v: Val) -> bool:
    """A host number read as one scalar (``1.0 / n.item()``, ``float(t)``), not a list
    (``keep.tolist()``, as long as the tensor): stored through a mask it fills the selected
    positions with one value, and the tensor keeps its shape (the read itself is a host
    sync, reported where it sizes something)."""
    origins = _origins(v)
    return bool(origins) and all(
        type(o) is cst.Call
        and (
            _method(o) == "item"
            or (type(o.func) is cst.Name and o.func.value in ("int", "float") and not _method(o))
        )
        for o in origins
    )


def _method(call: cst.Call) -> str:
    """The method a call calls (``x.tolist()``: ``tolist``), "" for a plain call."""
    func = call.func
    return func.attr.value if type(func) is cst.Attribute else ""


def _one_elem_sizes(v: Val) -> bool:
    """The sizes of one element of an iterated sequence: ``(im.shape[-2], im.shape[-1])``,
    ``im.shape[-2:]``."""
    if v in (ELEM_SIZE, SAMPLE_SIZE):
        return True
    if v[0] == "seq":
        return v[1] in (ELEM_SIZE, SAMPLE_SIZE)
    return v[0] == "tuple" and bool(v[1]) and all(e in (ELEM_SIZE, SAMPLE_SIZE) for e in v[1])


def _size_args(
    name: str,
    recv: Val | None,
    args: Sequence[Val],
    kwargs: dict[str, Val],
    starred: bool = False,
) -> tuple[str, list[Val]] | None:
    """The rule of op ``name`` for a varying size (:data:`SIZE_ARGS`) and the arguments it
    reads as sizes; None for an op taking no size. ``starred``: a positional argument is
    unpacked (``img.new(*batch_shape)``: the tuple's elements are the sizes)."""
    spec = SIZE_ARGS.get(name)
    if spec is None or (name[:1].isupper() and (recv is not None or _legacy_data(args))):
        return None  # ``torch.LongTensor([3, 4])``: data, not sizes
    if name == "new" and (recv is None or not (starred or (args and not _legacy_data(args)))):
        return None  # ``img.new([0.5, 1.0])``, ``img.new(t)``: data, not sizes
    rule, positions, keywords = spec
    # Functions take the input tensor first (torch.topk(x, k)); methods and factories
    # (torch.zeros(n)) do not.
    # (the legacy typed constructors given sizes neither: ``torch.FloatTensor(n, 80)``)
    factory = name in FACTORIES or name[:1].isupper()
    offset = 1 if recv is None and not factory else 0
    rest = list(args[offset:])
    chosen = rest if positions is None else [rest[i] for i in positions if i < len(rest)]
    if name in LAST_IS_SIZE and len(rest) >= 2:
        chosen.append(rest[-1])
    chosen += [kwargs[k] for k in keywords if k in kwargs]
    return rule, chosen


def _legacy_data(args: Sequence[Val]) -> bool:
    """Whether a legacy typed constructor is given data (a list, a tuple, an array or a
    tensor) rather than sizes (numbers): ``torch.FloatTensor([0.5])``. Data comes as the one
    argument: given two or more, every argument is a size, whatever the walk made of it
    (``torch.FloatTensor(len(batch), n_mels, max_len)`` with ``n_mels`` read off a sample)."""
    if len(args) != 1:
        return not args
    a = args[0]
    return a[0] in ("seq", "tuple", "tensor") or a[1] == "array"


def _batch_max(v: Val) -> bool:
    """A size that is the batch maximum (a host number or a tensor holding it), or a shape
    holding one."""
    return v in (BATCH_MAX, BATCH_MAX_TENSOR) or _any_elem(
        v, lambda e: e in (BATCH_MAX, BATCH_MAX_TENSOR)
    )


#: torch functions making one tensor of host numbers or of a list of tensors.
SIZES_MAKERS = frozenset({"as_tensor", "tensor", "LongTensor", "IntTensor", "Tensor", "stack"})


def _batch_sizes(
    name: str, recv: Val | None, args: Sequence[Val], kwargs: dict[str, Val], result: Val
) -> Val | None:
    """The sizes of a batch's elements held in a tensor (:data:`SIZES_TENSOR`), the largest
    of them along the batch (:data:`BATCH_MAX_TENSOR`), and what arithmetic on it keeps; None
    for any other call."""
    if recv is None and name in SIZES_MAKERS and args:
        first = args[0]
        if _element_sizes(first) or _one_elem_sizes(first) or _any_elem(first, SIZES_TENSOR.__eq__):
            return SIZES_TENSOR
        return None
    source = recv if recv is not None else (args[0] if args else None)
    if source == SIZES_TENSOR and name in ("max", "amax"):
        return BATCH_MAX_TENSOR  # ``torch.stack(sizes).max(0)``: the batch's largest size
    if source == SIZES_TENSOR and name == "sort":
        # ``lengths, order = torch.sort(torch.LongTensor([len(x) for x in batch]), ...)``:
        # the sorted values are still the batch's sizes (their end is its largest, below)
        return ("tuple", (SIZES_TENSOR, TENSOR))
    if recv == BATCH_MAX_TENSOR and result[0] == "tensor" and name not in ("item", "tolist"):
        return BATCH_MAX_TENSOR  # ``(max_size + 31).div(32, rounding_mode="floor")``
    return None


def sizes_maximum(sizes: Val, per_axis: bool) -> Val:
    """The largest of the sizes of a batch's elements (``np.max(widths)``,
    ``np.array(shapes).max(0)``): the batch maximum, one per axis with ``per_axis``."""
    if per_axis and sizes[1] not in (ELEM_SIZE, SAMPLE_SIZE):
        return ("seq", BATCH_MAX)
    return BATCH_MAX


def element_sizes(v: Val) -> bool:
    """A sequence of the shapes (or sizes) of the elements of an iterated sequence."""
    return _element_sizes(v)


def _element_sizes(v: Val) -> bool:
    """A sequence of the shapes (or sizes) of the elements of an iterated sequence."""
    if v[0] != "seq":
        return False
    return _one_elem_sizes(v[1])


def _holds_dyn(v: Val) -> bool:
    """A list of data-dependent tensors, or a dict (or a list of dicts) holding one."""
    if v[0] == "seq":
        return is_dyn_tensor(v[1]) or _holds_dyn(v[1])
    if v[0] == "dict":
        return any(is_dyn_tensor(e) for _, e in v[1])
    return False


def _keyword_names(node: cst.Call) -> list[str]:
    """A call's keywords in order (the order of the walk's keyword values)."""
    return [a.keyword.value for a in node.args if a.keyword is not None]


def _holds_dyn_number(v: Val, depth: int = 0) -> bool:
    """A number read from tensor data, or a tuple or list holding one (``shape=(n, m)``)."""
    if is_dyn_number(v):
        return True
    if depth > 3:
        return False
    if v[0] == "tuple":
        return any(_holds_dyn_number(e, depth + 1) for e in v[1])
    if v[0] == "seq":
        return _holds_dyn_number(v[1], depth + 1)
    return False


def _returns_tuple(node: cst.Call) -> bool:
    """``nonzero(as_tuple=True)``, ``unique(..., return_counts=True)``: a tuple of tensors."""
    for arg in node.args:
        kw = arg.keyword
        if kw is not None and (kw.value == "as_tuple" or kw.value.startswith("return_")):
            v = arg.value
            if not (isinstance(v, cst.Name) and v.value == "False"):
                return True
    return False


def _joins_first_dim(node: cst.Call) -> bool:
    """``torch.cat(xs)`` / ``torch.cat(xs, 0)`` / ``dim=0``: per-sample lengths live in the
    first dimension (boxes per image); a join along another one keeps them apart."""
    for i, arg in enumerate(node.args):
        if (arg.keyword is None and i == 1) or (
            arg.keyword is not None and arg.keyword.value in ("dim", "axis")
        ):
            v = arg.value
            return isinstance(v, cst.Integer) and v.value == "0"
    return True


def _joined_along_another_dim(node: cst.BaseExpression) -> bool:
    """``cat(levels, dim=1)``: iterating it walks the first dimension of its parts (the batch
    of per-level outputs), not the joined one that may vary."""
    if type(node) is not cst.Call:
        return False
    func = node.func
    name = func.attr.value if type(func) is cst.Attribute else getattr(func, "value", "")
    return name in JOIN_NAMES and not _joins_first_dim(node)


def _call_text(node: object) -> str:
    """``linear_sum_assignment(...)``: the callee of a call node, for the words of a finding."""
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute):
            return f"{func.attr.value}(...)"
        if isinstance(func, cst.Name):
            return f"{func.value}(...)"
    site = getattr(node, "site", None)  # a solver fact: the host call made in another function
    text = getattr(site, "text", "") if site is not None else ""
    if text:
        callee = re.match(r"^[\w.]+(?=\()", text)
        return f"{callee.group(0).rpartition('.')[2]}(...)" if callee else text
    if isinstance(node, cst.BinaryOperation):
        return SIZED_LIST
    if isinstance(node, cst.Subscript):  # ``pairs[np.logical_not(m)]``: a mask's selection
        code = " ".join(cst.Module([]).code_for_node(node).split())
        return code if len(code) <= 60 else code[:57] + "..."
    if isinstance(node, cst.CSTNode):
        return "a list filtered on tensor values"
    return ""


def _mask_then_full_slices(node: cst.Subscript, mask_first: bool) -> bool:
    """``x[mask, :]``, ``x[mask, ...]``, ``x[mask, :, :]``: the mask (``mask_first``: the
    first index is the mask) then nothing but whole dimensions, so ``x[mask]`` means the
    same."""
    first, *rest = node.slice
    if not mask_first or type(first.slice) is not cst.Index:
        return False
    for el in rest:
        s = el.slice
        if type(s) is cst.Slice:
            if s.lower is not None or s.upper is not None or s.step is not None:
                return False
        elif not (type(s) is cst.Index and type(s.value) is cst.Ellipsis):
            return False
    return True


def _indexed_dim(node: cst.Subscript) -> int | None:
    """The dimension a mask or index selects in ``x[:, mask]`` (1), when plain slices are all
    that come before it; None when integers, None or ``...`` make it unclear."""
    for i, el in enumerate(node.slice):
        s = el.slice
        if isinstance(s, cst.Index):
            v = s.value
            if isinstance(v, cst.Ellipsis | cst.Integer) or (
                isinstance(v, cst.Name) and v.value == "None"
            ):
                return None
            return i
    return None


def _sliced_dim(node: cst.Subscript) -> int | None:
    """The dimension that ``x[:, :, :n]`` cuts with a bound that is not a literal (2), when
    it is the only such slice and plain slices are all that come before it; None otherwise
    (an integer, ``None`` or ``...`` before it moves the dimensions)."""
    dims = [i for i, el in enumerate(node.slice) if _named_bound(el.slice)]
    if len(dims) != 1:
        return None
    before = node.slice[: dims[0]]
    return dims[0] if all(isinstance(el.slice, cst.Slice) for el in before) else None


def _named_bound(s: cst.BaseSlice) -> bool:
    """A slice with a bound or a step that is not a literal integer (``:n``, ``i : i + k``)."""
    if not isinstance(s, cst.Slice):
        return False
    for part in (s.lower, s.upper, s.step):
        if part is None or isinstance(part, cst.Integer):
            continue
        if isinstance(part, cst.UnaryOperation) and isinstance(part.expression, cst.Integer):
            continue
        return True
    return False


def _flattens(node: cst.Call) -> bool:
    """``x.flatten()``, ``x.ravel()``, ``x.view(-1)``, ``x.reshape(-1)``: a 1-D result."""
    func = node.func
    if type(func) is not cst.Attribute:
        return False
    name = func.attr.value
    if name in ("flatten", "ravel"):
        return not node.args
    if name in ("view", "reshape") and len(node.args) == 1 and node.args[0].keyword is None:
        v = node.args[0].value
        return (
            type(v) is cst.UnaryOperation
            and type(v.operator) is cst.Minus
            and type(v.expression) is cst.Integer
            and v.expression.value == "1"
        )
    return False


def _reduced_dim(node: cst.Call) -> int | None:
    """The literal, non-negative ``dim`` a reduction method is called with (``x.argmax(0)``,
    ``x.sum(dim=1)``), else None."""
    for i, arg in enumerate(node.args):
        if (arg.keyword is None and i == 0) or (
            arg.keyword is not None and arg.keyword.value == "dim"
        ):
            v = arg.value
            return int(v.value) if isinstance(v, cst.Integer) else None
    return None


def _classes_text(node: cst.Call) -> str:
    """The ``num_classes`` argument of a ``one_hot`` call as written (keyword, else the second
    positional argument), on one line and at most 60 characters; "" when it is not passed."""
    for i, arg in enumerate(node.args):
        if (arg.keyword is not None and arg.keyword.value == "num_classes") or (
            arg.keyword is None and i == 1
        ):
            code = " ".join(cst.Module([]).code_for_node(arg.value).split())
            return code if len(code) <= 60 else code[:57] + "..."
    return ""


def _minus_one_classes(node: cst.Call) -> bool:
    """``one_hot(t, num_classes=-1)`` (or ``-1`` as second argument): the default, inferred."""
    for i, arg in enumerate(node.args):
        if (arg.keyword is not None and arg.keyword.value == "num_classes") or (
            arg.keyword is None and i == 1
        ):
            v = arg.value
            return (
                isinstance(v, cst.UnaryOperation)
                and isinstance(v.operator, cst.Minus)
                and isinstance(v.expression, cst.Integer)
                and v.expression.value == "1"
            )
    return False


#: Tensor methods and functions whose result has their (broadcast) input's shape.
KEEPS_SHAPE = frozenset(
    {"contiguous", "float", "double", "half", "bfloat16", "long", "int", "bool", "to", "type_as"}
    | {"clone", "detach", "cpu", "cuda", "abs", "neg", "exp", "exp2", "log", "sqrt", "square"}
    | {"sigmoid", "relu", "tanh", "clamp", "clamp_", "clamp_min", "clamp_max", "pow", "div"}
    | {"mul", "add", "sub", "div_", "mul_", "add_", "sub_", "masked_fill", "masked_fill_"}
    | {"minimum", "maximum", "where", "max", "min"}
)


#: Ops whose size arguments are the output's shape, one dimension each.
_SHAPE_GIVING = frozenset(
    {"view", "reshape", "expand", "new_zeros", "new_ones", "new_empty", "new_full"}
    | {"zeros", "ones", "empty", "full", "rand", "randn"}
)


def _infers_a_size(node: cst.Call) -> bool:
    """Whether a shape given to ``view``/``reshape``/``expand`` leaves a size to infer or
    keep (a ``-1``, or sizes not written out: ``x.view(shape)``, ``x.view(*dims)``)."""

    def minus_one(e: cst.BaseExpression) -> bool:
        return (
            type(e) is cst.UnaryOperation
            and type(e.operator) is cst.Minus
            and type(e.expression) is cst.Integer
        )

    for arg in node.args:
        if arg.star:
            return True
        v = arg.value
        if type(v) in (cst.Tuple, cst.List):
            if any(type(el) is cst.StarredElement or minus_one(el.value) for el in v.elements):
                return True
        elif minus_one(v) or (
            len(node.args) == 1 and type(v) in (cst.Name, cst.Attribute, cst.Call, cst.Subscript)
        ):
            return True  # ``x.view(shape)``: one name holding the whole shape
    return False


def _sized_dim(name: str, chosen: Sequence[Val]) -> int | None:
    """The dimension of a shape-giving op's output that its one variable size sets
    (``x.view(1, n, 4)``: 1; ``x.new_zeros((b, n))``: 1); None when there are more or the
    sizes are not spelt out one by one."""
    if name not in _SHAPE_GIVING:
        return None
    sizes = list(chosen)
    if len(sizes) == 1 and sizes[0][0] == "tuple":
        sizes = list(sizes[0][1])
    elif len(sizes) == 1 and sizes[0][0] == "seq":
        return None
    variable = [i for i, v in enumerate(sizes) if is_variable(v)]
    return variable[0] if len(variable) == 1 else None


def _kept_dim(node: cst.Subscript, varying: int | None) -> int | None:
    """Where the varying dimension ``varying`` is in ``x[...]`` read with full slices and
    integers only (``boxes[:, :, 2]`` keeps dimension 1 where it was); -1 when an integer
    picks one element of it; None when it cannot be told."""
    if varying is None:
        return None
    removed = 0
    for i, el in enumerate(node.slice):
        s = el.slice
        if type(s) is cst.Index and type(s.value) is cst.Integer:
            if i == varying:
                return -1
            removed += int(i < varying)
        elif type(s) is cst.Slice:
            if i == varying and (s.lower is not None or s.upper is not None):
                return None  # a cut of the varying dimension: another length still
        else:
            return None
    return varying - removed


def _dyn_like(result: Val) -> Val:
    if result[0] == "seq":
        return ("seq", DYN_TENSOR)
    return DYN_TENSOR


def _shape_class(v: Val) -> str:
    return "dyn" if is_dyn_tensor(v) else "static"


def merge_numbers(a: Val, b: Val) -> Val | None:
    """Arithmetic on host numbers keeps their data dependence (``k = n.item() + 1``), and a
    batch maximum or one sample's size stays one (``max_h + 31``)."""
    for v in (a, b):
        if is_dyn_number(v):
            return v
    for const in (RAND, BATCH_MAX, SAMPLE_SIZE, ELEM_SIZE):
        if const in (a, b):
            return const
    return None


def as_any(v: Any) -> Val:
    return v  # type: ignore[no-any-return]


class NullShapeTracker(ShapeTracker):
    """The tracker when dynamic-shape analysis is off (``--no-dynamic-shape``): every hook
    hands the value back untouched, so the scan costs what the API analysis alone costs."""

    def on_torch_call(
        self,
        api: str,
        node: cst.Call,
        recv: Val | None,
        args: Sequence[Val],
        kwargs: dict[str, Val],
        result: Val,
    ) -> Val:
        return result

    def on_guessed_call(self, api: str, node: cst.Call, result: Val) -> Val | None:
        return None

    def on_sync(self, node: cst.CSTNode, source: Val) -> Val:
        return NONTORCH

    def on_host_read(self, node: cst.CSTNode) -> Val:
        return NONTORCH

    def unbranched(self, node: cst.CSTNode) -> None:
        return None

    def collect(self, held: Val, added: Val) -> Val | None:
        return None

    def keep_collections(self, names: dict[str, Val], paths: Sequence[dict[str, Val]]) -> None:
        return None

    def size_read(self, node: cst.CSTNode, source: Val) -> Val:
        return NONTORCH

    def shape_of(self, node: cst.CSTNode, source: Val) -> Val:
        return ("seq", NONTORCH)

    def on_subscript(
        self,
        node: cst.Subscript,
        recv: Val,
        indexes: Sequence[Val],
        bounds: Sequence[Val],
        store: bool,
        scalar_first: bool = False,
    ) -> Val | None:
        return None

    def sample(self, v: Val, strong: bool | int) -> Val:
        return v

    def relay(self, sources: Sequence[Val], out: Val) -> Val:
        return out

    def on_condition(self, node: cst.CSTNode, test: Val, keyword: str) -> bool:
        return False

    def on_membership(self, node: cst.CSTNode, item: Val, containers: Sequence[Val] = ()) -> Val:
        return NONTORCH

    def enter_if(self, dynamic: bool, body: cst.BaseSuite) -> None:
        return None

    def leave_if(self, dynamic: bool) -> None:
        return None

    def enter_loop(self) -> None:
        return None

    def leave_loop(self) -> None:
        return None

    def conditional(self) -> bool:
        return False

    def of_sizes(self, result: Val, args: Sequence[Val]) -> Val:
        return result

    def on_builtin(self, name: str, node: cst.CSTNode | None, args: Sequence[Val]) -> None:
        return None

    def on_builtin_compare(self, name: str, node: cst.Call, tensor: Val) -> None:
        return None

    def on_loop(self, node: cst.BaseExpression, it: Val, keyword: str = "for") -> bool:
        return False

    def on_branches(self, node: cst.CSTNode, pairs: Sequence[tuple[Val, Val]]) -> None:
        return None

    def on_foreign_call(
        self,
        q: str,
        node: cst.Call,
        args: Sequence[Val],
        keywords: Sequence[str] = (),
        kwvals: Sequence[Val] = (),
    ) -> Val | None:
        return None

    def on_window(self, whole: str = "") -> None:
        return None

    def bind_cut(self, value: cst.CSTNode, names: Sequence[str]) -> None:
        return None

    def reduced(self, value: cst.CSTNode) -> None:
        return None

    def restored(self, value: cst.CSTNode, names: Sequence[str]) -> None:
        return None

    def end_function(self, fn: str) -> None:
        return None
