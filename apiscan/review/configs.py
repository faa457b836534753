"""The recipe of a repository configured by Python dict configs.

Many detection and segmentation repositories keep their recipe in config files written as
Python dicts, read by a framework's trainer: OpenMMLab's (``optimizer = dict(type='SGD',
lr=0.02)``, ``lr_config``, ``runner``, ``data``, ``train_pipeline``, ``_base_`` inheritance,
and the newer ``optim_wrapper``/``param_scheduler``/``train_cfg``/``train_dataloader``) and
cvpods/detectron2-style ones (``_config_dict = dict(SOLVER=dict(OPTIMIZER=dict(BASE_LR=...)))``).
No torch API marks those values, so the rest of the recipe never sees them.

This module reads them from the workers' value records (module-level assignments with their
:class:`~apiscan.extract.values.Expr` trees; no file is read or parsed again): each config's
dicts are evaluated to a tree of keys (names of earlier assignments followed, ``**cfg``
spliced in, ``_base_`` files of the repository merged underneath as the OpenMMLab loader
merges them), and each key is classified by its dict path (``LR_SCHEDULER.STEPS`` is the
schedule's milestones, ``LR_SCHEDULER.MAX_ITER`` the length of training). Only files that look
like configs are read: under a ``configs/`` folder or named ``config*.py`` and holding dict
assignments, or a module with no functions whose top level is mostly dict assignments. A
repository with hundreds of configs shows the ones its training entry loads
(``Config.fromfile("configs/x.py")``, a ``--config-file`` default), else the shortest-named
one of each project (the folder above ``configs/``) outside ``_base_`` folders, and says how
many others there are. A config file's values are this module's rows: the recipe's bare
settings read from the same file give way to them.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import Expr, FileValues
from apiscan.review.model import RECIPE_CATEGORIES, RecipeItem, Where
from apiscan.review.sources import place, with_values

#: At most this many configs are shown when the training entry names none.
MAX_SHOWN = 1
#: Prefix of every row's name: what marks a row as read from a config file.
PREFIX = "config "
#: The recipe's own rows kept in a config file (besides torch APIs: dotted names).
_KEPT_ROWS = ("composition in ", "pipeline in ")

_FOLDERS = frozenset({"configs", "config", "cfgs", "cfg"})
#: Top-level names of OpenMMLab configs (one of them makes an unnamed module a config).
_MM_NAMES = frozenset(
    {"optimizer", "optimizer_config", "lr_config", "runner", "total_epochs", "data",
     "train_pipeline", "img_norm_cfg", "optim_wrapper", "param_scheduler", "train_cfg",
     "train_dataloader", "model", "momentum_config", "custom_hooks", "load_from"}
)  # fmt: skip
#: Callees that load a config file by its path.
_LOADERS = frozenset({"fromfile", "from_file", "merge_from_file", "load_config", "get_config"})
#: Path segments whose values are evaluation, logging or bookkeeping, not the recipe.
_SKIPPED = frozenset(
    {"test", "val", "test_cfg", "val_cfg", "val_dataloader", "test_dataloader", "evaluation",
     "val_evaluator", "test_evaluator", "log_config", "checkpoint_config", "default_hooks",
     "visualizer", "vis_backends", "env_cfg", "log_processor", "datasets", "test_pipeline",
     "test_pipelines", "val_pipeline", "output_dir", "work_dir", "checkpointer"}
)  # fmt: skip
_EPOCHS = frozenset(
    {"max_epochs", "max_epoch", "total_epochs", "max_iters", "max_iter", "num_epochs",
     "epochs", "total_iters", "max_steps", "train_iters"}
)  # fmt: skip
_BATCH = frozenset(
    {"samples_per_gpu", "imgs_per_gpu", "batch_size", "ims_per_batch", "ims_per_device",
     "batch_size_per_gpu", "batch_size_per_device"}
)  # fmt: skip
_WORKERS = frozenset({"workers_per_gpu", "num_workers", "persistent_workers"})
_NORM_KEYS = frozenset({"mean", "std", "pixel_mean", "pixel_std", "to_rgb", "bgr_to_rgb"})
_SCHEDULE_DICTS = frozenset(
    {"lr_config", "lr_scheduler", "scheduler", "lr_schedule", "param_scheduler",
     "momentum_config"}
)  # fmt: skip
_SOLVER_SCHEDULE = frozenset({"steps", "milestones", "gamma", "lr_steps", "policy"})
#: The milestones of a step schedule, by a name no other setting has.
_LR_STEPS = frozenset({"lr_steps", "lr_milestones", "milestones", "lr_decay_steps"})
_SOLVER_OPTIMIZER = frozenset(
    {"base_lr", "lr", "momentum", "weight_decay", "weight_decay_norm", "bias_lr_factor",
     "betas", "nesterov"}
)  # fmt: skip
_CLIP = frozenset({"grad_clip", "clip_grad", "clip_gradients"})
_ACCUM = frozenset({"cumulative_iters", "accumulative_counts", "accumulation_steps"})
_AMP = frozenset({"fp16", "amp", "bf16"})
#: Keys that name what a dict builds (shown in the row's name, not among its values).
_TYPE_KEYS = ("type", "name", "policy")
#: A resize step over several sizes: three sizes or more, a size range sampled (detectron2's
#: ``sample_style="range"``, OpenMMLab's ``multiscale_mode='range'``), a list of image scales
#: picked from, or a ratio range each image's scale is drawn from (``ratio_range=(0.5, 2.0)``).
#: Every batch then has its own shape. The one home of the rule: the review counts the input
#: pipelines it marks.
MULTI_SCALE = re.compile(
    r"(\w*(?:Resize|Scale)\w*)\(.*?([(\[]\s*\d+\s*(,\s*\d+\s*){2,}[)\]]"
    r"|sample_style=['\"](choice|range)['\"]|multiscale_mode=['\"](value|range)['\"]"
    r"|ratio_range=[(\[]|img_scale=\[\s*\(\s*\d+\s*,\s*\d+\s*\)\s*,\s*\()"
)
#: A size drawn by hand from three or more sizes (``np.random.choice((300, 375, 450))`` in a
#: dataset's ``__getitem__``): multi-scale training like a :data:`MULTI_SCALE` step. Whole
#: numbers of two digits or more: ``random.choice([0.3, 0.5, 1.0])`` draws crop fractions.
#: A draw from a setting named as a list of sizes or scales (``np.random.choice(self.imgSizes)``
#: with the list in a config file) is the same.
DRAWN_SIZE = re.compile(
    r"\bchoices?\(\s*(?:[(\[]\s*(\d{2,}\s*(?:,\s*\d{2,}\s*){2,})[)\]]"
    r"|(?:self\.)?(?:\w+\.)*\w*(?:sizes|scales)\s*\))",
    re.IGNORECASE,
)
_LOSS_KEY = re.compile(r"(^|_)loss(_|$)|^focal_|_alpha$|_gamma$", re.IGNORECASE)
_EMA_TYPE = re.compile(r"EMA", re.IGNORECASE)


@dataclass(frozen=True)
class _Node:
    """A config value: a dict (``items``), a list (``elems``) or a leaf, with its place."""

    kind: str  # "dict", "list", "leaf"
    path: str
    line: int
    text: str
    items: dict[str, _Node] = field(default_factory=dict)
    elems: tuple[_Node, ...] = ()
    value: object = None
    #: ``_delete_=True``: replaces its base's dict instead of merging into it
    delete: bool = False

    @property
    def none(self) -> bool:
        return self.kind == "leaf" and self.text == "None"

    def string(self) -> str | None:
        return self.value if isinstance(self.value, str) else None

    def shown(self) -> str:
        """The value as written, a dict or list rebuilt from what it holds (``**cfg`` spliced)."""
        kind = self.items.get("type") if self.kind == "dict" else None
        if kind is not None and kind.string():
            # a step nested in another (AutoAugment's policies): written as the pipeline's
            args = (f"{k}={v.shown()}" for k, v in self.items.items() if k != "type")
            return f"{kind.string()}({', '.join(args)})"
        if self.kind == "dict":
            return "dict(" + ", ".join(f"{k}={v.shown()}" for k, v in self.items.items()) + ")"
        if self.kind == "list" and all(e.kind == "leaf" for e in self.elems):
            return self.text  # (800,) as written
        if self.kind == "list":
            inner = ", ".join(e.shown() for e in self.elems)
            if not self.text.startswith("("):
                return f"[{inner}]"
            return f"({inner},)" if len(self.elems) == 1 else f"({inner})"
        return self.text


@dataclass
class _Config:
    """One config file evaluated: its names, with its bases merged underneath."""

    path: str
    names: dict[str, _Node]
    missing: list[str]
    bases: list[str]


def config_recipe(
    analyses: Sequence[FileAnalysis], root: Path | None = None
) -> tuple[RecipeItem, ...]:
    """The recipe rows of the repository's dict configs (none when it has none). ``root``:
    where the documented commands are read: where no code loads a config by name, the one
    the training commands name most (SegFormer's README: ``python tools/train.py
    local_configs/segformer/B1/segformer.b1.512x512.ade.160k.py``) is the run's."""
    files = {fa.path: fa for fa in with_values(analyses)}
    configs = sorted(p for p, fa in files.items() if _looks_like_config(p, _values(fa)))
    if not configs:
        return ()
    reader = _Reader(files)
    evaluated = {p: reader.config(p) for p in configs}
    named = _run_configs(files, configs, root)
    bases = {b for c in evaluated.values() for b in c.bases}
    # what a trainer is pointed at: a config no other one inherits, outside _base_ folders
    leaves = [p for p in configs if p not in bases and "_base_" not in PurePosixPath(p).parts]
    leaves = leaves or [p for p in configs if p not in bases] or configs
    rows = {p: _rows(evaluated[p], files) for p in sorted({*named, *leaves})}
    out: list[RecipeItem] = []
    # each project of the repository (detection/configs, segmentation/configs) on its own
    for project in sorted({_project(p) for p in leaves}):
        mine = [p for p in leaves if _project(p) == project]
        chosen = sorted(p for p in named if _project(p) == project)
        with_rows = sorted((p for p in chosen or mine if rows[p]), key=lambda p: (len(p), p))
        shown = with_rows if chosen else with_rows[:MAX_SHOWN]
        # the configs a reader could have picked instead: every other one with recipe values
        others = len([p for p in mine if p not in shown and rows[p]])
        for path in shown:
            out += _noted(rows[path], path, named, evaluated[path].missing, others)
        out += _multi_scale_elsewhere([rows[p] for p in shown], [rows[p] for p in mine])
    return tuple(out)


@dataclass(frozen=True)
class ConfigTypes:
    """The ``type=`` names of the dict configs (OpenMMLab's ``backbone=dict(type='mit_b1')``,
    looked up in a registry by the framework's builder): those of the configs the run
    loads (by code, else by the documented training command) and those of every config."""

    chosen: frozenset[str]
    every: frozenset[str]


def config_types(analyses: Sequence[FileAnalysis], root: Path | None = None) -> ConfigTypes | None:
    """The ``type=`` names of the configs the run loads and of all configs, bases merged;
    None when the repository has no dict config or none is known to be the run's (a pick
    among hundreds by the shortest name says nothing of what the run builds)."""
    files = {fa.path: fa for fa in with_values(analyses)}
    configs = sorted(p for p, fa in files.items() if _looks_like_config(p, _values(fa)))
    if not configs:
        return None
    named = _run_configs(files, configs, root)
    if not named:
        return None
    reader = _Reader(files)
    chosen: set[str] = set()
    for path in named:
        for node in reader.config(path).names.values():
            chosen.update(_types(node))
    every: set[str] = set()
    for path in configs:
        for node in reader.config(path).names.values():
            every.update(_types(node))
    return ConfigTypes(frozenset(chosen), frozenset(every))


def _types(node: _Node) -> Iterator[str]:
    """Every ``type`` string a config value holds, nested ones included."""
    if node.kind == "dict":
        kind = node.items.get("type")
        if kind is not None and kind.string():
            yield kind.string()  # type: ignore[misc]
        for value in node.items.values():
            yield from _types(value)
    elif node.kind == "list":
        for elem in node.elems:
            yield from _types(elem)


def _multi_scale_elsewhere(
    shown: list[list[RecipeItem]], configs: list[list[RecipeItem]]
) -> list[RecipeItem]:
    """When no config shown resizes to several scales but others of the project do (PVT's
    ``*_mstrain`` detection configs: ``Resize(img_scale=[(480, 1333), ..., (800, 1333)],
    multiscale_mode='value')``), the first of them as a row: the repository trains at
    several input sizes, a shape the port must plan for, whichever config a user picks."""
    if any(_multi_scale_steps(i) for items in shown for i in items):
        return []
    found = [(i, steps) for items in configs for i in items if (steps := _multi_scale_steps(i))]
    if not found:
        return []
    item, steps = min(found, key=lambda f: (len(f[0].where.path), f[0].where.path))
    places = len({i.where.path for i, _ in found})
    note = (
        f"the multi-scale steps of {places} config{'s' if places > 1 else ''} not shown (the "
        "shortest-named of them here): training at several input sizes"
    )
    values = tuple((str(n), step) for n, step in enumerate(steps, 1))
    return [RecipeItem("augmentation", f"multi-scale {item.name}", item.where, values, note)]


def _multi_scale_steps(item: RecipeItem) -> list[str]:
    """The multi-scale resize steps of a composition row."""
    if item.category != "augmentation":
        return []
    return [value for _, value in item.values if MULTI_SCALE.search(value)]


def _noted(
    items: list[RecipeItem], path: str, named: dict[str, str], missing: list[str], others: int
) -> list[RecipeItem]:
    """The rows of a shown config, with what loads it, the bases not in the repository,
    and how many configs are not shown."""
    notes = []
    if path in named:
        notes.append(f"loaded by {named[path]}")
    for base in missing:
        notes.append(f"base {base} is not in the repository: its values are not shown")
    if others and path in named:
        notes.append(f"{others} other config{'s' if others > 1 else ''} not shown")
    elif others:
        notes.append(
            f"1 of {others + 1} configs, the shortest-named (the training entry names none): "
            "the others are not shown"
        )
    extra = "; ".join(notes)
    return [replace(i, note="; ".join(n for n in (i.note, extra) if n)) for i in items]


def _project(path: str) -> str:
    """The folder above a config's ``configs/`` folder (``detection`` of
    ``detection/configs/x.py``): a repository of several projects shows each one's."""
    parts = PurePosixPath(path).parts
    for n, part in enumerate(parts[:-1]):
        if part in _FOLDERS:
            return "/".join(parts[:n])
    return ""


def _values(fa: FileAnalysis) -> FileValues:
    assert fa.syntax is not None and fa.syntax.values is not None
    return fa.syntax.values


# ----------------------------------------------------------------------- which files
def _dictish(expr: Expr) -> bool:
    """``dict(...)``, ``{...}`` or a list of them: how a config writes its values."""
    if expr.kind == "Dict" or (expr.kind == "Call" and expr.callee() == "dict"):
        return True
    return expr.kind in ("List", "Tuple") and bool(expr.parts) and all(map(_dictish, expr.parts))


def _looks_like_config(path: str, values: FileValues) -> bool:
    """Under a configs/ folder or named config*.py, with dict assignments and no functions;
    or anywhere, a module with no functions whose top level is mostly dict assignments, one
    of them an OpenMMLab config name. A module with functions is code, whatever its name."""
    if any(not d.is_class and d.owner < 0 and "." not in d.qual for d in values.defs):
        return False  # a top-level function: an ordinary module
    top = [a for a in values.assigns if a.top and a.target.kind == "Name"]
    dicts = [a for a in top if _dictish(a.value)]
    if any(a.target.name == "_base_" for a in top):
        return True
    if not dicts:
        return False
    parts = PurePosixPath(path).parts
    if any(p in _FOLDERS for p in parts[:-1]) or parts[-1].startswith("config"):
        return True
    names = {a.target.name for a in dicts}
    return len(dicts) >= 2 and 2 * len(dicts) >= len(top) and bool(names & _MM_NAMES)


def _run_configs(
    files: dict[str, FileAnalysis], configs: Sequence[str], root: Path | None
) -> dict[str, str]:
    """Config path → what loads it: the code, by name (:func:`_named`), else the training
    command the documentation names it in most (``python tools/train.py configs/x.py``)."""
    named = _named(files, configs)
    if not named and root is not None:
        from apiscan.review.commands import commanded_config

        documented = commanded_config(root, set(configs))
        if documented is not None:
            named = {documented[0]: f"the documented training command at {documented[1]}"}
    return named


def _named(files: dict[str, FileAnalysis], configs: Sequence[str]) -> dict[str, str]:
    """Config path → the place that loads it by name: ``Config.fromfile("configs/x.py")``
    or a ``--config``/``--config-file`` option's default, in a file that is not a config."""
    wanted = set(configs)
    found: dict[str, str] = {}
    for path, fa in sorted(files.items()):
        if path in wanted:
            continue
        for call in _values(fa).calls:
            expr = call.expr
            name = expr.callee()
            literal: Expr | None = None
            if name in _LOADERS and expr.args:
                literal = expr.args[0]
            elif name == "add_argument" and expr.args and "config" in expr.args[0].text:
                literal = next((k.target for k in expr.keywords if k.name == "default"), None)
            if literal is None or not isinstance(literal.value, str):
                continue
            for candidate in _candidates(path, literal.value):
                if candidate in wanted:
                    found.setdefault(candidate, str(place(fa, expr.line)))
    return found


def _candidates(source: str, written: str) -> Iterator[str]:
    """Where a config path written in ``source`` may point: from the root, from the file."""
    written = written.strip()
    if not written.endswith((".py", ".json")):
        return
    yield posixpath.normpath(written)
    yield posixpath.normpath(posixpath.join(posixpath.dirname(source), written))


# ------------------------------------------------------------------- evaluating a config
class _Reader:
    """Evaluates config files to trees of :class:`_Node`, bases merged in (memoised)."""

    def __init__(self, files: dict[str, FileAnalysis]) -> None:
        self.files = files
        self.done: dict[str, _Config] = {}
        self.busy: set[str] = set()

    def config(self, path: str) -> _Config:
        made = self.done.get(path)
        if made is not None:
            return made
        self.busy.add(path)
        values = _values(self.files[path])
        top = sorted(
            (a for a in values.assigns if a.top and a.target.kind == "Name"),
            key=lambda a: a.order,
        )
        base: dict[str, _Node] = {}
        missing: list[str] = []
        bases: list[str] = []
        for assign in top:
            if assign.target.name != "_base_":
                continue
            written = [assign.value] if assign.value.kind == "Constant" else assign.value.parts
            for part in written:
                if not isinstance(part.value, str):
                    continue
                resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), part.value))
                if resolved in self.files and resolved not in self.busy:
                    bases.append(resolved)
                    base = _merge_names(base, self.config(resolved).names)
                elif resolved not in self.files:
                    missing.append(part.value)
        own: dict[str, _Node] = {}
        for assign in top:
            if assign.target.name == "_base_":
                continue
            own[assign.target.name] = self.node(path, assign.value, own, base)
        made = self.done[path] = _Config(path, _merge_names(base, own), missing, bases)
        self.busy.discard(path)
        return made

    def node(self, path: str, expr: Expr, own: dict[str, _Node], base: dict[str, _Node]) -> _Node:
        if expr.kind == "Call" and expr.func.kind == "Name" and expr.func.name == "dict":
            pairs = [(k.name, k.target) for k in expr.keywords]  # dict(a=1, **b)
            if not expr.args:
                return self.mapping(path, expr, pairs, own, base)
        if expr.kind == "Dict":
            pairs = list(zip(expr.keys, expr.items, strict=True))
            if all(k is not None or v is not None for k, v in pairs):
                return self.mapping(path, expr, [(k or "", v) for k, v in pairs], own, base)
        if expr.kind in ("List", "Tuple"):
            elems = tuple(self.node(path, e, own, base) for e in expr.parts)
            return _Node("list", path, expr.line, expr.text, elems=elems)
        if expr.kind == "Name":
            bound = own.get(expr.name, base.get(expr.name))
            if bound is not None:
                return bound
        # lr=0.0001 * gpu_multiples: the names' values said beside the formula
        known = {
            f"{n.name} = {b.text}"
            for n in expr.walk()[1:]
            if n.kind == "Name"
            and (b := own.get(n.name, base.get(n.name))) is not None
            and b.kind == "leaf"
        }
        text = expr.text + (f" ({', '.join(sorted(known))})" if known else "")
        return _Node("leaf", path, expr.line, text, value=expr.value)

    def mapping(
        self,
        path: str,
        expr: Expr,
        pairs: Sequence[tuple[str, Expr]],
        own: dict[str, _Node],
        base: dict[str, _Node],
    ) -> _Node:
        items: dict[str, _Node] = {}
        delete = False
        for key, value in pairs:
            node = self.node(path, value, own, base)
            if key == "":  # **img_norm_cfg: its keys spliced in
                items.update(node.items if node.kind == "dict" else {})
            elif key == "_delete_":
                delete = node.text == "True"
            else:
                items[key] = node
        return _Node("dict", path, expr.line, expr.text, items=items, delete=delete)


def _merge(base: _Node, own: _Node) -> _Node:
    """OpenMMLab's inheritance: a dict merges into its base's dict key by key, unless it says
    ``_delete_=True``; anything else replaces."""
    if own.kind != "dict" or base.kind != "dict" or own.delete:
        return own
    items = dict(base.items)
    for key, value in own.items.items():
        items[key] = _merge(items[key], value) if key in items else value
    return replace(own, items=items)


def _merge_names(base: dict[str, _Node], own: dict[str, _Node]) -> dict[str, _Node]:
    merged = dict(base)
    for name, node in own.items():
        merged[name] = _merge(merged[name], node) if name in merged else node
    return merged


# --------------------------------------------------------------------------- the rows
@dataclass
class _Row:
    category: str
    keys: tuple[str, ...]
    node: _Node | None = None
    values: list[tuple[str, _Node]] = field(default_factory=list)
    kind: str = ""


def _rows(config: _Config, files: dict[str, FileAnalysis]) -> list[RecipeItem]:
    """The recipe rows of one evaluated config."""
    root: dict[str, _Node] = {}
    for name, node in config.names.items():
        if name.startswith("__"):
            continue
        if node.kind == "dict" and node.items and all(k.isupper() for k in node.items):
            root.update(node.items)  # cvpods: _config_dict = dict(MODEL=..., SOLVER=...)
        else:
            root[name] = node
    rows: dict[tuple[str, tuple[str, ...]], _Row] = {}
    pipelines: list[tuple[tuple[str, ...], _Node]] = []
    _walk(root, (), (), rows, pipelines)
    out: list[RecipeItem] = []
    seen: set[tuple[str, int]] = set()
    for keys, node in pipelines:
        if (node.path, node.line) in seen:
            continue  # data.train.pipeline = train_pipeline: one row
        seen.add((node.path, node.line))
        steps = [(str(n), _step(e)) for n, e in enumerate(node.elems, 1)]
        out.append(
            RecipeItem(
                "augmentation",
                f"composition in {PREFIX}{'.'.join(keys)}",
                _where(files, node),
                tuple(steps),
                "the transforms applied, in order",
            )
        )
    backbone = _backbone(root)
    if backbone is not None:
        rows[("backbone", backbone.keys)] = backbone
    for row in rows.values():
        item = _item(row, files)
        if item is not None:
            out.append(item)
    return out


def _walk(
    node: dict[str, _Node],
    keys: tuple[str, ...],
    chain: tuple[_Node, ...],
    rows: dict[tuple[str, tuple[str, ...]], _Row],
    pipelines: list[tuple[tuple[str, ...], _Node]],
) -> None:
    for key, value in node.items():
        path = (*keys, key)
        low = [k.lower() for k in path]
        if low[-1] in _SKIPPED or low[-1].startswith("_") or value.none:
            continue
        if value.kind == "list" and "pipeline" in low[-1] and _steps_list(value):
            if not any(k in ("test", "val") or k.startswith(("test_", "val_")) for k in low):
                pipelines.append((path, value))
            continue
        if value.kind == "dict":
            if _typed_row(path, value, rows):
                continue
            _walk(value.items, path, (*chain, value), rows, pipelines)
            continue
        if value.kind == "list" and any(e.kind == "dict" for e in value.elems):
            indexed = {str(n): e for n, e in enumerate(value.elems)}
            _walk(indexed, path, (*chain, value), rows, pipelines)
            continue
        found = _leaf(low)
        if found is not None:
            category, depth = found
            depth = min(depth, len(path) - 1)  # clip_grad=0.1: the leaf names its row
            holder = chain[depth - 1] if depth else None
            row = rows.setdefault((category, path[:depth]), _Row(category, path[:depth], holder))
            row.values.append((".".join(path[depth:]) or path[-1], value))


def _steps_list(node: _Node) -> bool:
    """A pipeline: dicts with a ``type`` or ``("Name", dict(...))`` pairs."""
    return bool(node.elems) and all(
        (e.kind == "dict" and "type" in e.items)
        or (e.kind == "list" and len(e.elems) == 2 and isinstance(e.elems[0].value, str))
        for e in node.elems
    )


def _step(node: _Node) -> str:
    """A pipeline step as ``Resize(img_scale=(1333, 800), keep_ratio=True)``."""
    if node.kind == "list":
        name, args = node.elems
        inner = args.items if args.kind == "dict" else {}
        return f"{name.value}(" + ", ".join(f"{k}={v.shown()}" for k, v in inner.items()) + ")"
    kind = node.items["type"]
    shown = ", ".join(f"{k}={v.shown()}" for k, v in node.items.items() if k != "type")
    return f"{kind.string() or kind.text}({shown})"


def _typed_row(
    path: tuple[str, ...], node: _Node, rows: dict[tuple[str, tuple[str, ...]], _Row]
) -> bool:
    """A dict that is one row whole, by its ``type`` and place: an optimizer, a loss of the
    model, an EMA hook, a schedule of ``param_scheduler``, an AMP optimizer wrapper."""
    low = [k.lower() for k in path]
    kind = node.items.get("type")
    name = (kind.string() or "") if kind is not None else ""
    category = ""
    if low[-1] == "optimizer":
        category = "optimizer"
    elif low[0] == "model" and name.endswith("Loss"):
        category = "loss"
    elif name and _EMA_TYPE.search(name):
        category = "ema"
    elif low[0] == "param_scheduler" and name:
        first = len(low) == 2 and low[1] == "0"
        warm = "warmup" in name.lower() or (first and name in ("LinearLR", "ConstantLR"))
        category = "warmup" if warm else "scheduler"
    elif low[-1] == "optim_wrapper" and "amp" in name.lower():
        rows[("amp", path)] = _Row("amp", path, node, [("type", kind)] if kind else [])
        return False  # its optimizer and clipping are rows of their own
    if not category:
        return False
    rows[(category, path)] = _Row(category, path, node, _flat(node, ()))
    return True


def _flat(node: _Node, keys: tuple[str, ...]) -> list[tuple[str, _Node]]:
    """(dotted key, leaf) of every value of a dict, nested dicts opened."""
    out: list[tuple[str, _Node]] = []
    for key, value in node.items.items():
        if value.kind == "dict" and value.items:
            out += _flat(value, (*keys, key))
        else:
            out.append((".".join((*keys, key)), value))
    return out


def _leaf(low: list[str]) -> tuple[str, int] | None:
    """The category of a config value by its dict path, and how many of the path's keys
    name its row (``lr_config.warmup_iters``: a warm-up, shown in the ``lr_config`` row)."""
    last, parents = low[-1], low[:-1]
    if last == "loss" and not parents:
        return "loss", 0  # a JSON config's ``"loss": "CrossEntropyLoss2d"``, built by name
    if parents and parents[0] == "model":
        if last in _NORM_KEYS:
            return "dataloader", len(parents)
        if _LOSS_KEY.search(last):
            return "loss", len(parents)
        return None
    for n, key in enumerate(low):
        if key in _CLIP:
            return "grad_clip", n + 1
    if last in _ACCUM:
        return "grad_accum", len(parents)
    for n, key in enumerate(low):
        if key in _AMP:
            return "amp", n + 1
    if "warmup" in last:
        return "warmup", len(parents)
    if last in _EPOCHS:
        return "epochs", len(parents)
    if last in _BATCH:
        return "batch_size", len(parents)
    if last in _WORKERS:
        return "dataloader", len(parents)
    if last in _NORM_KEYS and parents:
        return "dataloader", len(parents)
    if last == "seed":
        return "seed", len(parents)
    if last in ("load_from", "resume_from") and not parents:
        return "checkpoint", 0
    if "dist_params" in low or last == "launcher":
        return "distributed", len(parents)
    for n, key in enumerate(parents):
        if key in _SCHEDULE_DICTS:
            return "scheduler", n + 1
        if key == "optimizer":
            return "optimizer", n + 1
    if len(parents) == 1 and last in _SOLVER_OPTIMIZER:  # cfg = dict(lr=..., ...)
        return "optimizer", 1
    if len(parents) == 1 and last in _LR_STEPS:
        # ssd.pytorch's ``voc = {'lr_steps': (80000, 100000, 120000), ...}`` (a bare
        # ``steps`` there is the anchors' strides: not the schedule's)
        return "scheduler", 1
    if parents and parents[-1] == "solver":
        if last in _SOLVER_SCHEDULE:
            return "scheduler", len(parents)
        if last in _SOLVER_OPTIMIZER:
            return "optimizer", len(parents)
    if parents and parents[-1] == "optim_wrapper" and last == "paramwise_cfg":
        return "optimizer", len(parents)
    return None


def _backbone(root: dict[str, _Node]) -> _Row | None:
    """The pretrained backbone: ``model.pretrained``, the backbone's
    ``init_cfg=dict(type='Pretrained', checkpoint=...)``, or cvpods' ``MODEL.WEIGHTS``."""
    found = [(k, v) for k, v in root.items() if k.lower() == "model" and v.kind == "dict"]
    if not found:
        return None
    key, model = found[0]
    items = {k.lower(): v for k, v in model.items.items()}
    backbone = items.get("backbone")
    values: list[tuple[str, _Node]] = []
    source = items.get("pretrained") or items.get("weights")
    if source is not None and not source.none and source.text not in ('""', "''"):
        values.append(("pretrained" if "pretrained" in items else "WEIGHTS", source))
    if backbone is not None and backbone.kind == "dict":
        init = backbone.items.get("init_cfg")
        if init is not None and init.kind == "dict" and "checkpoint" in init.items:
            values.append(("init_cfg.checkpoint", init.items["checkpoint"]))
        if "pretrained" in backbone.items and not backbone.items["pretrained"].none:
            values.append(("pretrained", backbone.items["pretrained"]))
        for setting in ("type", "depth", "arch", "frozen_stages", "norm_eval"):
            if setting in backbone.items and values:
                values.append((setting, backbone.items[setting]))
    resnets = items.get("resnets")
    if resnets is not None and resnets.kind == "dict" and values:
        values += [(f"RESNETS.{k}", v) for k, v in resnets.items.items() if k == "DEPTH"]
    if not values:
        return None
    if backbone is None or backbone.kind != "dict":
        return _Row("backbone", (key,), model, values)  # cvpods: MODEL.WEIGHTS, RESNETS
    return _Row("backbone", (key, "backbone"), backbone, values)


def _item(row: _Row, files: dict[str, FileAnalysis]) -> RecipeItem | None:
    values = [(k, v) for k, v in row.values if not v.none]
    if not values:
        return None
    node = row.node or values[0][1]
    name = PREFIX + ".".join(row.keys) if row.keys else PREFIX + values[0][0]
    if row.node is not None and row.node.kind == "dict":
        # lr_config's policy names its schedule, not the warm-up read from the same dict
        for key in _TYPE_KEYS if row.category != "warmup" else ("type",):
            kind = row.node.items.get(key) or row.node.items.get(key.upper())
            if kind is not None and kind.string():
                name += f": {kind.string()}"
                values = [(k, v) for k, v in values if k.lower() != key]
                break
    where = _where(files, node)
    shown = []
    for key, value in values:
        text = value.shown()
        if value.path != node.path:
            text += f" ({_where(files, value)})"
        shown.append((key, text))
    return RecipeItem(row.category, name, where, tuple(shown))


def _where(files: dict[str, FileAnalysis], node: _Node) -> Where:
    fa = files.get(node.path)
    return place(fa, node.line) if fa is not None else Where(node.path, node.line)


# ----------------------------------------------------------------------- JSON configs
#: A JSON config's settings of the data pipeline that augment (pytorch-segmentation's
#: ``train_loader.args``: ``augment``, ``flip``, ``rotate``, ``scale``, ``crop_size``).
_JSON_AUGMENT = re.compile(
    r"augment\w*|flip\w*|rotat\w*|scale|blur|crop_size|base_size|jitter\w*|mix_?up|mosaic"
    r"|random_\w+",
    re.IGNORECASE,
)
#: A JSON config larger than this is data, not a training configuration.
_JSON_LIMIT = 200_000


def json_config_recipe(
    root: Path | None, analyses: Sequence[FileAnalysis]
) -> tuple[RecipeItem, ...]:
    """The recipe rows of the JSON configs the training code loads: a ``.json`` path
    written in a file that calls ``json.load`` (pytorch-segmentation's ``--config`` default
    ``config.json``, read by ``json.load(open(args.config))``; its optimizer, schedule and loss
    are then built by name: ``getattr(torch.optim, config['optimizer']['type'])``). JSON is
    no Python, so no worker records it: the file is read here, as the launch scripts are."""
    if root is None or not root.is_dir():
        return ()
    out: list[RecipeItem] = []
    loaded: dict[str, str] = {}
    for fa in with_values(analyses):
        values = fa.syntax.values  # type: ignore[union-attr]
        if not any(c.expr.func.text in ("json.load", "json.loads") for c in values.calls):
            continue
        for call in values.calls:
            for expr in call.expr.walk():
                text = expr.value if expr.kind == "Constant" else None
                if not isinstance(text, str) or not text.endswith(".json"):
                    continue
                for candidate in _candidates(fa.path, text):
                    if (root / candidate).is_file():
                        loaded.setdefault(candidate, f"{fa.path}:{expr.line}")
                        break
    for path, by in sorted(loaded.items()):
        out += _json_rows(root, path, by, analyses)
    return tuple(out)


def _json_rows(
    root: Path, path: str, by: str, analyses: Sequence[FileAnalysis]
) -> list[RecipeItem]:
    """The rows of one JSON config, each at the line of its key."""
    try:
        text = (root / path).read_text(encoding="utf-8")
        data = json.loads(text) if len(text) <= _JSON_LIMIT else None
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    lines = text.splitlines()
    tree = _json_node(data, path, lines, 1)
    root_items = {k: v for k, v in tree.items.items() if not _evaluation_key(k)}
    items = _rows(_Config(path, root_items, [], []), {})
    items += _json_augment(root_items)
    classes = {
        d.name: f"{fa.path}:{d.line}"
        for fa in analyses
        if fa.syntax is not None and fa.syntax.values is not None
        for d in fa.syntax.values.defs
        if d.is_class
    }
    passed = _passed_with(root_items, analyses)
    formulas = _schedule_formulas(analyses)
    noted = []
    for item in items:
        chosen = [v for k, v in item.values if k in ("loss", "type")]
        picked = [classes[c.strip("'\"")] for c in chosen if c.strip("'\"") in classes]
        extra_values = list(passed.get(item.name.removeprefix(PREFIX), []))
        if item.category == "scheduler":
            named = [c.strip("'\"") for c in chosen] + [item.name.rpartition(": ")[2]]
            extra_values += [
                ("formula", f) for c in dict.fromkeys(named) for f in formulas.get(c, ())
            ]
        if extra_values:
            item = replace(item, values=(*item.values, *extra_values))
        name = item.name
        if item.category == "loss" and picked:
            name = f"{name}: {chosen[0].strip(chr(39) + chr(34))}"
        extra = f"read from {path}, loaded by {by}"
        extra += f"; defined at {picked[0]}" if picked else ""
        note = "; ".join(n for n in (item.note, extra) if n)
        noted.append(replace(item, name=name, note=note))
    return noted


def _passed_with(
    root: dict[str, _Node], analyses: Sequence[FileAnalysis]
) -> dict[str, list[tuple[str, str]]]:
    """Top-level settings of a JSON config the code passes to what another top-level key
    builds, by that key: pytorch-segmentation builds its loss with
    ``getattr(losses, config['loss'])(ignore_index=config['ignore_index'])``, so the loss's
    row shows ``ignore_index=255``. A setting is read where its key is written as a constant
    inside the same call as the building key."""
    found: dict[str, list[tuple[str, str]]] = {}
    shown: set[tuple[str, str]] = set()
    for fa in with_values(analyses):
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            keys = [
                e.value
                for e in call.expr.walk()
                if e.kind == "Constant" and isinstance(e.value, str) and e.value in root
            ]
            builds = [k for k in keys if root[k].kind != "dict" and root[k].string() is not None]
            for built in builds:
                for key in keys:
                    node = root[key]
                    if key == built or node.kind != "leaf" or (built, key) in shown:
                        continue
                    shown.add((built, key))
                    found.setdefault(built, []).append((key, node.shown()))
    return found


def _schedule_formulas(analyses: Sequence[FileAnalysis]) -> dict[str, list[str]]:
    """A repository scheduler class's learning-rate formula, by class name: the statements
    of its ``get_lr`` holding a constant other than 0 and 1 (pytorch-segmentation's
    ``Poly``: ``factor = pow((1 - 1.0 * T / self.N), 0.9)``, the power 0.9 the config does
    not say)."""
    found: dict[str, list[str]] = {}
    for fa in analyses:
        if fa.errors or fa.syntax is None or fa.syntax.values is None:
            continue
        defs = fa.syntax.values.defs
        for d in defs:
            if d.is_class or d.owner < 0 or d.name not in ("get_lr", "_get_closed_form_lr"):
                continue
            texts = [f"{a.target.text} = {a.value.text}" for a in d.assigns if _tuned(a.value)]
            texts += [f"return {r.text}" for r in d.returns if _tuned(r)]
            if texts:
                found.setdefault(defs[d.owner].name, texts)
    return found


def _tuned(expr: Expr) -> bool:
    """``expr`` holds a number other than 0 and 1: a value someone chose."""
    return any(
        e.kind == "Constant"
        and isinstance(e.value, int | float)
        and not isinstance(e.value, bool)
        and e.value not in (0, 1)
        for e in expr.walk()
    )


def _evaluation_key(key: str) -> bool:
    """``val_loader``, ``test_loader``: a validation split's settings, not the recipe."""
    low = key.lower()
    return low in _SKIPPED or low.startswith(("val_", "test_", "eval_", "valid_"))


def _json_node(value: object, path: str, lines: list[str], line: int) -> _Node:
    """A JSON value as a config node; a key's line is the first line at or after its
    parent's that holds the quoted key."""
    if isinstance(value, dict):
        items: dict[str, _Node] = {}
        at = line
        for key, item in value.items():
            at = _line_of(lines, f'"{key}"', at)
            items[str(key)] = _json_node(item, path, lines, at)
        return _Node("dict", path, line, "{...}", items)
    if isinstance(value, list):
        elems = tuple(_json_node(e, path, lines, line) for e in value)
        return _Node("list", path, line, json.dumps(value)[:80], elems=elems)
    if isinstance(value, str):
        return _Node("leaf", path, line, repr(value), value=value)
    shown = "None" if value is None else repr(value)
    return _Node("leaf", path, line, shown, value=value)


def _line_of(lines: list[str], quoted: str, start: int) -> int:
    for n in range(max(start, 1), len(lines) + 1):
        if quoted in lines[n - 1]:
            return n
    return start


def _json_augment(root: dict[str, _Node]) -> list[RecipeItem]:
    """The augmentation switches and sizes of a JSON config's training data, one row for
    each dict that holds them (``train_loader.args``)."""
    out: list[RecipeItem] = []

    def visit(node: _Node, keys: tuple[str, ...]) -> None:
        found = [
            (k, v)
            for k, v in node.items.items()
            if v.kind == "leaf" and _JSON_AUGMENT.fullmatch(k) and not v.none
        ]
        if found:
            values = tuple((k, v.shown()) for k, v in found)
            where = Where(node.path, found[0][1].line)
            name = f"{PREFIX}{'.'.join(keys)}"
            out.append(RecipeItem("augmentation", name, where, values, "augmentation settings"))
        for k, v in node.items.items():
            if v.kind == "dict" and not _evaluation_key(k):
                visit(v, (*keys, k))

    for key, value in root.items():
        if value.kind == "dict":
            visit(value, (key,))
    return out


def with_config_rows(
    items: tuple[RecipeItem, ...],
    analyses: Sequence[FileAnalysis],
    root: Path | None = None,
    files: tuple[RecipeItem, ...] = (),
) -> tuple[RecipeItem, ...]:
    """The recipe's rows with the dict configs', the JSON configs' and ``files`` (the
    YAML and Darknet configs' rows) added, in the recipe's order (category, path, line,
    name)."""
    found = config_recipe(analyses, root)
    loaded = (*json_config_recipe(root, analyses), *files)
    order = {c: n for n, c in enumerate(RECIPE_CATEGORIES)}
    if loaded:
        items = tuple(
            sorted(
                (*items, *loaded),
                key=lambda i: (order[i.category], i.where.path, i.where.line, i.name),
            )
        )
    if not found:
        return items
    # a config file's values are this module's rows: the recipe's bare settings read from
    # the same files (``fp16 = dict(...)`` as a setting with no value) would repeat them for
    # every config; torch APIs and compositions found there stay
    configs = {
        fa.path
        for fa in analyses
        if fa.syntax is not None
        and fa.syntax.values is not None
        and _looks_like_config(fa.path, fa.syntax.values)
    }
    items = tuple(
        i
        for i in items
        if i.where.path not in configs or "." in i.name or i.name.startswith(_KEPT_ROWS)
    )
    return tuple(
        sorted(
            (*items, *found),
            key=lambda i: (order[i.category], i.where.path, i.where.line, i.name),
        )
    )
