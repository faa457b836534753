"""The fixed parts of the generated files, kept as plain text (no formatting fields).

Every generated file is self-contained (numpy, MindSpore, pytest, torch only): the engineer
copies it into the migrated project, where apiscan is not installed.
"""

from __future__ import annotations

#: Appended to every scaffold: calls ``_compute`` through ``ops.Custom`` (pyfunc).
STUB_PLUMBING = '''

# ---- Plumbing: calls _compute through ops.Custom. Nothing to edit below. -----------------


class _Slot:
    """Where a tensor argument sat: the index of its array among the op's inputs. (No
    builtin is used by name below: the public function may be called ``int`` or ``range``.)"""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index

    def __repr__(self):
        return f"<input {self.index}>"


def _strip(value, leaves):
    """``value`` with each tensor replaced by a _Slot (tensors go to ``leaves``)."""
    if isinstance(value, mindspore.Tensor):
        leaves.append(value)
        return _Slot(len(leaves) - 1)
    if isinstance(value, dict):
        return {k: _strip(v, leaves) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip(v, leaves) for v in value]
    if isinstance(value, tuple):  # named tuples too
        return tuple(_strip(v, leaves) for v in value)
    return value


def _fill(value, arrays):
    """The inverse of _strip, with numpy arrays where the tensors were."""
    if isinstance(value, _Slot):
        return arrays[value.index]
    if isinstance(value, dict):
        return {k: _fill(v, arrays) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, arrays) for v in value]
    if isinstance(value, tuple):
        return tuple(_fill(v, arrays) for v in value)
    return value


def _np_dtype(dtype):
    try:
        return np.dtype(str(dtype).lower())
    except TypeError:  # bfloat16 and other dtypes numpy lacks: leave the result as it is
        return None


def _as_declared(results, shapes, dtypes):
    """Check _compute's results against the declared outputs and convert them: MindSpore
    copies the raw buffer, so a wrong dtype fails and a wrong shape gives garbage."""
    if len(results) != len(shapes):
        raise ValueError(
            f"{API}: _compute returned {len(results)} outputs, _out_shape declares {len(shapes)}"
        )
    converted = []
    for i, (result, shape, dtype) in enumerate(zip(results, shapes, dtypes, strict=True)):
        result = np.asarray(result)
        if result.shape != shape:
            raise ValueError(
                f"{API}: _compute returned shape {result.shape} for output {i}, "
                f"_out_shape declares {shape}: fix _compute or _out_shape"
            )
        result = np.ascontiguousarray(result.reshape(shape or (1,)), dtype=_np_dtype(dtype))
        converted.append(result)
    return converted


_OPS = {}


def _run(args, kwargs):
    """Call _compute through ops.Custom: tensors (also inside lists, tuples and dicts) become
    the op's inputs; every other argument is bound into its Python function."""
    leaves = []
    template = _strip((args, kwargs), leaves)
    named = dict(zip(_POSITIONAL, args, strict=False))  # *args run longer
    named.update(kwargs)
    params = {k: v for k, v in named.items() if not _holds(v)}
    shapes = _declared(_out_shape(*[tuple(t.shape) for t in leaves], **params))
    dtypes = _declared(_out_dtype(*[t.dtype for t in leaves], **params))
    key = repr((template, shapes, [str(d) for d in dtypes]))
    op = _OPS.get(key)
    if op is None:
        op = _OPS[key] = _make_op(template, params, shapes, dtypes, len(leaves))
    outputs = op(*leaves)
    outputs = list(outputs) if _MULTI else [outputs]
    # pyfunc cannot output 0-d tensors: they travel as shape (1,) and are reshaped here.
    outputs = [o.reshape(()) if s == () else o for o, s in zip(outputs, shapes, strict=True)]
    return tuple(outputs) if _MULTI else outputs[0]


def _holds(value):
    """Whether ``value`` is or contains a tensor."""
    found = []
    _strip(value, found)
    return len(found) > 0


def _declared(rule_result):
    return (
        [tuple(r) if isinstance(r, list | tuple) else r for r in rule_result]
        if _MULTI
        else [tuple(rule_result) if isinstance(rule_result, list | tuple) else rule_result]
    )


def _make_op(template, params, shapes, dtypes, count):
    def pyfunc(*arrays):
        args, kwargs = _fill(template, arrays)
        result = _compute(*args, **kwargs)
        if result is NotImplemented:  # the placeholder: zeros of the declared outputs
            results = [np.zeros(s, _np_dtype(d)) for s, d in zip(shapes, dtypes, strict=True)]
        else:
            results = list(result) if _MULTI else [result]
        converted = _as_declared(results, shapes, dtypes)
        return tuple(converted) if _MULTI else converted[0]

    # MindSpore counts the op's inputs from the function's signature and rejects *args.
    pyfunc.__signature__ = inspect.Signature(
        [inspect.Parameter(f"x{i}", inspect.Parameter.POSITIONAL_ONLY) for i in np.arange(count)]
    )

    def out_shape(*input_shapes):
        declared = [s or (1,) for s in _declared(_out_shape(*input_shapes, **params))]
        return tuple(declared) if _MULTI else declared[0]

    def out_dtype(*input_dtypes):
        declared = _declared(_out_dtype(*input_dtypes, **params))
        return tuple(declared) if _MULTI else declared[0]

    return ops.Custom(pyfunc, out_shape=out_shape, out_dtype=out_dtype, func_type="pyfunc")
'''

#: Appended to every generated test: drawing inputs, calling both sides, comparing.
#: How a generated test draws its inputs from a sample spec (numpy only, as the test runs
#: where apiscan is not installed). The one definition of the drawing: the test carries this
#: text, and :func:`apiscan.stub.samples.draw` runs the same text to observe torch on the
#: same inputs with the same seed, so the values the test checks are the ones it draws.
DRAW = """def _draw(spec, rng):
    if isinstance(spec, dict) and "tensor" in spec:
        shape = tuple(spec["shape"])
        if spec["tensor"] == "bool":
            return rng.random(shape) < 0.5
        if spec["tensor"].startswith("int"):
            return rng.integers(int(spec["low"]), int(spec["high"]), shape).astype(spec["tensor"])
        array = rng.uniform(spec["low"], spec["high"], shape).astype(spec["tensor"])
        return np.sort(array, axis=-1) if spec.get("sorted") else array
    if isinstance(spec, dict):
        return {k: _draw(v, rng) for k, v in spec.items()}
    if isinstance(spec, list | tuple):
        return type(spec)(_draw(v, rng) for v in spec)
    return spec
"""

TEST_BODY = (
    '''

@pytest.fixture(scope="module")
def stub():
    """The scaffold, loaded from its file so the test runs from any directory."""
    import mindspore

    mindspore.set_device("CPU")
    spec = importlib.util.spec_from_file_location(f"apiscan_stub_{STUB_FILE.stem}", STUB_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("index", list(range(len(SAMPLES))) or [-1])
def test_matches_torch(stub, index):
    if index < 0:
        pytest.fail(
            f"{API}: no sample inputs ({NO_SAMPLE_REASON}). Fill SAMPLES in "
            f"{Path(__file__).name} with arguments torch accepts, then implement `_compute` "
            f"in {STUB_FILE}.",
            pytrace=False,
        )
    sample = SAMPLES[index]
    rng = np.random.default_rng(SEED)
    args = _draw(sample["args"], rng)
    kwargs = _draw(sample["kwargs"], rng)
    init = sample.get("init", {})
    where = f"sample {index} ({_describe(sample)})"
    try:
        expected, state = _torch_call(args, kwargs, init)
    except Exception as exc:  # noqa: BLE001 - reported below, outside the handler
        rejected = f"{type(exc).__name__}: {_first_lines(exc)}"
    else:
        rejected = ""
    if rejected:
        pytest.fail(
            f"{API}: PyTorch itself rejects {where}: {rejected}. Edit SAMPLES.", pytrace=False
        )
    try:
        got = _flatten(_stub_call(stub, args, kwargs, init, state))
    except Exception as exc:  # noqa: BLE001 - reported below, outside the handler
        problems = [f"the stub raised {type(exc).__name__}: {_first_lines(exc)}"]
    else:
        problems = _compare(_flatten(expected), got)
        if not problems and _is_placeholder(stub):
            problems = ["the outputs agree only because PyTorch returns zeros on this sample"]
    if problems:
        pytest.fail(_explain(stub, where, problems), pytrace=False)


def _explain(stub, where, problems):
    lines = [f"{API}: the MindSpore stub fails the comparison with PyTorch on {where}:"]
    lines += [f"  {p}" for p in problems]
    if _is_placeholder(stub):
        lines.append(
            f"`_compute` in {STUB_FILE} is still the generated placeholder (it returns "
            "NotImplemented, so the op outputs zeros). Implement it with numpy: it receives "
            f"the arguments of {API} with numpy arrays in place of tensors."
        )
    else:
        lines.append(f"Fix `_compute` (or `_out_shape`/`_out_dtype`) in {STUB_FILE}.")
    lines.append(f"Reference ({API}): {REFERENCE}")
    return "\\n".join(lines)


def _is_placeholder(stub):
    return "return NotImplemented" in inspect.getsource(stub._compute)


def _first_lines(exc):
    """MindSpore appends a C++ call stack after a dashed rule: the text before it is the
    message."""
    return " ".join(str(exc).split("\\n---", 1)[0].split())


def _compare(expected, got):
    """Element-wise |ms - torch| <= THRESHOLD * (1 + |torch|), NaN matching NaN."""
    if len(expected) != len(got):
        return [f"{len(expected)} outputs from PyTorch, {len(got)} from the stub"]
    problems = []
    for i, (ref, out) in enumerate(zip(expected, got, strict=True)):
        if ref.shape != out.shape:
            problems.append(
                f"output {i}: shape {ref.shape} from PyTorch, {out.shape} from the "
                "stub (see `_out_shape`)"
            )
            continue
        r, g = ref.astype(np.float64), out.astype(np.float64)
        if r.size == 0:
            continue
        both = ~(np.isnan(r) | np.isnan(g))
        delta = np.where(both, np.abs(g - r), 0.0)
        delta = np.where(np.isinf(r) & (r == g), 0.0, delta)
        nan_mismatch = bool(np.any(np.isnan(r) != np.isnan(g)))
        if nan_mismatch or not np.all(delta <= THRESHOLD * (1.0 + np.abs(r))):
            problems.append(
                f"output {i}: max abs difference {float(np.max(delta)):.6g}, mean "
                f"{float(np.mean(delta)):.6g} (allowed {THRESHOLD:g} * (1 + |torch|))"
                + ("; NaN on one side only" if nan_mismatch else "")
            )
    return problems


def _describe(sample):
    def one(spec):
        if isinstance(spec, dict) and "tensor" in spec:
            return f"{spec['tensor']}{list(spec['shape'])}"
        if isinstance(spec, list | tuple):
            return "[" + ", ".join(one(s) for s in spec) + "]"
        return repr(spec)

    parts = [one(a) for a in sample["args"]]
    parts += [f"{k}={one(v)}" for k, v in sample["kwargs"].items()]
    parts += [f"{k}={v!r}" for k, v in sample.get("init", {}).items()]
    return ", ".join(parts)


'''
    + DRAW
    + '''

def _convert(value, leaf):
    if isinstance(value, np.ndarray):
        return leaf(value)
    if isinstance(value, dict):
        return {k: _convert(v, leaf) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_convert(v, leaf) for v in value)
    return value


def _resolve(name):
    parts = name.split(".")
    obj = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], start=1):
        obj = (
            getattr(obj, part)
            if hasattr(obj, part)
            else importlib.import_module(".".join(parts[: i + 1]))
        )
    return obj


def _torch_call(args, kwargs, init):
    """The reference output, on copies of the inputs (in-place APIs must not touch them),
    and for a module its parameters and buffers, which the stub then receives."""
    import torch

    target = _resolve(API)
    args, kwargs = _convert(args, torch.tensor), _convert(kwargs, torch.tensor)
    with torch.no_grad():
        if KIND != "module":
            return target(*args, **kwargs), {}
        module = target(**init)
        module.eval()
        named = [*module.named_parameters(), *module.named_buffers()]
        state = {name: t.detach().numpy().copy() for name, t in named}
        return module(*args, **kwargs), state


def _stub_call(stub, args, kwargs, init, state):
    import mindspore

    target = getattr(stub, STUB_NAME)
    if KIND == "module":
        target = target(**init)
        target.set_train(False)
        for name, value in state.items():
            getattr(target, target._state[name]).set_data(mindspore.Tensor(value))
    return target(*_convert(args, mindspore.Tensor), **_convert(kwargs, mindspore.Tensor))


def _flatten(out):
    if isinstance(out, list | tuple):
        return [leaf for part in out for leaf in _flatten(part)]
    if hasattr(out, "asnumpy"):
        return [np.asarray(out.asnumpy())]
    if hasattr(out, "detach"):
        return [np.asarray(out.detach().numpy())]
    return [np.asarray(out)]
'''
)
