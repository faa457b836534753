"""The analysis of a file Python compiles but LibCST cannot read: from Python's own tree.

LibCST's grammar is stricter than CPython's in a few corners (some tab and form-feed
indentation, thousands of implicitly concatenated literals), and its walk recurses once per
operand of a long operator chain. Such a file is valid Python, so it must not get an error
finding, and its PyTorch API uses still count for the migration. This walk of the ``ast`` tree
finds what needs no data flow: imports, the torch names they bind and every use of them
(calls with their arguments, references, base classes), the file's classes and functions. The
dynamic-shape rules, which need the full walker, are skipped for the file.
"""

from __future__ import annotations

import ast
import sys

from apiscan.extract.records import ClassFact, FileAnalysis, FunctionFact
from apiscan.extract.syntax import dotted_name
from apiscan.model import ARG_TEXT_LIMIT, ApiUse, CallArgs, Span
from apiscan.resolve.torch_api import TorchApi, is_torch_name


def degraded_analysis(
    relpath: str,
    modules: tuple[str, ...],
    sha: str,
    lines: int,
    tree: ast.Module,
    text: str,
    api: TorchApi,
) -> FileAnalysis:
    """What Python's tree alone tells about the file (see the module docstring)."""
    from apiscan.extract.positions import _Lines

    walker = _Walker(api, _Lines(text), modules[0] if modules else "")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 6000))
    try:
        walker.visit(tree)
    except RecursionError:  # what is found so far stands
        pass
    finally:
        sys.setrecursionlimit(limit)
    uses = sorted(set(walker.uses), key=lambda u: (u.span, u.api, u.usage))
    exports = tuple(sorted(walker.aliases.items()))
    return FileAnalysis(
        relpath,
        modules,
        sha,
        lines,
        tuple(uses),
        exports=exports,
        classes=tuple(walker.classes),
        functions=tuple(walker.functions),
    )


class _Walker(ast.NodeVisitor):
    def __init__(self, api: TorchApi, lines: object, module: str) -> None:
        self.api, self.lines, self.module = api, lines, module
        self.aliases: dict[str, str] = {}  # name bound by an import -> dotted torch name
        self.uses: list[ApiUse] = []
        self.classes: list[ClassFact] = []
        self.functions: list[FunctionFact] = []
        self.stack: list[str] = []
        self.cls: list[str] = []
        self.reference = "reference"  # "annotation" inside one

    # --------------------------------------------------------------- bindings
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not is_torch_name(alias.name):
                continue
            if alias.asname:
                self.aliases[alias.asname] = alias.name
            else:
                root = alias.name.partition(".")[0]
                self.aliases[root] = root

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or not is_torch_name(node.module):
            return
        for alias in node.names:
            if alias.name != "*":
                self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    # --------------------------------------------------------------- scopes
    def _decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for d in node.decorator_list:
            if isinstance(d, ast.Call):
                if self._emit(d.func, "decorator", d) is None:
                    self.visit(d.func)
                for arg in [*d.args, *(k.value for k in d.keywords)]:
                    self.visit(arg)
            elif self._emit(d, "decorator") is None:
                self.visit(d)

    def _annotation(self, node: ast.expr | None) -> None:
        if node is None:
            return
        self.reference = "annotation"
        try:
            self.visit(node)
        finally:
            self.reference = "reference"

    def visit_arg(self, node: ast.arg) -> None:
        self._annotation(node.annotation)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._annotation(node.annotation)
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            ctx = item.context_expr
            if isinstance(ctx, ast.Call):
                if self._emit(ctx.func, "context_manager", ctx) is None:
                    self.visit(ctx.func)
                for arg in [*ctx.args, *(k.value for k in ctx.keywords)]:
                    self.visit(arg)
            elif self._emit(ctx, "context_manager") is None:
                self.visit(ctx)
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    visit_With = _with
    visit_AsyncWith = _with

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._decorators(node)
        self.visit(node.args)
        self._annotation(node.returns)
        qualname = ".".join([*self.stack, node.name])
        in_class = bool(self.cls) and self.cls[-1] == ".".join(self.stack)
        self.functions.append(FunctionFact(qualname, self.cls[-1] if in_class else "", node.lineno))
        self.stack.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._decorators(node)
        bases = []
        for base in node.bases:
            name = self._emit(base, "base_class")
            bases.append(name or "")
            if name is None:
                self.visit(base)
        for kw in node.keywords:
            self.visit(kw)
        qualname = ".".join([*self.stack, node.name])
        methods = tuple(
            s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        )
        self.classes.append(ClassFact(qualname, tuple(b for b in bases if b), methods, node.lineno))
        self.stack.append(node.name)
        self.cls.append(qualname)
        for stmt in node.body:
            self.visit(stmt)
        self.cls.pop()
        self.stack.pop()

    # --------------------------------------------------------------- uses
    def visit_Call(self, node: ast.Call) -> None:
        if self._emit(node.func, "call", node) is None:
            self.visit(node.func)
        for arg in node.args:
            self.visit(arg)
        for kw in node.keywords:
            self.visit(kw.value)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # a store (``torch.backends.cudnn.benchmark = True``) is no use of an API
        stored = not isinstance(node.ctx, ast.Load)
        if stored or self._emit(node, self.reference) is None:
            self.visit(node.value)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._emit(node, self.reference)

    def _dotted(self, node: ast.expr) -> str | None:
        return dotted_name(self.aliases, node)

    def _emit(self, node: ast.expr, usage: str, call: ast.Call | None = None) -> str | None:
        """Record a use of the torch name ``node`` spells (the call ``call`` when given);
        its canonical name, or None when it spells none."""
        dotted = self._dotted(node)
        if dotted is None:
            return None
        canon = self.api.canonical(dotted)
        if canon is not None and self.api.is_module(canon):
            if usage in ("reference", "annotation"):
                return canon
            # a call of the package's function over its submodule of the same name
            canon = self.api.called_module(canon) if call is not None else None
            if canon is None:
                return None
        if canon is None and ("." not in dotted or _through_dunder(dotted)):
            return None
        written = self.api.as_written(dotted) or dotted
        span_node = call if call is not None else node
        args = _call_args(call) if call is not None else None
        self.uses.append(
            ApiUse(
                written,
                self._span(span_node),
                usage,
                "certain",
                ".".join(self.stack),
                len(call.args) if call is not None else 0,
                tuple(k.arg for k in call.keywords if k.arg) if call is not None else (),
                bool(call and any(k.arg is None for k in call.keywords)),
                canon or "",
                args,
            )
        )
        return canon or dotted

    def _span(self, node: ast.expr) -> Span:
        col = self.lines.col  # type: ignore[attr-defined]
        end_line = node.end_lineno or node.lineno
        return Span(
            node.lineno,
            col(node.lineno, node.col_offset) + 1,
            end_line,
            col(end_line, node.end_col_offset or 0) + 1,
        )


def _through_dunder(dotted: str) -> bool:
    """``torch.__version__``, ``torchvision.models.__dict__``: metadata, not an API (as the
    full walker decides)."""
    return any(len(p) > 4 and p[:2] == p[-2:] == "__" for p in dotted.split(".")[1:])


def _call_args(call: ast.Call) -> CallArgs:
    truncated = False

    def kept(node: ast.expr) -> str:
        nonlocal truncated
        try:
            value = ast.unparse(node)
        except (RecursionError, ValueError):
            value = "x" * (ARG_TEXT_LIMIT + 1)
        if len(value) > ARG_TEXT_LIMIT:
            truncated = True
            return ""
        return value

    func = call.func
    receiver = kept(func.value) if isinstance(func, ast.Attribute) else ""
    positional = tuple(
        "*" + kept(a.value) if isinstance(a, ast.Starred) else kept(a) for a in call.args
    )
    keywords = tuple((k.arg, kept(k.value)) for k in call.keywords if k.arg)
    star = any(k.arg is None for k in call.keywords)
    return CallArgs(receiver, positional, keywords, star, truncated)
