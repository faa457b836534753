"""What an input goes through around the network, read from one file's syntax.

An inference-only repository has no augmentation pipeline, but its inference path still
prepares every input and reads every output in ways a port must reproduce exactly: the image
is scaled so its longer side has a fixed length, standardised with the training set's mean
and standard deviation, padded up to the network's square input, and the masks are upscaled
back to the original size and cut at a logit threshold. These steps are often written as
plain arithmetic in a model method (``(x - self.pixel_mean) / self.pixel_std``,
``F.pad(x, (0, side - w, 0, side - h))``, ``long_side / max(h, w)``), not as a ``Compose``
the recipe could show, so the worker records them here as :class:`InputStep` records. The
literals a step names (a buffer's constructor argument, a class-level threshold) are read by
the review from the value records the worker writes for the recipe
(:mod:`apiscan.extract.values`, :mod:`apiscan.review.inference`); nothing here follows a value
beyond its function.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from apiscan.extract.syntax import callee_name, own_body, single_target, walk_nodes

#: A name read as a mean or a standard deviation (``pixel_mean``, ``self.std``, ``MEAN``).
_MEAN = re.compile(r"mean", re.IGNORECASE)
_STD = re.compile(r"std|sigma|variance", re.IGNORECASE)
#: A parameter a comparison or ``cv2.threshold`` cuts an output at (``text_threshold``).
_THRESHOLD = re.compile(r"thresh|thr$|^low_|cutoff", re.IGNORECASE)
#: An interpolation target named after the input's original size (``original_size``).
_ORIGINAL = re.compile(r"orig", re.IGNORECASE)
#: An image's height or width (``h``, ``oldw``, ``height``, ``img.shape[1]``, ``self.w``).
_SIDE = re.compile(
    r"(?:[\w.]*\.)?(?:old|new|in|src|img|image)?_?(?:h|w|height|width)|[\w.]+\.shape\[-?\d\]",
    re.IGNORECASE,
)

_FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
#: A node → its source on one line.
_Text = Callable[[ast.AST], str]


@dataclass(frozen=True, slots=True)
class InputStep:
    """One step of the inference path written as code, not as a transform class.

    ``kind``: ``normalise`` (refs: the mean's and the std's text), ``pad`` (refs: the size
    padded up to), ``resize`` (refs: the fixed size an input is interpolated to),
    ``long_side`` (refs: the length the longer side is scaled to),
    ``long_side_capped`` (refs: the ratio the longer side is magnified by, the length it is
    capped at), ``pad_multiple`` (refs: the multiple each side is padded up to),
    ``threshold`` (refs: the class attribute or the parameter compared with), ``upscale``
    (refs: the size interpolated to); and a generator's decoding (:func:`_decode_steps`):
    ``sampling`` (refs: ``name = default`` of each sampling parameter the function reads,
    or each sampling setting a class holds),
    ``draw`` (refs: the ops of the draw: ``sort``, ``cumsum``, ``topk``, ``multinomial``),
    ``precision`` (refs: the dtype set as every tensor's default), ``sharded_checkpoint``
    (refs: the file pattern, the rank index), ``non_strict_load`` (refs: ``strict=False``),
    ``loop_sync`` (refs: the condition read on the host), ``step_read`` (refs: the values a
    method the decode loop calls each step reads on the host), ``growing_cache`` (refs: the
    position the cache is written at)."""

    kind: str
    function: str  # qualified name of the def it is in ("Cls.method")
    line: int
    text: str  # the expression's source, on one line
    refs: tuple[str, ...] = ()


def read_input_steps(
    tree: ast.Module,
    qualname: Mapping[ast.AST, str],
    text_of: _Text,
    own: Callable[[ast.AST], Sequence[ast.AST]] = own_body,
    walk: Callable[[ast.AST], Sequence[ast.AST]] = walk_nodes,
) -> tuple[InputStep, ...]:
    """The steps of one file (module docstring); ``qualname`` names every def and class,
    ``text_of`` gives a node's source on one line, ``own`` a function's own body
    (:func:`~apiscan.extract.syntax.own_body`, or the same list the value records read)
    and ``walk`` a node's subtree (``ast.walk``'s order), on children listed once."""
    numbers: dict[str, frozenset[str]] = {}
    for node, name in qualname.items():
        if isinstance(node, ast.ClassDef):
            first_def = _first_def(node)
            numbers[name] = frozenset(
                target.id
                for stmt in node.body
                if stmt.lineno < first_def
                for target in [single_target(stmt)]
                if isinstance(target, ast.Name) and _literal(getattr(stmt, "value", None))
            )
    steps: list[InputStep] = []
    for node, name in qualname.items():
        if isinstance(node, ast.ClassDef):
            steps += _class_sampling(node, name, text_of)
        elif isinstance(node, _FuncDef):
            cls = numbers.get(name.rpartition(".")[0], frozenset())
            steps += _function_steps(node, name, text_of, cls, own(node), walk)
    steps += _called_step_reads(qualname, text_of, walk)
    steps.sort(key=lambda s: (s.line, s.kind, s.text))
    return tuple(steps)


#: Method calls that read a tensor's values back on the host (``x.item()``, ``x.tolist()``).
_VALUE_READ = frozenset({"item", "tolist"})


def _called_step_reads(
    qualname: Mapping[ast.AST, str],
    text_of: _Text,
    walk: Callable[[ast.AST], Sequence[ast.AST]] = walk_nodes,
) -> Iterator[InputStep]:
    """The host reads of the file's methods a decode loop calls once per step (Whisper's
    ``self.decoder.update(tokens, logits, sum_logprobs)`` in the loop that runs
    ``self.inference.logits``, its beam search reading ``tokens[idx].tolist()`` and
    ``(sum_logprobs[idx] + logprob).item()``; a logit filter's ``apply`` reading
    ``sampled_tokens.tolist()``): the device waits for the host once per generated token,
    as for a stop test read on the host. One step per method, at its first read, its reads
    as the refs; the loop's own stop test is :func:`_loop_syncs`'."""
    methods: dict[str, list[tuple[str, list[ast.Call]]]] = {}
    loops: list[tuple[str, ast.For | ast.While]] = []
    # the file's classes built into each attribute of ``self`` (``self.search =
    # BeamSearch(...)``, or either side of an ``if``): a call through it reaches their methods
    held: dict[str, set[str]] = {}
    for node in qualname:
        if not isinstance(node, _FuncDef):
            continue
        for n in walk(node):
            target = single_target(n) if isinstance(n, ast.Assign) else None
            value = n.value if isinstance(n, ast.Assign) else None
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
            ):
                held.setdefault(target.attr, set()).add(value.func.id)
    for node, name in qualname.items():
        if not isinstance(node, _FuncDef):
            continue
        reads = [
            n
            for n in walk(node)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in _VALUE_READ
            and not n.args
        ]
        if reads and "." in name:
            methods.setdefault(node.name, []).append((name, reads))
        loops += [(name, n) for n in walk(node) if isinstance(n, ast.For | ast.While)]
    if not methods:
        return
    seen: set[str] = set()
    for name, loop in loops:
        body = [n for stmt in loop.body for n in ast.walk(stmt)]
        calls = [n for n in body if isinstance(n, ast.Call)]
        if not any(_NETWORK_CALL.search(_dotted(c.func)) for c in calls):
            continue
        for call in calls:
            func = call.func
            if not isinstance(func, ast.Attribute) or _NETWORK_CALL.search(_dotted(func)):
                continue
            receiver = func.value
            owners = (
                held.get(receiver.attr)
                if isinstance(receiver, ast.Attribute)
                and isinstance(receiver.value, ast.Name)
                and receiver.value.id == "self"
                else None
            )
            for qual, reads in methods.get(func.attr, ()):
                if qual in seen or qual == name:
                    continue
                if owners and qual.rpartition(".")[0].rpartition(".")[2] not in owners:
                    continue  # another class's method of that name
                seen.add(qual)
                texts = tuple(dict.fromkeys(text_of(r) for r in reads))
                yield InputStep(
                    "step_read",
                    qual,
                    reads[0].lineno,
                    f"{texts[0]} (each step of {name}, through {text_of(func)})",
                    texts[:3],
                )


def _first_def(cls: ast.ClassDef) -> int:
    """The line of the class's first method (its class-level values come before)."""
    return min((s.lineno for s in cls.body if isinstance(s, _FuncDef)), default=1 << 30)


def _function_steps(
    fn: _FuncDef,
    name: str,
    text_of: _Text,
    class_values: frozenset[str] = frozenset(),
    nodes: Sequence[ast.AST] | None = None,
    walk: Callable[[ast.AST], Sequence[ast.AST]] = walk_nodes,
) -> Iterator[InputStep]:
    """The steps in ``fn``; ``class_values``: the names its class binds to a number in its
    body (``mask_threshold: float = 0.0``), the only attributes a comparison is a
    threshold with (a count compared with ``self.beam_size`` is not); ``nodes``: its own
    body when already listed."""
    if nodes is None:
        nodes = own_body(fn)  # walked once, read by each detector below
    assigned: dict[str, ast.expr] = {}
    for node in nodes:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            assigned[node.targets[0].id] = node.value
    # names the function computes (``std, mean = torch.std_mean(w)``): a statistic of the
    # data itself, not the constants an input is prepared with
    computed = {
        n.id
        for node in nodes
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For)
        for n in walk(node.targets[0] if isinstance(node, ast.Assign) else node.target)
        if isinstance(n, ast.Name)
        and not isinstance(assigned.get(n.id), ast.Attribute | ast.Constant | ast.List | ast.Tuple)
    }
    yield from dict.fromkeys(_round_trip(fn, nodes, name, text_of))
    yield from _decode_steps(fn, nodes, name, text_of)
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    yield from _array_steps(nodes, name, text_of, assigned, computed, params)
    for node in nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            steps = _division(node, name, _local_text(text_of, assigned))
            yield from (s for s in steps if not computed.intersection(s.refs))
        elif isinstance(node, ast.Call):
            yield from _call_step(node, name, _local_text(text_of, assigned), assigned)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            ref = node.comparators[0]
            if (
                isinstance(node.ops[0], ast.Gt | ast.GtE)
                and isinstance(ref, ast.Attribute)
                and _self_attr(ref)
                and ref.attr in class_values
            ):
                yield InputStep("threshold", name, node.lineno, text_of(node), (ref.attr,))


def _array_steps(
    nodes: Sequence[ast.AST],
    name: str,
    text_of: _Text,
    assigned: Mapping[str, ast.expr],
    computed: set[str],
    params: set[str],
) -> Iterator[InputStep]:
    """The steps an image helper writes in numpy or plain arithmetic: ``img -= mean ...;
    img /= std ...`` (augmented assignments on one name), the longer side magnified by a
    ratio and capped (``target = mag_ratio * max(h, w)``, ``if target > size: target =
    size``, ``target / max(h, w)``), each side padded up to a multiple (``h + (32 - h %
    32)``), and an output cut at a threshold the function is given (``score < thresh``,
    ``cv2.threshold(score, low_text, 1, 0)``)."""
    ordered = sorted(
        (n for n in nodes if hasattr(n, "lineno")),
        key=lambda n: (n.lineno, n.col_offset),  # type: ignore[attr-defined]
    )
    subtracted: dict[str, ast.AugAssign] = {}
    multiples: set[str] = set()
    thresholds: set[str] = set()
    for node in ordered:
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            target = node.target.id
            if isinstance(node.op, ast.Sub):
                subtracted[target] = node
            elif isinstance(node.op, ast.Div) and target in subtracted:
                sub = subtracted.pop(target)
                mean = _named(sub.value, _MEAN, text_of)
                std = _named(node.value, _STD, text_of)
                if mean and std and not computed.intersection((mean, std)):
                    text = f"{text_of(sub)}; {text_of(node)}"
                    yield InputStep("normalise", name, node.lineno, text, (mean, std))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            capped = _capped_long_side(node, text_of, assigned, ordered)
            if capped:
                yield InputStep("long_side_capped", name, node.lineno, text_of(node), capped)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            multiple = _padded_multiple(node, text_of)
            if multiple and multiple not in multiples:
                multiples.add(multiple)
                yield InputStep("pad_multiple", name, node.lineno, text_of(node), (multiple,))
        elif (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.Lt | ast.LtE | ast.Gt | ast.GtE)
        ):
            sides = (node.left, node.comparators[0])
            for side in sides:
                if (
                    isinstance(side, ast.Name)
                    and side.id in params
                    and _THRESHOLD.search(side.id)
                    and side.id not in thresholds
                ):
                    thresholds.add(side.id)
                    yield InputStep("threshold", name, node.lineno, text_of(node), (side.id,))
        elif (
            isinstance(node, ast.Call)
            and callee_name(node) == "threshold"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Name)
            and node.args[1].id in params
            and node.args[1].id not in thresholds
        ):
            thresholds.add(node.args[1].id)
            yield InputStep("threshold", name, node.lineno, text_of(node), (node.args[1].id,))


def _named(value: ast.AST, pattern: re.Pattern[str], text_of: _Text) -> str | None:
    """The one name in ``value`` that reads as a mean (a std), ``np.array([mean[0] * 255,
    ...])`` → ``mean``; the whole text when it is itself such a chain (``self.mean``)."""
    if isinstance(value, ast.Name | ast.Attribute) and pattern.search(text_of(value)):
        return text_of(value)
    names = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and pattern.search(n.id)}
    return names.pop() if len(names) == 1 else None


def _capped_long_side(
    node: ast.BinOp, text_of: _Text, assigned: Mapping[str, ast.expr], ordered: Sequence[ast.AST]
) -> tuple[str, str] | None:
    """(ratio, cap) of ``length / max(h, w)`` where ``length = ratio * max(h, w)`` and an
    ``if length > cap: length = cap`` comes between: the longer side is magnified and capped,
    so each image keeps its own size."""
    length, right = node.left, node.right
    if not (isinstance(length, ast.Name) and _is_max_of_sides(right, text_of)):
        return None
    bound = assigned.get(length.id)
    if not (
        isinstance(bound, ast.BinOp)
        and isinstance(bound.op, ast.Mult)
        and _is_max_of_sides(bound.right, text_of)
    ):
        return None
    for other in ordered:
        if (
            isinstance(other, ast.If)
            and isinstance(other.test, ast.Compare)
            and len(other.test.ops) == 1
            and isinstance(other.test.ops[0], ast.Gt | ast.GtE)
            and isinstance(other.test.left, ast.Name)
            and other.test.left.id == length.id
        ):
            return text_of(bound.left), text_of(other.test.comparators[0])
    return None


def _is_max_of_sides(node: ast.AST, text_of: _Text) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "max"
        and len(node.args) == 2
        and all(_SIDE.fullmatch(text_of(arg)) for arg in node.args)
    )


def _padded_multiple(node: ast.BinOp, text_of: _Text) -> str | None:
    """``N`` of ``side + (N - side % N)``: a side padded up to the next multiple of N."""
    right = node.right
    if not (isinstance(right, ast.BinOp) and isinstance(right.op, ast.Sub)):
        return None
    rest = right.right
    if (
        isinstance(rest, ast.BinOp)
        and isinstance(rest.op, ast.Mod)
        and text_of(rest.left) == text_of(node.left)
        and text_of(rest.right) == text_of(right.left)
    ):
        return text_of(right.left)
    return None


def _local_text(text_of: _Text, assigned: Mapping[str, ast.expr]) -> _Text:
    """A name the function bound once to an attribute chain reads as that chain (``side =
    self.image_tower.side``): the literal behind it is found through the chain."""

    def text(node: ast.AST) -> str:
        if isinstance(node, ast.Name) and isinstance(assigned.get(node.id), ast.Attribute):
            return text_of(assigned[node.id])
        return text_of(node)

    return text


def _division(node: ast.BinOp, name: str, text_of: _Text) -> Iterator[InputStep]:
    left, right = node.left, node.right
    # (x - mean) / std
    if (
        isinstance(left, ast.BinOp)
        and isinstance(left.op, ast.Sub)
        and _MEAN.search(text_of(left.right))
        and _STD.search(text_of(right))
    ):
        refs = (text_of(left.right), text_of(right))
        yield InputStep("normalise", name, node.lineno, text_of(node), refs)
    # length / max(h, w), length * 1.0 / max(h, w)
    elif (
        isinstance(right, ast.Call)
        and isinstance(right.func, ast.Name)
        and right.func.id == "max"
        and len(right.args) == 2
        and not right.keywords
    ):
        length = left.left if isinstance(left, ast.BinOp) and _is_one(left.right) else left
        if isinstance(length, ast.Name | ast.Attribute) and all(
            _SIDE.fullmatch(text_of(arg)) for arg in right.args
        ):
            yield InputStep("long_side", name, node.lineno, text_of(node), (text_of(length),))


def _call_step(
    node: ast.Call, name: str, text_of: _Text, assigned: Mapping[str, ast.expr]
) -> Iterator[InputStep]:
    callee = node.func
    last = callee_name(node)
    if last in ("sub", "sub_") and isinstance(callee, ast.Attribute) and node.args:
        # x.sub(mean).div(std): the chain's outer call is the division
        return
    if last in ("div", "div_") and isinstance(callee, ast.Attribute) and node.args:
        inner = callee.value
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr in ("sub", "sub_")
            and inner.args
            and _MEAN.search(text_of(inner.args[0]))
            and _STD.search(text_of(node.args[0]))
        ):
            refs = (text_of(inner.args[0]), text_of(node.args[0]))
            yield InputStep("normalise", name, node.lineno, text_of(node), refs)
        return
    if last == "pad" and len(node.args) >= 2 and isinstance(node.args[1], ast.Tuple | ast.List):
        sizes = []
        for element in node.args[1].elts:
            value = assigned.get(element.id, element) if isinstance(element, ast.Name) else element
            if (
                isinstance(value, ast.BinOp)
                and isinstance(value.op, ast.Sub)
                and not isinstance(value.left, ast.Constant)
            ):
                sizes.append(text_of(value.left))
        if sizes:
            refs = tuple(dict.fromkeys(sizes))
            yield InputStep("pad", name, node.lineno, text_of(node), refs)
    elif last == "interpolate" and _ORIGINAL.search(text_of(_target(node))):
        yield InputStep("upscale", name, node.lineno, text_of(node), (text_of(_target(node)),))


def _target(call: ast.Call) -> ast.AST:
    """The size an ``interpolate``/``resize`` call is given (second argument or ``size=``)."""
    if len(call.args) >= 2:
        return call.args[1]
    return next((kw.value for kw in call.keywords if kw.arg == "size"), ast.Constant(None))


def _round_trip(
    fn: _FuncDef, nodes: Sequence[ast.AST], name: str, text_of: _Text
) -> Iterator[InputStep]:
    """An input resized to the network's fixed size and the output resized back to the
    input's own size in one function (``x = interpolate(x, size=(self.img_size,
    self.img_size))`` ... ``interpolate(depth, size=(H, W))`` with ``H, W`` from ``x.shape``):
    preprocessing and postprocessing around the network, not a layer of it."""
    if fn.name == "forward":
        return
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    shape_of: dict[str, str] = {}  # a name bound from a parameter's shape → the parameter
    calls: list[ast.Call] = []
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            base = node.value.value if isinstance(node.value, ast.Subscript) else node.value
            if (
                isinstance(base, ast.Attribute)
                and base.attr == "shape"
                and isinstance(base.value, ast.Name)
                and base.value.id in params
            ):
                for n in ast.walk(node.targets[0]):
                    if isinstance(n, ast.Name):
                        shape_of[n.id] = base.value.id
        elif isinstance(node, ast.Call) and callee_name(node) == "interpolate" and node.args:
            calls.append(node)
    fixed, back = [], []
    for call in calls:
        size = _target(call)
        parts = size.elts if isinstance(size, ast.Tuple | ast.List) else []
        source = call.args[0]
        if (
            parts
            and isinstance(source, ast.Name)
            and source.id in params
            and all(_self_attr(p) or isinstance(p, ast.Constant) for p in parts)
            and not all(isinstance(p, ast.Constant) for p in parts)
        ):
            fixed.append((call, source.id, parts))
        elif parts and all(isinstance(p, ast.Name) and p.id in shape_of for p in parts):
            back.append((call, {shape_of[p.id] for p in parts if isinstance(p, ast.Name)}))
    for call, source, parts in fixed:
        refs = tuple(dict.fromkeys(text_of(p) for p in parts))
        yield InputStep("resize", name, call.lineno, text_of(call), refs)
        for later, sources in back:
            if sources == {source} and later.lineno > call.lineno:
                refs = (text_of(_target(later)),)
                yield InputStep("upscale", name, later.lineno, text_of(later), refs)


def _is_one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in (1, 1.0)


#: A generator's sampling parameters (``temperature: float = 0.6``, ``top_p``, ``topk``).
_SAMPLING = re.compile(
    r"temperature|top_?[pk]|typical_p|repetition_penalty|beam_size|num_beams|best_of|"
    r"length_penalty",
    re.IGNORECASE,
)
#: The ops of a random draw from a distribution, as the draw's row names them.
_DRAW_OPS = ("sort", "cumsum", "topk", "multinomial")
#: A dtype of lower precision than float32, set as every tensor's default.
_LOW_PRECISION = re.compile(r"Half|float16|bfloat16|BFloat16")
#: Setters of the dtype every tensor is created with (``torch.set_default_dtype``).
_DEFAULT_DTYPE = frozenset({"set_default_tensor_type", "set_default_dtype"})
#: A file listing whose sorted result a rank indexes (``glob``, ``listdir``).
_LISTING = re.compile(r"glob|listdir|iterdir")
#: What a loop's body calls when it runs the network once per step (``self.model.forward``,
#: ``self.decoder(...)``, ``model(x)``).
_NETWORK_CALL = re.compile(r"(?:^|\.)(?:forward|model|decoder|net|logits)$|_model$", re.IGNORECASE)
#: Calls whose result is a tensor's value read back on the host (``all(eos)``, ``x.item()``).
_HOST_READ = frozenset({"all", "any", "item", "tolist", "bool"})


def _decode_steps(
    fn: _FuncDef, nodes: Sequence[ast.AST], name: str, text_of: _Text
) -> Iterator[InputStep]:
    """What a generator's inference path decides beyond the network, each a choice a port
    must reproduce or a shape a compiled graph meets: the sampling parameters the function
    reads with their defaults (``temperature: float = 0.6``, ``top_p: float = 0.9`` read in
    ``logits / temperature``; one forwarding them by keyword decides nothing), a draw from
    a distribution (``torch.multinomial`` after ``sort``/``cumsum``: nucleus sampling), a
    low-precision dtype set as every tensor's default (``torch.set_default_tensor_type(
    torch.cuda.HalfTensor)``), a checkpoint picked by rank from a sorted file listing (one
    shard per model-parallel rank) and loaded with ``strict=False``, a loop running the
    network once per step that reads a tensor on the host to stop (``if all(eos): break``),
    and a buffer of ``self`` written at a moving position and read up to it
    (``self.cache_k[:b, pos : pos + n] = xk`` ... ``self.cache_k[:b, : pos + n]``: a KV
    cache whose read grows by a step each call) or concatenated onto itself."""
    defaults = {p: d for p, d in _parameter_defaults(fn).items() if _SAMPLING.search(p)}
    if defaults:
        # read in the function or a closure of it (Whisper's ``decode_with_fallback``); a
        # name passed on under its own keyword (``temperature=temperature``) is forwarded,
        # not read: the function it is forwarded to decides
        inner = list(ast.walk(fn))
        forwarded = {
            id(k.value)
            for node in inner
            if isinstance(node, ast.Call)
            for k in node.keywords
            if isinstance(k.value, ast.Name) and k.value.id == k.arg
        }
        read = {
            n.id
            for n in inner
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in forwarded
        }
        used = tuple(f"{p} = {text_of(d)}" for p, d in defaults.items() if p in read)
        if used:
            yield InputStep("sampling", name, fn.lineno, f"def {fn.name}(...)", used)
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    names = {callee_name(c) for c in calls}
    draw = next((c for c in calls if _draws(c)), None)
    if draw is not None:
        ops = ", ".join(op for op in _DRAW_OPS if op in names) or text_of(draw.func)
        yield InputStep("draw", name, draw.lineno, text_of(draw), (ops,))
    listings = {
        target.id
        for node in nodes
        if isinstance(node, ast.Assign)
        for target in [single_target(node)]
        if isinstance(target, ast.Name)
        and any(_LISTING.search(callee_name(c)) for c in _calls_in(node.value))
    }
    for call in calls:
        callee = callee_name(call)
        if callee in _DEFAULT_DTYPE and call.args and _LOW_PRECISION.search(text_of(call.args[0])):
            yield InputStep("precision", name, call.lineno, text_of(call), (text_of(call.args[0]),))
        elif callee == "load_state_dict" and any(
            k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in call.keywords
        ):
            yield InputStep("non_strict_load", name, call.lineno, text_of(call), ("strict=False",))
    for node in nodes:
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in listings
            and not isinstance(node.slice, ast.Slice)  # ``files[rank::world]`` splits data
            and "rank" in text_of(node.slice).lower()
            and "load" in names  # the function loads what it picks
        ):
            yield InputStep(
                "sharded_checkpoint", name, node.lineno, text_of(node), (text_of(node.slice),)
            )
        elif isinstance(node, ast.For | ast.While):
            yield from _loop_syncs(node, name, text_of)
    yield from _growing_caches(nodes, name, text_of)


def _class_sampling(cls: ast.ClassDef, name: str, text_of: _Text) -> Iterator[InputStep]:
    """The sampling settings an options class holds as class-level defaults (Whisper's
    ``DecodingOptions``: ``temperature: float = 0.0``, ``beam_size: Optional[int] = None``),
    one step for the class."""
    found = []
    for stmt in cls.body:
        target = single_target(stmt)
        value = getattr(stmt, "value", None)
        if (
            isinstance(target, ast.Name)
            and _SAMPLING.search(target.id)
            and (isinstance(value, ast.Constant) or _literal(value))
        ):
            found.append(f"{target.id} = {text_of(value)}")
    if found:
        yield InputStep("sampling", name, cls.lineno, f"class {cls.name}", tuple(found))


def _draws(call: ast.Call) -> bool:
    """A random draw: ``torch.multinomial(...)``, or ``.sample()`` of a distribution built
    in the call (``Categorical(logits=...).sample()``)."""
    if callee_name(call) == "multinomial":
        return True
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "sample"
        and isinstance(func.value, ast.Call)
        and callee_name(func.value) in _DISTRIBUTIONS
    )


#: ``torch.distributions`` classes a token or a label is drawn from.
_DISTRIBUTIONS = frozenset({"Categorical", "Multinomial", "OneHotCategorical"})


def _parameter_defaults(fn: _FuncDef) -> dict[str, ast.expr]:
    """A function's parameters that have a literal default, with it."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    out = {
        a.arg: d
        for a, d in zip(
            positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
        )
    }
    out.update(
        {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
    )
    return {k: v for k, v in out.items() if isinstance(v, ast.Constant) or _literal(v)}


def _calls_in(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _loop_syncs(loop: ast.For | ast.While, name: str, text_of: _Text) -> Iterator[InputStep]:
    """``if <a tensor read on the host>: break`` in a loop whose body runs the network
    (:data:`_NETWORK_CALL`): the device waits for the host once per step."""
    body = [n for stmt in loop.body for n in ast.walk(stmt)]
    if not any(isinstance(n, ast.Call) and _NETWORK_CALL.search(_dotted(n.func)) for n in body):
        return
    for node in body:
        if (
            isinstance(node, ast.If)
            and any(isinstance(s, ast.Break) for s in node.body)
            and any(callee_name(c) in _HOST_READ for c in _calls_in(node.test))
        ):
            yield InputStep(
                "loop_sync",
                name,
                node.lineno,
                f"if {text_of(node.test)}: break",
                (text_of(node.test),),
            )


def _dotted(node: ast.AST) -> str:
    """``self.model.forward`` of an attribute chain of names ("" for anything else)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def _growing_caches(nodes: Sequence[ast.AST], name: str, text_of: _Text) -> Iterator[InputStep]:
    """A buffer of ``self`` written at a moving position (``self.k[:b, pos : pos + n] = x``,
    the slice's start a name, not a number) and read in the same function up to a bound
    that moves (``self.k[:b, : pos + n]``), or a store concatenating a value onto itself
    (``cache[m] = torch.cat([cache[m], out], dim=1)``): the tensor the network reads grows
    by a step each call. A slice of fixed bounds (``self.buf[:, 0:16] = x``) grows nothing.
    One step per function, its stores listed."""
    moving_reads: set[str] = set()
    for node in nodes:
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and _self_attr(node.value)
            and any(
                s.upper is not None and not _fixed(s.upper) and _fixed(s.lower)
                for s in _slices(node.slice)
            )
        ):
            moving_reads.add(text_of(node.value))
    stores: list[tuple[ast.Assign, str]] = []  # (the store, the position it is written at)
    for node in nodes:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Subscript):
            continue
        if _self_attr(target.value) and text_of(target.value) in moving_reads:
            starts = [s.lower for s in _slices(target.slice) if s.lower and not _fixed(s.lower)]
            if starts:
                stores.append((node, text_of(starts[0])))
        elif any(
            callee_name(c) == "cat"
            and c.args
            and isinstance(c.args[0], ast.List | ast.Tuple)
            and any(text_of(e) == text_of(target) for e in c.args[0].elts)
            for c in _calls_in(node.value)
        ):
            stores.append((node, ""))  # grows by concatenation: no position
    if stores:
        first, at = min(stores, key=lambda s: s[0].lineno)
        text = "; ".join(dict.fromkeys(text_of(n.targets[0] if p else n) for n, p in stores))
        yield InputStep("growing_cache", name, first.lineno, text, (at,) if at else ())


def _slices(index: ast.expr) -> list[ast.Slice]:
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return [p for p in parts if isinstance(p, ast.Slice)]


def _fixed(bound: ast.expr | None) -> bool:
    """No bound, a number, or a sum or difference of numbers and ``self`` attributes (a
    size the module holds): the same every call."""
    if bound is None or _literal(bound):
        return True
    if _self_attr(bound):
        return True
    if isinstance(bound, ast.BinOp):
        return _fixed(bound.left) and _fixed(bound.right)
    return False


def _self_attr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _literal(node: ast.AST | None) -> bool:
    """A number, or a list or tuple of numbers (a mean, a size, a threshold)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.Tuple | ast.List):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    return False
