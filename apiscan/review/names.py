"""The values a name is given anywhere in the repository's Python, read from the value records.

A call may pass a parameter through a name (``antialias=self.interpolate_antialias``) whose
value the call does not show. When every place that gives that name a value agrees on one
literal (the constructor's default ``interpolate_antialias=False`` and each builder's keyword
``interpolate_antialias=False``: Depth-Anything-V2's DINOv2), the call passes that literal.
The work items read it to tell a parameter a call really sets (``antialias=True``) from one
that only looks set.

The inference path asks the same records another question: which number ``self.pixel_mean``
or ``args.low_text`` holds where a step reads it (a buffer's constructor argument, a
class-level value, an argparse default), with the place that says it. Both are answered by
one index (:class:`NameValues`), built once per review: this module is the one reader of
:mod:`apiscan.extract.values` for values by name (the value records' layout may change: only
:func:`_given` and :meth:`NameValues._read` know it). A name counts as given a value by:
a parameter's default (a parameter without one is given whatever its callers pass by
position: unknown), a keyword argument of any call, a dict key of a literal dict, and an
assignment to the name or to ``self.<name>``. A given value that is a name is followed the
same way; anything else that is not a literal makes the value unknown.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import (
    AssignValues,
    DefValues,
    Expr,
    FileValues,
    argparse_option,
    is_numeric,
    literal_value,
)
from apiscan.review.model import Where
from apiscan.review.sources import place

if TYPE_CHECKING:
    from apiscan.review.commands import Launch

#: Values that select nothing a MindSpore call would lack (``antialias=False``).
NEUTRAL_VALUES = frozenset({"False", "None", "0", "()", "[]", "{}"})
#: How deep a name given as another name is followed (``self.a = a``, ``a=b``...).
DEPTH = 4
#: What a name that is given no literal, or several, reads as.
UNKNOWN = None


def config_key(expr: Expr, bound: Mapping[str, Expr] | None = None) -> str | None:
    """``config:a.b`` for a config file's key read by string subscripts
    (``self.config["a"]["b"]``), the key :attr:`ArgparseDefaults.settings` values; None for
    any other expression. ``bound``: the locals of the function the read is in (name -> the
    value assigned once), through which a name holding a section (``data = args["data"]``,
    then ``data["flip"]``) reads ``config:data.flip``."""
    if expr.kind != "Subscript":
        return None
    keys: list[str] = []
    for _ in range(8):
        while expr.kind == "Subscript":
            index = expr.parts[1]
            if index.kind != "Constant" or not isinstance(index.value, str):
                return None
            keys.insert(0, index.value)
            expr = expr.parts[0]
        section = (bound or {}).get(expr.name) if expr.kind == "Name" else None
        if section is None or section.kind != "Subscript":
            break
        expr = section
    return "config:" + ".".join(keys) if expr.kind in ("Name", "Attribute") else None


class _Call(NamedTuple):
    """A call as the index keeps it, under its callee's last name."""

    #: positional arguments as written (``literal`` of them: a name the calling function or
    #: module binds to a number reads as that number)
    written: tuple[Expr, ...]
    args: tuple[Expr, ...]
    keywords: dict[str, Expr]
    #: the class of the calling method ("" elsewhere)
    caller_cls: str
    where: Where
    #: called on an attribute (``self.f(...)``, ``m.f(...)``)
    via: bool
    #: passes ``*args``/``**kwargs``: any parameter it does not name may be set there
    spread: bool
    #: the calling function's name ("" at module level or in a class body)
    caller: str


class OptionDefault(NamedTuple):
    """One ``parser.add_argument(...)`` of the repository, read once
    (:func:`~apiscan.extract.values.argparse_option`) for every reader of an option's
    default."""

    path: str
    dest: str
    #: the default as written, None when the option has none
    written: Expr | None
    #: :attr:`written`, a name its function or module binds to a number read as that number
    #: (``default=IMG_SIZE`` with ``IMG_SIZE = 512``)
    default: Expr | None
    #: the ``action`` keyword's string ("" without one)
    action: str
    #: the ``add_argument`` call's place
    line: int
    col: int
    #: its ``type=`` maps the command line's words to booleans (:class:`BoolTypes`):
    #: ``--model_ema true`` holds True, not the string
    boolean: bool = False
    #: a positional argument (``add_argument("dataset")``): given by a word in its place
    positional: bool = False
    #: its ``nargs=`` may take several words (or none): the places after it are not known
    spread: bool = False
    #: the command line's words it takes (:attr:`~apiscan.extract.values.ArgOption.words`)
    words: int | None = 1
    #: the flags the call declares (``"-warmup", "--n_warmup_steps"``; a single-dash
    #: ``"-label_smoothing"``): the spellings a command gives the option with
    flags: tuple[str, ...] = ()

    @property
    def value(self) -> object:
        """What the option holds when the command line leaves it: the default's constant
        (``store_true``: False; ``store_false``: True); None when it has no literal one."""
        if self.written is None:
            return {"store_true": False, "store_false": True}.get(self.action)
        return self.written.value if self.written.kind == "Constant" else None

    @property
    def text(self) -> str | None:
        """The default when it is written as a string (``default="resnet50"``), else None."""
        written = self.written
        if written is None or written.kind != "Constant":
            return None
        return written.value if isinstance(written.value, str) else None


class ArgparseDefaults:
    """Every argparse option of the repository with its default, in path order and each
    file's call order: the one table the work items (``--model``'s default naming a
    registered model; a backbone built under ``if args.x``), the numbers of the inference
    path (:class:`NameValues`) and the model tree (``--arch``'s default picking an import or
    a registry entry) read. Built once per review (:attr:`~apiscan.review.readings.Readings.
    argparse`)."""

    def __init__(self, files: Iterable[tuple[FileAnalysis, FileValues]]) -> None:
        files = list(files)
        #: the repository's string-to-bool ``type=`` functions (the recipe reads them too)
        self.booleans = booleans = BoolTypes(files)
        self.all: list[OptionDefault] = []
        #: (path, line, col) of the ``add_argument`` call -> its option
        self.at: dict[tuple[str, int, int], OptionDefault] = {}
        #: path -> its file's options, in call order
        self.by_path: dict[str, list[OptionDefault]] = {}
        #: (path, line, col) of an option -> what the documented command gives it
        #: (:meth:`set_launched`)
        self.launched: dict[tuple[str, int, int], object] = {}
        #: ``config:<dotted key>`` -> the value the training's chosen config file sets
        #: (``config:arch.args.freeze_bn`` -> {False}): what a test of
        #: ``config["arch"]["args"]["freeze_bn"]`` reads
        self.settings: dict[str, set[object]] = {}
        #: (path, line, col) of an option whose default is a parameter of the def declaring
        #: it -> (that parameter's string default, where it is written)
        self.parameter_defaults: dict[tuple[str, int, int], tuple[str, str]] = {}
        #: path -> the module names of its file (a ``python -m`` command names it so)
        self.modules: dict[str, tuple[str, ...]] = {}
        #: path -> the dotted names its file imports (``from opts import parser``: opts.parser)
        self.imports: dict[str, frozenset[str]] = {}
        for fa, values in files:
            self.modules[fa.path] = tuple(fa.modules)
            if fa.syntax is not None:
                self.imports[fa.path] = frozenset(d for _, d in fa.syntax.imports)
            numbers = _Numbers(values)
            for call in values.calls:
                expr = call.expr
                option = argparse_option(expr)
                if option is None:
                    continue
                boolean = booleans.of(fa, values, expr)
                written = as_bool(option.default) if boolean else option.default
                default = numbers.literal(written, call.function) if written is not None else None
                found = OptionDefault(
                    fa.path,
                    option.dest,
                    written,
                    default,
                    option.action,
                    expr.line,
                    expr.col,
                    boolean,
                    not option.option.startswith("-") and option.action in ("", "store"),
                    any(k.name == "nargs" for k in expr.keywords),
                    option.words,
                    tuple(
                        a.value
                        for a in expr.args
                        if a.kind == "Constant"
                        and isinstance(a.value, str)
                        and a.value.startswith("-")
                    ),
                )
                self.all.append(found)
                self.at[(fa.path, expr.line, expr.col)] = found
                # ``default=default_task``, a parameter of the def declaring the option
                # with a string default (fairseq's ``get_parser(desc, default_task=
                # "translation")``)
                d = values.defs[call.function] if call.function >= 0 else None
                given = dict(d.params).get(written.name) if d and written is not None else None
                if (
                    written is not None
                    and written.kind == "Name"
                    and given is not None
                    and given.kind == "Constant"
                    and isinstance(given.value, str)
                ):
                    self.parameter_defaults[(fa.path, expr.line, expr.col)] = (
                        given.value,
                        f"default of parameter {written.name} of {d.qual}() at {fa.path}:{d.line}",
                    )
                self.by_path.setdefault(fa.path, []).append(found)

    def values(self) -> dict[str, set[object]]:
        """dest -> what its options hold in the run: what the documented training command
        gives them (:meth:`set_launched`), else the default (:attr:`OptionDefault.value`);
        and each setting of the training's config file, keyed ``config:`` and its dotted
        key (:attr:`settings`)."""
        out: dict[str, set[object]] = {}
        for option in self.all:
            value = self.launched.get((option.path, option.line, option.col), option.value)
            out.setdefault(option.dest, set()).add(value)
        for key, found in self.settings.items():
            out.setdefault(key, set()).update(found)
        return out

    def values_in(self, path: str) -> dict[str, set[object]]:
        """:meth:`values` as the script ``path`` reads them: a dest it declares itself holds
        only its own options' values (a tool script's ``--ckpt`` defaulting to a released
        checkpoint says nothing of the training script's ``--ckpt``, which defaults to
        None); the other dests as :meth:`values` has them."""
        out = self.values()
        own: dict[str, set[object]] = {}
        for option in self.by_path.get(path, ()):
            value = self.launched.get((option.path, option.line, option.col), option.value)
            own.setdefault(option.dest, set()).add(value)
        out.update(own)
        return out

    def unset(self) -> frozenset[str]:
        """The dests of the options stored with no default written (``--model-type``,
        required; a path the command line gives): None is no value the run holds."""
        return frozenset(
            o.dest for o in self.all if o.written is None and o.action in ("", "store")
        )

    def set_launched(self, given: Callable[[str, tuple[str, ...]], list[Launch]]) -> None:
        """What the first documented command that runs each option's script gives the
        option (co-tracker's README: ``python train_on_kubric.py ... --train_datasets kubric
        --mixed_precision``), read through ``given(path, modules)``
        (:func:`~apiscan.review.commands.launches`); a value the shell fills in
        (``${STEPS}``) is none, the default stays. A flag is spelled as the call declares
        it (``-label_smoothing``, ``-b``), or ``--dest`` or with dashes
        (``--train-datasets``)."""
        scripts = {o.path for o in self.all}
        for path in sorted(scripts):
            runs = given(path, self.modules.get(path, ()))
            # options declared in a module of their own (``opts.py``'s parser, imported by
            # ``main.py``): the commands that run a script importing that module give them
            for user in () if runs else self._importers(path):
                runs = given(user, self.modules.get(user, ()))
                if runs:
                    break
            if not runs:
                continue
            # the positional arguments, in declaration order, take the words the command
            # gives before its first option (``python main.py kinetics RGB --lr 0.02``)
            placed = [o for o in self.by_path[path] if o.positional]
            for option, word in zip(placed, runs[0].leading(), strict=False):
                if option.spread:
                    break
                value = _word_value((word,), option.action)
                if option.boolean:
                    value = bool_word(value)
                self.launched[(option.path, option.line, option.col)] = value
            for option in self.by_path[path]:
                if option.positional:
                    continue
                # the spellings the call declares (a single-dash ``-label_smoothing``, a short
                # ``-b``), and the long ones its dest makes
                flags = (
                    *option.flags,
                    f"--{option.dest}",
                    f"--{option.dest.replace('_', '-')}",
                )
                words = runs[0].given(flags, option.words)
                if words is None or any("$" in w or "`" in w for w in words):
                    continue
                listed = option.written is not None and option.written.kind in ("List", "Tuple")
                value = _word_value(words, option.action, listed)
                if option.boolean:
                    value = bool_word(value)
                self.launched[(option.path, option.line, option.col)] = value

    def _importers(self, path: str) -> list[str]:
        """The files importing the module of ``path`` (or a name from it), those whose name
        says they train first (a ``train.py`` before a ``test.py`` importing the same
        options), then by path."""
        modules = self.modules.get(path, ())
        found = [
            user
            for user, dotted in self.imports.items()
            if user != path
            and any(d == m or d.startswith(f"{m}.") for d in dotted for m in modules)
        ]
        return sorted(found, key=lambda p: ("train" not in p.rpartition("/")[2], p))

    def named(self, dest: str) -> list[tuple[str, str]]:
        """(the string default, where) of each option ``dest`` whose default is a string:
        written (``default="translation"``) or a parameter's of the def declaring it."""
        out: list[tuple[str, str]] = []
        for option in self.all:
            if option.dest != dest:
                continue
            if option.text is not None:
                out.append((option.text, f"{option.path}:{option.line}"))
            else:
                found = self.parameter_defaults.get((option.path, option.line, option.col))
                if found is not None:
                    out.append(found)
        return out

    def with_default(self, paths: Iterable[str] | None = None) -> list[OptionDefault]:
        """The options declared with a default (of the files ``paths``; all without), in
        order."""
        chosen = self.by_path if paths is None else {p: self.by_path.get(p, []) for p in paths}
        return [o for found in chosen.values() for o in found if o.written is not None]


#: The Python constants a command's word may spell.
_CONSTANT_WORDS: dict[str, object] = {"True": True, "False": False, "None": None}


def _word_value(words: tuple[str, ...], action: str, listed: bool = False) -> object:
    """What argparse makes of the words a command gives an option: a bare flag its
    action's constant, a number or a Python literal as such, several words (or any, for
    an option whose default is a list: ``nargs="+"``) a tuple, other words the string."""
    if not words:
        return action != "store_false"

    def one(word: str) -> object:
        # numbers and constants without a parse (a command has many; the review parses
        # nothing a number's text already says), containers and quoted strings with one
        for kind in (int, float) if any(c.isdigit() for c in word) else ():
            try:
                return kind(word)
            except ValueError:
                pass
        if word in _CONSTANT_WORDS:
            return _CONSTANT_WORDS[word]
        if word[:1] not in "[({'\"":
            return word
        try:
            return ast.literal_eval(word)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return word

    values = tuple(one(w) for w in words)
    return values[0] if len(values) == 1 and not listed else values


#: The words a string-to-bool ``type=`` reads as True and as False (``distutils``'
#: ``strtobool``'s, which the hand-written ``str2bool`` helpers copy), lower-cased.
_TRUE_WORDS = frozenset({"y", "yes", "t", "true", "on", "1"})
_FALSE_WORDS = frozenset({"n", "no", "f", "false", "off", "0"})


def bool_word(value: object) -> object:
    """What a string-to-bool ``type=`` makes of a word (``'true'`` → True, ``'0'`` →
    False, a number the command line gave as 1 or 0 too); anything else as it is."""
    word = str(value).lower() if isinstance(value, str | int) else None
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return value


def as_bool(default: Expr | None) -> Expr | None:
    """A string default (``default='True'``) as the bool constant argparse makes of it
    through a string-to-bool ``type=`` (argparse passes a string default through ``type``);
    any other default as it is."""
    if default is None or default.kind != "Constant" or not isinstance(default.value, str):
        return default
    value = bool_word(default.value)
    if not isinstance(value, bool):
        return default
    return default._replace(text=str(value), value=value, literal=True, whole=None)


def _to_bool(d: DefValues) -> bool:
    """Whether the def maps a string to a bool: one positional parameter, and every
    ``return`` a bool constant, a test (``v.lower() in ("yes", "true", "t", "1")``, ``v ==
    "true"``, ``not ...``), ``bool(...)`` or the parameter itself (a bool given through
    unchanged), at least one of them not the parameter (ConvNeXt's and DETR-style
    ``str2bool``)."""
    params = [p for p in d.positional if p not in ("self", "cls")]
    if d.is_class or len(params) != 1 or not d.returns:
        return False
    return all(_boolean(r, params[0]) for r in d.returns) and any(
        not (r.kind == "Name" and r.name == params[0]) for r in d.returns
    )


def _boolean(e: Expr, param: str = "") -> bool:
    """An expression whose value is a bool (or ``param``, passed through)."""
    if e.kind == "Constant":
        return isinstance(e.value, bool)
    if e.kind == "Name":
        return e.name == param
    if e.kind == "Compare" or (e.kind == "UnaryOp" and e.name == "Not"):
        return True
    if e.kind == "BoolOp":
        return all(_boolean(p, param) for p in e.parts)
    return e.kind == "Call" and e.func.kind == "Name" and e.func.name == "bool"


class BoolTypes:
    """The repository's functions that map a command-line word to a bool (a ``str2bool``
    helper) and the lambdas that do (``type=lambda x: x.lower() == "true"``): an option
    whose ``type=`` is one holds True or False, never the word. Read from the value
    records' defs (their ``return`` values), once per table of options."""

    def __init__(self, files: Iterable[tuple[FileAnalysis, FileValues]]) -> None:
        #: (module, def name) of every module-level string-to-bool function
        self.defs: set[tuple[str, str]] = set()
        for fa, values in files:
            for d in values.defs:
                if d.owner < 0 and "." not in d.qual and _to_bool(d):
                    self.defs.update((m, d.qual) for m in fa.modules)
                    self.defs.add((fa.path, d.qual))

    def of(self, fa: FileAnalysis, values: FileValues, call: Expr) -> bool:
        """Whether the ``add_argument`` call's ``type=`` maps words to bools: a lambda
        whose body is a test, or a string-to-bool function of the repository named as
        this file defines or imports it (``str2bool``, ``utils.str2bool``)."""
        kind = next((k.target for k in call.keywords if k.name == "type"), None)
        if kind is not None and kind.kind == "Lambda":
            return _boolean(kind.parts[-1])
        chain = kind.chain() if kind is not None else None
        if not chain or not self.defs:
            return False
        name = chain[-1]
        if len(chain) == 1 and (fa.path, name) in self.defs:
            return True
        imported = dict(fa.syntax.imports) if fa.syntax is not None else {}
        head = imported.get(chain[0])
        if head is not None:
            module, _, last = ".".join([head, *chain[1:]]).rpartition(".")
            return (module, last) in self.defs
        for bound, _, module, imported_name in values.relative_imports:
            if bound == chain[0] and len(chain) == 1:
                return any(
                    n == imported_name and (not module or m.endswith(module)) for m, n in self.defs
                )
        return False


class _Numbers:
    """The names a file's scopes bind to numbers (``image_size = 1024``), read lazily."""

    def __init__(self, values: FileValues) -> None:
        self.values = values
        self.module = _bound(values.assigns)
        self.scopes: dict[int, dict[str, Expr]] = {}

    def literal(self, e: Expr, function: int) -> Expr:
        """A name its function or module binds to a number reads as that number."""
        if e.kind != "Name":
            return e
        if function >= 0 and function not in self.scopes:
            self.scopes[function] = _bound(self.values.defs[function].assigns)
        local = self.scopes.get(function, {})
        return local.get(e.name) or self.module.get(e.name) or e


class NameValues:
    """Every value each name is given in the repository's value records (module docstring),
    and the numeric literals by who holds them: the one index of literal values by name
    that the work items, the gaps and the inference path read.

    Held per name: every value given (``literal``, ``neutral``, ``candidates``), and the
    numbers with their places (``numbers``: a class-level value, a constructor's default, a
    keyword of a class construction, an argparse default). Held per holder: constructor
    parameter defaults (``defaults``), class-level values (``class_values``), which parameter
    a constructor stores as an attribute or buffer (``bindings``:
    ``self.register_buffer("pixel_mean", torch.Tensor(pixel_mean))``), each def by its name
    (a class's ``__init__`` by the class: ``params``) and each call by its callee's last
    name (``calls``)."""

    def __init__(
        self,
        files: Iterable[tuple[FileAnalysis, FileValues]],
        argparse: ArgparseDefaults | None = None,
        skip: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    ) -> None:
        files = list(files)
        #: path -> (first, last line) of the defs whose values no run gives (a vendored hub
        #: entry point no ``torch.hub.load`` names): their calls and assignments are left out
        self._skip = skip or {}
        #: the review's argparse table (built here from ``files`` when none is given)
        self.argparse = argparse if argparse is not None else ArgparseDefaults(files)
        self._given: dict[str, list[Expr | None]] = defaultdict(list)
        self.numbers: dict[str, list[tuple[str, Where]]] = defaultdict(list)
        self.defaults: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.class_values: dict[tuple[str, str], list[tuple[str, Where]]] = defaultdict(list)
        self.bindings: dict[tuple[str, str], str] = {}
        self.params: dict[str, list[DefValues]] = defaultdict(list)
        self.calls: dict[str, list[_Call]] = defaultdict(list)
        #: argparse options' numeric defaults by their dest
        self.options: dict[str, list[tuple[str, Where]]] = defaultdict(list)
        for fa, values in files:
            for name, value in _given(values, fa.stored_attrs, self._skip.get(fa.path, ())):
                self._given[name].append(value)
            self._read(fa, values)
        # an argument passed by position is the value of the parameter at that position
        for callee, calls in self.calls.items():
            for params in self.params.get(callee, ()):
                positional = params.positional
                for call in calls:
                    shift = (
                        1
                        if positional[:1] == ("self",) and (call.via or callee[:1].isupper())
                        else 0
                    )
                    for name, arg in zip(positional[shift:], call.written, strict=False):
                        self._given[name].append(None if arg.kind == "Starred" else arg)

    def _read(self, fa: FileAnalysis, values: FileValues) -> None:
        numbers = _Numbers(values)
        for d in values.defs:
            if not d.is_class:
                owner = values.defs[d.owner] if d.owner >= 0 else None
                init = d.name == "__init__" and owner is not None and owner.is_class
                self.params[owner.name if init and owner else d.name].append(d)
            if d.is_class:
                for a in d.assigns:
                    if a.target.kind == "Name" and _numeric(a.value):
                        where = place(fa, a.line)
                        self.class_values[(d.name, a.target.name)].append((a.value.text, where))
                        self.numbers[a.target.name].append((a.value.text, where))
            elif d.name == "__init__" and d.owner >= 0:
                cls = values.defs[d.owner].name
                params = {name for name, _ in d.params} - {"self"}
                for name, default in d.params:
                    if default is not None and _numeric(default):
                        where = place(fa, default.line)
                        self.defaults[(cls, name)].append((default.text, where))
                        self.numbers[name].append((default.text, where))
                for a in d.assigns:
                    if a.target.kind == "Attribute" and a.target.target.text == "self":
                        self._bind(cls, a.target.name, a.value, params)
        literal = numbers.literal
        spans = self._skip.get(fa.path, ())
        for call in values.calls:
            if any(a <= call.expr.line <= z for a, z in spans):
                continue
            expr = call.expr
            callee = expr.callee()
            caller = values.defs[call.function] if call.function >= 0 else None
            caller_cls = values.defs[caller.owner].name if caller and caller.owner >= 0 else ""
            keywords = {
                kw.name: literal(kw.target, call.function) for kw in expr.keywords if kw.name
            }
            args = tuple(literal(a, call.function) for a in expr.args)
            # ``**args`` of ``args = parser.parse_args().__dict__`` (whisper's cli()): every
            # parameter it does not name is an argparse option's, keyed "**" here
            options = [
                kw
                for kw in expr.keywords
                if not kw.name and _argparse_dict(values, call.function, kw.target)
            ]
            if options:
                keywords["**"] = options[0].target
            where = place(fa, expr.line)
            self.calls[callee].append(
                _Call(
                    expr.args,
                    args,
                    keywords,
                    caller_cls,
                    where,
                    expr.func.kind == "Attribute",
                    any(not kw.name and kw not in options for kw in expr.keywords)
                    or any(a.kind == "Starred" for a in expr.args),
                    caller.name if caller and not caller.is_class else "",
                )
            )
            option = (
                self.argparse.at.get((fa.path, expr.line, expr.col))
                if callee == "add_argument"
                else None
            )
            if option is not None and option.default is not None:
                # what ``args.low_text`` holds when the command line leaves it
                default = option.default
                if _numeric(default) and option.dest.isidentifier():
                    self.numbers[option.dest].append((default.text, where))
                    self.options[option.dest].append((default.text, where))
            if callee == "register_buffer" and call.function >= 0:
                init = values.defs[call.function]
                if init.name == "__init__" and init.owner >= 0 and len(args) >= 2:
                    params = {name for name, _ in init.params} - {"self"}
                    if isinstance(args[0].value, str):
                        cls = values.defs[init.owner].name
                        self._bind(cls, args[0].value, expr.args[1], params)
            elif callee[:1].isupper():
                for name, value in keywords.items():
                    if _numeric(value):
                        self.numbers[name].append((value.text, where))

    def _bind(self, cls: str, attr: str, value: Expr, params: set[str]) -> None:
        used = {e.name for e in value.walk() if e.kind == "Name" and e.name in params}
        if len(used) == 1:
            self.bindings.setdefault((cls, attr), used.pop())

    # -- one literal per name, anywhere

    def literal(self, text: str) -> str | None:
        """The one literal every value given to the name ``text`` reads (``self.x``, ``x``:
        its last name), as source text; None when one is unknown or they disagree."""
        found = self._literals(_last_name(text), DEPTH, set())
        return found.pop() if found is not None and len(found) == 1 else UNKNOWN

    def neutral(self, text: str) -> str | None:
        """The harmless literal (:data:`NEUTRAL_VALUES`) the name ``text`` always holds, else
        None."""
        found = self.literal(text)
        return found if found in NEUTRAL_VALUES else None

    def candidates(self, text: str) -> tuple[str, ...]:
        """Every literal the name ``text`` is given where one is known, sorted: the choices
        of a name picked by configuration (``getattr(models, backbone)``: ``'resnet101'``,
        ``'resnet50'``). Values that are neither a literal nor a name are passed over."""
        out: set[str] = set()
        self._collect(_last_name(text), DEPTH, set(), out)
        return tuple(sorted(out))

    def _collect(self, name: str | None, depth: int, seen: set[str], out: set[str]) -> None:
        if name is None or depth < 0 or name in seen or name not in self._given:
            return
        seen.add(name)
        for value in self._given[name]:
            if value is None:
                continue
            if value.literal:
                out.add(value.text)
            else:
                self._collect(_last_name(value.text), depth - 1, seen, out)

    def _literals(self, name: str | None, depth: int, seen: set[str]) -> set[str] | None:
        if name is None or depth < 0 or name not in self._given:
            return None
        if name in seen:
            return set()  # ``self.a = a`` meets ``a`` again: what else gives it a value decides
        seen.add(name)
        out: set[str] = set()
        for value in self._given[name]:
            if value is None:
                return None
            if value.literal:
                out.add(value.text)
                continue
            inner = self._literals(_last_name(value.text), depth - 1, seen)
            if inner is None:
                return None
            out |= inner
        return out

    # -- the number a reference holds where it is written

    def value(self, cls: str, ref: str, function: str = "", depth: int = 0) -> str | None:
        """What ``ref`` (as written in ``function``, a method of ``cls`` or a function) is,
        when the numbers say it, with where: a buffer's constructor argument, a class-level
        value, a parameter's arguments at its call sites, the one value every holder of a
        chain's last name agrees on."""
        parts = ref.split(".")
        if len(parts) == 2 and parts[0] == "self":
            attr = parts[1]
            param = self.bindings.get((cls, attr))
            if param is not None:
                passed, complete = self.argument(cls, param, depth)
                if passed or not complete:
                    return passed
                default = _one(self.defaults.get((cls, param), []), f"default of {param}")
                if default:
                    return default
            return _one(self.class_values.get((cls, attr), []), f"{cls}.{attr}")
        if len(parts) >= 2 and all(p.isidentifier() for p in parts):
            # self.image_encoder.img_size: the one value every holder of that name agrees on
            return _one(self.numbers.get(parts[-1], []), parts[-1])
        if len(parts) == 1 and parts[0].isidentifier():
            found = _one(self.class_values.get((cls, parts[0]), []), f"{cls}.{parts[0]}")
            if found:
                return found
            callee = function.rpartition(".")[2]
            passed, complete = self.argument(callee, parts[0], depth)
            if passed or not complete or cls:
                return passed
            return self.function_default(callee, parts[0])
        return None

    def function_default(self, callee: str, param: str) -> str | None:
        """The numeric default of a plain function's parameter that no call passes
        (``normalizeMeanVariance(img, mean=(0.485, 0.456, 0.406))``)."""
        defs = self.params.get(callee, [])
        if len(defs) != 1:
            return None
        default = dict(defs[0].params).get(param)
        if default is None or not _numeric(default):
            return None
        return f"{default.text} (default of {param} in {callee}())"

    def argument(self, callee: str, param: str, depth: int) -> tuple[str | None, bool]:
        """The value every call of ``callee`` (a function's or a class's last name) passes
        for ``param``, when they agree: positional arguments mapped through the def's
        parameters, each followed once more in its caller (``self.target_length`` there).
        The flag says whether the calls were all read: a call that may pass ``param``
        through ``*args``/``**kwargs``, or that leaves it to the default while others pass
        it, leaves the value unknown (and its default is then no answer either)."""
        # a def that has no such parameter is not the one (whisper's tokenizer property
        # ``transcribe`` beside the ``transcribe()`` function)
        defs = [d for d in self.params.get(callee, []) if param in dict(d.params)]
        if depth > 3 or len(defs) != 1:
            return None, True
        positional = list(defs[0].positional)
        found: list[tuple[str, Where]] = []
        defaulted = False
        for call in self.calls.get(callee, []):
            shift = 1 if positional[:1] == ["self"] and (call.via or callee[:1].isupper()) else 0
            index = positional.index(param) - shift if param in positional else -1
            arg = call.keywords.get(param) or (
                call.args[index] if 0 <= index < len(call.args) else None
            )
            if arg is None and "**" in call.keywords:
                option = _one(self.options.get(param, []), f"argparse --{param}")
                if option is None:
                    return None, False
                found.append((option, call.where))
                continue
            if arg is None or arg.kind == "Starred":
                if call.spread:
                    return None, False
                defaulted = True
                continue
            if _numeric(arg):
                found.append((arg.text, call.where))
                continue
            known = self.value(call.caller_cls, arg.text, call.caller, depth + 1)
            if known is None:
                return None, False  # a call that passes something unknown: no single value
            # a parameter handed on under its own name reads once (``low_text = args.low_text``)
            found.append((known if arg.text == param else f"{arg.text} = {known}", call.where))
        if found and defaulted:
            return None, False
        return _one(found, f"{param} of {callee}()"), True


def _argparse_dict(values: FileValues, function: int, expr: Expr) -> bool:
    """``expr`` is a name function ``function`` binds to the parsed command line as a dict
    (``args = parser.parse_args().__dict__``, ``vars(parser.parse_args())``)."""
    if expr.kind != "Name" or function < 0:
        return False
    for a in values.defs[function].assigns:
        if a.target.kind == "Name" and a.target.name == expr.name:
            text = a.value.full()
            if "parse_args(" in text and (text.endswith(".__dict__") or text.startswith("vars(")):
                return True
    return False


def _bound(assigns: Iterable[AssignValues]) -> dict[str, Expr]:
    """Names a scope binds to a number (``image_size = 1024``), by name."""
    return {
        a.target.name: a.value for a in assigns if a.target.kind == "Name" and _numeric(a.value)
    }


def _numeric(expr: Expr) -> bool:
    """A number, or a list or tuple of numbers (a mean, a size, a threshold)."""
    return is_numeric(literal_value(expr))


def _one(found: Sequence[tuple[str, Where]], what: str) -> str | None:
    """The value when every place agrees on one, with the first place that says it."""
    texts = {text for text, _ in found}
    if len(texts) != 1:
        return None
    text, where = min(found, key=lambda f: (f[1].path, f[1].line))
    return f"{text} ({what} at {where.path}:{where.line})"


def _last_name(text: str) -> str | None:
    """``self.interpolate_antialias`` → ``interpolate_antialias``; ``x`` → ``x``; None for
    anything that is not a name or ``self.<name>``."""
    head, dot, tail = text.partition(".")
    if not dot:
        return head if head.isidentifier() else None
    return tail if head == "self" and tail.isidentifier() else None


def _given(
    values: FileValues, stored_attrs: Iterable[str], skip: Sequence[tuple[int, int]] = ()
) -> Iterable[tuple[str, Expr | None]]:
    """(name, the value it is given; None where unknown) of every default, keyword argument,
    literal dict key and assignment of one file's value records; ``stored_attrs``: the
    attribute names the file stores (:attr:`~apiscan.extract.records.FileAnalysis.stored_attrs`);
    ``skip``: the (first, last line) of the defs whose values are left out."""

    def skipped(line: int) -> bool:
        return any(a <= line <= z for a, z in skip)

    assigns = [a for d in values.defs for a in d.assigns] + list(values.assigns)
    assigns = [a for a in assigns if not skipped(a.line)]
    for d in values.defs:
        if skipped(d.line):
            continue
        for name, default in d.params:
            if name != "self":
                yield name, default
    own = set()
    for a in assigns:
        for name, value in _assigned(a.target, a.value):
            own.add(name)
            yield name, value
    # ``m.x = ...``, a tuple target (``m.x, m.y = ...``) or an augmented assignment the
    # records do not keep: the value is not known
    for attr in stored_attrs:
        if attr not in own:
            yield attr, None
    roots = [call.expr for call in values.calls if not skipped(call.expr.line)]
    roots += [a.value for a in assigns]
    for root in roots:
        for e in root.walk():
            if e.kind == "keyword" and e.name:
                yield e.name, e.target
            elif e.kind == "Dict":
                for key, item in zip(e.keys, e.items, strict=True):
                    if key is not None:
                        yield key, item


def _assigned(target: Expr, value: Expr) -> Iterable[tuple[str, Expr | None]]:
    if target.kind == "Name" or (target.kind == "Attribute" and target.target.text == "self"):
        yield target.name, value


def dataclass_settings(
    files: Iterable[tuple[FileAnalysis, FileValues]], documented: Iterable[Sequence[str]] = ()
) -> dict[str, set[object]]:
    """``config:<section>.<field>`` -> {the field's default} for the settings of a config
    written as nested dataclasses (fairseq's ``FairseqConfig`` holding ``common:
    CommonConfig = CommonConfig()``, whose ``model_parallel_size: int = field(default=1)``
    a test reads as ``cfg.common.model_parallel_size``): what such a test reads when the run
    gives the setting no value of its own. A field a ``documented`` command names (its words:
    ``--model-parallel-size 2``, ``common.fp16=true``) is left out, its value unknown; so is
    one whose default is no literal (an interpolation, a factory)."""
    fields: dict[str, dict[str, Expr]] = {}
    for _fa, values in files:
        for d in values.defs:
            if not d.is_class:
                continue
            own = {
                a.target.name: a.value
                for a in d.assigns
                if a.annotated and a.target.kind == "Name" and a.value is not None
            }
            if own:
                fields.setdefault(d.name, {}).update(own)
    named = set()
    for words in documented:
        for word in words:
            key = word.lstrip("-").partition("=")[0].rpartition(".")[2].replace("-", "_")
            if key and (word.startswith("--") or "=" in word):
                named.add(key)
    out: dict[str, set[object]] = {}
    for own in fields.values():
        for section, value in own.items():
            inner = fields.get(_built_class(value) or "")
            if inner is None:
                continue
            for name, default in inner.items():
                literal = _field_default(default)
                if literal is not _NO_LITERAL and name not in named:
                    out.setdefault(f"config:{section}.{name}", set()).add(literal)
    return out


#: A field default that is no literal.
_NO_LITERAL = object()


def _built_class(value: Expr) -> str | None:
    """The class a field's default builds: ``CommonConfig()``, ``field(default_factory=
    CommonConfig)``."""
    if value.kind != "Call":
        return None
    if value.func.kind == "Name" and value.func.name == "field":
        factory = next((k.target for k in value.keywords if k.name == "default_factory"), None)
        return factory.name if factory is not None and factory.kind == "Name" else None
    return value.func.name if value.func.kind in ("Name", "Attribute") else None


def _field_default(value: Expr) -> object:
    """The literal a field defaults to (``= 1``, ``field(default=1)``), else
    :data:`_NO_LITERAL`."""
    if value.kind == "Call" and value.func.kind == "Name" and value.func.name == "field":
        value = next((k.target for k in value.keywords if k.name == "default"), None)  # type: ignore[assignment]
        if value is None:
            return _NO_LITERAL
    if value.kind == "Constant" and not isinstance(value.value, bytes):
        return value.value
    return _NO_LITERAL
