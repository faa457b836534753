"""Index torchvision's (torchaudio's, torchtext's) public API from its wheel, read as data.

The tables map torchvision rows (``torchvision.ops.nms``, ``torchvision.transforms.Resize``)
and apiscan must name those calls the way it names torch's. Importing torchvision is not an
option here: the PyPI wheel that matches torch 2.13.0 is built against CUDA torch (its ``_C.so``
links ``libtorch_cuda``), so it cannot load beside the CPU torch we pin, and installing it
would drag CUDA in. Its Python sources are enough: this script downloads the wheel with
``pip download --no-deps`` (or takes one with ``--wheel``), parses every public module with
``ast`` and writes ``mapping_data/torch_api/<package>-<version>.json`` in the torch index's
format, which ``apiscan.resolve.torch_api`` merges into the torch index.

What is public follows the torch generator: modules with no ``_`` segment; a module's names
are its ``__all__`` (else its public top-level definitions and package re-exports). A name is
followed through imports to the ``class``/``def`` that defines it; its canonical path is the
shallowest public module exporting it (``torchvision.ops.nms`` over
``torchvision.ops.boxes.nms``), every other path an alias. Classes get their public methods,
constructor parameters and public bases (torch bases come from the torch index, so a
torchvision ``nn.Module`` subclass has ``parameters``).

Usage: ``python scripts/gen_static_api.py torchvision==0.28.0 [--wheel PATH]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "mapping_data" / "torch_api"
FORMAT_VERSION = 1
#: The versions matching torch 2.13.0 (the pin): regenerate with these.
DEFAULT_SPECS = ("torchvision==0.28.0", "torchaudio==2.11.0")


@dataclass
class Module:
    name: str
    tree: ast.Module
    is_package: bool
    #: local name → dotted path it was imported from (absolute)
    imports: dict[str, str] = field(default_factory=dict)
    defs: dict[str, ast.AST] = field(default_factory=dict)
    #: modules `from M import *` reads (absolute)
    star_sources: list[str] = field(default_factory=list)


def public(path: str) -> bool:
    return not any(part.startswith("_") for part in path.split("."))


def read_modules(root: Path, package: str) -> dict[str, Module]:
    """Every module of the package (public or not: private ones define public names)."""
    modules: dict[str, Module] = {}
    for path in sorted((root / package).rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join(parts)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        module = Module(name, tree, is_package)
        base = name if is_package else name.rpartition(".")[0]
        for node in tree.body:
            _collect(module, node, base)
        modules[name] = module
    return modules


def _collect(module: Module, node: ast.stmt, base: str) -> None:
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        module.defs[node.name] = node
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name):
                module.defs.setdefault(target.id, node)
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        module.defs.setdefault(node.target.id, node)
    elif isinstance(node, ast.ImportFrom):
        source = node.module or ""
        if node.level:
            anchor = base
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            source = f"{anchor}.{source}" if source else anchor
        for alias in node.names:
            if alias.name == "*":
                module.star_sources.append(source)
            else:
                module.imports[alias.asname or alias.name] = f"{source}.{alias.name}"
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                module.imports[alias.asname] = alias.name
            else:
                top = alias.name.partition(".")[0]
                module.imports[top] = top
    elif isinstance(node, (ast.If, ast.Try)):
        for child in [*node.body, *getattr(node, "orelse", ()), *getattr(node, "finalbody", ())]:
            _collect(module, child, base)


def exported(module: Module, modules: dict[str, Module] | None = None) -> list[str]:
    """``__all__`` plus the public classes and functions the module defines (torch's own
    convention: a public name of a public module is API even when ``__all__`` omits it)."""
    defined = [
        name
        for name, node in module.defs.items()
        if not name.startswith("_") and isinstance(node, (ast.ClassDef, ast.FunctionDef))
    ]
    for node in module.tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            listed = _string_list(module, node.value)
            if listed is not None:
                return sorted({*listed, *defined})
    names = [n for n in module.defs if not n.startswith("_")]
    if module.is_package:
        names += [
            local
            for local, source in module.imports.items()
            if not local.startswith("_") and source.startswith(module.name + ".")
        ]
    for source in module.star_sources:
        other = (modules or {}).get(source)
        if other is not None and other is not module:
            names += exported(other, modules)
    return sorted(set(names))


def _string_list(module: Module, node: ast.expr, depth: int = 0) -> list[str] | None:
    """The strings of a literal list/tuple, of a module-level name bound to one, or of a sum
    of those (torchaudio.models.decoder: ``__all__ = _CTC_DECODERS + _CUDA_CTC_DECODERS``).
    None for anything else."""
    if depth > 4:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        return [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    if isinstance(node, ast.Name):
        bound = module.defs.get(node.id)
        if isinstance(bound, ast.Assign):
            return _string_list(module, bound.value, depth + 1)
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _string_list(module, node.left, depth + 1)
        right = _string_list(module, node.right, depth + 1)
        return None if left is None or right is None else [*left, *right]
    return None


class Indexer:
    def __init__(self, package: str, modules: dict[str, Module], torch_index: dict) -> None:
        self.package = package
        self.modules = modules
        self.torch_names: dict = torch_index["names"]
        self.torch_aliases: dict = torch_index["aliases"]
        self.torch_bases: dict = torch_index["bases"]
        self.names: dict[str, dict[str, object]] = {}
        self.aliases: dict[str, str] = {}
        self.bases: dict[str, list[str]] = {}
        self.stars: dict[str, list[str]] = {}

    def definition(self, dotted: str, depth: int = 0) -> tuple[str, str, ast.AST | None] | None:
        """(module, name, node) defining `dotted`; node None for a submodule. Foreign → None."""
        if depth > 8 or not dotted.startswith(self.package):
            return None
        if dotted in self.modules:
            return dotted, "", None
        owner, _, attr = dotted.rpartition(".")
        module = self.modules.get(owner)
        if module is None:
            return None
        if attr in module.defs:
            return owner, attr, module.defs[attr]
        if attr in module.imports:
            return self.definition(module.imports[attr], depth + 1)
        for source in module.star_sources:
            other = self.modules.get(source)
            if other is not None and attr in exported(other, self.modules):
                return self.definition(f"{source}.{attr}", depth + 1)
        if "__getattr__" in module.defs:
            # A lazy module (PEP 562) serves names from its private submodules on first use:
            # torchaudio.models.decoder.ctc_decoder comes from ._ctc_decoder.
            for child in sorted(self.modules):
                parent, _, leaf = child.rpartition(".")
                if parent == owner and leaf.startswith("_") and attr in self.modules[child].defs:
                    return self.definition(f"{child}.{attr}", depth + 1)
        return None

    def torch_name(self, dotted: str) -> str | None:
        if dotted in self.torch_names:
            return dotted
        return self.torch_aliases.get(dotted)

    def resolve_expr(self, module: Module, node: ast.expr) -> str | None:
        """A base-class expression as an absolute dotted path (nn.Module → torch.nn.Module)."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = node.id
        if head in module.imports:
            head = module.imports[head]
        elif head in module.defs:
            head = f"{module.name}.{head}"
        return ".".join([head, *reversed(parts)])

    def build(self) -> None:
        groups: dict[tuple[str, str], list[str]] = {}
        for name in sorted(self.modules):
            if not public(name):
                continue
            self.names.setdefault(name, {"k": "module"})
            module = self.modules[name]
            star = []
            for attr in exported(module, self.modules):
                if attr.startswith("_"):
                    continue
                path = f"{name}.{attr}"
                found = self.definition(path)
                if found is None:
                    continue
                star.append(attr)
                if found[2] is None:  # a submodule
                    continue
                groups.setdefault((found[0], found[1]), []).append(path)
            if star:
                self.stars[name] = sorted(set(star))
        canonical: dict[tuple[str, str], str] = {}
        for key, paths in sorted(groups.items()):
            own = f"{key[0]}.{key[1]}"
            if public(own) and own not in paths:
                paths.append(own)
            best = min(set(paths), key=lambda p: (p.count("."), len(p), p))
            canonical[key] = best
            for path in sorted(set(paths)):
                if path != best:
                    self.aliases[path] = best
        for key, path in sorted(canonical.items(), key=lambda kv: kv[1]):
            self.entry(path, self.modules[key[0]], self.modules[key[0]].defs[key[1]], canonical)
        # `def resnet50(...) -> ResNet`: a builder of a module returns a module
        module_classes = {
            path.rpartition(".")[2]
            for path, entry in self.names.items()
            if entry["k"] == "class" and entry.get("r") == "module"
        }
        for entry in self.names.values():
            if entry["k"] == "function" and "r" not in entry and entry.get("t") in module_classes:
                entry["r"] = "module"

    def entry(self, path: str, module: Module, node: ast.AST, canonical: dict) -> None:
        if isinstance(node, ast.ClassDef):
            entry: dict[str, object] = {"k": "class", "r": "other"}
            init = next(
                (n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"),
                None,
            )
            if init is not None:
                entry["p"] = params(init, drop_first=True)
            bases = self.class_bases(module, node, canonical)
            if bases:
                self.bases[path] = bases
                if "torch.nn.Module" in bases:
                    entry["r"] = "module"
            self.names[path] = entry
            for member in node.body:
                # class-level data: enum members (InterpolationMode.BILINEAR), constants
                targets = (
                    member.targets
                    if isinstance(member, ast.Assign)
                    else [member.target]
                    if isinstance(member, ast.AnnAssign)
                    else []
                )
                for target in targets:
                    if isinstance(target, ast.Name) and not target.id.startswith("_"):
                        self.names.setdefault(f"{path}.{target.id}", {"k": "attribute"})
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not member.name.startswith("_") or member.name == "__call__"
                ):
                    kind = "property" if _decorated(member, "property") else "method"
                    m: dict[str, object] = {"k": kind}
                    if kind == "method":
                        m["p"] = params(member, drop_first=not _decorated(member, "staticmethod"))
                    _put_return(m, member)
                    self.names.setdefault(f"{path}.{member.name}", m)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            entry = {"k": "function", "p": params(node, drop_first=False)}
            _put_return(entry, node)
            self.names[path] = entry
        else:
            self.names[path] = {"k": "attribute"}

    def class_bases(self, module: Module, node: ast.ClassDef, canonical: dict) -> list[str]:
        """Public ancestors in MRO-ish order: own bases first, then theirs."""
        out: list[str] = []
        for base in node.bases:
            dotted = self.resolve_expr(module, base)
            if dotted is None:
                continue
            chain: list[str] = []
            torch_base = self.torch_name(dotted)
            if torch_base is not None:
                chain = [torch_base, *self.torch_bases.get(torch_base, ())]
            else:
                found = self.definition(dotted)
                if found is not None and isinstance(found[2], ast.ClassDef):
                    name = canonical.get((found[0], found[1]))
                    inner = self.class_bases(self.modules[found[0]], found[2], canonical)
                    chain = [name, *inner] if name else inner
            for item in chain:
                if item not in out:
                    out.append(item)
        return out


def _decorated(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    return any(isinstance(d, ast.Name) and d.id == name for d in func.decorator_list)


def _put_return(entry: dict[str, object], func: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    if func.returns is None:
        return
    text = ast.unparse(func.returns)
    entry["t"] = text
    bare = text.replace("torch.", "")
    if bare == "Tensor":
        entry["r"] = "tensor"
    elif bare.lower().startswith(("list[tensor]", "tuple[tensor")):
        entry["r"] = "tensors"
    elif bare in ("bool", "int", "float"):
        entry["r"] = bare


def params(func: ast.FunctionDef | ast.AsyncFunctionDef, drop_first: bool) -> list[list[object]]:
    a = func.args
    positional = [*a.posonlyargs, *a.args]
    defaults = [False] * (len(positional) - len(a.defaults)) + [True] * len(a.defaults)
    out: list[list[object]] = [
        [p.arg, "pos_only" if i < len(a.posonlyargs) else "pos_or_kw", d]
        for i, (p, d) in enumerate(zip(positional, defaults, strict=True))
    ]
    if drop_first and out:
        out = out[1:]
    if a.vararg is not None:
        out.append([a.vararg.arg, "var_pos", False])
    out.extend(
        [p.arg, "kw_only", d is not None] for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
    )
    if a.kwarg is not None:
        out.append([a.kwarg.arg, "var_kw", False])
    return out


def render(package: str, version: str, wheel: str, indexer: Indexer) -> str:
    meta = {
        "format": FORMAT_VERSION,
        "package": package,
        "version": version,
        "source": f"{wheel} (read with ast, not imported)",
        "primary_namespaces": sorted(
            name
            for name, module in indexer.modules.items()
            if public(name) and (module.is_package or name.endswith(".functional"))
        ),
        "counts": {"names": len(indexer.names), "aliases": len(indexer.aliases)},
    }

    def block(key: str, mapping: dict) -> str:
        lines = [
            f"{json.dumps(k)}:{json.dumps(mapping[k], separators=(',', ':'), sort_keys=True)}"
            for k in sorted(mapping)
        ]
        return f'"{key}":{{\n' + ",\n".join(lines) + "\n}"

    modules = sorted(n for n in indexer.modules if public(n))
    parts = [
        '"meta":' + json.dumps(meta, sort_keys=True, separators=(",", ":")),
        block("names", indexer.names),
        block("aliases", indexer.aliases),
        block("bases", indexer.bases),
        block("stars", indexer.stars),
        '"modules":' + json.dumps(modules, separators=(",", ":")),
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


def fetch(spec: str, into: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            spec,
            "-d",
            str(into),
            "-q",
        ],
        check=True,
    )
    wheels = sorted(into.glob("*.whl"))
    if not wheels:
        raise SystemExit(f"pip download gave no wheel for {spec}")
    return wheels[0]


def generate(spec: str, wheel: Path | None) -> Path:
    package, _, version = spec.partition("==")
    with tempfile.TemporaryDirectory() as tmp:
        if wheel is None:
            wheel = fetch(spec, Path(tmp))
        root = Path(tmp) / "src"
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.namelist() if m.startswith(package + "/")]
            archive.extractall(root, [m for m in members if m.endswith(".py")])
        torch_index = json.loads(next(OUT_DIR.glob("torch-*.json")).read_text(encoding="utf-8"))
        indexer = Indexer(package, read_modules(root, package), torch_index)
        indexer.build()
        text = render(package, version, wheel.name, indexer)
    target = OUT_DIR / f"{package}-{version}.json"
    target.write_text(text, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS), help="PACKAGE==VERSION")
    parser.add_argument("--wheel", type=Path, help="a downloaded wheel (one spec only)")
    args = parser.parse_args(argv)
    for spec in args.specs:
        if "==" not in spec:
            parser.error(f"{spec}: give PACKAGE==VERSION")
        print(f"wrote {generate(spec, args.wheel).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
