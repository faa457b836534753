"""The per-file worker: bytes in, :class:`~apiscan.extract.records.FileAnalysis` out.

A pure function of its inputs (the file's bytes and names, the repository's local module roots
and the re-exports it may use), so it runs in a process pool and its result is cached by a key
over exactly those inputs. Any failure becomes an error record for that file; the scan goes on.
"""

from __future__ import annotations

import ast
import hashlib
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from typing import TYPE_CHECKING

from apiscan.extract.records import (
    CallFact,
    CallSite,
    FileAnalysis,
    FunctionFact,
    FunctionSummary,
    ParamInfo,
    PendingMember,
    ShapeHit,
)
from apiscan.model import ARG_TEXT_LIMIT, ApiUse, CallArgs, FileError
from apiscan.notebook import is_notebook, notebook_source
from apiscan.program.values import Fact
from apiscan.source import DecodedSource, decode_source

if TYPE_CHECKING:
    import libcst as cst

    from apiscan.extract.api_uses import Extractor, Ref
    from apiscan.extract.loss_path import LossPath
    from apiscan.extract.positions import AstNodes, Located
    from apiscan.extract.syntax import SyntaxFacts


@dataclass(frozen=True, slots=True)
class FileTask:
    relpath: str
    modules: tuple[str, ...]
    is_package: bool
    data: bytes
    reexports: tuple[tuple[str, str], ...] = ()
    dynamic_shape: bool = True  # run the dynamic-shape rules (off: --no-dynamic-shape)
    #: facts the whole-program solver found for this file's functions (parameters, returns of
    #: the functions it calls, attributes of its classes), keyed "p:", "r:", "a:"; see
    #: :mod:`apiscan.program.solver`
    env: tuple[tuple[str, Fact], ...] = ()
    #: compute the review's syntax facts (:mod:`apiscan.extract.syntax`); off for a plain
    #: scan, whose report never reads them (a tenth of a walk's CPU)
    syntax: bool = True


def count_lines(text: str) -> int:
    """Lines as Python counts them: ended by ``\n``, ``\r\n`` or a lone ``\r``."""
    if not text:
        return 0
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.count("\n") + (0 if text.endswith("\n") else 1)


@dataclass(frozen=True, slots=True)
class TreeFacts:
    """What the analysis reads from Python's tree, computed in one go: a worker keeps them
    with a file's LibCST module, so a re-walk of the file (a later round) needs neither
    Python's parse nor its tree (:mod:`apiscan.workers`)."""

    nodes: AstNodes  # the reported-kind nodes, for positions
    def_lines: list[int]  # the ``def`` lines in pre-order (see :func:`_statement_lines`)
    class_lines: dict[str, int]  # see :func:`_statement_lines`
    syntax: SyntaxFacts | None  # the review's facts; None when not asked for
    #: the training steps' loss paths (:mod:`apiscan.extract.loss_path`), for the scope
    loss_paths: tuple[LossPath, ...]
    #: id(call) -> (the call, its argument texts) for the calls the walks of this file
    #: reported: a re-walk of the kept module reads them here instead of rendering the code
    #: again (a fifth of a re-walk's CPU); the node is held, so an id is never reused
    call_args: dict[int, tuple[cst.Call, CallArgs]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: (first, last line) of each run of statements no path reaches (:func:`unreachable`)
    unreachable: tuple[tuple[int, int], ...] = ()


#: The last tree's facts (an editor analyses a buffer twice from one parse).
_LAST_FACTS: tuple[ast.Module, TreeFacts] | None = None


def tree_facts(
    tree: ast.Module, text: str, syntax: bool = True, remember: bool = True
) -> TreeFacts:
    """:class:`TreeFacts` of ``tree`` (Python's tree of ``text``). ``remember``: keep the
    tree and its facts for the next call (off in a worker, which keeps the facts of the
    files it re-walks itself: a tree held until the next file would be traversed by every
    full collection meanwhile, and by the one before each parse)."""
    global _LAST_FACTS
    last = _LAST_FACTS
    if last is not None and last[0] is tree and (last[1].syntax is not None or not syntax):
        return last[1]
    if not remember:
        _LAST_FACTS = None
    from apiscan.extract.loss_path import loss_paths
    from apiscan.extract.positions import ast_nodes
    from apiscan.extract.syntax import syntax_facts

    screened = _SCREENED
    if screened and screened[0][0] is tree:  # walked by the screen of its parse
        _, nodes, def_lines, class_lines = screened.pop()
    else:
        screened.clear()
        nodes = ast_nodes(tree)
        def_lines, class_lines, _ = _statement_lines(tree)
    dead = unreachable(tree)
    facts = TreeFacts(
        nodes,
        def_lines,
        class_lines,
        # the review's facts, from the tree parsed for positions
        syntax_facts(tree, text, dead) if syntax else None,
        loss_paths(tree, text),
        unreachable=dead,
    )
    if remember:
        _LAST_FACTS = (tree, facts)
    return facts


#: Text and path → (Python's tree, LibCST's module), each or a FileError: how a file is
#: parsed. A parser that kept the file's :class:`TreeFacts` (handed to the analysis' ``keep``)
#: may answer them in place of the tree.
Parser = Callable[
    [str, str], "tuple[ast.Module | TreeFacts | FileError, cst.Module | FileError | None]"
]
#: Keeps a file's :class:`TreeFacts` for its next walk: (path, text, facts).
Keeper = Callable[[str, str, TreeFacts], None]


def parse_both(
    text: str, relpath: str, checked: bool = True
) -> tuple[ast.Module | FileError, cst.Module | FileError | None]:
    """Python's parse, then LibCST's of what Python accepted (None when Python refused; a
    FileError when LibCST refuses it or it is too big for LibCST, and the file is then
    analysed from Python's tree alone). ``checked``: see :func:`~apiscan.parsing.parse_python`,
    whose compiler check is screened by :func:`_screen`."""
    from apiscan.parsing import parse_module, parse_python, too_big_for_libcst

    _SCREENED.clear()
    tree = parse_python(text, relpath, checked, _screen if SCREEN_COMPILER else None)
    if isinstance(tree, FileError):
        _SCREENED.clear()
        return tree, None
    return tree, too_big_for_libcst(text, tree) or parse_module(text, relpath)


#: Whether :func:`parse_both` screens the compiler's checks (:func:`_screen`): on the Python
#: whose compiler the screen was written against (a later one refuses more, e.g. type
#: parameters), elsewhere the compiler checks every file.
SCREEN_COMPILER = sys.version_info[:2] == (3, 11)

#: The walks of Python's tree the screen made for the tree just parsed (the tree, its
#: :func:`~apiscan.extract.positions.ast_nodes`, def lines, class lines), taken by
#: :func:`tree_facts` instead of walking it again.
_SCREENED: list[tuple[ast.Module, AstNodes, list[int], dict[str, int]]] = []


def _screen(tree: ast.Module, text: str) -> bool:
    """Whether the compiler may refuse ``tree`` (see :data:`apiscan.parsing.COMPILER_TOKENS`),
    from the walks :func:`tree_facts` makes anyway, kept for it."""
    from apiscan.extract.positions import screened_nodes
    from apiscan.parsing import compiler_words

    if compiler_words(text):
        return True
    def_lines, class_lines, refused = _statement_lines(tree)
    if refused:
        return True
    nodes, refused = screened_nodes(tree)
    if refused:
        return True
    _SCREENED.append((tree, nodes, def_lines, class_lines))
    return False


def analyse(
    task: FileTask,
    local_roots: frozenset[str],
    max_file_size: int = 1_000_000,
    parser: Parser | None = None,
    keep: Keeper | None = None,
) -> FileAnalysis:
    """Analyse one file; never raises. ``parser``: how to parse (default :func:`parse_both`);
    an editor passes one that remembers its last parse, so a file analysed twice (without
    and with the project's re-exports) is parsed once. ``keep``: given the facts read from
    Python's tree of a file LibCST parsed (a worker keeps them for the file's re-walks)."""
    sha = hashlib.sha256(task.data).hexdigest()
    base = FileAnalysis(task.relpath, task.modules, sha, 0)
    try:
        result = _analyse(task, local_roots, max_file_size, parser or parse_both, base, keep)
    except RecursionError:
        result = _with_error(base, TOO_DEEP_TO_ANALYSE)
    except Exception as exc:  # a bug of ours must not lose the other files' results
        result = _with_error(base, _internal_error(exc))
    return replace(result, env=task.env) if task.env else result


#: A file whose analysis ran out of stack (the parse stage refuses most such files first).
TOO_DEEP_TO_ANALYSE = FileError("E008", "too deeply nested to analyse (recursion limit reached)")


def _internal_error(exc: Exception) -> FileError:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return FileError(
        "E009",
        f"internal error: {type(exc).__name__}: {exc} "
        f"(at {where.filename.rsplit('/', 1)[-1]}:{where.lineno}); please report it",
    )


def _analyse(
    task: FileTask,
    local_roots: frozenset[str],
    max_file_size: int,
    parser: Parser,
    base: FileAnalysis,
    keep: Keeper | None = None,
) -> FileAnalysis:
    sha = base.sha256
    notebook_file = is_notebook(task.relpath)
    # A notebook's bytes are mostly its outputs (images): the limit is on its code, and on
    # the JSON only at NOTEBOOK_JSON_FACTOR times it.
    limit = max_file_size * NOTEBOOK_JSON_FACTOR if notebook_file else max_file_size
    if len(task.data) > limit:
        return _with_error(base, _too_large(len(task.data), limit))
    # An empty module is analysed like any other: it simply holds nothing.
    cells: tuple[tuple[int, int], ...] = ()
    if notebook_file:
        notebook = notebook_source(task.data)
        if isinstance(notebook, FileError):
            return _with_error(base, notebook)
        code_size = len(notebook.text.encode("utf-8", "surrogatepass"))
        if code_size > max_file_size:
            return _with_error(base, _too_large(code_size, max_file_size, "its code cells are"))
        decoded: DecodedSource | FileError = DecodedSource(notebook.text, "utf-8")
        cells = notebook.lines
    else:
        decoded = decode_source(task.data)
    if isinstance(decoded, FileError):
        return _with_error(base, decoded)
    analysis = _analyse_text(task, decoded, sha, local_roots, parser, keep)
    return replace(analysis, cells=cells) if cells else analysis


#: How much larger than ``--max-file-size`` a notebook's JSON may be (outputs, images).
NOTEBOOK_JSON_FACTOR = 20


def _too_large(size: int, limit: int, what: str = "file is") -> FileError:
    return FileError(
        "E007",
        f"{what} {size / 1e6:.1f} MB, above the {limit / 1e6:.1f} MB limit (--max-file-size);"
        " skipped",
    )


def _with_error(base: FileAnalysis, err: FileError) -> FileAnalysis:
    return FileAnalysis(base.path, base.modules, base.sha256, base.lines, errors=(err,))


def _analyse_text(
    task: FileTask,
    decoded: DecodedSource,
    sha: str,
    local_roots: frozenset[str],
    parser: Parser = parse_both,
    keep: Keeper | None = None,
) -> FileAnalysis:
    # Imported here: the warm (all-cached) path never needs libcst.
    from apiscan.extract.api_uses import Extractor
    from apiscan.extract.degraded import degraded_analysis
    from apiscan.extract.positions import PositionMismatch, spans_from_ast, spans_from_libcst
    from apiscan.parsing import parse_python
    from apiscan.resolve.owners import Owners
    from apiscan.resolve.torch_api import load_torch_api

    text = decoded.text
    lines = count_lines(text)
    tree, module = parser(text, task.relpath)
    if isinstance(tree, FileError):
        return FileAnalysis(task.relpath, task.modules, sha, lines, errors=(tree,))
    assert module is not None  # only None when Python refused the text
    if isinstance(tree, TreeFacts) and task.syntax and tree.syntax is None:
        tree = parse_python(text, task.relpath, checked=False)  # kept without the review's
        if isinstance(tree, FileError):  # facts (not for a text LibCST parsed)
            return FileAnalysis(task.relpath, task.modules, sha, lines, errors=(tree,))
    if isinstance(tree, TreeFacts):  # a re-walk: what Python's tree said was kept
        facts = tree
    else:
        facts = tree_facts(tree, text, task.syntax, remember=keep is None)
        if keep is not None and not isinstance(module, FileError):
            keep(task.relpath, text, facts)
    api = load_torch_api()
    syntax = facts.syntax
    if isinstance(module, FileError):  # valid Python LibCST cannot read: Python's tree alone
        assert isinstance(tree, ast.Module)  # facts are kept only with a LibCST module
        degraded = degraded_analysis(task.relpath, task.modules, sha, lines, tree, text, api)
        return replace(degraded, syntax=syntax, loss_paths=facts.loss_paths)
    ext = Extractor(
        api,
        _owners(api, Owners),
        task.modules[0] if task.modules else "",
        task.is_package,
        local_roots,
        dict(task.reexports),
        task.dynamic_shape,
        dict(task.env),
    )
    ext.package = import_package(task.modules, task.is_package)
    limit = sys.getrecursionlimit()
    # Pinned, not max(limit, ...): a library may have raised the limit far beyond what the
    # C stack holds; the walker needs ~3 frames per nesting level of the code it reads.
    sys.setrecursionlimit(6000)
    try:
        ext.run(module)
    except RecursionError:  # a chain of thousands of operands: valid, too deep to walk
        if not isinstance(tree, ast.Module):  # a re-walk: Python's tree was not kept
            tree = parse_python(text, task.relpath, checked=False)
            if isinstance(tree, FileError):
                return FileAnalysis(task.relpath, task.modules, sha, lines, errors=(tree,))
        degraded = degraded_analysis(task.relpath, task.modules, sha, lines, tree, text, api)
        return replace(degraded, syntax=syntax, loss_paths=facts.loss_paths)
    finally:
        sys.setrecursionlimit(limit)
    # Everything that needs a position goes through one mapping: API uses, dynamic-shape
    # hits, call-graph edges.
    hit_emits = _located(ext, [(h.start, h.end) for h in ext.shapes.hits])
    call_emits = _located(ext, [((n, "s"), (n, "e")) for _, _, n, _ in ext.call_facts])
    site_emits = _located(ext, [((n, "s"), (n, "e")) for _, _, n, _, _ in ext.sites])
    origins = _sync_origins(ext)
    carriers = sorted(ext.carriers.items())
    origins += [node for _, node in carriers]
    origin_emits = _located(ext, [((n, "s"), (n, "e")) for n in origins])
    format_emits = _located(ext, [((n, "s"), (n, "e")) for _, n in ext.formatted])
    emits = [*ext.emits, *hit_emits, *call_emits, *site_emits, *origin_emits, *format_emits]
    fallback = False
    if emits:
        try:
            all_spans = spans_from_ast(facts.nodes, text, emits, ext.ords, ext.counts)
        except (PositionMismatch, IndexError, KeyError):  # trees that disagree: slow path
            all_spans = spans_from_libcst(module, emits, text)
            fallback = True
    else:
        all_spans = []
    n_uses, n_hits = len(ext.emits), len(hit_emits)
    spans = all_spans[:n_uses]
    hit_spans = all_spans[n_uses : n_uses + n_hits]
    n_calls, n_sites = len(call_emits), len(site_emits)
    call_spans = all_spans[n_uses + n_hits : n_uses + n_hits + n_calls]
    site_spans = all_spans[n_uses + n_hits + n_calls : n_uses + n_hits + n_calls + n_sites]
    n_before = n_uses + n_hits + n_calls + n_sites
    origin_spans = all_spans[n_before : n_before + len(origins)]
    format_spans = all_spans[n_before + len(origins) :]
    emits = ext.emits
    uses: list[ApiUse] = []
    pending: list[PendingMember] = []
    param_uses = []
    for e, span in zip(emits, spans, strict=True):
        if e.param is not None and not e.pending_cls:
            param_uses.append((span, e.api, e.param[0], e.param[1]))
        call_args = _call_texts(facts, module, e.call) if e.call is not None else None
        use = ApiUse(
            e.api,
            span,
            e.usage,
            e.confidence,
            e.function,
            e.positional,
            e.keywords,
            e.star_args,
            e.api if e.canonical is None else e.canonical,
            call_args,
        )
        if e.pending_cls:
            pending.append(
                PendingMember(
                    e.pending_cls,
                    e.pending_attr,
                    ApiUse(
                        "",
                        span,
                        e.usage,
                        "certain",
                        e.function,
                        e.positional,
                        e.keywords,
                        e.star_args,
                        args=call_args,
                    ),
                    e.api,
                )
            )
        else:
            uses.append(use)
    dead = facts.unreachable
    if dead:  # what no path reaches is no finding and calls nothing
        uses = [u for u in uses if reached(u.span.line, dead)]
        pending = [p for p in pending if reached(p.use.span.line, dead)]
        param_uses = [u for u in param_uses if reached(u[0].line, dead)]
    uses.sort(key=lambda u: (u.span, u.api))
    pending.sort(key=lambda p: (p.use.span, p.cls, p.attr))
    hits = _one_per_line(
        ShapeHit(
            h.rule,
            span,
            h.function,
            h.api,
            h.detail,
            h.chain,
            network_only=h.network_only,
            data_only=h.data_only,
            inherited=h.inherited,
            case=h.case,
        )
        for h, span in zip(ext.shapes.hits, hit_spans, strict=True)
        if reached(span.line, dead)
    )
    # a sync this walk saw used in place (the same line and rule) is not reported again
    have = {(h.path, h.span.line, h.rule) for h in hits}
    remote = _one_per_line(
        h
        for h in _remote_syncs(ext, task.relpath)
        if (h.path, h.span.line, h.rule) not in have and reached(h.span.line, dead)
    )
    hits = sorted([*hits, *remote], key=lambda h: (h.path, h.span, h.rule))
    calls = sorted(
        {
            CallFact(caller, callee, span.line, role)
            for (caller, callee, _, role), span in zip(ext.call_facts, call_spans, strict=True)
            if reached(span.line, dead)
        },
        key=lambda c: (c.line, c.caller, c.callee, c.role),
    )
    origin_at = dict(zip(map(id, origins), origin_spans, strict=True))
    summaries, sites = _program_records(
        task.relpath,
        module,
        ext,
        origin_at,
        site_spans,
        {key: origin_at[id(node)] for key, node in carriers},
    )
    functions = tuple(
        FunctionFact(qn, cls, line, no_grad)
        for (qn, cls, _, no_grad), line in zip(
            ext.function_facts, _def_lines(facts.def_lines, ext), strict=True
        )
    )
    return FileAnalysis(
        task.relpath,
        task.modules,
        sha,
        lines,
        tuple(uses),
        tuple(pending),
        ext.exports(),
        ext.class_facts(facts.class_lines),
        tuple(sorted(ext.local_refs)),
        (),
        fallback,
        functions=functions,
        calls=tuple(calls),
        shape_hits=tuple(hits),
        suppressions=_suppressions(text),
        summaries=summaries,
        sites=sites,
        param_uses=tuple(sorted(set(param_uses))),
        sensitive=tuple(sorted(ext.sensitive)),
        syntax=syntax,
        loss_paths=facts.loss_paths,
        stored_attrs=tuple(sorted(ext.stored_attrs)),
        formatted=tuple(
            sorted(
                {
                    (function, span.line)
                    for (function, _), span in zip(ext.formatted, format_spans, strict=True)
                    if reached(span.line, dead)
                }
            )
        ),
    )


def _sync_origins(ext: Extractor) -> list[cst.CSTNode]:
    """The host-sync nodes inside values that leave their function (arguments at call sites,
    return values, attributes written on self): their positions become the facts' sites."""
    import libcst as cst

    found: dict[int, cst.CSTNode] = {}

    def visit(v: object, depth: int = 0) -> None:
        if not isinstance(v, tuple) or len(v) != 2 or depth > 4:
            return
        kind, payload = v
        if (
            kind == "nontorch"
            and isinstance(payload, tuple)
            and payload[:1]
            in (
                ("dyn",),
                ("host",),
            )
        ):
            node = payload[1]
            if isinstance(node, cst.CSTNode):
                found.setdefault(id(node), node)
            if len(payload) > 2:  # the elements of host data sized by data
                visit(payload[2], depth + 1)
        elif kind == "seq":
            visit(payload, depth + 1)
        elif kind == "tuple":
            for e in payload:
                visit(e, depth + 1)

    for _caller, _callee, _node, args, _bound in ext.sites:
        for v in (*args.vals, *args.kwvals.values()):
            visit(v)
    for *_, returned in ext.summaries:
        for v in returned:
            visit(v)
    for writes in ext.attr_writes.values():
        for _attr, v in writes:
            visit(v)
    return list(found.values())


def _program_records(
    path: str,
    module: cst.Module,
    ext: Extractor,
    origin_spans: Mapping[int, object],
    site_spans: list[object],
    carrier_spans: Mapping[tuple[str, str], object],
) -> tuple[tuple[FunctionSummary, ...], tuple[CallSite, ...]]:
    """The solver's records: per-function summaries and per-call-site abstract arguments;
    ``carrier_spans`` locates each function's first ``return`` (key ``(function, "")``) or
    ``self.attr = ...`` (``(function, attr)``) that hands on a data-dependent value."""
    from apiscan.extract.facts import to_fact
    from apiscan.program import values as pv

    sites_of: dict[int, pv.Site] = {}

    def site_of(node: object) -> pv.Site | None:
        span = origin_spans.get(id(node))
        if span is None:
            return None
        if id(node) not in sites_of:
            code = " ".join(module.code_for_node(node).split())  # type: ignore[arg-type]
            if len(code) > 60:
                code = code[:57] + "..."
            sites_of[id(node)] = pv.Site(
                path,
                span.line,  # type: ignore[attr-defined]
                code,
                span.column,  # type: ignore[attr-defined]
                ext.shapes.sync_function(node),
                span.end_line,  # type: ignore[attr-defined]
                span.end_column,  # type: ignore[attr-defined]
                ext.shapes.is_shape_read(node),
            )
        return sites_of[id(node)]

    param_ids, supplied, batch_sample = ext.param_ids, ext.supplied_fact, ext.shapes.batch_sample
    param_elements, sample_tensor = ext.param_elements, ext.shapes.sample_tensor
    varying_of = ext.shapes.varying_dim

    def facts_in(function: str, returned: bool = False) -> Callable[[object], pv.Fact]:
        """The fact of a value of ``function`` (one closure per function, not per value). An
        element of a parameter read by position (``targets[idx]``) is that symbolically
        (:class:`pv.Param` ``element``); so, in what the function returns (``returned``), is
        one read by iteration (what a generator passing its iterable through yields)."""
        kinds = ("iter", "row") if returned else ("row",)

        def param_of(x: object) -> str | None:
            entry = param_ids.get(id(x))
            if entry is not None and entry[2] is x and entry[0] == function:
                return entry[1]
            return None

        def element_of(x: object) -> str | None:
            entry = param_elements.get(id(x))
            if entry is not None and entry[0] is x and entry[1] == function and entry[3] in kinds:
                return entry[2]
            return None

        def fact(v: object) -> pv.Fact:
            return to_fact(  # type: ignore[arg-type]
                v,
                param_of,
                site_of,
                0,
                supplied,
                batch_sample,
                element_of,
                sample_tensor,
                varying_of,
                ext.is_code_valued,
            )

        return fact

    declared_fact = facts_in("")
    summaries = []
    for qn, cls, params, bound, returned in ext.summaries:
        infos = tuple(
            ParamInfo(name, kind, declared_fact(declared), has_default, default_none)
            for name, kind, declared, has_default, default_none in params
        )
        fact = facts_in(qn)
        writes: dict[str, pv.Fact] = {}
        for attr, v in ext.attr_writes.get(qn, ()):
            f = fact(v)
            writes[attr] = pv.join(writes[attr], f) if attr in writes else f
        at = []
        for attr in ("", *sorted(writes)):
            span = carrier_spans.get((qn, attr))
            if span is not None:
                at.append((attr, span.line, span.column))  # type: ignore[attr-defined]
        summaries.append(
            FunctionSummary(
                qn,
                cls,
                infos,
                bound,
                pv.join_all([facts_in(qn, True)(v) for v in returned]),
                tuple(sorted(writes.items())),
                tuple(at),
            )
        )
    sites = []
    fact_of: dict[str, Callable[[object], pv.Fact]] = {}
    for (caller, callee, _node, written, bound), span in zip(ext.sites, site_spans, strict=True):
        fact = fact_of.get(caller) or fact_of.setdefault(caller, facts_in(caller))
        args = written.binding()
        sites.append(
            CallSite(
                caller,
                callee,
                span.line,  # type: ignore[attr-defined]
                tuple([fact(v) for v in args.vals]),
                tuple(sorted([(k, fact(v)) for k, v in args.kwvals.items()])),
                bound,
                args.star,
                span.column,  # type: ignore[attr-defined]
            )
        )
    return tuple(sorted(summaries, key=lambda s: s.qualname)), _sorted_sites(sites)


def _sorted_sites(sites: list[CallSite]) -> tuple[CallSite, ...]:
    """``sites`` by line, caller and callee, then (the calls of one function on one line) by
    their ``repr``: a total order, whose ``repr`` is only written for those ties."""
    sites.sort(key=lambda c: (c.line, c.caller, c.callee))
    out: list[CallSite] = []
    for _, same in groupby(sites, key=lambda c: (c.line, c.caller, c.callee)):
        group = list(same)
        if len(group) > 1:
            group.sort(key=repr)
        out += group
    return tuple(out)


def _hit_order(h: ShapeHit) -> tuple[object, ...]:
    return (h.path, h.span.line, h.rule, h.network_only, h.span, h.function, h.api, h.detail)


def _one_per_line(hits: Iterable[ShapeHit]) -> list[ShapeHit]:
    """One hit per (file, line, rule), the leftmost: ``return a.item(), b.item()`` or
    ``x[m] = y[m] * z[m]`` is one place to change, not several findings."""
    first: dict[tuple[str, int, str], ShapeHit] = {}
    # on one line, a finding reported everywhere comes before one reported only in the network
    # (a join and a per-sample op on one line: the join survives a data pipeline's scope)
    for h in sorted(hits, key=_hit_order):
        first.setdefault((h.path, h.span.line, h.rule), h)
    return sorted(first.values(), key=lambda h: (h.path, h.span, h.rule))


def _remote_syncs(ext: Extractor, relpath: str) -> list[ShapeHit]:
    """DS118 hits for host syncs written in another function (a helper's ``.item()`` whose
    number this file uses as a size): placed at the sync, in its file (``path``; "" when it
    is this file)."""
    from apiscan.model import Span

    out = []
    for site, detail in ext.shapes.remote_syncs:
        span = Span(site.line, max(site.column, 1), site.end_line, site.end_column)
        path = "" if site.path == relpath else site.path
        out.append(ShapeHit("DS118", span, site.function, detail=detail, path=path))
    return out


def _located(ext: Extractor, refs: Iterable[tuple[Ref, Ref]]) -> list[Located]:
    """The positions to find for ``refs`` (start, end); a node without an ordinal is
    anchored on its first (start) or last (end) descendant that has one."""
    from apiscan.extract.positions import Located

    ords, fstring_nodes = ext.ords, ext.fstring_nodes
    out = []
    for start, end in refs:
        s = start[0]
        if id(s) not in ords:
            s = _anchor(ext, s, first=True)
            if s is not start[0]:
                start = (s, "s")
        e = end[0]
        if id(e) not in ords:
            e = _anchor(ext, e, first=False)
            if e is not end[0]:
                end = (e, "e")
        # a node inside an f-string has its ordinal among the f-string nodes of its kind:
        # looked up among the others it names another line of the file
        out.append(Located(start, end, id(s) in fstring_nodes))
    return out


def _anchor(ext: Extractor, node: cst.CSTNode, first: bool) -> cst.CSTNode:
    """``node`` itself if it has an ordinal, else its first (or last) descendant that has one."""
    if id(node) in ext.ords:
        return node
    from apiscan.extract.tree import children_of

    children = children_of(node)
    if not first:
        children.reverse()
    for child in children:
        found = _anchor(ext, child, first)
        if id(found) in ext.ords:
            return found
    return node


#: The fields that hold statements (``handlers`` and ``cases`` hold nodes that have a body).
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")
#: Node type -> its fields of :data:`_STATEMENT_LISTS` (filled as types are met): most
#: statements have none, and :func:`unreachable` then skips them without a lookup per name.
_LISTS_OF: dict[type, tuple[str, ...]] = {}
#: Statements after which nothing in the same block runs.
_JUMPS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def unreachable(tree: ast.Module) -> tuple[tuple[int, int], ...]:
    """(first, last line) of each run of statements that follows a ``return``, ``raise``,
    ``continue`` or ``break`` in the same block: no path reaches them (a Darknet forward's
    ``continue`` left before the code that would have called its region loss), so they are
    no work of a port, produce no finding and call nothing."""
    spans: list[tuple[int, int]] = []
    stack: list[ast.AST] = [tree]
    lists_of = _LISTS_OF
    while stack:
        node = stack.pop()
        kind = type(node)
        names = lists_of.get(kind)
        if names is None:
            names = lists_of[kind] = tuple(n for n in _STATEMENT_LISTS if n in kind._fields)
        for name in names:
            children = getattr(node, name)
            if not children:
                continue
            for i, child in enumerate(children):
                if isinstance(child, _JUMPS) and i + 1 < len(children):
                    after = children[i + 1]
                    first = min(
                        [after.lineno, *(d.lineno for d in getattr(after, "decorator_list", ()))]
                    )
                    spans.append((first, children[-1].end_lineno or children[-1].lineno))
                    stack.extend(children[:i])
                    break
            else:
                stack.extend(children)
    return tuple(sorted(spans))


def reached(line: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``line`` lies outside every span :func:`unreachable` found (the scan's
    findings and the value records of :func:`~apiscan.extract.syntax.syntax_facts` alike)."""
    return not any(a <= line <= z for a, z in spans)


def _def_lines(lines: list[int], ext: Extractor) -> list[int]:
    """Lines of the ``def`` statements (``lines``: :func:`_statement_lines`), by pre-order match
    with ast (0 when they disagree)."""
    if len(lines) != len(ext.function_facts):
        return [0] * len(ext.function_facts)
    return lines


#: Where a statement stands, for the compiler's checks a screen makes (see
#: :data:`apiscan.parsing.COMPILER_TOKENS`): in a function, in a loop, in a def or class body
#: (not at module level); the blocks the compiler holds open around it are counted above
#: these bits, in units of ``_BLOCK``.
_IN_FUNCTION, _IN_LOOP, _IN_SCOPE, _BLOCK = 1, 2, 4, 8
#: The compiler refuses more than 20 nested blocks (``too many statically nested blocks``);
#: they are counted generously here (a ``try`` as 3: its body, handler and name blocks).
_MAX_BLOCKS = 20
#: What the statement walk checks of a statement (see :func:`_statement_lines`).
(
    _CHECK_VALUE,
    _CHECK_RETURN,
    _CHECK_JUMP,
    _CHECK_IMPORT,
    _CHECK_REFUSED,
    _CHECK_LOOP,
    _CHECK_TRY,
    _CHECK_WITH,
    _CHECK_COMPOUND,
) = range(1, 10)
_STATEMENT_CHECKS: dict[type, int] = {
    ast.Expr: _CHECK_VALUE,
    ast.Assign: _CHECK_VALUE,
    ast.AugAssign: _CHECK_VALUE,
    ast.AnnAssign: _CHECK_VALUE,
    ast.Return: _CHECK_RETURN,
    ast.Break: _CHECK_JUMP,
    ast.Continue: _CHECK_JUMP,
    ast.ImportFrom: _CHECK_IMPORT,
    ast.Global: _CHECK_REFUSED,
    ast.Nonlocal: _CHECK_REFUSED,
    ast.Match: _CHECK_REFUSED,
    ast.TryStar: _CHECK_REFUSED,
    ast.AsyncFor: _CHECK_REFUSED,
    ast.AsyncWith: _CHECK_REFUSED,
    ast.For: _CHECK_LOOP,
    ast.While: _CHECK_LOOP,
    ast.Try: _CHECK_TRY,
    ast.With: _CHECK_WITH,
    ast.If: _CHECK_COMPOUND,
    ast.ExceptHandler: _CHECK_COMPOUND,
    ast.match_case: _CHECK_COMPOUND,
}


def _statement_lines(tree: ast.Module) -> tuple[list[int], dict[str, int], bool]:
    """The ``def`` lines in pre-order (:func:`_def_lines`) and the line of each ``class``
    statement by qualname, named as the extractor names classes (``Outer.Inner``,
    ``build.Local``; the first of two same-named definitions wins), from one walk. A
    definition is a statement: only statement lists can hold one (never an expression), so
    walking them alone finds every one in a fraction of a full ``ast.walk``. Third: whether
    a statement may be one the compiler refuses (the statements of
    :data:`apiscan.parsing.COMPILER_TOKENS`)."""
    from apiscan.parsing import repeated_keyword

    defs: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    classes: dict[str, int] = {}
    function_def, async_def, class_def = ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef
    starred = ast.Starred
    checks = _STATEMENT_CHECKS
    refused = False
    # (qualname prefix, node, context of its body, context of a loop's else)
    stack: list[tuple[str, ast.AST, int, int]] = [("", tree, 0, 0)]
    while stack:
        prefix, node, inner, after = stack.pop()
        for name in _STATEMENT_LISTS:
            children = getattr(node, name, None)
            if not children:
                continue
            where = after if name == "orelse" else inner
            for child in children:
                kind = type(child)
                if kind is function_def or kind is async_def or kind is class_def:
                    qualname = f"{prefix}{child.name}"
                    if kind is class_def:
                        line = classes.get(qualname)
                        if line is None or child.lineno < line:
                            classes[qualname] = child.lineno
                        if len(child.keywords) > 1 and repeated_keyword(child.keywords):
                            refused = True
                        scope = _IN_SCOPE
                    else:
                        defs.append(child)
                        if kind is async_def:
                            refused = True
                        scope = _IN_FUNCTION | _IN_SCOPE
                    stack.append((f"{qualname}.", child, scope, scope))
                    continue
                check = checks.get(kind)
                if check is None:
                    continue
                if check == _CHECK_VALUE:
                    if type(child.value) is starred:
                        refused = True
                    continue
                if check == _CHECK_RETURN:
                    if not where & _IN_FUNCTION or type(child.value) is starred:
                        refused = True
                    continue
                if check == _CHECK_JUMP:
                    if not where & _IN_LOOP:
                        refused = True
                    continue
                if check == _CHECK_IMPORT:
                    if where & _IN_SCOPE and child.names[0].name == "*":
                        refused = True
                    continue
                body = where
                if check == _CHECK_LOOP:
                    body = (where | _IN_LOOP) + _BLOCK
                    if kind is ast.For and type(child.iter) is starred:
                        refused = True
                elif check == _CHECK_TRY:
                    body = where + 3 * _BLOCK
                    handlers = child.handlers
                    if any(h.type is None for h in handlers[:-1]):
                        refused = True  # ``default 'except:' must be last``
                elif check == _CHECK_WITH:
                    body = where + len(child.items) * _BLOCK
                elif check == _CHECK_REFUSED:
                    refused = True
                if body >= _MAX_BLOCKS * _BLOCK:
                    refused = True
                stack.append((prefix, child, body, where))
    defs.sort(
        key=lambda n: (
            min([(d.lineno, d.col_offset) for d in n.decorator_list] + [(n.lineno, n.col_offset)])
            if n.decorator_list
            else (n.lineno, n.col_offset)
        )
    )
    return [d.lineno for d in defs], classes, refused


def _suppressions(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    if "apiscan:" not in text:
        return ()
    from apiscan.rules.suppression import parse_suppressions

    found = parse_suppressions(text)
    return tuple(sorted((line, tuple(sorted(ids))) for line, ids in found.items()))


_OWNERS: dict[int, object] = {}


def prepare_walks() -> None:
    """Build before forking what every walk of a worker would otherwise build for itself on
    its first file: this process's :class:`~apiscan.resolve.owners.Owners` and its tables
    (see :meth:`~apiscan.resolve.owners.Owners.prepare`). Memo tables only: a walk gives the
    same result with or without them."""
    from apiscan.resolve.owners import Owners
    from apiscan.resolve.torch_api import load_torch_api

    owners = _owners(load_torch_api(), Owners)
    owners.prepare()  # type: ignore[attr-defined]


def _owners(api: object, factory: type) -> object:
    """One Owners (with its memo tables) per process and torch index."""
    key = id(api)
    if key not in _OWNERS:
        _OWNERS[key] = factory(api)
    return _OWNERS[key]


def import_package(modules: Sequence[str], is_package: bool) -> str:
    """The package a file's relative imports start from: its package chain's (the first
    module name), or, for a file in a directory without ``__init__.py`` (a namespace
    package, imported by its path from the root: ``from .modeling.deeplab_v3 import ...``
    in ``isegm/model/``), the root-relative name's. A top-level module has none."""
    for name in modules:
        package = name if is_package else name.rpartition(".")[0]
        if package:
            return package
    return ""


def reexport_subset(
    local_refs: tuple[str, ...],
    reexports: Mapping[str, str],
    members: Mapping[str, list[tuple[str, str]]] | None = None,
) -> tuple[tuple[str, str], ...]:
    """The re-exports a file's analysis depends on (they go into its cache key). ``members``
    (:func:`reexport_members` of ``reexports``) saves a pass over every re-export per star
    import when the caller asks for many files."""
    out: dict[str, str] = {}
    for ref in local_refs:
        if ref.endswith(".*"):
            if members is not None:
                out.update(members.get(ref[:-2], ()))
                continue
            prefix = ref[:-1]
            for k, v in reexports.items():
                if k.startswith(prefix) and "." not in k[len(prefix) :]:
                    out[k] = v
        elif ref in reexports:
            out[ref] = reexports[ref]
    return tuple(sorted(out.items()))


def reexport_members(reexports: Mapping[str, str]) -> dict[str, list[tuple[str, str]]]:
    """The re-exports by the module they are a direct member of (``a.b.c`` under ``a.b``):
    what a ``from a.b import *`` brings in."""
    members: dict[str, list[tuple[str, str]]] = {}
    for k, v in reexports.items():
        module, dot, _name = k.rpartition(".")
        if dot:
            members.setdefault(module, []).append((k, v))
    return members


def _call_texts(facts: TreeFacts, module: cst.Module, call: cst.Call) -> CallArgs:
    """:func:`call_texts`, remembered with the file's tree facts for its re-walks."""
    known = facts.call_args.get(id(call))
    if known is not None and known[0] is call:
        return known[1]
    texts = call_texts(module, call)
    facts.call_args[id(call)] = (call, texts)
    return texts


def call_texts(module: cst.Module, call: cst.Call) -> CallArgs:
    """The argument texts of one call (see :class:`apiscan.model.CallArgs`): a plain record
    the rewrite stage renders from, so no reporter re-reads the code."""

    import libcst as cst

    def text(node: cst.CSTNode) -> str:
        code = _simple_code(node)
        if code is None:
            code = module.code_for_node(node).strip()
        # A call spread over lines reads as one line in a report.
        return " ".join(code.split()) if "\n" in code else code

    truncated = False

    def kept(node: cst.CSTNode) -> str:
        nonlocal truncated
        value = text(node)
        if len(value) > ARG_TEXT_LIMIT:
            truncated = True
            return ""
        return value

    func = call.func
    receiver = kept(func.value) if isinstance(func, cst.Attribute) else ""
    positional: list[str] = []
    keywords: list[tuple[str, str]] = []
    star = False
    for arg in call.args:
        if arg.star == "**":
            star = True
        elif arg.star == "*":
            positional.append("*" + kept(arg.value))
        elif arg.keyword is not None:
            keywords.append((arg.keyword.value, kept(arg.value)))
        else:
            positional.append(kept(arg.value))
    return CallArgs(receiver, tuple(positional), tuple(keywords), star, truncated)


def _simple_code(node: object) -> str | None:
    """The code of the expressions most call arguments and receivers are (names, dotted
    names, numbers, strings, calls, subscripts, operations, comparisons, lists and tuples of
    those, with
    any parentheses and same-line whitespace), rendered from their fields as LibCST's code
    generation renders them; None for anything else (a comment or a line break inside, a
    list, a lambda...), which the code generation renders: the same text at several times
    the cost (its per-node context managers and tokens)."""
    parts: list[str] = []
    return "".join(parts).strip() if _render(node, parts) else None


def _render(node: object, out: list[str]) -> bool:
    """Append ``node``'s code to ``out`` (see :func:`_simple_code`); False when a node or a
    whitespace on the way is not one this renderer knows (``out`` is then unusable)."""
    how = _HOW.get(type(node))
    if how is None:
        how = _how(type(node))
    if how == _VALUE:
        if node.lpar:  # type: ignore[attr-defined]
            if not _parens(node.lpar, out):  # type: ignore[attr-defined]
                return False
            out.append(node.value)  # type: ignore[attr-defined]
            return _parens(node.rpar, out)  # type: ignore[attr-defined]
        out.append(node.value)  # type: ignore[attr-defined]
        return not node.rpar  # type: ignore[attr-defined]
    if how == _OP:  # a one-token operator with whitespace on both sides
        if not _space(node.whitespace_before, out):  # type: ignore[attr-defined]
            return False
        out.append(node._get_token())  # type: ignore[attr-defined]
        return _space(node.whitespace_after, out)  # type: ignore[attr-defined]
    if how == _UNARY_OP:
        out.append(node._get_token())  # type: ignore[attr-defined]
        return _space(node.whitespace_after, out)  # type: ignore[attr-defined]
    if how is None or (node.lpar and not _parens(node.lpar, out)):  # type: ignore[attr-defined]
        return False
    if not how(node, out):
        return False
    return not node.rpar or _parens(node.rpar, out)  # type: ignore[attr-defined]


def _render_attribute(node: cst.Attribute, out: list[str]) -> bool:
    return _render(node.value, out) and _render(node.dot, out) and _render(node.attr, out)


def _render_call(node: cst.Call, out: list[str]) -> bool:
    import libcst as cst

    if not (_render(node.func, out) and _space(node.whitespace_after_func, out)):
        return False
    out.append("(")
    if not _space(node.whitespace_before_args, out):
        return False
    last = len(node.args) - 1
    default = cst.MaybeSentinel.DEFAULT
    for i, arg in enumerate(node.args):
        if type(arg) is not cst.Arg:
            return False
        out.append(arg.star)
        if not _space(arg.whitespace_after_star, out):
            return False
        keyword = arg.keyword
        if keyword is not None and not _render(keyword, out):
            return False
        equal = arg.equal
        if equal is default:
            if keyword is not None:
                out.append(" = ")
        elif not _render(equal, out):
            return False
        if not _render(arg.value, out) or not _comma(arg.comma, ", " if i != last else "", out):
            return False
        if not _space(arg.whitespace_after_arg, out):
            return False
    out.append(")")
    return True


def _render_subscript(node: cst.Subscript, out: list[str]) -> bool:
    import libcst as cst

    if not (_render(node.value, out) and _space(node.whitespace_after_value, out)):
        return False
    out.append("[")
    if not _space(node.lbracket.whitespace_after, out):
        return False
    last = len(node.slice) - 1
    for i, element in enumerate(node.slice):
        index = element.slice
        if type(index) is not cst.Index or index.star is not None:
            return False  # slices (``a:b``) and starred indexes: the code generation
        if index.whitespace_after_star is not None and not _space(index.whitespace_after_star, out):
            return False
        if not _render(index.value, out) or not _comma(
            element.comma, ", " if i != last else "", out
        ):
            return False
    if not _space(node.rbracket.whitespace_before, out):
        return False
    out.append("]")
    return True


def _render_unary(node: cst.UnaryOperation, out: list[str]) -> bool:
    return _render(node.operator, out) and _render(node.expression, out)


def _render_binary(node: cst.BinaryOperation | cst.BooleanOperation, out: list[str]) -> bool:
    return _render(node.left, out) and _render(node.operator, out) and _render(node.right, out)


def _render_comparison(node: cst.Comparison, out: list[str]) -> bool:
    import libcst as cst

    if not _render(node.left, out):
        return False
    for target in node.comparisons:
        if type(target) is not cst.ComparisonTarget:
            return False
        if not (_render(target.operator, out) and _render(target.comparator, out)):
            return False
    return True


def _render_list(node: cst.List, out: list[str]) -> bool:
    out.append("[")
    if not _space(node.lbracket.whitespace_after, out) or not _elements(node.elements, out):
        return False
    if not _space(node.rbracket.whitespace_before, out):
        return False
    out.append("]")
    return True


def _render_tuple(node: cst.Tuple, out: list[str]) -> bool:
    return _elements(node.elements, out, single=",")


def _elements(elements: Sequence[cst.BaseElement], out: list[str], single: str = "") -> bool:
    """A list's or tuple's elements; ``single``: the comma an only element gets."""
    import libcst as cst

    last = len(elements) - 1
    for i, element in enumerate(elements):
        if type(element) is not cst.Element or not _render(element.value, out):
            return False
        default = single if last == 0 else (", " if i != last else "")
        if not _comma(element.comma, default, out):
            return False
    return True


def _comma(comma: object, default: str, out: list[str]) -> bool:
    """An argument's or element's comma as LibCST writes it: ``default`` where it has none
    (``, `` where one is needed, ``,`` after a tuple's only element, else nothing)."""
    import libcst as cst

    if comma is cst.MaybeSentinel.DEFAULT:
        if default:
            out.append(default)
        return True
    return type(comma) is cst.Comma and _render(comma, out)


def _space(ws: object, out: list[str]) -> bool:
    """Same-line whitespace (a line continuation included); False for whitespace holding a
    line break or a comment, left to the code generation."""
    import libcst as cst

    if type(ws) is not cst.SimpleWhitespace:
        return False
    if ws.value:  # type: ignore[attr-defined]
        out.append(ws.value)  # type: ignore[attr-defined]
    return True


def _parens(parens: Sequence[cst.LeftParen] | Sequence[cst.RightParen], out: list[str]) -> bool:
    import libcst as cst

    for paren in parens:
        if type(paren) is cst.LeftParen:
            out.append("(")
            if not _space(paren.whitespace_after, out):
                return False
        else:
            if not _space(paren.whitespace_before, out):  # type: ignore[union-attr]
                return False
            out.append(")")
    return True


#: How :func:`_render` writes a node type: a token with its parentheses (``_VALUE``), a
#: one-token operator (``_OP``, ``_UNARY_OP``), a function of the node and the output, or
#: None (left to the code generation). Filled as types are met.
_VALUE, _OP, _UNARY_OP = "value", "op", "unary"
_HOW: dict[type, object] = {}


def _how(kind: type) -> object:
    """:data:`_HOW` of ``kind``: only where LibCST's own ``_codegen_impl`` is the one this
    renderer mirrors."""
    import libcst as cst
    from libcst._nodes.op import _BaseOneTokenOp

    impl = getattr(kind, "_codegen_impl", None)
    how: object = None
    if kind in (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString):
        how = _VALUE
    elif impl is not None and impl is _BaseOneTokenOp._codegen_impl:
        how = _OP
    elif impl is not None and impl is cst.BaseUnaryOp._codegen_impl:
        how = _UNARY_OP
    else:
        how = {
            cst.Attribute: _render_attribute,
            cst.Call: _render_call,
            cst.Subscript: _render_subscript,
            cst.UnaryOperation: _render_unary,
            cst.BinaryOperation: _render_binary,
            cst.BooleanOperation: _render_binary,
            cst.Comparison: _render_comparison,
            cst.List: _render_list,
            cst.Tuple: _render_tuple,
        }.get(kind)
    _HOW[kind] = how
    return how
