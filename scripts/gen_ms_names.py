"""Record the public names of the installed MindSpore, for name-based candidates.

    python scripts/gen_ms_names.py           # writes mapping_data/ms_api/mindspore-<v>.json
    python scripts/gen_ms_names.py --check   # exit 1 when the file differs from a fresh run

The mapping tables leave out many everyday APIs (``Tensor.clone``, ``Tensor.add_``,
``torch.float32``). When MindSpore has an API of the same name in ``mint``, ``ops``, ``nn``
or ``Tensor``, the scan reports it as a *candidate* (and *verified* once a micro-test
passes). The scan must not import MindSpore, so this script lists, once per MindSpore
version, the public names of each namespace a candidate may come from, with each name's kind
(``class``, ``primitive``, ``function``, ``method``, ``property``, ``constant``) and positional
arity (required, maximum; -1 for ``*args``) and parameter names, so that a candidate is only
ever of the PyTorch API's own kind (``torch.Size`` is a class; ``mindspore.ops.Size`` a
primitive; ``mindspore.nn.CosineSimilarity`` a ``metric``, not the layer
``torch.nn.CosineSimilarity`` is) and takes related parameters. Attributes a class's
instances get in ``__init__`` (``nn.Cell().training``) are listed too.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from apiscan.mapping.candidates import FORMAT_VERSION, NAMESPACES  # noqa: E402


def public_names(namespace: str) -> dict[str, dict[str, object]]:
    """Public attributes of a module or class (``mindspore.Tensor`` methods): name → kind and
    positional arity."""
    module_name, _, attr = namespace.partition(":")
    obj = importlib.import_module(module_name)
    if attr:
        obj = getattr(obj, attr)
    names = set(getattr(obj, "__all__", ()) or ()) if inspect.ismodule(obj) else set()
    names.update(n for n in dir(obj) if not n.startswith("_"))
    out: dict[str, dict[str, object]] = {}
    for name in sorted(names):
        entry = _describe(obj, name, member=bool(attr))
        if entry is not None:
            out[name] = entry
    if attr and inspect.isclass(obj):
        for name in _instance_attributes(obj):
            out.setdefault(name, {"k": "constant"})
    return dict(sorted(out.items()))


def _instance_attributes(cls: type) -> list[str]:
    """Public attributes an instance gets in ``__init__`` (``nn.Cell().training``), which
    ``dir(cls)`` cannot see; none when the class needs constructor arguments."""
    try:
        instance = cls()
    except Exception:
        return []
    return sorted(n for n in vars(instance) if not n.startswith("_"))


def _describe(owner: object, name: str, member: bool) -> dict[str, object] | None:
    try:
        value = getattr(owner, name)
    except Exception:
        return None
    if inspect.ismodule(value):
        return None
    if member:
        raw = inspect.getattr_static(owner, name, None)
        if isinstance(raw, (property, functools.cached_property)):
            return {"k": "property"}
        if callable(value) and not inspect.isclass(value):
            drop = not isinstance(raw, staticmethod)
            return _with_arity({"k": "method"}, value, drop_first=drop and _unbound(raw))
        return {"k": "class" if inspect.isclass(value) else "constant"}
    if inspect.isclass(value):
        primitive = importlib.import_module("mindspore.ops").Primitive
        # an evaluation metric (``mindspore.nn.CosineSimilarity``, ``Accuracy``) is no layer:
        # it accumulates over batches and is read by ``eval()``, never called in the network,
        # so it stands for no PyTorch class of the same name (``torch.nn.CosineSimilarity``)
        metric = importlib.import_module("mindspore.train").Metric
        kind = (
            "primitive"
            if issubclass(value, primitive)
            else "metric"
            if issubclass(value, metric)
            else "class"
        )
        return _with_arity({"k": kind}, value, drop_first=False)
    if callable(value):  # functions, and primitive instances used as functions (ops.dtype)
        return _with_arity({"k": "function"}, value, drop_first=False)
    return {"k": "constant"}


def _unbound(raw: object) -> bool:
    """Whether the class attribute takes `self` (a plain function, not a C method wrapper
    whose signature already omits it)."""
    return inspect.isfunction(raw)


def _with_arity(entry: dict[str, object], value: object, drop_first: bool) -> dict[str, object]:
    try:
        signature = inspect.signature(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return entry
    params = list(signature.parameters.values())
    if drop_first and params:
        params = params[1:]
    positional = [
        p
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    required = sum(1 for p in positional if p.default is inspect.Parameter.empty)
    var = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
    entry["a"] = [required, -1 if var else len(positional)]
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        # The parameter names, so that a same name with unrelated parameters
        # (Tensor.unfold(kernel_size, ...) is im2col; torch's unfold(dimension, size, step))
        # is no candidate. Left out when **kwargs accepts any name.
        entry["n"] = [p.name for p in params if p.kind is not inspect.Parameter.VAR_POSITIONAL]
    return entry


def build() -> dict[str, object]:
    mindspore = importlib.import_module("mindspore")
    return {
        "format": FORMAT_VERSION,
        "mindspore_version": mindspore.__version__,
        "namespaces": {ns: public_names(ns) for ns in NAMESPACES},
    }


def render(data: dict[str, object]) -> str:
    """One name a line (readable diffs when MindSpore changes), keys sorted."""
    namespaces = data["namespaces"]
    assert isinstance(namespaces, dict)
    blocks = []
    for ns in sorted(namespaces):
        lines = [
            f"{json.dumps(name)}:{json.dumps(entry, sort_keys=True, separators=(',', ':'))}"
            for name, entry in sorted(namespaces[ns].items())
        ]
        blocks.append(f"{json.dumps(ns)}:{{\n" + ",\n".join(lines) + "\n}")
    head = (
        f'"format":{data["format"]},\n"mindspore_version":{json.dumps(data["mindspore_version"])}'
    )
    return "{\n" + head + ',\n"namespaces":{\n' + ",\n".join(blocks) + "\n}\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "mapping_data")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    data = build()
    path = args.data_dir / "ms_api" / f"mindspore-{data['mindspore_version']}.json"
    text = render(data)
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path} is stale: run scripts/gen_ms_names.py", file=sys.stderr)
            return 1
        print(f"{path} is up to date")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    counts = ", ".join(f"{ns} {len(v)}" for ns, v in data["namespaces"].items())  # type: ignore[attr-defined]
    print(f"wrote {path}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
