"""Rewrite templates: how one PyTorch call becomes one MindSpore call, argument by argument.

A template is data, not an expression: the PyTorch parameters in order, and for each what the
MindSpore side does with it (same name, renamed, passed positionally, converted, dropped under a
stated condition, or given explicitly because the defaults differ). :func:`render` applies it
to the argument texts a per-file worker recorded for a call (:class:`apiscan.model.CallArgs`),
so a report shows the rewrite of *that* call — ``nn.LeakyReLU(0.1)`` becomes
``mindspore.nn.LeakyReLU(alpha=0.1)`` — or says why no exact rewrite exists.

The micro-tests of the verify catalogue are rendered by the same function from a template's
sample forms (:mod:`apiscan.verify.catalogue.templated`): what a report shows is what was
tested, never a test expression.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from apiscan.model import CallArgs

#: ``to`` value meaning "MindSpore has no such parameter".
DROP = None


@dataclass(frozen=True)
class Arg:
    """One PyTorch parameter and what becomes of it on the MindSpore side.

    - ``default``: PyTorch's default as source text (``None``: required).
    - ``to``: the MindSpore keyword (``""``: the same name; :data:`DROP`: MindSpore has none).
    - ``positional``: pass it positionally (in template order) instead of by keyword.
    - ``convert``: a value conversion with ``{}`` for the value (``"1 - {}"`` for momentum);
      numeric literals are folded (``momentum=0.03`` → ``momentum=0.97``).
    - ``drop_exact``: for a dropped parameter, the values whose dropping is exact (the
      PyTorch default and its equivalents); ``"*"`` means any value (``inplace``, ``device``
      placement). ``drop_why`` says what a different value would lose.
    - ``ms_default``: MindSpore's default when it differs from PyTorch's: a call that relies
      on PyTorch's default gets it written out (``epsilon=1e-05``).
    - ``varargs``: ``*size``: takes the remaining positional arguments; ``pack`` renders them
      as one tuple (``zeros(1, n)`` → ``zeros((1, n))``).
    - ``same_as``: a PyTorch default of ``None`` that means another parameter's value
      (``MaxPool2d``'s ``stride`` is ``kernel_size``): a call that omits it, or passes
      ``None``, gets that parameter's text written out, since MindSpore's default differs.
    """

    name: str
    default: str | None = None
    to: str | None = ""
    positional: bool = False
    convert: str = ""
    drop_exact: tuple[str, ...] = ()
    drop_why: str = ""
    ms_default: str | None = None
    varargs: bool = False
    pack: bool = False
    keyword_only: bool = False
    #: With ``pack``: one size is packed too (``x.flip(0)`` → ``x.flip((0,))``) for a target
    #: that takes only a sequence; a single name (an int or a sequence?) is declined.
    pack_one: bool = False
    same_as: str = ""

    @property
    def ms_name(self) -> str:
        return self.to or self.name


@dataclass(frozen=True)
class Template:
    """How calls of one PyTorch API are rewritten. ``target`` is a dotted MindSpore callable,
    or with ``method`` a method name called on the receiver (``x.sigmoid()``). ``note`` is
    shown with every rendering (a behaviour the arguments cannot show)."""

    api: str
    target: str
    args: tuple[Arg, ...] = ()
    method: bool = False
    note: str = ""
    #: Instead of a call: a format string over ``{recv}`` and the parameters by PyTorch name
    #: (``"{recv}.shape[{dim}]"``); every placeholder must be bound or have a default.
    format: str = ""
    #: A method rewritten to a function that takes the receiver first
    #: (``x.amax(1)`` → ``mindspore.mint.amax(x, 1)``).
    receiver_first: bool = False
    #: Keywords the MindSpore call always takes, as ``name=value`` texts written after the
    #: call's own: a mode the target needs to behave as PyTorch does (r2.4.0
    #: pytorch_diff/MaxPool2d.md: "when pad_mode is 'pad', the function is consistent with
    #: PyTorch").
    fixed: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        """The PyTorch side as a reader knows it: ``torch.nn.LeakyReLU(negative_slope=0.01)``."""
        parts = []
        for a in self.args:
            if a.varargs:
                parts.append(f"*{a.name}")
            else:
                parts.append(a.name if a.default is None else f"{a.name}={a.default}")
        return f"{self.api}({', '.join(parts)})"


@dataclass(frozen=True)
class Rendered:
    """A template applied to one call: ``text`` is the rewritten call, or ``""`` when no
    exact rewrite exists, and then ``note`` says why."""

    text: str
    note: str = ""

    @property
    def exact(self) -> bool:
        return bool(self.text)


_SIMPLE = re.compile(r"^[\w.]+$|^-?\d[\d.e+-]*$")


def _wrap(value: str) -> str:
    """Parenthesise a value that is not a plain name, attribute or number before it goes into
    an arithmetic conversion."""
    return value if _SIMPLE.match(value) else f"({value})"


def _fold(expr: str) -> str:
    """``1 - 0.03`` → ``0.97``: a conversion of a numeric literal is evaluated."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return expr
    allowed = ast.Expression | ast.BinOp | ast.UnaryOp | ast.Constant | ast.operator | ast.unaryop
    if not all(isinstance(n, allowed) for n in ast.walk(tree)):
        return expr
    try:
        value = eval(compile(tree, "<fold>", "eval"), {"__builtins__": {}})  # literals only
    except Exception:
        return expr
    if isinstance(value, float):
        return repr(round(value, 12))
    return repr(value) if isinstance(value, int) else expr


def bind(template: Template, call: CallArgs) -> tuple[dict[str, str | list[str]], str]:
    """PyTorch parameter name → the call's argument text (a list for varargs); or a reason."""
    bound: dict[str, str | list[str]] = {}
    positional = [a for a in template.args if not a.keyword_only]
    texts = list(call.positional)
    i = 0
    for arg in positional:
        if i >= len(texts):
            break
        if arg.varargs:
            bound[arg.name] = texts[i:]
            i = len(texts)
            break
        if texts[i].startswith("*"):
            return {}, f"{texts[i]}: which parameters it fills is not known statically"
        bound[arg.name] = texts[i]
        i += 1
    if i < len(texts):
        return {}, f"{len(texts)} positional arguments: {template.signature} takes {i}"
    names = {a.name for a in template.args}
    for key, text in call.keywords:
        if key not in names:
            return {}, f"keyword {key}= is not in the template for {template.signature}"
        if key in bound:
            return {}, f"{key} passed twice"
        bound[key] = text
    return bound, ""


def render(template: Template, call: CallArgs | None) -> Rendered:
    """The rewritten call, or why there is none (see the module docstring)."""
    if call is None:
        return Rendered("", "not a call: nothing to render the arguments from")
    if call.star:
        return Rendered("", "**kwargs: the keyword arguments are not known statically")
    if call.truncated:
        return Rendered("", "an argument is too long to render here")
    if template.method and not call.receiver:
        return Rendered("", "a method call without a receiver")
    bound, why = bind(template, call)
    if why:
        return Rendered("", why)
    if template.format:
        return _render_format(template, call, bound)
    positional: list[str] = []
    keywords: list[str] = []
    notes: list[str] = []
    for arg in template.args:
        value = bound.get(arg.name)
        if arg.same_as and value in (None, "None"):
            same = bound.get(arg.same_as)
            if not isinstance(same, str):
                return Rendered("", f"{arg.name}: {arg.same_as} is not passed")
            value = same
        if arg.to is DROP:
            if value is None:
                continue
            if "*" in arg.drop_exact or value in arg.drop_exact:
                if arg.drop_why:
                    notes.append(f"{arg.name}={value} dropped: {arg.drop_why}")
                continue
            why = arg.drop_why or "MindSpore has no such parameter"
            return Rendered("", f"{arg.name}={value} cannot be dropped exactly: {why}")
        if value is None:
            if arg.default is None and not arg.varargs and arg.to is not DROP:
                why = template.note or f"{template.signature} needs {arg.name}"
                return Rendered("", f"{arg.name} is not passed: {why}")
            if arg.ms_default is None or arg.default is None:
                continue
            value = arg.default  # PyTorch's default made explicit
        if arg.varargs and isinstance(value, str):
            # torch.rand(size=(B,)): torch's parser takes the varargs by keyword as one
            # sequence; MindSpore's ``*size`` does not take ``size=``, but takes the sequence
            # positionally.
            positional.append(value)
            continue
        if isinstance(value, list):
            if arg.pack:
                if len(value) == 1 and value[0].startswith("*"):
                    positional.append(f"tuple({value[0][1:]})")
                elif len(value) == 1 and arg.pack_one and re.fullmatch(r"-?\d+", value[0]):
                    positional.append(f"({value[0]},)")
                elif len(value) == 1 and arg.pack_one and value[0][:1] not in "([":
                    why = "an int or a sequence: not known statically"
                    return Rendered("", f"{arg.name}={value[0]}: {why}")
                elif len(value) == 1:
                    positional.append(value[0])  # one size or one tuple: as written
                else:
                    positional.append(f"({', '.join(value)})")
            else:
                positional.extend(value)
            continue
        if arg.convert:
            value = _convert(arg.convert, value)
            if not value:
                return Rendered("", f"{arg.name}: no MindSpore equivalent of this value")
        if arg.positional:
            positional.append(value)
        else:
            keywords.append(f"{arg.ms_name}={value}")
    if template.receiver_first:
        positional.insert(0, call.receiver)
    inner = ", ".join([*positional, *keywords, *template.fixed])
    head = template.target
    if template.method and not template.receiver_first:
        head = f"{call.receiver}.{template.target}"
    note = "; ".join(n for n in [*notes, template.note] if n)
    return Rendered(f"{head}({inner})", note)


def _convert(how: str, value: str) -> str:
    """Apply a value conversion: ``@dtype`` maps a torch dtype (or legacy tensor type) to
    MindSpore's; otherwise a format string folded when it is numeric."""
    if how == "@dtype":
        return convert_dtype(value)
    if how == "@ddof":
        # unbiased=True/False → ddof=1/0; anything not a literal is declined
        return {"True": "1", "False": "0"}.get(value, "")
    return _fold(how.format(_wrap(value)))


#: Legacy tensor types (``x.type(torch.cuda.FloatTensor)``) as MindSpore dtypes.
_LEGACY_TYPES = {
    "FloatTensor": "float32",
    "HalfTensor": "float16",
    "DoubleTensor": "float64",
    "BFloat16Tensor": "bfloat16",
    "LongTensor": "int64",
    "IntTensor": "int32",
    "ShortTensor": "int16",
    "CharTensor": "int8",
    "ByteTensor": "uint8",
    "BoolTensor": "bool_",
}
_DTYPE_ALIASES = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "long": "int64",
    "int": "int32",
    "bool": "bool_",
    "short": "int16",
}


def convert_dtype(value: str) -> str:
    """``torch.float16`` → ``mindspore.float16``; ``torch.cuda.FloatTensor`` →
    ``mindspore.float32``; a name that is not visibly a torch dtype (``x.dtype``, ``dt``) is
    kept, since a MindSpore tensor's dtype is already a MindSpore dtype; ``""`` for a string
    or anything else that cannot be converted."""
    if value.startswith(("torch.", "th.")):
        last = value.rpartition(".")[2]
        if last in _LEGACY_TYPES:
            return f"mindspore.{_LEGACY_TYPES[last]}"
        return f"mindspore.{_DTYPE_ALIASES.get(last, last)}"
    if value[:1] in "'\"":
        return ""
    if value.endswith(".type()"):
        # x.type(other.type()): the type name string; MindSpore converts to other's dtype.
        return value[: -len(".type()")] + ".dtype"
    return value


def _render_format(
    template: Template, call: CallArgs, bound: dict[str, str | list[str]]
) -> Rendered:
    values: dict[str, str] = {"recv": call.receiver}
    for arg in template.args:
        value = bound.get(arg.name)
        if isinstance(value, list):
            value = value[0] if len(value) == 1 else f"({', '.join(value)})"
        if value is None:
            value = arg.default
        if value is None:
            return Rendered("", f"{arg.name} is required by {template.signature}")
        exempt = value == arg.default or "*" in arg.drop_exact or value in arg.drop_exact
        if arg.to is DROP and not exempt:
            why = arg.drop_why or "MindSpore has no such parameter"
            return Rendered("", f"{arg.name}={value} cannot be dropped exactly: {why}")
        if arg.convert:
            value = _convert(arg.convert, value)
            if not value:
                return Rendered("", f"{arg.name}: no MindSpore equivalent of this value")
        values[arg.name] = value
    return Rendered(template.format.format(**values), template.note)
