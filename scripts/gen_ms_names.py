"""Record the public names of the installed MindSpore, for name-based candidates.

    python scripts/gen_ms_names.py           # writes mapping_data/ms_api/mindspore-<v>.json
    python scripts/gen_ms_names.py --check   # exit 1 when the file differs from a fresh run

The mapping tables leave out many everyday APIs (``Tensor.clone``, ``Tensor.add_``,
``torch.float32``). When MindSpore has an API of the same name in ``mint``, ``ops``, ``nn``
or ``Tensor``, the scan reports it as a *candidate* (and *verified* once a micro-test
passes). The scan must not import MindSpore, so this script lists, once per MindSpore
version, the public names of each namespace a candidate may come from.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from apiscan.mapping.candidates import FORMAT_VERSION, NAMESPACES  # noqa: E402


def public_names(namespace: str) -> list[str]:
    """Public attribute names of a module or class (``mindspore.Tensor`` methods)."""
    module_name, _, attr = namespace.partition(":")
    obj = importlib.import_module(module_name)
    if attr:
        obj = getattr(obj, attr)
    names = set(getattr(obj, "__all__", ()) or ()) if inspect.ismodule(obj) else set()
    names.update(n for n in dir(obj) if not n.startswith("_"))
    return sorted(n for n in names if _exists(obj, n))


def _exists(obj: object, name: str) -> bool:
    try:
        value = getattr(obj, name)
    except Exception:
        return False
    return not inspect.ismodule(value)


def build() -> dict[str, object]:
    mindspore = importlib.import_module("mindspore")
    return {
        "format": FORMAT_VERSION,
        "mindspore_version": mindspore.__version__,
        "namespaces": {ns: public_names(ns) for ns in NAMESPACES},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO_ROOT / "mapping_data")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    data = build()
    path = args.data_dir / "ms_api" / f"mindspore-{data['mindspore_version']}.json"
    text = json.dumps(data, indent=0, sort_keys=True) + "\n"
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
