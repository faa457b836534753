"""``apiscan fix``: apply the rewrites a scan proved, as a LibCST codemod.

What is applied, per call site:

- a substitution (disposition ``rewrite``, or a consistent row's rename) only when the
  micro-test of *that call's form* passed (``apiscan PATH --verify`` or ``apiscan fix
  --verify`` fills the cache);
- the mechanical idioms and deletions: ``.cpu()/.cuda()``/``.to(device)`` replaced by their
  receiver, ``torch.cuda.empty_cache()``-like statements removed, ``model.eval()`` →
  ``model.set_train(False)``, the walks over cells and parameters, ``detach`` →
  ``mindspore.ops.stop_gradient``, seeds;
- ``import mindspore`` where a rewrite needs it.

Each rewrite is rendered again from the call as already transformed (so an inner rewrite
survives the outer one) by the same template that rendered the report's text. Formatting and
comments outside the rewritten calls are LibCST's to keep. A file whose result would not parse
is left alone. The diff is unified, sorted by path, deterministic.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from apiscan.model import ApiFinding, ScanResult
from apiscan.parsing import libcst_parse
from apiscan.rewrite.known import gap_rewrite

#: Idioms applied mechanically (their rendering is the whole change at that call).
MECHANICAL_IDIOMS = frozenset(
    {
        "torch.nn.Module.train",
        "torch.nn.Module.eval",
        "torch.nn.Module.modules",
        "torch.nn.Module.named_modules",
        "torch.nn.Module.named_parameters",
        "torch.nn.Module.parameters",
        "torch.nn.Module.children",
        "torch.nn.Module.named_children",
        "torch.Tensor.detach",
        "torch.manual_seed",
        "torch.nn.Module.half",
    }
)


@dataclass(frozen=True)
class FileFix:
    path: str
    before: str
    after: str
    applied: int
    annotated: int
    error: str = ""


def applicable(finding: ApiFinding) -> bool:
    """Whether ``apiscan fix`` may change this call without a person looking."""
    if finding.usage != "call" or finding.args is None:
        return False
    if finding.disposition == "delete":
        # the receiver, or the statement removed; a known way for an API the tables lack
        # (:mod:`apiscan.rewrite.known`: a sampler's epoch hook, an ONNX export) is advice
        # for a person, its note says what replaces it
        return gap_rewrite(finding.api) != ("delete", finding.rewrite_note)
    if finding.disposition == "idiom":
        return finding.api in MECHANICAL_IDIOMS and bool(finding.rewrite)
    if finding.disposition in ("rewrite", "none") and finding.rewrite:
        return finding.form_check.startswith("verified")
    return False


class _Fixer(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(
        self,
        module: cst.Module,
        by_end: dict[tuple[int, int], list[ApiFinding]],
        annotate: dict[int, list[str]],
    ) -> None:
        super().__init__()
        self.module = module
        self.by_end = by_end
        self.annotate = annotate
        self.applied = 0
        self.annotated = 0
        self.needs_import = False
        self.drop: set[int] = set()

    def _findings(self, node: cst.Call) -> list[ApiFinding]:
        pos = self.get_metadata(PositionProvider, node)
        found = self.by_end.get((pos.end.line, pos.end.column + 1), [])
        name = _callee_name(node)
        return [f for f in found if f.api.rpartition(".")[2] == name]

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        from apiscan.extract import call_texts
        from apiscan.rewrite import dispose

        for finding in self._findings(original):
            if not applicable(finding):
                continue
            if finding.disposition == "delete" and not finding.rewrite:
                self.drop.add(id(original))  # removed with its statement, if it is one
                return updated
            again = dispose(replace(finding, args=call_texts(self.module, updated)))
            text = again.rewrite
            if not text:
                continue
            try:
                new = cst.parse_expression(text)
            except cst.ParserSyntaxError:
                continue
            self.applied += 1
            self.needs_import |= "mindspore." in text
            return new
        return updated

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        body = [
            s
            for s, o in zip(updated.body, original.body, strict=True)
            if not (isinstance(o, cst.Expr) and id(o.value) in self.drop)
        ]
        self.applied += len(updated.body) - len(body)
        # ``x = x.cpu()`` became ``x = x``: the assignment goes too.
        body = [s for s in body if not _self_assignment(s)]
        if not body:
            return cst.RemoveFromParent()
        if len(body) != len(updated.body):
            updated = updated.with_changes(body=body)
        line = self.get_metadata(PositionProvider, original).start.line
        notes = self.annotate.get(line)
        if notes:
            self.annotated += len(notes)
            comments = [cst.EmptyLine(comment=cst.Comment(f"# TODO(apiscan): {n}")) for n in notes]
            updated = updated.with_changes(leading_lines=[*updated.leading_lines, *comments])
        return updated

    def leave_IndentedBlock(
        self, original: cst.IndentedBlock, updated: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not updated.body:  # every statement was deleted: keep the block valid
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated


def _self_assignment(stmt: cst.BaseSmallStatement) -> bool:
    return (
        isinstance(stmt, cst.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0].target, cst.Name)
        and isinstance(stmt.value, cst.Name)
        and stmt.targets[0].target.value == stmt.value.value
    )


def _callee_name(node: cst.Call) -> str:
    func = node.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return ""


def _note(finding: ApiFinding) -> str:
    text = finding.form_check if finding.form_check.startswith("fails") else ""
    text = text or finding.rewrite_note or "no exact rewrite known"
    text = " ".join(text.split())
    if len(text) > 110:
        text = text[:109] + "…"
    return f"{finding.api} [{finding.disposition}]: {text}"


def fix_file(root: Path, path: str, findings: list[ApiFinding], annotate: bool) -> FileFix:
    """The file with every applicable rewrite applied (``after == before`` when none is)."""
    try:
        source = (root / path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:  # changed since the scan, or not UTF-8
        return FileFix(path, "", "", 0, 0, f"not rewritten: cannot read it as UTF-8 ({exc})")
    by_end: dict[tuple[int, int], list[ApiFinding]] = {}
    notes: dict[int, list[str]] = {}
    for f in findings:
        by_end.setdefault((f.span.end_line, f.span.end_column), []).append(f)
        needs_work = f.disposition in ("rewrite", "idiom", "custom-op", "gap", "delete")
        if annotate and not applicable(f) and (needs_work or f.form_check.startswith("fails")):
            notes.setdefault(f.span.line, [])
            note = _note(f)
            if note not in notes[f.span.line]:
                notes[f.span.line].append(note)
    try:
        module = libcst_parse(source)
        wrapper = MetadataWrapper(module)
        fixer = _Fixer(wrapper.module, by_end, notes)
        new = wrapper.visit(fixer)
    except (cst.ParserSyntaxError, RecursionError) as exc:
        return FileFix(path, source, source, 0, 0, f"not rewritten: {exc}")
    if fixer.needs_import:
        new = _add_import(new)
    after = new.code
    try:
        compile(after, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return FileFix(
            path, source, source, 0, 0, f"not rewritten: the result would not parse ({exc.msg})"
        )
    return FileFix(path, source, after, fixer.applied, fixer.annotated)


def _add_import(module: cst.Module) -> cst.Module:
    """``import mindspore`` after the docstring and ``__future__`` imports, unless present."""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import) and any(
                    a.evaluated_name == "mindspore" and a.asname is None for a in small.names
                ):
                    return module
    body = list(module.body)
    index = 0
    while index < len(body):
        stmt = body[index]
        if (
            isinstance(stmt, cst.SimpleStatementLine)
            and stmt.body
            and (
                (
                    isinstance(stmt.body[0], cst.Expr)
                    and isinstance(stmt.body[0].value, cst.SimpleString)
                    and index == 0
                )
                or (
                    isinstance(stmt.body[0], cst.ImportFrom)
                    and stmt.body[0].module is not None
                    and getattr(stmt.body[0].module, "value", "") == "__future__"
                )
            )
        ):
            index += 1
            continue
        break
    line = cst.parse_statement("import mindspore\n")
    body.insert(index, line)
    return module.with_changes(body=body)


def fix(result: ScanResult, annotate: bool = False) -> list[FileFix]:
    """Every analysed file with findings, fixed (sorted by path)."""
    root = Path(result.root)
    if root.is_file():
        root = root.parent
    per_file: dict[str, list[ApiFinding]] = {}
    for f in result.api_findings:
        per_file.setdefault(f.path, []).append(f)
    out = []
    for path in sorted(per_file):
        out.append(fix_file(root, path, per_file[path], annotate))
    return out


def unified_diff(fixes: list[FileFix]) -> str:
    """One unified diff over every changed file, in path order."""
    chunks = []
    for f in fixes:
        if f.after == f.before:
            continue
        chunks.extend(
            difflib.unified_diff(
                f.before.splitlines(keepends=True),
                f.after.splitlines(keepends=True),
                fromfile=f"a/{f.path}",
                tofile=f"b/{f.path}",
            )
        )
    return "".join(chunks)
