"""Who owns a method: ``x.step()`` is ``torch.optim.Optimizer.step`` or a scheduler's or nobody's.

Getting the owner right is the hard part of a PyTorch API scan. The extractor infers what a
receiver holds (see :mod:`apiscan.resolve.values`); this module turns (receiver, attribute) into
the public API name, the confidence, and what the access yields, so inference can continue down a
chain like ``x.view(n, -1).permute(0, 2, 1).contiguous()``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from apiscan.resolve.values import (
    NONTORCH,
    PTENSOR,
    SIZE,
    TENSOR,
    TENSOR_DICT,
    UNKNOWN,
    Val,
    inst,
    seq,
    split_top,
)

if TYPE_CHECKING:
    from apiscan.resolve.torch_api import TorchApi

#: The legacy autograd wrapper: since torch 0.4 ``Variable(t)`` hands back ``t`` itself (a
#: tensor of the same shape, dtype and values; ``volatile`` / ``requires_grad`` aside).
VARIABLE_CLASSES: frozenset[str] = frozenset(
    {"torch.autograd.Variable", "torch.autograd.variable.Variable"}
)
#: Classes whose instances are tensors: ``torch.ByteTensor(storage)`` (the legacy typed
#: constructors, CPU and CUDA) builds one whose ``view``/``reshape`` sizes matter like any other.
_TYPED = ("Float", "Double", "Half", "BFloat16", "Byte", "Char", "Short", "Int", "Long", "Bool")
TENSOR_CLASSES: frozenset[str] = (
    frozenset({"torch.Tensor", "torch.nn.Parameter"})
    | VARIABLE_CLASSES
    | {f"torch.{t}Tensor" for t in _TYPED}
    | {f"torch.cuda.{t}Tensor" for t in _TYPED}
)
TENSOR_ATTRS_TENSOR: frozenset[str] = frozenset(
    {"data", "grad", "T", "mT", "H", "mH", "real", "imag"}
)
MODULE_TENSOR_ATTRS: frozenset[str] = frozenset(
    {"weight", "bias", "running_mean", "running_var", "in_proj_weight", "in_proj_bias"}
)

#: Method names of builtin str/bytes/list/dict/set objects. On a receiver of unknown type a call
#: like ``parts.split(",")`` or ``d.values()`` is far more likely one of these than a Tensor
#: method, so such names are reported only on receivers known to be tensors. Names shared with
#: numpy arrays (reshape, sum, transpose...) are still reported, as ``probable``.
AMBIGUOUS_UNKNOWN: frozenset[str] = frozenset(
    name for t in (str, bytes, list, dict, set) for name in dir(t) if not name.startswith("_")
)

#: Hints from a receiver's variable name, used only to pick between owners of an ambiguous
#: method name on a receiver of unknown type (``sched.step()`` vs ``opt.step()``).
_NAME_HINTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("sched", "lr_"), "scheduler"),
    (("optim", "opt"), "optimizer"),
    (
        (
            "model",
            "net",
            "module",
            "backbone",
            "head",
            "neck",
            "encoder",
            "decoder",
            "ema",
            "layer",
            "block",
            "conv",
            "classifier",
        ),
        "module",
    ),
    (("scaler",), "scaler"),
)

#: nn.Module methods whose names are common verbs on other objects (``trainer.train()``,
#: ``pool.apply(f)``, ``self.exp.eval(...)``): on a receiver of unknown type they are
#: reported only when its name says it is a module (``model.train()``). ``x.forward(y)`` is
#: a module's whatever the name.
GENERIC_MODULE_METHODS: frozenset[str] = frozenset({"train", "eval", "apply"})

#: nn.Module methods that return the module itself (``model = Net().to(device).eval()``).
SELF_RETURNING: frozenset[str] = frozenset(
    {
        "to",
        "cuda",
        "cpu",
        "train",
        "eval",
        "half",
        "float",
        "double",
        "bfloat16",
        "requires_grad_",
        "apply",
        "type",
        "to_empty",
        "share_memory",
    }
)

ROOTS: dict[str, str] = {
    "tensor": "torch.Tensor",
    "module": "torch.nn.Module",
    "optimizer": "torch.optim.Optimizer",
    "scheduler": "torch.optim.lr_scheduler.LRScheduler",
    "scaler": "torch.amp.GradScaler",
    "dataloader": "torch.utils.data.DataLoader",
}


#: numpy spellings torch's argument parser accepts for its own (``x.sum(axis=0)`` is
#: ``x.sum(dim=0)``): not evidence against a Tensor method that takes the torch name.
NUMPY_ALIASES: dict[str, str] = {"axis": "dim", "keepdims": "keepdim"}

#: Keywords of Tensor-method overloads the index (one signature per method) does not list.
OVERLOAD_KEYWORDS: frozenset[str] = frozenset({"unbiased", "as_tuple", "out"})


class Owners:
    """Member resolution against the torch API index, with per-process memoisation."""

    def __init__(self, api: TorchApi) -> None:
        self.api = api
        self._role = lru_cache(maxsize=None)(self._role_uncached)
        self._tensor_keywords: frozenset[str] | None = None
        #: attribute -> the roles (:data:`ROOTS`) whose class has a member of that name
        self._roles: dict[str, tuple[str, ...]] = {}

    def prepare(self) -> None:
        """Fill now the table that the first call with keywords on a Tensor method would
        (every parameter name of every Tensor method, ~8 ms): a scan does it before forking
        its workers, which then share it instead of each building it for its first file."""
        if self._tensor_keywords is None:
            self._tensor_keywords = self._all_tensor_keywords()

    def rejects(self, api_name: str, keywords: tuple[str, ...]) -> bool:
        """Whether a call passing ``keywords`` cannot be torch method ``api_name``: a keyword
        the method does not take, that is no numpy alias of one it takes, and that no Tensor
        method takes at all (``arr.repeat(2, axis=0)``: numpy's; ``img.resize(size,
        resample=...)``: PIL's). Strong evidence that the receiver is not what it was taken
        for, even when it was taken for a tensor with certainty."""
        if not keywords or not api_name.startswith("torch.Tensor."):
            return False
        params = self.api.params(api_name)
        if params is None or any(kind == "var_kw" for _, kind, _ in params):
            return False
        names = {name for name, _, _ in params}
        if self._tensor_keywords is None:
            self._tensor_keywords = self._all_tensor_keywords()
        return any(
            k not in names and NUMPY_ALIASES.get(k) not in names and k not in self._tensor_keywords
            for k in keywords
        )

    def _all_tensor_keywords(self) -> frozenset[str]:
        """Every parameter name of every Tensor method, with the overload keywords; the numpy
        spellings are left out even where a method takes them by that name."""
        names = set(OVERLOAD_KEYWORDS)
        for api_name in self.api.classes_members("torch.Tensor"):
            for name, _, _ in self.api.params(api_name) or ():
                names.add(name)
        return frozenset(names - NUMPY_ALIASES.keys())

    # -- classes -------------------------------------------------------------------------
    def role(self, cls: str) -> str:
        """The family of a torch class: tensor, module, optimizer, scheduler, scaler, other."""
        return self._role(cls)

    def _role_uncached(self, cls: str) -> str:
        if cls in TENSOR_CLASSES:
            return "tensor"
        m = self.api.member
        if m(cls, "parameters") == "torch.nn.Module.parameters":
            return "module"
        zg = m(cls, "zero_grad") or ""
        if zg.startswith("torch.optim.") and m(cls, "param_groups") != "" and "Optimizer" in zg:
            return "optimizer"
        if m(cls, "get_last_lr"):
            return "scheduler"
        if cls.endswith("GradScaler"):
            return "scaler"
        if cls == "torch.utils.data.DataLoader":
            return "dataloader"
        return "other"

    def instance_of(self, cls: str) -> Val:
        """The value a call of torch class ``cls`` produces."""
        if self.role(cls) == "tensor":
            return TENSOR
        return inst(cls)

    # -- members -------------------------------------------------------------------------
    def member(self, cls: str, attr: str) -> str | None:
        return self.api.member(cls, attr)

    def call_result(self, owner_api: str, recv: Val, attr: str) -> Val:
        """What calling method ``owner_api`` (``torch.Tensor.view``...) on ``recv`` returns."""
        root = owner_api.rsplit(".", 1)[0]
        if root == "torch.Tensor":
            return self._tensor_method_result(owner_api, recv, attr)
        if root == "torch.nn.Module" or self.role(root) == "module":
            return _module_method_result(recv, attr)
        return self._returns(owner_api, recv)

    def _tensor_method_result(self, owner_api: str, recv: Val, attr: str) -> Val:
        if attr in ("size", "stride"):
            return SIZE
        if attr in ("chunk", "split", "unbind", "tensor_split", "split_with_sizes", "unflatten"):
            return seq(recv) if attr != "unflatten" else recv
        if attr.endswith("_") and not attr.startswith("_"):
            return recv
        return self._returns(owner_api, recv)

    def _returns(self, api_name: str, recv: Val) -> Val:
        r = self.api.returns(api_name)
        if r == "tensor":
            return recv if recv[0] == "tensor" and recv[1] != "arg" else TENSOR
        if r == "tensors":
            elem = recv if recv[0] == "tensor" else TENSOR
            fixed = _fixed_tuple(self.api.return_text(api_name))
            if fixed is not None and NONTORCH in fixed:
                # ``waveform, sr = torchaudio.load(p)``: documented ``Tuple[Tensor, int]``, so
                # the second name is a host number, not a tensor whose values a test reads
                return ("tuple", tuple(elem if e == TENSOR else e for e in fixed))
            return seq(elem)
        if r == "module":
            return inst("torch.nn.Module")
        if r == "size":
            return SIZE
        if r in ("bool", "int", "float", "other"):
            return NONTORCH
        return UNKNOWN

    def function_result(self, api_name: str) -> Val:
        """What calling public torch function ``api_name`` returns."""
        return self._returns(api_name, TENSOR)

    def attribute_result(self, owner_api: str, recv: Val, attr: str) -> Val:
        """What reading attribute ``attr`` (not calling it) yields."""
        root = owner_api.rsplit(".", 1)[0]
        if root == "torch.Tensor":
            if attr in TENSOR_ATTRS_TENSOR:
                return recv
            if attr == "shape":
                return SIZE
            if attr in ("values", "indices"):
                # fields of the named tuple min/max/sort/topk(dim=...) return (``x.max(1)
                # .values``): a tensor, data-dependent in shape when its source was
                return recv if recv == ("tensor", "dyn") else TENSOR
            return NONTORCH
        if attr == "param_groups":
            return seq(NONTORCH)
        if attr in MODULE_TENSOR_ATTRS:
            return TENSOR
        return UNKNOWN

    def guess(self, attr: str, hint: str) -> tuple[str, Val] | None:
        """Owner of ``attr`` on a receiver of unknown type, from the method name alone.

        Returns the API name and the (probable) value a call yields, or None when the name is
        not a member of any torch root class or too common on non-torch objects.
        """
        if attr.startswith("_") or attr in AMBIGUOUS_UNKNOWN:
            return None
        roles = self._roles.get(attr)
        if roles is None:
            roles = tuple(r for r, cls in ROOTS.items() if self.api.member(cls, attr))
            self._roles[attr] = roles
        if not roles:
            return None
        role = roles[0]
        low = hint.lower()
        if len(roles) > 1:
            for keys, hinted in _NAME_HINTS:
                if hinted in roles and any(k in low for k in keys):
                    role = hinted
                    break
        if role == "module" and attr in GENERIC_MODULE_METHODS and not _hints(low, "module"):
            return None
        if role == "scaler" and not _hints(low, "scaler"):
            # ``boxes.scale(sx, sy)`` (detectron2's Boxes), ``img.scale(...)``: a GradScaler
            # only by a name that says so
            return None
        owner_api = self.api.member(ROOTS[role], attr)
        assert owner_api is not None
        if role == "tensor" and "module" in roles:
            result = UNKNOWN  # x.to(d) / x.float(): a tensor or a module, keep both open
        elif role == "tensor":
            result = self._tensor_method_result(owner_api, PTENSOR, attr)
        elif role == "module":
            # a module only by its method's name: what its method yields is probable too
            # (``ema.state_dict()`` maps names to tensors, ``net.parameters()`` yields them)
            result = _probable(_module_method_result(UNKNOWN, attr))
        else:
            # an optimizer's or a scaler's only by its method's name: so is what it yields
            # (``scaler.scale(loss).backward()`` is probably Tensor.backward)
            result = _probable(self._returns(owner_api, UNKNOWN))
        return owner_api, result


def _hints(low: str, role: str) -> bool:
    """Whether a receiver's (lower-case) name suggests `role` (see _NAME_HINTS)."""
    return any(hinted == role and any(k in low for k in keys) for keys, hinted in _NAME_HINTS)


def _probable(v: Val) -> Val:
    """`v` with every certain tensor inside it made probable."""
    kind = v[0]
    if v == TENSOR:
        return PTENSOR
    if kind == "seq":
        return seq(_probable(v[1]))
    if kind == "tuple":
        return ("tuple", tuple(_probable(e) for e in v[1]))
    if kind == "dict":
        return ("dict", tuple((k, _probable(e)) for k, e in v[1]))
    return v


def _module_method_result(recv: Val, attr: str) -> Val:
    if attr in ("parameters", "buffers"):
        return seq(TENSOR)
    if attr in ("named_parameters", "named_buffers"):
        return seq(("tuple", (NONTORCH, TENSOR)))
    if attr in ("modules", "children"):
        return seq(inst("torch.nn.Module"))
    if attr in ("named_modules", "named_children"):
        return seq(("tuple", (NONTORCH, inst("torch.nn.Module"))))
    if attr in SELF_RETURNING:
        return recv
    if attr in ("forward", "__call__"):
        return TENSOR
    if attr == "state_dict":
        return TENSOR_DICT
    return UNKNOWN


#: Element texts of a documented return tuple that name a tensor (``Optional[Tensor]`` too:
#: a tensor where it is not None).
_TENSOR_TEXTS = frozenset({"Tensor", "LongTensor", "BoolTensor", "torch.Tensor"})
#: Element texts that name a host value (a number, a string, a tuple of numbers).
_HOST_TEXTS = frozenset({"int", "float", "bool", "str", "tuple[int, int]", "tuple[int, int, int]"})


@lru_cache(maxsize=512)
def _fixed_tuple(text: str | None) -> tuple[Val, ...] | None:
    """The per-element values of a documented fixed-length tuple return (``Tuple[Tensor, int]``,
    ``(Tensor, LongTensor)``): a tensor, a host value, or unknown for anything else; None when
    the text is not one fixed tuple (``tuple[Tensor, ...]``, a list, a union)."""
    if not text:
        return None
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
    elif text.lower().startswith("tuple[") and text.endswith("]"):
        inner = text[6:-1]
    else:
        return None
    parts = [p.strip() for p in split_top(inner)]
    if len(parts) < 2 or "..." in parts or any(not p for p in parts):
        return None
    out: list[Val] = []
    for part in parts:
        bare = part.removesuffix(" | None")
        if bare.startswith("Optional[") and bare.endswith("]"):
            bare = bare[9:-1]
        if bare in _TENSOR_TEXTS:
            out.append(TENSOR)
        elif part in _HOST_TEXTS:
            out.append(NONTORCH)
        else:
            out.append(UNKNOWN)
    return tuple(out)
