"""The small type lattice the extractor infers for every expression.

Deciding whether ``x.view(...)`` is ``torch.Tensor.view`` (or a numpy call, or a user method)
needs to know what ``x`` holds. A full type checker is far too slow for a scanner, so values are
tagged with one of a handful of kinds, as plain tuples (cheap to create and compare):

- ``("qual", "torch.nn.Conv2d")``: a name bound to an importable thing (module, class, function).
- ``("tensor", certain)``: a tensor; ``certain`` is False when only guessed from a method name.
- ``("inst", "torch.optim.SGD")``: an instance of a torch class or of a class in the scanned
  repository (``("inst", "tinydet.model.Detector")``).
- ``("seq", elem)``: a list/tuple/iterator whose elements are ``elem``.
- ``("tuple", (v1, v2, ...))``: a fixed tuple whose element kinds are known.
- ``("class", qualname)`` / ``("func", qualname)``: classes and functions defined in the repo.
- ``("dict", ((key, val), ...))``: a dict literal with constant string keys; the key ``None``
  stands for every other key (``model.state_dict()`` maps any name to a tensor).
- ``("nontorch", None)``: known not to be a torch object (str, number, dict...);
  ``("nontorch", "array")`` for numpy-like arrays, whose slices and methods stay arrays.
- ``("unknown", None)``: anything else.
"""

from __future__ import annotations

from typing import Any

Val = tuple[str, Any]

UNKNOWN: Val = ("unknown", None)
NONTORCH: Val = ("nontorch", None)
#: A numpy/OpenCV/PIL array: slicing and its methods give arrays again, never tensors.
ARRAY: Val = ("nontorch", "array")
TENSOR: Val = ("tensor", True)
#: An argument of ``forward``: a tensor for method owners (certain), but it may be an int
#: (``forward(self, x, H, W)``), so shape rules do not treat it or arithmetic on it as data.
ARG_TENSOR: Val = ("tensor", "arg")
PTENSOR: Val = ("tensor", False)
SIZE: Val = ("seq", NONTORCH)
#: ``model.state_dict()``: names → tensors (``for k, v in sd.items(): v.dtype``, ``sd[k]``).
TENSOR_DICT: Val = ("dict", ((None, TENSOR),))
BUILTIN = "builtin"


def qual(name: str) -> Val:
    return ("qual", name)


def seq(elem: Val) -> Val:
    return ("seq", elem)


def inst(cls: str) -> Val:
    return ("inst", cls)


def is_tensor(v: Val) -> bool:
    return v[0] == "tensor"


#: torch's data-parallel wrappers: an instance runs the module it wraps (its ``forward`` is
#: the module's), so a name that holds either (``if ddp: model = DDP(model)``) is the model.
_PARALLEL_WRAPPERS = frozenset(
    {
        "torch.nn.DataParallel",
        "torch.nn.parallel.DataParallel",
        "torch.nn.parallel.data_parallel.DataParallel",
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
    }
)


def wrapped_model(a: Val, b: Val) -> Val | None:
    """``b`` when ``a`` is a data-parallel wrapper's instance and ``b`` an instance of one of
    the repository's classes (the model it wraps on the other branch), else None."""
    repo_instance = b[0] == "inst" and isinstance(b[1], str) and not b[1].startswith("torch.")
    if a[0] == "inst" and a[1] in _PARALLEL_WRAPPERS and repo_instance:
        return b
    return None


def join(a: Val, b: Val) -> Val:
    """The value of ``a if c else b``: what both branches agree on, else unknown. A model
    on one branch and the data-parallel wrapper around it on the other is the model."""
    if a == b:
        return a
    unwrapped = wrapped_model(a, b) or wrapped_model(b, a)
    if unwrapped is not None:
        return unwrapped
    if a[0] == "tensor" and b[0] == "tensor":
        # nonzero() on one path, a static tensor on the other: the result may be dynamic
        return ("tensor", "dyn") if "dyn" in (a[1], b[1]) else PTENSOR
    if a[0] == "nontorch" and b[0] == "nontorch":
        return NONTORCH
    return UNKNOWN


def element(v: Val) -> Val:
    """What iterating over (or unpacking, or indexing into) a value yields."""
    kind = v[0]
    if kind == "tensor":
        return v
    if kind == "nontorch" and (isinstance(v[1], tuple) or v[1] == "array"):
        # an element of a list read from tensor data is data too; one of an array (or of a
        # numpy function's tuple of arrays: ``d, v = np.linalg.eigh(c)``) an array
        return v
    if kind == "seq":
        return v[1]  # type: ignore[no-any-return]
    if kind == "tuple":
        elems = v[1]
        if elems and all(e == elems[0] for e in elems):
            return elems[0]  # type: ignore[no-any-return]
        return UNKNOWN
    return UNKNOWN


#: Top-level packages whose calls never return torch objects. Used to keep numpy/OpenCV/PIL
#: arrays, whose methods share names with Tensor's (reshape, transpose, sum, copy...), out of the
#: Tensor findings.
NON_TORCH_PACKAGES: frozenset[str] = frozenset(
    {
        "numpy",
        "cv2",
        "PIL",
        "math",
        "random",
        "os",
        "sys",
        "json",
        "re",
        "time",
        "datetime",
        "collections",
        "itertools",
        "functools",
        "pathlib",
        "glob",
        "shutil",
        "pickle",
        "argparse",
        "logging",
        "yaml",
        "csv",
        "copy",
        "string",
        "subprocess",
        "scipy",
        "pandas",
        "matplotlib",
        "sklearn",
        "skimage",
        "imageio",
        "tqdm",
        "h5py",
        "io",
        "typing",
        "warnings",
        "inspect",
        "hashlib",
        "platform",
        "socket",
        "struct",
        "uuid",
        "tempfile",
        "zipfile",
        "tarfile",
        "base64",
        "operator",
        "pycocotools",
        "lmdb",
        "albumentations",
        "loguru",
        "tabulate",
        "termcolor",
        "easydict",
        "omegaconf",
        # attribute-access dicts (a solver's networks and optimizers in a ``Munch``)
        "munch",
        "addict",
        "attrdict",
        "jieba",
        "nltk",
        "sentencepiece",
        "tokenizers",
        "sacrebleu",
        "regex",
        "unicodedata",
    }
)

#: Modules of third-party classes that are not torch's though they hold tensors and share
#: method names with them (detectron2's ``Boxes.scale``/``clip``/``area``, ``Instances.to``):
#: an instance's methods are never torch's.
NON_TORCH_CLASS_MODULES: tuple[str, ...] = (
    "detectron2.structures.",
    "mmengine.structures.",
    "mmdet.structures.",
)


def is_non_torch_class(q: str) -> bool:
    """``detectron2.structures.Boxes`` and the like (see :data:`NON_TORCH_CLASS_MODULES`)."""
    return q.startswith(NON_TORCH_CLASS_MODULES) and q.rpartition(".")[2][:1].isupper()


#: Packages whose functions return numpy-like arrays. pandas is one: a DataFrame's columns,
#: rows and methods (``df["id"].unique()``) are frames, series or arrays, never tensors, as
#: an array's are (a dict, by contrast, may hold tensors, so a plain non-torch value's items
#: stay unknown).
ARRAY_PACKAGES: frozenset[str] = frozenset(
    {"numpy", "cv2", "PIL", "scipy", "skimage", "imageio", "h5py", "pycocotools", "pandas"}
)

#: Non-torch functions that hand back (a copy of) what they were given, which may be torch.
PASS_THROUGH: frozenset[str] = frozenset(
    {
        "copy.copy",
        "copy.deepcopy",
        "random.choice",
        "random.sample",
        "functools.reduce",
        "functools.partial",
        "itertools.chain",
        "operator.itemgetter",
        "operator.attrgetter",
    }
)

#: Builtins whose result is never a torch object.
NON_TORCH_BUILTINS: frozenset[str] = frozenset(
    {
        "len",
        "int",
        "float",
        "str",
        "bool",
        "bytes",
        "repr",
        "format",
        "range",
        "dict",
        "set",
        "frozenset",
        "isinstance",
        "issubclass",
        "hasattr",
        "callable",
        "print",
        "open",
        "id",
        "hash",
        "ord",
        "chr",
        "hex",
        "oct",
        "bin",
        "type",
        "input",
        "round",
        "divmod",
        "all",
        "any",
        "vars",
        "dir",
        "globals",
        "locals",
        "object",
        "Exception",
        "ValueError",
        "TypeError",
        "KeyError",
        "RuntimeError",
        "NotImplementedError",
        "AssertionError",
        "memoryview",
        "bytearray",
        "complex",
    }
)

#: Builtins that return a sequence of their argument's elements.
SEQ_BUILTINS: frozenset[str] = frozenset({"list", "tuple", "sorted", "reversed", "iter"})

BUILTIN_NAMES: frozenset[str] = (
    NON_TORCH_BUILTINS
    | SEQ_BUILTINS
    | frozenset(
        {
            "enumerate",
            "zip",
            "map",
            "filter",
            "sum",
            "min",
            "max",
            "abs",
            "getattr",
            "setattr",
            "super",
            "next",
            "staticmethod",
            "classmethod",
            "property",
            "slice",
            "iter",
            "exec",
            "eval",
        }
    )
)


def split_top(text: str) -> list[str]:
    """``text`` split at its commas outside brackets (``"Tensor, Dict[str, str], int"`` →
    three parts, unstripped): the elements of a type written as text, an annotation's or a
    documented return's. An empty text has no part."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    tail = text[start:]
    if tail.strip() or parts:
        parts.append(tail)
    return parts
