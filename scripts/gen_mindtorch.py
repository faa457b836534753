"""Which PyTorch APIs MindTorch provides, read statically from its wheel.

MindTorch (``mindtorch`` on PyPI, the MindSpore team's PyTorch-API layer) runs much PyTorch
code unchanged through ``mindtorch.torch``. This script reads the wheel with ``ast`` — it never
imports it (its pins conflict with ours, and importing would run its MindSpore patches) — and
writes the public names each ``mindtorch.torch`` module exports, spelled as the torch names
they stand for (``mindtorch.torch.nn.functional.relu`` → ``torch.nn.functional.relu``), plus
the methods of the classes they export (``torch.Tensor.view``, ``torch.nn.Module.eval``).

    python scripts/gen_mindtorch.py                      # pip download, then generate
    python scripts/gen_mindtorch.py --wheel PATH.whl     # from a local wheel
    python scripts/gen_mindtorch.py --wheel PATH.whl --check   # exit 1 if the data differs

Exports follow ``__all__`` when a module spells it out (lists, ``+=``, ``.extend`` and other
modules' ``__all__``), else every public top-level name; ``from .x import *`` chains are
followed to a fixed point. Dynamic registration (``setattr`` in loops) is not seen: the data
is a lower bound, which the report says.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

VERSION = "0.4.0"
OUT = (
    Path(__file__).resolve().parents[1] / "mapping_data" / "mindtorch" / f"mindtorch-{VERSION}.json"
)
PREFIX = "mindtorch/torch/"


def _module_name(path: str) -> str:
    rel = path[len(PREFIX) :].removesuffix(".py").replace("/", ".")
    rel = rel.removesuffix("__init__").rstrip(".")
    return "torch" + ("." + rel if rel else "")


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """An import's absolute module within the torch namespace."""
    if level == 0:
        target = name or ""
        return (
            "torch" + target[len("mindtorch.torch") :]
            if target.startswith("mindtorch.torch")
            else target
        )
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([name] if name else []))


class ModuleInfo:
    def __init__(self, name: str, is_package: bool, tree: ast.Module) -> None:
        self.name = name
        self.is_package = is_package
        self.public: set[str] = set()
        self.all: set[str] | None = None
        self.all_refs: list[str] = []  # other modules whose __all__ this one's includes
        self.stars: list[str] = []
        self.imported: dict[str, tuple[str, str]] = {}  # local name -> (module, name)
        self.classes: dict[str, set[str]] = {}
        self.bases: dict[str, list[str]] = {}
        self._read(tree)

    def _names(self, node: ast.AST) -> set[str] | None:
        if isinstance(node, ast.List | ast.Tuple):
            values = {
                e.value
                for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
            return values
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self._names(node.left), self._names(node.right)
            return (left or set()) | (right or set())
        if isinstance(node, ast.Attribute) and node.attr == "__all__":
            ref = self._ref(node.value)
            if ref:
                self.all_refs.append(ref)
            return set()
        return None

    def _ref(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name) and node.id in self.imported:
            module, name = self.imported[node.id]
            return f"{module}.{name}" if name else module
        return ""

    def _read(self, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.public.add(node.name)
            elif isinstance(node, ast.ClassDef):
                self.public.add(node.name)
                self.bases[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
                self.classes[node.name] = {
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                    and not item.name.startswith("_")
                } | {
                    t.id
                    for item in node.body
                    if isinstance(item, ast.Assign)
                    for t in item.targets
                    if isinstance(t, ast.Name) and not t.id.startswith("_")
                }
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        if target.id == "__all__":
                            self.all = (self.all or set()) | (self._names(node.value) or set())
                        else:
                            self.public.add(target.id)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                if node.target.id == "__all__":
                    self.all = (self.all or set()) | (self._names(node.value) or set())
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                func = node.value.func
                if (
                    isinstance(func, ast.Attribute)
                    and func.attr in ("extend", "append")
                    and isinstance(func.value, ast.Name)
                    and func.value.id == "__all__"
                    and node.value.args
                ):
                    arg = node.value.args[0]
                    if func.attr == "append" and isinstance(arg, ast.Constant):
                        self.all = (self.all or set()) | {str(arg.value)}
                    else:
                        self.all = (self.all or set()) | (self._names(arg) or set())
            elif isinstance(node, ast.ImportFrom):
                module = _resolve(self.name, self.is_package, node.level, node.module)
                for alias in node.names:
                    if alias.name == "*":
                        self.stars.append(module)
                    else:
                        local = alias.asname or alias.name
                        self.imported[local] = (module, alias.name)
                        self.public.add(local)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    self.imported[local] = (_resolve(self.name, False, 0, alias.name), "")


def _exports(modules: dict[str, ModuleInfo]) -> dict[str, set[str]]:
    """Each module's exported names, star imports followed to a fixed point."""
    out: dict[str, set[str]] = {}
    for name, info in modules.items():
        if info.all is not None:
            out[name] = set(info.all)
        else:
            out[name] = {n for n in info.public if not n.startswith("_")}
    changed = True
    while changed:
        changed = False
        for name, info in modules.items():
            extra: set[str] = set()
            for star in info.stars:
                extra |= out.get(star, set())
            if info.all is not None:
                for ref in info.all_refs:
                    extra |= out.get(ref, set())
                extra = extra if info.all is None else (extra & (info.all | extra))
            if not extra <= out[name]:
                out[name] |= extra
                changed = True
    return out


def _origin(
    modules: dict[str, ModuleInfo], module: str, name: str, seen: set[str]
) -> tuple[str, str] | None:
    """Where a class exported by ``module`` is defined (to list its methods)."""
    if module in seen or module not in modules:
        return None
    seen.add(module)
    info = modules[module]
    if name in info.classes:
        return module, name
    if name in info.imported:
        src, orig = info.imported[name]
        return _origin(modules, src, orig or name, seen)
    for star in info.stars:
        found = _origin(modules, star, name, seen)
        if found:
            return found
    return None


def _methods(modules: dict[str, ModuleInfo], module: str, name: str, depth: int) -> set[str]:
    """The public methods of a class exported by ``module``, with those it inherits from the
    package's private classes (a public base lists its methods under its own name, the way
    the scan names them: ``torch.nn.Module.eval``, not ``torch.nn.Conv2d.eval``)."""
    origin = _origin(modules, module, name, set())
    if origin is None or depth > 8:
        return set()
    src, cls = origin
    found = set(modules[src].classes[cls])
    for base in modules[src].bases.get(cls, []):
        if base.startswith("_"):
            found |= _methods(modules, src, base, depth + 1)
    return found


def generate(wheel: Path) -> dict[str, object]:
    modules: dict[str, ModuleInfo] = {}
    with zipfile.ZipFile(wheel) as archive:
        for path in sorted(archive.namelist()):
            if not (path.startswith(PREFIX) and path.endswith(".py")):
                continue
            source = archive.read(path).decode("utf-8", errors="replace")
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            name = _module_name(path)
            modules[name] = ModuleInfo(name, path.endswith("__init__.py"), tree)
    exports = _exports(modules)
    apis: set[str] = set()
    for module, names in exports.items():
        if any(part.startswith("_") for part in module.split(".")[1:]):
            continue
        for name in names:
            apis.add(f"{module}.{name}")
            apis.update(f"{module}.{name}.{m}" for m in _methods(modules, module, name, 0))
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    return {
        "package": "mindtorch",
        "version": VERSION,
        "wheel": wheel.name,
        "wheel_sha256": digest,
        "method": "static: ast over mindtorch/torch/**.py (never imported); exports follow "
        "__all__ or public top-level names, star imports followed; a lower bound",
        "apis": sorted(apis),
    }


def _download(into: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            f"mindtorch=={VERSION}",
            "-d",
            str(into),
            "-q",
        ],
        check=True,
    )
    return next(into.glob("mindtorch-*.whl"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="a local mindtorch wheel (else pip download)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped data differs")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or _download(Path(tmp))
        data = generate(wheel)
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date: run scripts/gen_mindtorch.py", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date ({len(data['apis'])} APIs)")  # type: ignore[arg-type]
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}: {len(data['apis'])} APIs")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
