"""The recipe kept in non-Python config files: yacs YAML and Darknet ``.cfg``.

Two layouts keep a training recipe outside Python, where no worker records it:

- **yacs** (Swin-Transformer, FCOS/maskrcnn-benchmark, detectron2): Python defaults
  (``_C.SOLVER.BASE_LR = 0.001``) with a YAML file merged over them
  (``cfg.merge_from_file(args.config_file)``). The recipe follows ``cfg.SOLVER.BASE_LR`` to the
  default; this module says what the YAML files make of it. When the training entry's
  argparse option names one YAML as its default, that YAML is the config: its values replace
  the defaults, with the file and line. Otherwise (``--cfg`` required, ``--config-file``
  defaulting to ``""``) no YAML is "the" config: the defaults stay, and the review says how
  many YAML files set the key and to what.
- **Darknet** (PyTorch-YOLOv3): the ``[net]`` section of the ``.cfg`` file the training's
  argparse default names (``--model config/yolov3.cfg``) holds the learning rate, momentum,
  decay, batch, subdivisions, burn-in, steps and input size, read by the training through
  ``model.hyperparams[...]``.
- **A YAML hyperparameter dict** (yolov5): the flat YAML the training's ``--hyp`` default
  names, loaded with ``yaml.safe_load`` and read by key (``hyp['lr0']``), read the same way.
- **Option files built by name**: BasicSR-style option YAMLs (``type``), JSON hparams, and
  OmegaConf configs whose sections name a dotted ``target`` with its ``params``
  (taming-transformers, latent-diffusion: ``instantiate_from_config(config.model)``), read
  per model the configs build: its params, its loss config's weights, the learning rate,
  batch and image size, and the model tree's top model.

Config files are data: YAML is read with ``yaml.SafeLoader`` (no tag builds an object), a
``.cfg`` as ``key=value`` lines. A file that does not parse is left out with a note; the
rest of the review stands.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

from apiscan.extract.records import FileAnalysis
from apiscan.extract.values import Expr, FileValues
from apiscan.review.commands import (
    command_overrides,
    commanded_config,
    commanded_configs,
    documented_entry,
    documented_scripts,
    files_below,
    script_config,
    script_configs,
)
from apiscan.review.model import RecipeItem, Where
from apiscan.review.sources import is_test_path, with_values

#: A YAML or .cfg file larger than this is data, not a training configuration.
_SIZE_LIMIT = 200_000
#: At most this many YAML files are read (a repository of configs beyond it is sampled no
#: further: the count says so).
_MAX_YAML = 2000
#: At most this many folders' values are shown in a summary row (the largest).
_FOLDERS_SHOWN = 4
#: A value shown longer than this is cut (a list of dataset names).
_TEXT_LIMIT = 120
_SKIPPED_DIRS = frozenset({".git", ".github", "node_modules", "__pycache__", "docs", "site"})
#: Keys whose values across the YAML files are summarised when no YAML is the default.
#: Any case: a yacs key under upper-case sections may be lower case (``TRAIN.num_epoch``,
#: ``TRAIN.batch_size_per_gpu``).
_SUMMARY = (
    ("optimizer", re.compile(r"(^|\.)(BASE_LR|LR)$", re.IGNORECASE)),
    # the epoch a training loop runs to is its length (HRNet's ``range(cfg.TRAIN.BEGIN_EPOCH,
    # cfg.TRAIN.END_EPOCH)``); where it begins is none
    (
        "epochs",
        re.compile(r"(^|\.)(EPOCHS|MAX_ITER|MAX_EPOCHS?|NUM_EPOCHS?|END_EPOCH)$", re.IGNORECASE),
    ),
    ("batch_size", re.compile(r"(^|\.)(IMS_PER_BATCH|BATCH_SIZE(_PER_GPU)?)$", re.IGNORECASE)),
    # the training's input sizes (semantic-segmentation-pytorch's ``DATASET.imgSizes``, the
    # short sides it draws from, and ``imgMaxSize``; Swin's ``DATA.IMG_SIZE``)
    (
        "preprocessing",
        re.compile(r"(^|\.)(IMG_?SIZES?|IMAGE_?SIZES?|INPUT_?SIZES?|IMG_?MAX_?SIZE)$", re.I),
    ),
)
#: Scripts whose config option is not the training's: demos, evaluation, export.
_SIDE_SCRIPT = re.compile(
    r"(^|/)(demos?|deploy\w*|export\w*|notebooks?|inference)(/|$)|(demo|infer|eval|test|export)\w*\.py$"
)
#: Keys naming the model a yacs config builds.
MODEL_KEYS = ("MODEL.META_ARCHITECTURE", "MODEL.BACKBONE.CONV_BODY", "MODEL.TYPE", "MODEL.NAME")
#: A YAML value that may name a registered class or function (``ResNet``, ``slowfast``,
#: ``build_resnet_fpn_backbone``): an identifier, not a number, a switch or a path.
_NAME_VALUE = re.compile(r"(?!(?:true|false|none|null)$)[A-Za-z_][\w-]*", re.IGNORECASE)


@dataclass(frozen=True)
class Setting:
    """One value of a config file: as written, and where."""

    text: str
    path: str
    line: int

    def loc(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class YamlConfigs:
    """The yacs YAML configs of a repository, each flattened (``SOLVER.BASE_LR``) with its
    ``_BASE_``/``BASE`` files merged underneath."""

    #: the YAML the training entry's argparse default names, if any
    chosen: str | None = None
    #: where it is named (``default of --config-file at tools/train.py:12``)
    chosen_by: str = ""
    #: path -> dotted key -> setting (bases merged)
    flat: dict[str, dict[str, Setting]] = field(default_factory=dict)
    #: dotted key -> the Python default (``_C.SOLVER.BASE_LR = 0.001``)
    defaults: dict[str, Setting] = field(default_factory=dict)
    #: the option that names the YAML (``--cfg``) and where, when it has no default
    option: str = ""
    notes: list[str] = field(default_factory=list)
    #: dotted key -> the value the command that picks the YAML passes after its options
    #: (``SOLVER.BASE_LR 0.0025``), merged over the file (``cfg.merge_from_list(args.opts)``)
    overrides: dict[str, Setting] = field(default_factory=dict)
    #: with none chosen: (config, where first, how many commands) of each config the
    #: documented training commands of the script whose option names it (:attr:`option`,
    #: no default) pass it, the most named first
    documented: list[tuple[str, str, int]] = field(default_factory=list)

    def step(self, key: str, shown: str) -> tuple[str, str] | None:
        """What the YAML configs make of ``key``: (value, step) when the command that picks
        the YAML or the chosen YAML sets it; ("", step) when several YAMLs set it and none
        is the default; else None."""
        if self.chosen is not None:
            setting = self.flat.get(self.chosen, {}).get(key)
            default = self.defaults.get(key)
            over = f", over the default {default.text} at {default.loc()}" if default else ""
            given = self.overrides.get(key)
            if given is not None:
                under = f"{setting.text} in {setting.loc()}" if setting is not None else ""
                under = f", over {under}" if under else over
                return given.text, f"{shown}: {given.text} on the training command at " + (
                    f"{given.loc()}{under}"
                )
            if setting is None:
                return None
            by = f", {self.chosen_by}" if self.chosen_by else ""
            return setting.text, f"{shown}: {setting.text} in {setting.loc()}{by}{over}"
        setters = {p: f[key] for p, f in self.flat.items() if key in f}
        if not setters:
            return None
        documented = self.documented_values(key)
        if documented is not None:
            first = self.documented[0][1]
            if len(documented) == 1:
                # every documented run gives it the same value: the run's value
                (text, count), _ = next(iter(documented.items()))
                return text, (
                    f"{shown}: {text} in all {count} configs the training commands name "
                    f"(first at {first})"
                )
            return "", f"{shown}: {_documented_tally(documented, first)}; none is the default"
        return "", f"{shown}: {_tally([s.text for s in setters.values()], len(self.flat))}"

    def documented_values(self, key: str) -> dict[tuple[str, int], bool] | None:
        """With none chosen, what the configs the training script's documented commands
        name (:attr:`documented`) give ``key``, each its own setting or the Python default:
        (value as first written, how many configs) -> whether every one of them keeps the
        default; the most common first. Swin's tiny, small and base from scratch keep
        ``BASE_LR`` 5e-4, its two fine-tunings set 2e-05: not a tally over every shipped YAML
        (other scripts' and undocumented ones). None without documented configs, or when a
        config keeps a key with no default."""
        if self.chosen is not None or not self.documented:
            return None
        default = self.defaults.get(key)
        groups: dict[str, list[tuple[str, bool]]] = {}
        for path, _, _ in self.documented:
            setting = self.flat.get(path, {}).get(key)
            kept = setting is None
            setting = setting or default
            if setting is None:
                return None
            groups.setdefault(canon_value(setting.text), []).append((setting.text, kept))
        ranked = sorted(groups.values(), key=lambda g: -len(g))
        return {(g[0][0], len(g)): all(kept for _, kept in g) for g in ranked}

    def model_keys(self) -> list[tuple[str, str, Setting]]:
        """(key suffix, value, setting) of the keys naming the model in the default YAML
        (``MODEL.META_ARCHITECTURE``, ``BACKBONE.CONV_BODY``): they pick the model over the
        Python defaults. Empty with no default YAML (no pick is invented)."""
        if self.chosen is None:
            return []
        own = {**self.flat.get(self.chosen, {}), **self.overrides}
        # the well-known model keys first, then every other name the run's YAML (or the
        # command's ``KEY VALUE`` after it) gives a key: a registry looked up by any of them
        # (SlowFast's ``MODEL_REGISTRY.get(cfg.MODEL.MODEL_NAME)`` with ``MODEL_NAME:
        # ResNet``) builds what the run names, not the Python default
        keys = [*(k for k in MODEL_KEYS if k in own), *(k for k in own if k not in MODEL_KEYS)]
        return [
            (".".join(k.split(".")[-2:]), own[k].text.strip("'\""), own[k])
            for k in keys
            if k in MODEL_KEYS or _NAME_VALUE.fullmatch(own[k].text.strip("'\""))
        ]


class YamlPlace:
    """Where a default YAML's model key is set, for the model tree's "how it was picked"
    (read like a model file's ``loc``)."""

    def __init__(self, setting: Setting, chosen_by: str) -> None:
        self.path = setting.path
        self.chosen_by = chosen_by

    def loc(self, line: int) -> str:
        return f"{self.path}:{line} ({self.chosen_by})"


def _documented_tally(values: Mapping[tuple[str, int], bool], first: str) -> str:
    """``5e-4 (the default) in 3 of the 6 documented configs; 2e-05 in 2; 1.25e-4 in 1
    (the training commands' configs, first at get_started.md:178)``."""
    total = sum(count for _, count in values)
    parts = []
    for n, ((text, count), kept) in enumerate(values.items()):
        if n == 4:
            parts.append(f"{len(values) - 4} more values")
            break
        shown = f"{text} (the default)" if kept else text
        parts.append(
            f"{shown} in {count} of the {total} documented configs"
            if n == 0
            else f"{shown} in {count}"
        )
    return "; ".join(parts) + f" (the training commands' configs, first at {first})"


def _tally(texts: Sequence[str], total: int, tail: bool = True) -> str:
    """How many of ``total`` YAML configs give each value, the most common first (ties: the
    smaller value), and how many keep the default: ``0.02 in 5 of 7 YAML configs; 0.01 in
    1; 1 keeps the default; none is the default``. No comma between values: a list of
    scalars read as one size tuple would make a single-scale resize look multi-scale.
    ``tail``: end with "none is the default" (what marks a value as undecided)."""
    counts: dict[str, int] = {}
    shown: dict[str, str] = {}
    for text in texts:  # ``1e-4`` and ``0.0001`` are one value, shown as first written
        same = canon_value(text)
        counts[same] = counts.get(same, 0) + 1
        shown.setdefault(same, text)
    ranked = sorted(counts, key=lambda t: (-counts[t], _number_key(t)))
    parts = [f"{shown[ranked[0]]} in {counts[ranked[0]]} of {total} YAML configs"]
    parts += [f"{shown[t]} in {counts[t]}" for t in ranked[1:4]]
    if len(ranked) > 4:
        parts.append(f"{len(ranked) - 4} more values")
    if len(texts) < total:
        rest = total - len(texts)
        parts.append(f"{rest} keep{'s' if rest == 1 else ''} the default")
    return "; ".join(parts) + ("; none is the default" if tail else "")


def canon_value(text: str) -> str:
    """A value as compared with others: numbers by their value (``5.0e-5``, ``5.0e-05``
    and ``0.00005`` alike), YAML booleans in any case, list elements each so."""
    if text.startswith("[") and text.endswith("]") and "[" not in text[1:]:
        return "[" + ", ".join(canon_value(e.strip()) for e in text[1:-1].split(",")) + "]"
    try:
        return repr(float(text))
    except ValueError:
        return text.lower() if text.lower() in ("true", "false") else text


def _span(values: list[str]) -> str:
    """Sorted values as ``low … high (n values)``, or the one value."""
    low, high = values[0], values[-1]
    return low if low == high else f"{low} … {high} ({len(values)} values)"


def _number_key(text: str) -> tuple[int, float, str]:
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


# ----------------------------------------------------------------------------- YAML
def yaml_configs(
    root: Path | None, analyses: Sequence[FileAnalysis], composed: Composed | None = None
) -> YamlConfigs | None:
    """The repository's yacs YAML configs, or None when it merges none (no
    ``merge_from_file`` call, or no YAML whose keys are its Python defaults'). Reads the
    files each call: a review reads them once, through its
    :class:`~apiscan.review.readings.Readings` (whose ``composed`` the option reader shares)."""
    if root is None or not root.is_dir():
        return None
    return _read_configs(root, analyses, {} if composed is None else composed)


def _read_configs(
    root: Path, analyses: Sequence[FileAnalysis], composed: Composed
) -> YamlConfigs | None:
    files = with_values(analyses)
    if not any(
        c.expr.func.text.rpartition(".")[2] == "merge_from_file"
        for fa in files
        for c in fa.syntax.values.calls  # type: ignore[union-attr]
    ):
        return None
    found = YamlConfigs(defaults=_yacs_defaults(files))
    if not found.defaults:
        return None
    raw: dict[str, dict[str, Setting]] = {}
    bases: dict[str, list[str]] = {}
    for path in yaml_files(root):
        try:
            own, base = _read_yaml(root, path, composed)
        except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
            found.notes.append(f"{path} ({type(err).__name__})")
            continue
        if own is None:
            continue
        raw[path] = own
        bases[path] = base
    for path in sorted(raw):
        flat = _merged(path, raw, bases, set())
        # a yacs config: most of its keys are the defaults' (a dataset list or a CI file
        # that happens to be YAML is not)
        hits = sum(1 for k in flat if k in found.defaults)
        if hits and hits * 2 >= len(flat):
            found.flat[path] = flat
    if not found.flat:
        return None
    _choose(found, root, files)
    return found


def _yacs_defaults(files: Sequence[FileAnalysis]) -> dict[str, Setting]:
    """``_C.SOLVER.BASE_LR = 0.001`` at module level: ``SOLVER.BASE_LR`` -> ``0.001``. The
    sections are upper case; the key may not be (semantic-segmentation-pytorch's
    ``_C.TRAIN.lr_encoder = 0.02``): :func:`yacs_key` says which chains are keys."""
    out: dict[str, Setting] = {}
    for fa in files:
        top: list[tuple[list[str], Setting]] = []
        roots: set[str] = set()
        for stmt in fa.syntax.values.assigns:  # type: ignore[union-attr]
            target = stmt.target
            if target.kind != "Attribute" or not stmt.value.literal:
                continue
            chain = target.full().split(".")
            setting = Setting(stmt.value.text, fa.path, stmt.line)
            if len(chain) >= 3 and yacs_key(chain[1:]) == chain[1:]:
                out.setdefault(".".join(chain[1:]), setting)
                roots.add(chain[0])
            elif len(chain) == 2 and chain[1].isupper():
                top.append((chain, setting))
        # a key at the top (``_C.DTYPE = "float32"``) of the node whose sections the file
        # fills in (``_C.SOLVER.BASE_LR``); another object's upper-case attribute is none
        for chain, setting in top:
            if chain[0] in roots:
                out.setdefault(chain[1], setting)
    return out


def yacs_key(chain: Sequence[str]) -> list[str]:
    """The longest tail of an attribute chain that can be a yacs key: its last name (any
    case: ``lr_encoder``) under one upper-case section at least (``TRAIN``), each section
    upper case (``MODEL.BACKBONE``); empty when there is none. ``cfg.TRAIN.lr_encoder`` ->
    ``TRAIN.lr_encoder``; ``cfg.SOLVER.BASE_LR`` -> ``SOLVER.BASE_LR``; ``self.model.lr``
    -> nothing (lower-case sections are an object's attributes, not a config's)."""
    if len(chain) < 2:
        return []
    keys = [chain[-1]]
    for part in reversed(chain[:-1]):
        if not part.isupper():
            break
        keys.insert(0, part)
    return keys if len(keys) >= 2 else []


def yaml_files(root: Path) -> Iterator[str]:
    """The repository's YAML files (relative POSIX paths, sorted by folder), within the one
    count limit and skip list every YAML reader of a review shares."""
    return files_below(root, (".yaml", ".yml"), _SKIPPED_DIRS, _MAX_YAML)


#: The YAML files composed for one review: path -> the node, or the error reading it raised,
#: or None when too large. The yacs and the option readers both walk the YAML files; a
#: review's :class:`~apiscan.review.readings.Readings` hands both the same dict, so each file
#: is read once per review.
Composed = dict[str, yaml.Node | Exception | None]


def _compose(
    root: Path, path: str, nodes: dict[str, yaml.Node | Exception | None]
) -> yaml.Node | None:
    """A YAML file composed (lines kept, no object built), once per review; raises what
    reading it raised; None when it is too large to be a config."""
    if path not in nodes:
        full = root / path
        try:
            if full.stat().st_size > _SIZE_LIMIT:
                nodes[path] = None
            else:
                text = full.read_text(encoding="utf-8")
                nodes[path] = yaml.compose(text, Loader=yaml.SafeLoader)
        except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
            nodes[path] = err
    found = nodes[path]
    if isinstance(found, Exception):
        raise found
    return found


def _read_yaml(
    root: Path, path: str, nodes: dict[str, yaml.Node | Exception | None]
) -> tuple[dict[str, Setting] | None, list[str]]:
    """A YAML file's keys flattened (``SOLVER.BASE_LR``), each with its line, and the files
    it names as bases; None when its top level is no mapping of upper-case keys."""
    node = _compose(root, path, nodes)
    if not isinstance(node, yaml.MappingNode):
        return None, []
    out: dict[str, Setting] = {}
    bases: list[str] = []
    for key, value in node.value:
        name = str(key.value)
        if name in ("_BASE_", "BASE"):
            items = value.value if isinstance(value, yaml.SequenceNode) else [value]
            bases += [str(i.value) for i in items if isinstance(i, yaml.ScalarNode) and i.value]
            continue
        if not name.isupper():
            return None, []
        _flatten(path, (name,), value, out)
    folder = PurePosixPath(path).parent
    resolved = [os.path.normpath((folder / b).as_posix()) for b in bases]
    return out, [r for r in resolved if not r.startswith("..")]


def _flatten(path: str, keys: tuple[str, ...], node: yaml.Node, out: dict[str, Setting]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _flatten(path, (*keys, str(key.value)), value, out)
        return
    text = _shown(node)
    if len(text) > _TEXT_LIMIT:
        text = text[: _TEXT_LIMIT - 1] + "…"
    out[".".join(keys)] = Setting(text, path, node.start_mark.line + 1)


def _shown(node: yaml.Node) -> str:
    """A YAML value as written: ``0.01``, ``(800,)``, ``'giou'``, ``[2, 2, 18, 2]``."""
    if isinstance(node, yaml.ScalarNode):
        text = str(node.value)
        if node.style in ("'", '"'):
            return repr(text)
        if node.tag.endswith((":int", ":float", ":bool", ":null")) or text[:1] in "([":
            return text
        try:  # yacs reads 5e-4 as a number (PyYAML's YAML 1.1 reads it as text)
            float(text)
            return text
        except ValueError:
            return repr(text)
    if isinstance(node, yaml.SequenceNode):
        return "[" + ", ".join(_shown(e) for e in node.value) + "]"
    if isinstance(node, yaml.MappingNode):
        return "{" + ", ".join(f"{k.value}: {_shown(v)}" for k, v in node.value) + "}"
    return "?"


def _merged(
    path: str, raw: dict[str, dict[str, Setting]], bases: dict[str, list[str]], seen: set[str]
) -> dict[str, Setting]:
    """A YAML's keys over its bases' (the bases' first), as yacs merges them."""
    out: dict[str, Setting] = {}
    seen = seen | {path}
    for base in bases.get(path, []):
        if base in raw and base not in seen:
            out.update(_merged(base, raw, bases, seen))
    out.update(raw[path])
    return out


def _choose(found: YamlConfigs, root: Path, files: Sequence[FileAnalysis]) -> None:
    """The YAML the training entry's argparse option names as its default. When a training
    script (``train`` in its name) declares a config option, only its default counts: a
    demo's ``--config-file`` default is not the recipe."""
    options: list[tuple[bool, str, str, str]] = []  # (not training, flag, default, where)
    for fa in files:
        train = "train" in PurePosixPath(fa.path).name
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            option = _option(call.expr)
            if option is not None and re.search(r"cfg|config", option[0]):
                options.append((not train, *option, f"{fa.path}:{call.expr.line}"))
    if any(not other for other, *_ in options):
        options = [o for o in options if not o[0]]
    else:
        # no training script declares it (detectron2's is in engine/defaults.py): a demo's
        # or an evaluation's default is not the recipe, and when some option has no
        # default the one the training reads cannot be told
        options = [o for o in options if not _SIDE_SCRIPT.search(o[3].rpartition(":")[0])]
        if any(not default for _, _, default, _ in options):
            options = [o for o in options if not o[2]]
    named: list[tuple[str, str]] = []
    bare: list[tuple[str, str]] = []  # (flag, script) of the options with no default
    for _, flag, default, where in sorted(options):
        source = where.rpartition(":")[0]
        if not default:
            found.option = found.option or f"{flag} at {where}"
            bare.append((flag, source))
            continue
        for candidate in _candidates(source, default):
            if candidate in found.flat:
                named.append((candidate, f"the default of {flag} at {where}"))
                break
    if not named and found.flat:  # no default: the config the README's training command names
        commanded = commanded_config(root, set(found.flat))
        if commanded is not None:
            named.append((commanded[0], f"the training command at {commanded[1]}"))
            # its trailing ``KEY VALUE`` pairs replace the file's values in the run
            path, _, line = commanded[1].rpartition(":")
            keys = set(found.defaults) | set(found.flat[commanded[0]])
            found.overrides = {
                key: Setting(value, path, int(line))
                for key, value in command_overrides(root, commanded[1], keys)
            }
    if named:
        found.chosen, found.chosen_by = named[0]
    elif bare and found.flat:
        flag, script = bare[0]
        found.documented = script_configs(root, script, {flag}, set(found.flat))


def _option(call: Expr) -> tuple[str, str] | None:
    """``parser.add_argument("--config-file", default="x.yaml")``: (flag, default or "")."""
    if call.func.text.rpartition(".")[2] != "add_argument" or not call.args:
        return None
    flags = [a.value for a in call.args if a.kind == "Constant" and isinstance(a.value, str)]
    if not flags:
        return None
    flag = max(flags, key=len)
    for kw in call.keywords:
        if kw.name == "default":
            value = kw.target.value if kw.target.kind == "Constant" else None
            return flag, value if isinstance(value, str) else ""
    return flag, ""


def _candidates(source: str, written: str) -> Iterator[str]:
    """A path written in ``source``: from the repository root, from the file's folder and
    from each folder above it (a script run from its own folder or the root)."""
    written = written.removeprefix("./")
    yield os.path.normpath(written)
    folder = PurePosixPath(source).parent
    while str(folder) not in ("", "."):
        yield os.path.normpath((folder / written).as_posix())
        folder = folder.parent


def loaded_settings(
    root: Path, source: str, written: str, nodes: dict[str, yaml.Node | Exception | None]
) -> dict[str, Setting] | None:
    """The settings of the YAML or JSON file a call in ``source`` names by the literal path
    ``written`` (``get_config("config_files/en.yaml")``: looked for from the root and from
    each folder up from ``source``'s), flattened to dotted keys; None when no such file
    is a mapping. ``nodes`` is the review's cache of composed files."""
    for candidate in _candidates(source, written):
        if candidate.startswith("..") or not (root / candidate).is_file():
            continue
        found = OptionFiles("loaded")
        _flat_yamls(found, root, nodes, None, [candidate])
        if candidate in found.flat:
            return found.flat[candidate]
    return None


def code_reads(analyses: Iterable[FileAnalysis]) -> frozenset[str]:
    """What the repository's code (no test file) reads a config by: the attribute names
    and the constant strings of the expressions it computes with (calls and their
    arguments, assigned values, returns, defaults, ``if`` tests), and ``**name`` for a
    section unpacked whole into a call (``Adam(**cfg.OPTIM)``). An assignment's target is
    no read: the Python defaults (``_C.TRAIN.LR = 0.001``) set a key, they do not use it."""
    out: set[str] = set()
    for fa in analyses:
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        if values is None or is_test_path(fa.path):
            continue
        exprs: list[Expr] = [c.expr for c in values.calls]
        exprs += [a.value for a in values.assigns]
        for d in values.defs:
            exprs += [a.value for a in d.assigns] + list(d.returns)
            exprs += [default for _, default in d.params if default is not None]
        exprs += [near.test for c in values.calls for near in c.ifs]
        exprs += [near.test for a in values.assigns for near in a.ifs]
        for x in exprs:
            for e in x.walk():
                if e.kind == "Attribute":
                    out.add(e.name)
                elif e.kind == "Constant" and isinstance(e.value, str):
                    out.add(e.value)
                elif e.kind == "keyword" and not e.name and e.parts:
                    inner = e.parts[0]
                    last = inner.parts[-1] if inner.kind == "Subscript" else inner
                    name = last.value if last.kind == "Constant" else last.name
                    out.add(f"**{name}")
    return frozenset(out)


def _key_read(key: str, reads: frozenset[str]) -> bool:
    """Whether code reads the dotted config ``key``: its last part by name, or a section
    holding it unpacked whole."""
    parts = key.split(".")
    return parts[-1] in reads or any(f"**{p}" in reads for p in parts[:-1])


def yaml_rows(
    found: YamlConfigs | None, analyses: Iterable[FileAnalysis] | None = None
) -> tuple[RecipeItem, ...]:
    """The recipe rows of the YAML configs' learning rate, length of training and batch
    size: the default YAML's values (its other values show where the recipe reads the
    keys); with no default YAML, how many YAML files set each and to what. Given the
    repository's ``analyses`` and no YAML named by the training's option, a key no code
    reads (:func:`code_reads`) is no row: a config copied with a backbone (HRNet's
    ``TRAIN.LR``, ``MODEL.IMAGE_SIZE``) whose training settings the run takes from
    elsewhere. A YAML the training names is the run's whole config: a framework the
    repository builds on may read its keys (detectron2's ``SOLVER.IMS_PER_BATCH``)."""
    if found is None:
        return ()
    unchosen = analyses is not None and found.chosen is None
    reads = code_reads(analyses) if unchosen and analyses is not None else None
    out: list[RecipeItem] = []
    if found.chosen is not None:
        why = f"read from {found.chosen}, {found.chosen_by}"
        if found.overrides:
            why += (
                " (with the values it passes after the file: "
                + ", ".join(f"{k} {s.text}" for k, s in found.overrides.items())
                + ")"
            )
    elif found.option:
        why = f"no YAML config is the default ({found.option} names none)"
    else:
        why = "no YAML config is named by default"
    if found.chosen is None:
        why += ": the Python defaults are shown elsewhere; the configs differ"
    if found.notes:
        why += f"; {len(found.notes)} YAML file(s) not read: " + ", ".join(found.notes[:3])
    keys = sorted({k for flat in found.flat.values() for k in flat} | set(found.overrides))
    for category, pattern in _SUMMARY:
        for key in keys:
            if not pattern.search(key) or key.split(".")[0] in ("TEST", "VAL"):
                continue
            if reads is not None and not _key_read(key, reads):
                continue
            row = _summary_row(found, category, key, why)
            if row is not None:
                out.append(row)
    if analyses is not None:
        row = _documented_model_row(found, code_reads(analyses))
        if row is not None:
            out.append(row)
    return tuple(out)


#: At most this many keys of the model's section are shown in its settings row.
_MODEL_KEYS_SHOWN = 30


def _documented_model_row(found: YamlConfigs, reads: frozenset[str]) -> RecipeItem | None:
    """With no YAML the default and the documented training commands naming theirs (HRNet's
    ``--cfg experiments/coco/hrnet/w32_256x192_adam_lr1e-3.yaml``), the settings those
    YAMLs build the model with: each key of their ``MODEL`` section the code reads
    (``NUM_JOINTS``, ``HEATMAP_SIZE``, ``EXTRA.STAGE2.NUM_CHANNELS``), with the value each
    documented run gives it. The keys other rows show (the input size) are left to them,
    and so are the keys every documented YAML leaves to the Python default."""
    if found.chosen is not None or not found.documented:
        return None
    summarised = [pattern for _, pattern in _SUMMARY]
    keys: list[str] = []
    for path, _, _ in found.documented:
        for key in found.flat.get(path, {}):
            parts = key.split(".")
            if len(parts) < 2 or parts[0].upper() != "MODEL" or key in keys:
                continue
            if any(p.search(key) for p in summarised) or not _key_read(key, reads):
                continue
            keys.append(key)
    shown: list[tuple[str, str]] = []
    for key in keys[:_MODEL_KEYS_SHOWN]:
        documented = found.documented_values(key)
        if not documented:
            continue
        if len(documented) == 1:
            shown.append((key, next(iter(documented))[0]))
        else:
            total = len(found.documented)
            runs = [f"{text} in {count}" for text, count in documented]
            runs[0] += f" of the {total} documented configs"
            shown.append((key, "; ".join(runs)))
    if not shown:
        return None
    if len(keys) > _MODEL_KEYS_SHOWN:
        shown.append(("more", f"{len(keys) - _MODEL_KEYS_SHOWN} more keys"))
    first, at, _ = found.documented[0]
    setting = found.flat[first].get(keys[0])
    where = Where(setting.path, setting.line) if setting else Where(first, 1)
    return RecipeItem(
        "model",
        "config MODEL of the documented runs' YAML",
        where,
        tuple(shown),
        f"the settings the model is built with, in the configs the training commands name "
        f"(first at {at})",
    )


def _summary_row(found: YamlConfigs, category: str, key: str, why: str) -> RecipeItem | None:
    default = found.defaults.get(key)
    shown: list[tuple[str, str]] = []
    if found.chosen is not None:
        setting = found.flat[found.chosen].get(key)
        given = found.overrides.get(key)
        if given is not None:
            # the command's value, over the file's (or the default) it replaces
            shown.append(("value", f"{given.text} (on the training command at {given.loc()})"))
            if setting is not None:
                shown.append((f"in {found.chosen}", setting.text))
        elif setting is not None:
            shown.append(("value", setting.text))
        elif category == "batch_size" and default is not None:
            # the chosen YAML keeps the Python default: the run's batch is that default
            shown.append(("value", f"{default.text} (the default; {found.chosen} keeps it)"))
            setting = default
        else:
            return None
        if default is not None:
            shown.append(("default", f"{default.text} at {default.loc()}"))
        place = given or setting
        return RecipeItem(
            category, f"config {key}", Where(place.path, place.line), tuple(shown), why
        )
    setters = [f[key] for f in found.flat.values() if key in f]
    if not setters:
        return None
    if default is not None:
        shown.append(("default", f"{default.text} at {default.loc()}"))
    documented = found.documented_values(key)
    if documented is not None:
        shown.append(("documented runs", _documented_tally(documented, found.documented[0][1])))
    shown.append(("YAML configs", f"{len(setters)} of {len(found.flat)} set it"))
    # each value with how many configs give it (``2 in 5 of 7 YAML configs; 8 in 2``)
    shown.append(("values", _tally([s.text for s in setters], len(found.flat), tail=False)))
    # FCOS ships maskrcnn-benchmark's configs beside its own configs/fcos: each folder's
    # values say which project uses which
    folders: dict[str, list[str]] = {}
    for path, flat in found.flat.items():
        if key in flat:
            folders.setdefault(str(PurePosixPath(path).parent), []).append(flat[key].text)
    if len(folders) > 1:
        biggest = sorted(folders, key=lambda f: (-len(folders[f]), f))[:_FOLDERS_SHOWN]
        for folder in sorted(biggest):
            texts = sorted(set(folders[folder]), key=_number_key)
            shown.append((f"in {folder}/", f"{_span(texts)} ({len(folders[folder])} YAMLs)"))
    # at the Python default the YAMLs override (else the first YAML that sets it)
    first = default or setters[0]
    return RecipeItem(
        category,
        f"config {key} across YAML configs",
        Where(first.path, first.line),
        tuple(shown),
        why,
    )


# ---------------------------------------------------------------------------- Darknet
#: A Darknet ``[net]`` key -> the recipe category its row is in.
_DARKNET = {
    "learning_rate": "optimizer",
    "momentum": "optimizer",
    "decay": "optimizer",
    "optimizer": "optimizer",
    "batch": "batch_size",
    "subdivisions": "batch_size",
    "burn_in": "warmup",
    "policy": "scheduler",
    "steps": "scheduler",
    "scales": "scheduler",
    "max_batches": "scheduler",
    "width": "preprocessing",
    "height": "preprocessing",
    "channels": "preprocessing",
    "angle": "augmentation",
    "saturation": "augmentation",
    "exposure": "augmentation",
    "hue": "augmentation",
    "jitter": "augmentation",
    "mosaic": "augmentation",
}
_ROW_NAMES = {
    "optimizer": "optimizer settings",
    "batch_size": "batch and subdivisions",
    "warmup": "burn-in",
    "scheduler": "learning-rate steps",
    "preprocessing": "input size",
    "augmentation": "augmentation settings",
}


def darknet_recipe(
    root: Path | None,
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], str] | None = None,
) -> tuple[RecipeItem, ...]:
    """Rows from the ``[net]`` section of each Darknet ``.cfg`` an argparse option of the
    training names as its default; only the keys the code reads (a string constant
    somewhere in the repository: ``hyperparams['burn_in']``) are shown. ``apart`` says
    whose recipe a file is when not this one's (a demo's ``-cfgfile`` default names the
    config it runs, not the training's)."""
    if root is None or not root.is_dir():
        return ()
    files = with_values(analyses)
    named = _darknet_named(root, files, apart)
    if not named:
        return ()
    read = _keys_read(files)
    exprs = _value_exprs(files)
    out: list[RecipeItem] = []
    for path, (by, _) in sorted(named.items()):
        net = _darknet_net(root / path)
        if net is None or not _net_receivers(files, exprs, net):
            # the code reads no dict by the section's keys (a model .cfg whose [net] keys
            # the training takes from its own hyperparameter file): no row of the run
            continue
        rows: dict[str, list[tuple[str, str, int]]] = {}
        for key, (value, line) in net.items():
            category = _DARKNET.get(key)
            if category is not None and key in read:
                rows.setdefault(category, []).append((key, value, line))
        if "optimizer" in read and "optimizer" not in net and "optimizer" in rows:
            # PyTorch-YOLOv3: ``hyperparams.get('optimizer')`` is None, the Adam branch
            rows["optimizer"].append(("optimizer", "not set (the code's default applies)", 0))
        for category, values in rows.items():
            note = f"read from {path}, {by}"
            if category == "batch_size" and {"batch", "subdivisions"} <= {k for k, *_ in values}:
                note += "; each step holds batch / subdivisions images"
            out.append(
                RecipeItem(
                    category,
                    f"config [net] {_ROW_NAMES[category]}",
                    Where(path, values[0][2]),
                    tuple((k, v) for k, v, _ in values),
                    note,
                )
            )
    return tuple(out)


def _darknet_named(
    root: Path, files: Sequence[FileAnalysis], apart: Callable[[str], str] | None = None
) -> dict[str, tuple[str, bool]]:
    """The Darknet ``.cfg`` files the training names: path -> (what names it, whether the
    training does). An argparse option's default names one (a training script's naming
    wins), and so does a config object's value (pytorch-YOLOv4's ``Cfg.cfgfile =
    os.path.join(_BASE_DIR, 'cfg', 'yolov4.cfg')``) that code of the training reads by
    that name (``Darknet(cfg.cfgfile)``). Options of the files ``apart`` gives to another
    recipe (a demo, a tool) name no config of the training, and their reads count for
    none."""
    named: dict[str, tuple[str, bool]] = {}

    def name(candidate: str, where: str, train: bool) -> None:
        if train or candidate not in named:
            named[candidate] = (where, train)

    kept = [fa for fa in files if apart is None or not apart(fa.path)]
    for fa in kept:
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            option = _option(call.expr)
            if option is None or not option[1].endswith(".cfg"):
                continue
            for candidate in _candidates(fa.path, option[1]):
                if (root / candidate).is_file():
                    where = f"the default of {option[0]} at {fa.path}:{call.expr.line}"
                    name(candidate, where, "train" in PurePosixPath(fa.path).name)
                    break
    read = _attributes_read(kept)
    for fa in kept:
        values = fa.syntax.values  # type: ignore[union-attr]
        for a in [*values.assigns, *(a for d in values.defs for a in d.assigns)]:
            key = _config_key(a.target)
            written = _written_path(a.value)
            if key is None or written is None or not written.endswith(".cfg"):
                continue
            readers = read.get(key, set()) - {fa.path}
            if not readers:
                continue  # a value nothing else reads by its name: not the training's
            for candidate in _candidates(fa.path, written):
                if (root / candidate).is_file():
                    where = f"the value of {a.target.text} at {fa.path}:{a.line}"
                    train = any("train" in PurePosixPath(r).name for r in readers)
                    name(candidate, where, train)
                    break
    return named


def _config_key(target: Expr) -> str | None:
    """The name a config object's entry is set under (``Cfg.cfgfile``, ``cfg['cfgfile']``),
    None for a plain name (a local of the file that sets it)."""
    if target.kind == "Attribute":
        return target.name
    if target.kind == "Subscript" and len(target.parts) == 2:
        index = target.parts[1]
        if index.kind == "Constant" and isinstance(index.value, str):
            return index.value
    return None


def _written_path(value: Expr) -> str | None:
    """The relative path a value writes: a string literal, or the literal parts of an
    ``os.path.join`` (``os.path.join(_BASE_DIR, 'cfg', 'yolov4.cfg')``: ``cfg/yolov4.cfg``,
    the base a folder of the code, where the candidates are looked for); None otherwise."""
    if value.kind == "Constant":
        return value.value if isinstance(value.value, str) else None
    if value.kind != "Call" or value.func.text.rpartition(".")[2] != "join" or value.keywords:
        return None
    args = list(value.args)
    if args and not (args[0].kind == "Constant" and isinstance(args[0].value, str)):
        args = args[1:]  # the base folder, a name: the candidates are looked for below it
    if not args or not all(a.kind == "Constant" and isinstance(a.value, str) for a in args):
        return None  # a name between the literals: not one path
    return "/".join(str(a.value) for a in args)


def _attributes_read(files: Sequence[FileAnalysis]) -> dict[str, set[str]]:
    """Attribute name or string key -> the files that read it (``cfg.cfgfile``,
    ``cfg['cfgfile']``) in a call's argument or an assigned value."""
    out: dict[str, set[str]] = {}
    for path, e in _walked(files):
        key = _config_key(e)
        if key is not None:
            out.setdefault(key, set()).add(path)
    return out


def _keys_read(files: Sequence[FileAnalysis]) -> set[str]:
    """The keys the code reads by subscript or ``.get`` with a string literal
    (``block['width']``, ``hyperparams.get('optimizer')``): the ``[net]`` keys a parser
    of the section reads. A string written elsewhere (an argparse ``dest='momentum'``)
    reads no key."""
    out: set[str] = set()
    for _, e in _walked(files):
        if e.kind == "Subscript" and len(e.parts) == 2:
            key = _config_key(e)
        elif e.kind == "Call" and e.func.kind == "Attribute" and e.func.name == "get":
            first = e.args[0] if e.args else None
            key = first.value if first is not None and first.kind == "Constant" else None
        else:
            key = None
        if isinstance(key, str):
            out.add(key)
    return out


@dataclass(frozen=True)
class DarknetSettings:
    """The ``[net]`` keys of the Darknet ``.cfg`` the training reads, and the names the
    code reads them from by key (``hyperparams``: ``model.hyperparams['learning_rate']``);
    or the keys of a YAML hyperparameter file the training loads into a dict
    (:func:`hyp_settings`: yolov5's ``hyp['lr0']``)."""

    values: dict[str, Setting]
    receivers: frozenset[str]
    #: the section the keys are in, shown after the file (``[net]``; "" for a YAML)
    section: str = "[net]"
    #: which option names the file (``the default of --hyp at train.py:557``); "" for a
    #: Darknet ``.cfg`` (its rows say it)
    chosen_by: str = ""
    #: key -> where the code changes the entry after loading it and how
    #: (``train.py:236 (hyp["weight_decay"] *= batch_size * accumulate / nbs)``)
    changed: dict[str, str] = field(default_factory=dict)
    #: the names holding the object a repository loader returns, read by attribute
    #: (semseg's ``args.base_lr`` after ``args = get_parser()``)
    objects: frozenset[str] = frozenset()
    #: the keys read from those objects by attribute
    attribute_keys: frozenset[str] = frozenset()
    #: training script -> the YAML it loads, where each script has its own (RAM's
    #: ``pretrain.py`` and ``finetune.py``); empty when one file serves them all
    scripts: dict[str, str] = field(default_factory=dict)
    #: YAML -> its keys and why it is the one read (per script, with :attr:`scripts`)
    files: dict[str, tuple[dict[str, Setting], str]] = field(default_factory=dict)
    #: the keys the code reads by key from the loaded dict (``config['max_epoch']``)
    subscript_keys: frozenset[str] = frozenset()
    #: loaded dict (by name) -> the YAML of :attr:`files` it was loaded from, where one
    #: script loads several (a dict's keys are looked up in its own file only)
    owners: dict[str, str] = field(default_factory=dict)

    def each_file(self) -> list[tuple[dict[str, Setting], str]]:
        """(keys, why that file) of each YAML read: one per training script that loads its
        own, else the one file."""
        if self.files:
            return [self.files[p] for p in sorted(self.files)]
        return [(self.values, self.chosen_by)]

    def read(self, receiver: str, key: str) -> Setting | None:
        """The setting ``receiver[key]`` reads (the receiver by its last name), if any."""
        name = receiver.rpartition(".")[2]
        if name not in self.receivers:
            return None
        if name in self.owners:
            return self.files[self.owners[name]][0].get(key)
        return self.values.get(key)

    def read_in(self, path: str, receiver: str, key: str) -> list[tuple[Setting, str]]:
        """(setting, why that file) of each value ``receiver[key]`` read in the file
        ``path`` may hold: the YAML of the script ``path`` is when each training script
        loads its own, else one per distinct value across those YAMLs (a helper both
        scripts hand their dict to reads either); the one file's otherwise."""
        name = receiver.rpartition(".")[2]
        if name not in self.receivers:
            return []
        if name in self.owners:
            values, why = self.files[self.owners[name]]
            return [(values[key], why)] if key in values else []
        if not self.scripts:
            setting = self.values.get(key)
            return [(setting, self.chosen_by)] if setting is not None else []
        picked = [self.scripts[path]] if path in self.scripts else sorted(self.files)
        found: dict[str, tuple[Setting, str]] = {}
        for yaml_path in picked:
            values, why = self.files[yaml_path]
            if key in values:
                found.setdefault(values[key].text, (values[key], why))
        return list(found.values())

    def attribute(self, receiver: str, key: str) -> Setting | None:
        """The setting ``receiver.key`` reads, the receiver a name holding a loader's
        object, if any."""
        return self.values.get(key) if receiver in self.objects else None


def darknet_settings(
    root: Path | None,
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], str] | None = None,
) -> DarknetSettings:
    """The ``[net]`` keys of the one Darknet ``.cfg`` the training names (a training
    script's option default, else the only one named), so the code's reads of them
    (PyTorch-YOLOv3's ``model.hyperparams['learning_rate']``) show the file's value: read
    from a name the code subscripts with two keys of the section at least. A key the file
    leaves out that the code reads from such a name with ``.get('optimizer')`` is None
    (the branch on it, ``in [None, "adam"]``, is then told; line 0). Numbers are kept as
    written, other values quoted."""
    none = DarknetSettings({}, frozenset())
    if root is None or not root.is_dir():
        return none
    files = with_values(analyses)
    named = _darknet_named(root, files, apart)
    chosen = [path for path, (_, train) in named.items() if train]
    chosen = chosen if len(chosen) == 1 else list(named) if len(named) == 1 else []
    net = _darknet_net(root / chosen[0]) if chosen else None
    if net is None:
        return none
    exprs = _value_exprs(files)
    receivers = _net_receivers(files, exprs, net)
    out = {
        key: Setting(value if _number(value) else repr(value), chosen[0], line)
        for key, (value, line) in net.items()
    }
    for e in exprs:
        if (
            e.kind == "Call"
            and e.func.kind == "Attribute"
            and e.func.name == "get"
            and e.func.target.text.rpartition(".")[2] in receivers
            and len(e.args) == 1
            and not e.keywords
            and e.args[0].kind == "Constant"
            and isinstance(e.args[0].value, str)
            and e.args[0].value not in out
        ):
            out[e.args[0].value] = Setting("None", chosen[0], 0)
    return DarknetSettings(out, receivers)


def _value_exprs(files: Sequence[FileAnalysis]) -> list[Expr]:
    """Every expression of the calls and assigned values of ``files``, walked."""
    return [
        e
        for fa in files
        for top in (
            *(c.expr for c in fa.syntax.values.calls),  # type: ignore[union-attr]
            *(a.value for a in fa.syntax.values.assigns),  # type: ignore[union-attr]
            *(a.value for d in fa.syntax.values.defs for a in d.assigns),  # type: ignore[union-attr]
        )
        for e in top.walk()
    ]


def _net_receivers(
    files: Sequence[FileAnalysis], exprs: Sequence[Expr], net: dict[str, tuple[str, int]]
) -> frozenset[str]:
    """The names the code reads a ``[net]`` section by: subscripted with two of its keys at
    least (``model.hyperparams['momentum']``). A name assigned a dict loaded from a YAML or
    JSON file is no such name (yolor's ``hyp['momentum']`` reads ``--hyp``'s YAML, whatever
    key the ``.cfg`` of the model shares with it): its keys are that file's."""
    loaded = _loaded_names(files)
    keys: dict[str, set[str]] = {}
    for e in exprs:
        index = e.parts[1] if e.kind == "Subscript" and len(e.parts) == 2 else None
        if index is not None and index.kind == "Constant" and index.value in net:
            keys.setdefault(e.parts[0].text.rpartition(".")[2], set()).add(index.value)
    return frozenset(n for n, read in keys.items() if len(read) >= 2 and n not in loaded)


#: The loaders whose result is a dict read from a YAML file (``yaml.safe_load(f)``).
_YAML_LOADERS = frozenset({"yaml.safe_load", "yaml.load", "yaml.full_load"})
#: ... or from a YAML or JSON file.
_FILE_LOADERS = _YAML_LOADERS | {"json.load"}


def _loaded_names(
    files: Sequence[FileAnalysis],
    seeds: Iterable[str] = (),
    loaders: frozenset[str] = _FILE_LOADERS,
) -> frozenset[str]:
    """The names assigned a dict one of ``loaders`` read from a file (``hyp =
    yaml.load(f)``), with ``seeds`` (names known to hold such a dict already), and the
    names that dict is handed on to (``model.hyp = hyp``, then ``h = model.hyp`` in the
    loss), by their last part."""
    assigns = [
        a
        for fa in files
        for facts in [fa.syntax.values]  # type: ignore[union-attr]
        if facts is not None
        for a in [*facts.assigns, *(a for d in facts.defs for a in d.assigns)]
    ]
    loaded = set(seeds) | {
        a.target.name
        for a in assigns
        if a.target.kind == "Name" and a.value.kind == "Call" and a.value.func.text in loaders
    }
    for a in assigns if loaded else ():
        if (
            a.target.kind in ("Name", "Attribute")
            and a.value.kind in ("Name", "Attribute")
            and a.value.text.rpartition(".")[2] in loaded
        ):
            loaded.add(a.target.text.rpartition(".")[2])
    return frozenset(loaded)


def hyp_settings(
    root: Path | None,
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], str] | None = None,
) -> DarknetSettings | None:
    """The keys of the YAML hyperparameter file the training loads into a plain dict
    (yolov5: ``--hyp`` defaulting to ``ROOT / "data/hyps/hyp.scratch-low.yaml"``, then
    ``hyp = yaml.safe_load(f)`` and ``hyp["lr0"]``), so the code's reads of them show the
    file's value. The file: the one YAML of flat scalar keys the training scripts' argparse
    defaults name (a string in the default, whatever joins it to a folder), or, when that
    default names no file of the repository, the one the documented commands running the
    script pass (:func:`~apiscan.review.commands.script_config`); the dict: a name assigned
    ``yaml.safe_load(...)`` (or ``load``/``full_load``) and subscripted with two keys of the
    file at least. A file's lists (RAM's ``train_file``) are data paths, not settings: its
    scalar keys are read. Where each training script loads its own file (RAM's
    ``pretrain.py`` and ``finetune.py``), each script's reads show its file's values.
    Entries the code changes after loading (``hyp["box"] *= 3 / nl``) say so. None when no
    training script names such a file, or several scripts share the flag and name
    different files none of which is its own."""
    if root is None or not root.is_dir():
        return None
    files = with_values(analyses)
    if not _loads(files, "yaml"):
        return None
    named: dict[str, str] = {}
    #: training script -> the YAML it loads
    loads: dict[str, str] = {}
    for fa in files:
        if (apart is not None and apart(fa.path)) or not _TRAINING_SCRIPT.search(
            PurePosixPath(fa.path).name
        ):
            continue
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            flag = _yaml_default(call.expr)
            if flag is None:
                continue
            found = next(
                (
                    c
                    for c in _candidates(fa.path, flag[1])
                    if c.endswith((".yaml", ".yml")) and (root / c).is_file()
                ),
                None,
            )
            by = f"the default of {flag[0]} at {fa.path}:{call.expr.line}"
            # the file the documented commands running this script pass: what the training
            # runs with, over the default (BLIP's README fine-tunes ``train_retrieval.py
            # --config ./configs/retrieval_coco.yaml``, its default the Flickr file); also
            # where the default names no file here (``./configs/pretrain.yaml`` beside a
            # ``ram/configs/``)
            commanded = script_config(root, fa.path, flag[0])
            if (
                commanded is not None
                and commanded[0].endswith((".yaml", ".yml"))
                and (root / commanded[0]).is_file()
            ):
                found = commanded[0]
                by = f"{flag[0]} of the training command at {commanded[1]}"
            if found is not None:
                named.setdefault(found, by)
                loads.setdefault(fa.path, found)
    flat_files: dict[str, dict[str, Setting]] = {}
    sectioned: dict[str, dict[str, Setting]] = {}
    nodes: dict[str, yaml.Node | Exception | None] = {}
    for path in sorted(named):
        try:
            node = _compose(root, path, nodes)
        except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        if isinstance(node, yaml.MappingNode) and all(
            isinstance(v, yaml.ScalarNode | yaml.SequenceNode) for _, v in node.value
        ):
            flat_files[path] = {
                str(k.value): Setting(_shown(v), path, v.start_mark.line + 1)
                for k, v in node.value
                if isinstance(v, yaml.ScalarNode)
            }
        elif isinstance(node, yaml.MappingNode):
            sectioned[path] = _one_section_deep(path, node)
    assigns = [
        a
        for fa in files
        for facts in [fa.syntax.values]  # type: ignore[union-attr]
        for a in [*facts.assigns, *(a for d in facts.defs for a in d.assigns)]
    ]
    # the repository's own loaders (semseg's ``load_cfg_from_cfg_file``: ``yaml.safe_load``
    # then a ``CfgNode`` of the sections' keys) and what returns what they return
    loaders = _yaml_loaders(files)
    objects = {
        a.target.name
        for a in assigns
        if a.target.kind == "Name"
        and a.value.kind == "Call"
        and a.value.func.text.rpartition(".")[2] in loaders
    }
    if not flat_files and len(sectioned) == 1 and objects:
        flat_files = sectioned  # a file of sections, whose keys a loader hands on flattened
    else:
        objects = set()
    scripts: dict[str, str] = {}
    #: several files one script loads into different dicts (yolor's ``--data`` and
    #: ``--hyp``): which dict holds which file is told by the keys each is read by, below
    several = False
    if len(flat_files) > 1 and not objects:
        # several files, each the one its own script loads: each script reads its own
        scripts = {script: path for script, path in loads.items() if path in flat_files}
        if set(scripts.values()) != set(flat_files):
            scripts, several = {}, True
    elif len(flat_files) != 1:
        return None  # none, or several hyperparameter files named: none is "the" one
    path = min(flat_files)
    values = {k: v for fv in flat_files.values() for k, v in fv.items()}
    loaded = set(_loaded_names(files, objects, _YAML_LOADERS))
    keys: dict[str, set[str]] = {}
    attributes: dict[str, set[str]] = {}
    changed: dict[str, str] = {}
    # the shallowest script first: a root train.py's own scaling of a key is the one told,
    # not a task folder's copy of it (segment/train.py)
    for fa in sorted(files, key=lambda fa: (fa.path.count("/"), fa.path)):
        facts = fa.syntax.values  # type: ignore[union-attr]
        exprs = [
            e
            for top in (
                *(c.expr for c in facts.calls),
                *(a.value for a in facts.assigns),
                *(a.value for d in facts.defs for a in d.assigns),
            )
            for e in top.walk()
        ]
        for e in exprs:
            read = _keyed_read(e, loaded, values)
            if read is not None:
                keys.setdefault(read[0], set()).add(read[1])
            name = e.target.text.rpartition(".")[2] if e.kind == "Attribute" else ""
            if name in objects and e.target.kind == "Name" and e.name in values:
                attributes.setdefault(name, set()).add(e.name)
        writes = [
            (a.target, a.line, f"{a.target.text} = {a.value.text}")
            for d in facts.defs
            for a in d.assigns
        ]
        writes += [(u.node, u.line, u.statement) for d in facts.defs for u in d.updates]
        for target, line, statement in writes:
            read = _keyed_read(target, loaded, values)
            if read is not None:
                changed.setdefault(read[1], f"{fa.path}:{line} ({statement.strip()})")
    receivers = frozenset(name for name, read in keys.items() if len(read) >= 2)
    by_name = frozenset(name for name, read in attributes.items() if len(read) >= 2)
    if not receivers and not by_name:
        return None
    owners: dict[str, str] = {}
    if several:
        owners = _owners({n: keys[n] for n in receivers}, flat_files)
        if owners.keys() != receivers or set(owners.values()) != set(flat_files):
            # a dict whose keys no one file holds, or a file no dict is read from (two
            # scripts' files, one dict): none is "the" one
            return None
        path = min(owners.values())
    changed = {k: v for k, v in changed.items() if k in values}
    read = frozenset(k for name in by_name for k in attributes[name])
    subscripted = frozenset(k for name in receivers for k in keys[name])
    per_file = {p: (v, named[p]) for p, v in flat_files.items()} if scripts else {}
    if owners:
        per_file = {p: (flat_files[p], named[p]) for p in sorted(set(owners.values()))}
    return DarknetSettings(
        values if not scripts else _agreed(flat_files),
        receivers,
        "",
        named[path],
        changed,
        by_name,
        read,
        scripts,
        per_file,
        subscripted,
        owners,
    )


def _owners(keys: dict[str, set[str]], files: dict[str, dict[str, Setting]]) -> dict[str, str]:
    """Each loaded dict (by name) -> the file it was loaded from, told by the keys it is
    read by: the one file holding most of them, two at least, more than any other holds
    (yolor's ``hyp['momentum']`` reads the ``--hyp`` YAML, ``data_dict['nc']`` the
    ``--data`` one). A dict no one file settles so is left out."""
    owners: dict[str, str] = {}
    for name, read in keys.items():
        counts = sorted(((len(read & v.keys()), p) for p, v in files.items()), reverse=True)
        if counts and counts[0][0] >= 2 and (len(counts) == 1 or counts[1][0] < counts[0][0]):
            owners[name] = counts[0][1]
    return owners


def _agreed(files: dict[str, dict[str, Setting]]) -> dict[str, Setting]:
    """The keys every one of ``files`` sets to the same text (the first file's setting):
    what a read gives whichever file is loaded."""
    first, *rest = (files[p] for p in sorted(files))
    return {k: v for k, v in first.items() if all(k in o and o[k].text == v.text for o in rest)}


#: A training script's file name: a training run or a fine-tuning one.
_TRAINING_SCRIPT = re.compile(r"train|finetun|fine_tun")


def _one_section_deep(path: str, node: yaml.MappingNode) -> dict[str, Setting]:
    """The scalar keys of a YAML mapping, at the top or one section deep (``TRAIN:
    base_lr: 0.01`` gives ``base_lr``), the first of a key met twice kept: what a loader
    that flattens the sections into one object holds."""
    out: dict[str, Setting] = {}
    for key, value in node.value:
        pairs = value.value if isinstance(value, yaml.MappingNode) else [(key, value)]
        for k, v in pairs:
            if isinstance(v, yaml.ScalarNode):
                # ``manual_seed:`` left empty loads as None
                shown = "None" if v.tag.endswith(":null") else _shown(v)
                out.setdefault(str(k.value), Setting(shown, path, v.start_mark.line + 1))
    return out


def _yaml_loaders(files: Sequence[FileAnalysis]) -> set[str]:
    """The names of the repository's functions that load a YAML and return something
    (``load_cfg_from_cfg_file``: ``yaml.safe_load(f)``, then ``return cfg``), and of
    those returning what one of them returns (``get_parser``: ``cfg =
    load_cfg_from_cfg_file(args.config)``, ``return cfg``), a few levels deep."""
    defs = [
        d
        for fa in files
        for d in fa.syntax.values.defs  # type: ignore[union-attr]
        if not d.is_class and d.returns
    ]
    calls = {
        id(d): {
            e.func.text.rpartition(".")[2]
            for a in d.assigns
            for e in a.value.walk()
            if e.kind == "Call"
        }
        for d in defs
    }
    found = {
        d.name
        for d in defs
        for a in d.assigns
        for e in a.value.walk()
        if e.kind == "Call"
        and e.func.text.partition(".")[0] == "yaml"
        and e.func.text.rpartition(".")[2] in ("safe_load", "load", "full_load")
    }
    for _ in range(3):
        more = {d.name for d in defs if calls[id(d)] & found} - found
        if not more:
            break
        found |= more
    return found


def _yaml_default(call: Expr) -> tuple[str, str] | None:
    """``parser.add_argument("--hyp", default=ROOT / "data/hyps/hyp.yaml")``: (flag, the
    YAML path the default holds, joined to a folder or not); None when it holds none."""
    if call.func.text.rpartition(".")[2] != "add_argument":
        return None
    flags = [a.value for a in call.args if a.kind == "Constant" and isinstance(a.value, str)]
    default = next((kw.target for kw in call.keywords if kw.name == "default"), None)
    if not flags or default is None:
        return None
    texts = [
        e.value
        for e in default.walk()
        if e.kind == "Constant" and isinstance(e.value, str) and e.value.endswith((".yaml", ".yml"))
    ]
    return (max(flags, key=len), texts[-1]) if texts else None


def _keyed_read(e: Expr, loaded: set[str], values: dict[str, Setting]) -> tuple[str, str] | None:
    """(receiver's last name, key) of ``hyp["lr0"]`` where ``hyp`` (by its last name) is
    a name assigned a loaded YAML and the key is one of the file's."""
    if e.kind != "Subscript" or len(e.parts) != 2:
        return None
    receiver, index = e.parts
    name = receiver.text.rpartition(".")[2]
    if name in loaded and index.kind == "Constant" and index.value in values:
        return name, str(index.value)
    return None


def _number(text: str) -> bool:
    """Whether a ``.cfg`` value is one number (``0.0001``, ``16``)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _cfg_sections(path: Path) -> list[tuple[str, list[tuple[str, str, int]]]] | None:
    """A sectioned config file (Darknet's ``.cfg``: ``[net]``, ``[convolutional]`` headers,
    then ``key=value`` lines) read once as data: (header, [(key, value, line)]) in file
    order; None when it is unreadable or too large. The one reading of the format, for the
    training settings of its ``[net]`` section and the layers its sections select."""
    try:
        if path.stat().st_size > _SIZE_LIMIT:
            return None
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    sections: list[tuple[str, list[tuple[str, str, int]]]] = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text.startswith("[") and text.endswith("]"):
            sections.append((text[1:-1].strip(), []))
        elif sections and "=" in text:
            key, _, value = text.partition("=")
            sections[-1][1].append((key.strip(), value.strip(), n))
    return sections


def _darknet_net(path: Path) -> dict[str, tuple[str, int]] | None:
    """The ``[net]`` (or ``[network]``) section: key -> (value, line); None if absent."""
    for header, entries in _cfg_sections(path) or ():
        if header in ("net", "network"):
            return {key: (value, n) for key, value, n in entries}
    return None


def section_values(path: Path) -> dict[str, set[str]] | None:
    """A sectioned config file read as data (:func:`_cfg_sections`): key -> every value the
    file gives it, the section headers under the key "". None when the file is unreadable,
    too large, or has fewer than two sections (no such file)."""
    sections = _cfg_sections(path)
    if sections is None or len(sections) < 2:
        return None
    out: dict[str, set[str]] = {"": {header for header, _ in sections}}
    for _, entries in sections:
        for key, value, _n in entries:
            out.setdefault(key, set()).add(value)
    return out


def _constants(files: Sequence[FileAnalysis]) -> set[str]:
    """Every string constant of the code's calls and assignments."""
    return {
        e.value
        for _, e in _walked(files)
        if e.kind == "Constant" and isinstance(e.value, str) and len(e.value) < 40
    }


def _walked(files: Sequence[FileAnalysis]) -> Iterator[tuple[str, Expr]]:
    """(path, node) for every node of the code's calls and assigned values."""
    for fa in files:
        values = fa.syntax.values  # type: ignore[union-attr]
        exprs = [c.expr for c in values.calls] + [a.value for a in values.assigns]
        exprs += [a.value for d in values.defs for a in d.assigns]
        for expr in exprs:
            for e in expr.walk():
                yield fa.path, e


# ------------------------------------------------------------------ option files as data
#: A section of an option YAML -> the recipe category its row is in, by the section's last
#: key (``train.optim_g`` -> optimizer, ``train.pixel_opt`` -> loss, ``network_g`` -> the
#: network, as backbone rows are).
_SECTIONS = (
    ("optimizer", re.compile(r"^optim")),
    ("scheduler", re.compile(r"sched")),
    ("loss", re.compile(r"_opt$|loss")),
    ("backbone", re.compile(r"^(network|net|model|arch)(_\w+)?$")),
)
#: Plain keys of an option YAML's training sections -> their category (``train.total_iter``,
#: ``datasets.train.batch_size_per_gpu``, ``datasets.train.use_flip``).
_PLAIN = (
    ("epochs", re.compile(r"^train\.(total_iter|total_epochs?|epochs|max_iter|num_epochs)$")),
    ("warmup", re.compile(r"^train\.warmup\w*$")),
    ("ema", re.compile(r"^train\.ema\w*$")),
    # a loss term the model class weighs itself (``train.r1_reg_weight``,
    # ``train.identity_weight``): no section with a type, a weight all the same
    ("loss", re.compile(r"^train\.\w+_weight$")),
    # the weights the training starts from (``path.pretrain_network_g``: an earlier stage's)
    ("checkpoint", re.compile(r"^path\.pretrain\w*$")),
    ("batch_size", re.compile(r"^datasets?\.train\.\w*batch_size\w*$")),
    (
        "augmentation",
        # switches and sizes of the random steps (``use_shuffle`` is the loader's, not one)
        re.compile(r"^datasets?\.train\.\w*(flip|rot|crop|gt_size|scale|mixup|aug)\w*$"),
    ),
)
#: At most this many other values are listed beside the most common one.
_OTHERS_SHOWN = 3


@dataclass
class OptionFiles:
    """Option files the training reads as data and builds its objects from by name: YAML
    options (``network_g: {type: NAFNet, width: 32}``, ``train.optim_g: {type: AdamW, lr:
    1e-3}``: the code does ``getattr(module, opt['type'])``) or JSON hparams
    (``hps.train.learning_rate``). Each file flattened (``train.optim_g.lr``)."""

    #: "option YAML" or "JSON hparams"
    kind: str
    #: path -> dotted key -> setting
    flat: dict[str, dict[str, Setting]] = field(default_factory=dict)
    chosen: str | None = None
    chosen_by: str = ""
    #: the option that names the file and where, when its default names none of them
    option: str = ""
    notes: list[str] = field(default_factory=list)
    #: (file, its first training command, how many commands name it), the most named first,
    #: when the documented commands name several files alike and none is chosen (NAFNet's
    #: docs train NAFNet, Baseline and NAFSSR options, each file once)
    commanded: list[tuple[str, str, int]] = field(default_factory=list)
    #: the installed framework the training hands the file to, when it does
    framework: FrameworkTraining | None = None
    #: (file, its first training command) of the documented stages before the chosen file,
    #: in order, when the chosen file is the last stage of a documented multi-stage
    #: training (Real-ESRGAN: RealESRNet first, then RealESRGAN from its weights)
    stages: list[tuple[str, str]] = field(default_factory=list)
    #: the key naming the class a section builds: ``type`` (``getattr(module,
    #: opt['type'])``, a bare class name) or ``target`` (OmegaConf's
    #: ``instantiate_from_config``: ``get_obj_from_str(config["target"])(**config["params"])``,
    #: a dotted ``pkg.module.Class``)
    type_key: str = "type"

    def why(self) -> str:
        """Where the values come from, for a row's note."""
        if self.chosen is not None:
            why = f"read from {self.chosen}, {self.chosen_by}"
            for path, where in self.stages:
                why += f"; an earlier stage trains with {path} ({where})"
        else:
            by = f" ({self.option} names none by default)" if self.option else ""
            why = (
                f"{len(self.flat)} training {self.kind} files, none picked{by}: "
                "the most common value first, with how many files set it"
            )
        if self.notes:
            why += f"; {len(self.notes)} file(s) not read: " + ", ".join(self.notes[:3])
        return why

    def files(self) -> dict[str, dict[str, Setting]]:
        """The files whose values count: the chosen one, else all."""
        if self.chosen is not None:
            return {self.chosen: self.flat[self.chosen]}
        return self.flat

    def value(self, key: str) -> tuple[str, Setting, int] | None:
        """(the value, a setting of it, how many files set it to it): the chosen file's, or
        the most common one (ties: the smaller value first)."""
        setters = [f[key] for f in self.files().values() if key in f]
        if not setters:
            return None
        counts: dict[str, list[Setting]] = {}
        for s in setters:  # ``5.0e-5`` and ``5.0e-05`` are one value
            counts.setdefault(canon_value(s.text), []).append(s)
        same = sorted(counts, key=lambda t: (-len(counts[t]), _number_key(t)))[0]
        return counts[same][0].text, counts[same][0], len(counts[same])

    def shown(self, key: str) -> str | None:
        """A key's value as a row shows it: the chosen file's, or the most common with the
        count and the others (``1e-3 (9 of 17 files; also 2e-4, 4e-4)``)."""
        found = self.value(key)
        if found is None:
            return None
        text, _, count = found
        if self.chosen is not None:
            return text
        setters = {
            canon_value(f[key].text): f[key].text for f in reversed(self.flat.values()) if key in f
        }
        others = sorted((t for c, t in setters.items() if c != canon_value(text)), key=_number_key)
        also = ""
        if others:
            also = "; also " + ", ".join(others[:_OTHERS_SHOWN])
            also += f" … {len(others) - _OTHERS_SHOWN} more" if len(others) > _OTHERS_SHOWN else ""
        return f"{text} ({count} of {len(self.flat)} files{also})"

    def step(self, key: str, shown: str) -> tuple[str, str] | None:
        """What the files make of ``key`` (``train.learning_rate``): (value, step); the value
        is "" when the files set it differently and none is picked."""
        found = self.value(key)
        if found is None:
            return None
        text, setting, count = found
        if self.chosen is not None:
            return text, f"{shown}: {text} in {setting.loc()}, {self.chosen_by}"
        setters = [f[key] for f in self.flat.values() if key in f]
        if count == len(setters) == len(self.flat):
            return text, (
                f"{shown}: {text} in all {len(self.flat)} {self.kind} files "
                f"({setting.loc()} first); none is picked"
            )
        values = sorted({canon_value(s.text): s.text for s in setters}.values(), key=_number_key)
        return "", (
            f"{shown}: {len(setters)} of {len(self.flat)} {self.kind} files set it to "
            + " | ".join(values[:4])
            + "; none is picked"
        )

    def sections(self) -> list[tuple[str, str]]:
        """(category, section key) of every section with a ``type`` the files build by name
        (``train.optim_g``), sorted."""
        end = f".{self.type_key}"
        keys = {k for f in self.files().values() for k in f if k.endswith(end)}
        out: set[tuple[str, str]] = set()
        for key in keys:
            section = key.removesuffix(end)
            last = section.rpartition(".")[2]
            for category, pattern in _SECTIONS:
                if pattern.search(last) and (category == "backbone") == ("." not in section):
                    out.add((category, section))
                    break
        return sorted(out)

    def unchosen_networks(self) -> dict[str, tuple[str, int]]:
        """Type name -> (the section naming it, how many files) of every network the other
        option files build by name (``network_d: {type: UNetDiscriminatorSN}`` of a GAN
        fine-tuning's file) that the chosen file does not: what another run would build,
        an alternative of this one's. Empty with no file chosen."""
        if self.chosen is None:
            return {}
        end = f".{self.type_key}"
        chosen = {
            _class_name(setting.text)
            for key, setting in self.flat[self.chosen].items()
            if key.endswith(end)
        }
        out: dict[str, tuple[str, int]] = {}
        for path, flat in sorted(self.flat.items()):
            if path == self.chosen:
                continue
            for key, setting in flat.items():
                section = key.removesuffix(end)
                if not key.endswith(end) or "." in section:
                    continue
                if not any(
                    category == "backbone" and pattern.search(section)
                    for category, pattern in _SECTIONS
                ):
                    continue
                name = _class_name(setting.text)
                if name not in chosen:
                    found = out.get(name, (section, 0))
                    out[name] = (found[0], found[1] + 1)
        return out

    def types(self, category: str) -> dict[str, str]:
        """Type name -> the section key naming it, of every section of ``category`` in the
        files that count (what ``getattr(module, opt['type'])`` builds)."""
        out: dict[str, str] = {}
        for cat, section in self.sections():
            if cat != category:
                continue
            for flat in self.files().values():
                setting = flat.get(f"{section}.{self.type_key}")
                if setting is not None:
                    out.setdefault(_class_name(setting.text), section)
        return out

    def networks(self, classes: Iterable[str]) -> list[tuple[str, str]]:
        """(class, why) of each network the files build by name (``network_g.type``) that is
        one of ``classes`` (dotted names), the most used first."""
        return [(cls, why) for cls, why, _ in self.named_networks(classes)]

    def named_networks(self, classes: Iterable[str]) -> list[tuple[str, str, Where]]:
        """(class, why, where the file names it) of each network the files build by name
        that is one of ``classes`` (dotted names), the most used first."""
        by_name: dict[str, list[str]] = {}
        for cls in classes:
            by_name.setdefault(cls.rpartition(".")[2], []).append(cls)
        # with no file chosen, the files the documented training commands name count
        # before the rest (NAFNet's docs train NAFNet five times, NAFSSR twice, though
        # NAFSSR options are the most numerous): the network most commands train
        commanded = {path: count for path, _, count in self.commanded}
        files = self.files()
        if self.chosen is None and commanded:
            files = {p: f for p, f in files.items() if p in commanded}
        counts: dict[tuple[str, str], list[Setting]] = {}
        for category, section in self.sections():
            for path, flat in files.items() if category == "backbone" else ():
                setting = flat.get(f"{section}.{self.type_key}")
                if setting is not None:
                    key = (section, setting.text.strip("'\""))
                    counts.setdefault(key, []).extend([setting] * commanded.get(path, 1))
        out: list[tuple[str, str, Where]] = []
        for (section, name), settings in sorted(
            counts.items(), key=lambda kv: (-len(kv[1]), kv[0])
        ):
            # a dotted target names its class by its module path, the class's dotted name
            # or a tail of it, or the other way round (the review names classes by their
            # module's shortest unique path); a bare type by its name
            named = [
                c
                for c in by_name.get(_class_name(name), [])
                if f".{c}".endswith(f".{name}") or f".{name}".endswith(f".{c}")
            ]
            for cls in sorted(named)[:1] or sorted(by_name.get(name, []))[:1]:
                key = f"{section}.{self.type_key}"
                if self.chosen is not None:
                    why = f"{key}: {name} in {settings[0].loc()}, {self.chosen_by}"
                elif commanded:
                    paths = {s.path for s in settings}
                    first = next(w for p, w, _ in self.commanded if p in paths)
                    why = (
                        f"{key}: {name} in {len(settings)} of "
                        f"{sum(commanded.values())} documented training commands ({first} "
                        "first), no file picked"
                    )
                else:
                    why = (
                        f"{key}: {name} in {len(settings)} of {len(self.flat)} "
                        f"training {self.kind} files ({settings[0].loc()} first), none picked"
                    )
                out.append((cls, why, Where(settings[0].path, settings[0].line)))
        # the others the files name, by use (a framework's training builds them all)
        if len(out) > 1 and self.chosen is None and self.framework is None:
            others = ", ".join(cls.rpartition(".")[2] for cls, _, _ in out[1:])
            out[0] = (out[0][0], f"{out[0][1]}; the other files name {others}", out[0][2])
        return out


def config_settings(found: OptionFiles | None) -> dict[str, set[object]]:
    """``config:<dotted key>`` -> {value} of every scalar the chosen config file sets
    (pytorch-segmentation's config.json: ``config:use_synch_bn`` -> {False},
    ``config:arch.args.freeze_bn`` -> {False}): the values a branch test reading
    ``config["use_synch_bn"]`` sees in the run. Empty when no file is chosen."""
    if found is None or found.chosen is None:
        return {}
    out: dict[str, set[object]] = {}
    for key, setting in found.flat.get(found.chosen, {}).items():
        try:
            value = yaml.safe_load(setting.text)
        except yaml.YAMLError:
            continue
        if value is None or isinstance(value, bool | int | float | str):
            out[f"config:{key}"] = {value}
    return out


def yacs_settings(found: YamlConfigs | None) -> dict[str, set[object]]:
    """``config:<dotted key>`` -> the values a yacs key holds in the run (``config:
    TRAIN.AUGMENT`` -> {""}): the chosen YAML's (or the value its command passes after it),
    else the Python default. With no YAML chosen, every value the YAML files and the
    default give, so a branch test reading a key the configs set differently is not told.
    What a test of ``cfg.DATA_LOADER.MODE == "ffcv"`` sees; scalars only."""
    if found is None or not found.defaults:
        return {}
    out: dict[str, set[object]] = {}
    for key, default in found.defaults.items():
        if found.chosen is not None:
            given = found.overrides.get(key) or found.flat.get(found.chosen, {}).get(key)
            texts = [(given or default).text]
        else:
            texts = [default.text] + [flat[key].text for flat in found.flat.values() if key in flat]
        values = [_scalar(text) for text in texts]
        if values and all(v is not _NOT_SCALAR for v in values):
            out[f"config:{key}"] = set(values)
    return out


#: What :func:`_scalar` gives for a text that holds no scalar.
_NOT_SCALAR = object()
#: The same, for the readers of :func:`scalar_value`.
NOT_SCALAR = _NOT_SCALAR


def scalar_value(text: str) -> object:
    """The scalar (or tuple of scalars) a YAML value's or a Python literal's text holds
    (``false`` → False, ``1.0e-06`` → 1e-06), else :data:`NOT_SCALAR`."""
    return _scalar(text)


def _scalar(text: str) -> object:
    """The scalar a Python default's or a YAML value's text holds (``"ffcv"``, ``''``,
    ``True``, ``0.1``, ``None``) or the tuple of a list of scalars, else
    :data:`_NOT_SCALAR`."""
    import ast

    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            return _NOT_SCALAR
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if (
        isinstance(value, list | tuple)
        and value
        and all(isinstance(v, bool | int | float | str) for v in value)
    ):
        # a list of scalars (``DEFORM_ON_PER_STAGE: [False, False, False, False]``), kept
        # as a tuple: a test indexing it reads one of its items
        return tuple(value)
    return _NOT_SCALAR


def option_files(
    root: Path | None, analyses: Sequence[FileAnalysis], composed: Composed | None = None
) -> tuple[OptionFiles | None, OptionFiles | None]:
    """(the option YAMLs, the JSON hparams) the training reads, each None when the code reads
    none. Reads the files each call: a review reads them once, through its
    :class:`~apiscan.review.readings.Readings`."""
    if root is None or not root.is_dir():
        return None, None
    files = with_values(analyses)
    nodes = {} if composed is None else composed
    options = _option_yamls(root, files, nodes)
    return (
        options,
        _json_hparams(root, files)
        or _hydra_config(root, files)
        or _omegaconf_default(root, files)
        or (None if options is not None else _yaml_dict(root, files, nodes)),
    )


#: An option's flag or help naming the config file it takes (``--fname`` with "name of
#: config file to load").
_CONFIG_OPTION = re.compile(r"(?i)cfg|config|yaml")


def _yaml_dict(
    root: Path, files: Sequence[FileAnalysis], nodes: dict[str, yaml.Node | Exception | None]
) -> OptionFiles | None:
    """The YAML file the code loads as a plain dict (``params = yaml.load(f)`` of the file
    an option names, handed to the training as ``main(args=params)``, read as
    ``args["optimization"]["lr"]``): the file the documented training command names by
    that option (``python main.py --fname configs/x.yaml``), else the option's default
    when it names one. The option is one whose default is a YAML file or whose flag or
    help says config, in any script (its name need not say train). None when the code
    loads no YAML, builds yacs configs from it, or no file is picked: across many files
    a plain dict's keys name no one run."""
    if not _loads(files, "yaml") or _yacs_defaults(files):
        return None
    options: list[tuple[str, str, str]] = []  # (flag, default, where)
    for fa in files:
        if is_test_path(fa.path):
            continue
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            option = _option(call.expr)
            if option is None or not option[0].startswith("-"):
                continue
            helps = [
                kw.target.value
                for kw in call.expr.keywords
                if kw.name == "help" and isinstance(kw.target.value, str)
            ]
            said = _CONFIG_OPTION.search(" ".join([option[0], *helps]))
            if option[1].endswith((".yaml", ".yml")) or said:
                options.append((*option, f"{fa.path}:{call.expr.line}"))
    if not options:
        return None
    yamls = set(yaml_files(root))
    # each option's file: the one the documented commands name by it, else its default's
    named: dict[str, str] = {}
    for flag, default, where in sorted(options):
        commanded = commanded_config(root, yamls, {flag})
        if commanded is not None:
            named.setdefault(commanded[0], f"the training command at {commanded[1]}")
            continue
        if default.endswith((".yaml", ".yml")):
            for candidate in _candidates(where.rpartition(":")[0], default):
                if candidate in yamls:
                    named.setdefault(candidate, f"the default of {flag} at {where}")
                    break
    if len(named) != 1:
        return None  # none, or several files (a data YAML beside a hyperparameter one)
    ((chosen, chosen_by),) = named.items()
    found = OptionFiles("YAML config")
    _flat_yamls(found, root, nodes, None, [chosen])
    if chosen not in found.flat or not any("." in key for key in found.flat[chosen]):
        # a flat file of scalars is a hyperparameter file (:func:`hyp_settings`)
        return None
    found.chosen, found.chosen_by = chosen, chosen_by
    return found


#: Decorators that hand the function the config Hydra composes, by the dotted name their
#: import gives: Hydra's own and the experiment managers that wrap it with the same
#: ``config_path=``/``config_name=`` signature (``from dora import hydra_main``).
_HYDRA_ENTRIES = frozenset({"hydra.main", "dora.hydra_main"})


def hydra_entry(decorator: Expr, imports: Mapping[str, str]) -> bool:
    """Whether a decorator is a Hydra entry point (``@hydra.main(config_path=...)``, or a
    wrapper of it imported under any name): the function is handed the composed config."""
    if decorator.kind != "Call":
        return False
    text = decorator.func.text
    head, _, rest = text.partition(".")
    target = imports.get(head)
    dotted = (f"{target}.{rest}" if rest else target) if target else text
    return dotted in _HYDRA_ENTRIES or text == "hydra.main"


def _hydra_config(root: Path, files: Sequence[FileAnalysis]) -> OptionFiles | None:
    """The config a Hydra entry point runs with (``@hydra.main(config_path="config",
    config_name="train_config")``): the named YAML composed with the files its ``defaults:``
    list picks from the config groups (``- model: base`` reads ``config/model/base.yaml``
    under the ``model`` key), in list order with ``_self_`` where it stands (last when
    absent), and ``${a.b}`` interpolations replaced by the value they name; read like JSON
    hparams so that ``cfg.main_training.learning_rate`` shows its value. A training file's
    entry counts before others (an evaluation script names its own config); None when no
    entry, or several training entries, name a config."""
    entries: list[tuple[FileAnalysis, Expr]] = []
    for fa in files:
        if is_test_path(fa.path):
            continue
        imports = dict(fa.syntax.imports)  # type: ignore[union-attr]
        for d in fa.syntax.values.defs:  # type: ignore[union-attr]
            for dec in d.decorators:
                if hydra_entry(dec, imports):
                    entries.append((fa, dec))
    training = [(fa, dec) for fa, dec in entries if _trains(fa)]
    if len(training) != 1:
        return None
    fa, dec = training[0]
    given = {k.name: k.target.value for k in dec.keywords if k.target.kind == "Constant"}
    if dec.args and dec.args[0].kind == "Constant":
        given.setdefault("config_path", dec.args[0].value)
    folder, name = given.get("config_path"), given.get("config_name")
    # Hydra before 1.0 (``@hydra.main("config/config.yaml")``): the path names the primary
    # file, and each config group's file merges at the top of the config, not under its
    # group's key (``task/cls.yaml``'s ``epochs: 200`` is ``cfg.epochs``)
    legacy = name is None and isinstance(folder, str) and folder.endswith((".yaml", ".yml"))
    if legacy:
        folder, name = str(PurePosixPath(folder).parent), PurePosixPath(folder).name
    if not isinstance(folder, str) or not isinstance(name, str):
        return None
    base = os.path.normpath((PurePosixPath(fa.path).parent / folder).as_posix())
    if base.startswith(".."):
        return None
    flat: dict[str, Setting] = {}
    nodes: dict[str, yaml.Node | Exception | None] = {}
    options = OptionFiles("Hydra config")
    primary = _hydra_compose(root, base, name, (), nodes, flat, options.notes, 0, legacy)
    if primary is None or not flat:
        return None
    _interpolated(flat)
    options.flat = {primary: flat}
    options.chosen = primary
    options.chosen_by = (
        f"the config @{dec.func.text} names at {fa.path}:{dec.line}, "
        "composed with its defaults list"
    )
    return options


#: How deep a Hydra defaults list is followed into the configs it names.
_HYDRA_DEPTH = 6
#: A config file's own package header (``# @package _global_``).
_PACKAGE = re.compile(r"^#\s*@package\s+(\S+)", re.MULTILINE)


def _hydra_compose(
    root: Path,
    base: str,
    name: str,
    package: tuple[str, ...],
    nodes: dict[str, yaml.Node | Exception | None],
    flat: dict[str, Setting],
    notes: list[str],
    depth: int,
    legacy: bool = False,
) -> str | None:
    """Merge the config ``name`` of the folder ``base`` into ``flat`` under ``package``,
    its defaults list first (Hydra's order); the file's path, or None when it is not read.
    ``legacy``: Hydra before 1.0, whose config groups' files merge at the top."""
    path = f"{base}/{name}" if name.endswith((".yaml", ".yml")) else f"{base}/{name}.yaml"
    path = os.path.normpath(path)
    if depth > _HYDRA_DEPTH or not (root / path).is_file():
        return None
    try:
        node = _compose(root, path, nodes)
        header = _PACKAGE.search((root / path).read_text(encoding="utf-8")[:2000])
    except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        notes.append(f"{path} ({type(err).__name__})")
        return None
    if header is not None and depth > 0:
        pkg = header.group(1)
        package = () if pkg == "_global_" else tuple(pkg.removeprefix("_global_.").split("."))
    if not isinstance(node, yaml.MappingNode):
        return path if node is None else None
    own: dict[str, Setting] = {}
    defaults: list[yaml.Node] = []
    for key, value in node.value:
        if key.value == "defaults" and isinstance(value, yaml.SequenceNode):
            defaults = list(value.value)
        elif key.value != "hydra":  # Hydra's own settings (run folder, logging)
            _flatten(path, (*package, str(key.value)), value, own)
    merged_self = False
    for item in defaults:
        if isinstance(item, yaml.ScalarNode):
            if item.value == "_self_":
                flat.update(own)
                merged_self = True
            elif item.value:
                _hydra_compose(
                    root, base, str(item.value), package, nodes, flat, notes, depth + 1, legacy
                )
            continue
        if not isinstance(item, yaml.MappingNode):
            continue
        for key, value in item.value:
            group = str(key.value)
            if group.startswith("override ") or group.partition("/")[0] in ("hydra", "/hydra"):
                continue
            if not isinstance(value, yaml.ScalarNode) or value.value in (None, "", "null"):
                continue
            group, _, at = group.lstrip("/").partition("@")
            inner = tuple(at.split(".")) if at else (*package, *group.split("/"))
            if legacy:
                inner = package
            _hydra_compose(
                root,
                f"{base}/{group}",
                str(value.value),
                inner,
                nodes,
                flat,
                notes,
                depth + 1,
                legacy,
            )
    if not merged_self:
        flat.update(own)
    return path


#: An interpolation that is the whole value (``${data.main_training.num_iterations}``).
_INTERPOLATION = re.compile(r"^'?\$\{([\w.]+)\}'?$")


def _interpolated(flat: dict[str, Setting]) -> None:
    """Each value that is one ``${a.b}`` interpolation replaced by the setting it names
    (followed a few times: an interpolation of an interpolation)."""
    for key, setting in list(flat.items()):
        for _ in range(_HYDRA_DEPTH):
            m = _INTERPOLATION.match(setting.text)
            if m is None or m.group(1) not in flat:
                break
            setting = flat[m.group(1)]
        flat[key] = setting


def _omegaconf_default(root: Path, files: Sequence[FileAnalysis]) -> OptionFiles | None:
    """The default config the code loads with ``OmegaConf.load`` from a YAML file it names
    by a constant (dinov2's ``load_config("ssl_default_config")``, which loads
    ``Path(__file__).parent / (config_name + ".yaml")``), read like JSON hparams so that
    ``cfg.optim.base_lr`` shows its value; None unless exactly one such file is found (a
    run's own config file, named on the command line, is merged over it)."""
    found: dict[str, str] = {}
    for fa in files:
        if is_test_path(fa.path):
            continue
        values = fa.syntax.values  # type: ignore[union-attr]
        for call in values.calls:
            if not call.expr.func.text.endswith("OmegaConf.load") or len(call.expr.args) != 1:
                continue
            folder = PurePosixPath(fa.path).parent
            for name in _named_constants(values, call.function, call.expr.args[0]):
                for candidate in (name, f"{name}.yaml", f"{name}.yml"):
                    for path in (os.path.normpath((folder / candidate).as_posix()), candidate):
                        if path.endswith((".yaml", ".yml")) and (root / path).is_file():
                            found.setdefault(path, f"{fa.path}:{call.expr.line}")
    if len(found) != 1:
        return None
    ((path, where),) = found.items()
    nodes: dict[str, yaml.Node | Exception | None] = {}
    node = _compose(root, path, nodes)
    if not isinstance(node, yaml.MappingNode):
        return None
    flat: dict[str, Setting] = {}
    for key, value in node.value:
        _flatten(path, (str(key.value),), value, flat)
    options = OptionFiles("OmegaConf default YAML", {path: flat})
    options.chosen, options.chosen_by = path, f"the default config OmegaConf.load reads at {where}"
    return options


def _named_constants(values: FileValues, fn: int, expr: Expr) -> list[str]:
    """The string constants a file name is built from: those in ``expr``, in the values the
    names in it are assigned in def ``fn``, and in what the file's own calls of ``fn`` pass
    for a parameter among them (``load_config("ssl_default_config")``)."""
    exprs = [expr]
    names = {e.name for e in expr.walk() if e.kind == "Name"}
    if fn >= 0:
        d = values.defs[fn]
        for a in d.assigns:
            if a.target.kind == "Name" and a.target.name in names:
                exprs.append(a.value)
                names |= {e.name for e in a.value.walk() if e.kind == "Name"}
        params = [p for p, _ in d.params]
        for call in values.calls:
            if call.expr.callee() != d.name:
                continue
            for n, arg in enumerate(call.expr.args):
                if n < len(params) and params[n] in names:
                    exprs.append(arg)
            exprs += [k.target for k in call.expr.keywords if k.name in names]
    return [
        e.value
        for x in exprs
        for e in x.walk()
        if e.kind == "Constant" and isinstance(e.value, str) and 0 < len(e.value) < 200
    ]


def _loads(files: Sequence[FileAnalysis], module: str) -> bool:
    """Some file calls ``module.load``/``loads``/``safe_load``/``full_load``."""
    return any(
        c.expr.func.text.partition(".")[0] == module
        and c.expr.func.text.rpartition(".")[2] in ("load", "loads", "safe_load", "full_load")
        for fa in files
        for c in fa.syntax.values.calls  # type: ignore[union-attr]
    )


#: The dotted name of an installed training framework's entry point that is handed an
#: option file and runs the whole training from it: a pipeline function (basicsr's
#: ``train_pipeline``), a runner built from a config (mmengine's ``Runner.from_cfg``), a
#: framework trainer (``DefaultTrainer``).
_FRAMEWORK_ENTRY = re.compile(
    r"\.(train_pipeline|run_training|(\w*Runner)\.from_cfg|\w*DefaultTrainer)$"
)


@dataclass(frozen=True)
class FrameworkTraining:
    """The training entry point hands control to an installed package's training framework:
    the loop, the models it builds by name and the losses are that package's, configured by
    the option file the training command names."""

    #: the package (``basicsr``)
    package: str
    #: the dotted name called (``basicsr.train.train_pipeline``)
    entry: str
    where: Where


def framework_training(analyses: Sequence[FileAnalysis]) -> FrameworkTraining | None:
    """The first call, outside tests, of another package's training entry point
    (:data:`_FRAMEWORK_ENTRY`) through the names the file imports; None when the repository
    runs its own training (or the framework is the repository's own, vendored in-tree)."""
    local = {m.partition(".")[0] for fa in analyses for m in fa.modules}
    excluded = local | set(sys.stdlib_module_names) | {"torch"}
    for fa in with_values(sorted(analyses, key=lambda a: a.path)):
        imports = dict(fa.syntax.imports)
        for call in fa.syntax.values.calls:
            head, _, rest = call.expr.func.text.partition(".")
            target = imports.get(head)
            if target is None:
                continue
            dotted = f"{target}.{rest}" if rest else target
            package = dotted.partition(".")[0]
            if package not in excluded and _FRAMEWORK_ENTRY.search(dotted):
                return FrameworkTraining(package, dotted, Where(fa.path, call.expr.line))
    return None


def _option_yamls(
    root: Path, files: Sequence[FileAnalysis], nodes: dict[str, yaml.Node | Exception | None]
) -> OptionFiles | None:
    """YAML options built by name: the code loads YAML and reads a ``'type'`` key, or hands
    the option file to an installed framework that does (:func:`framework_training`); a
    training option file is a YAML whose sections have ``type`` keys, one of them an
    optimizer's."""
    framework = framework_training(files)
    if framework is None and (not _loads(files, "yaml") or "type" not in _constants(files)):
        return _target_yamls(root, files, nodes)
    found = OptionFiles("option YAML", framework=framework)
    _flat_yamls(found, root, nodes, lambda k: bool(re.search(r"(^|\.)optim\w*\.type$", k)))
    if not found.flat:
        return _target_yamls(root, files, nodes) if framework is None else None
    _choose_option(found, root, files)
    return found


def _flat_yamls(
    found: OptionFiles,
    root: Path,
    nodes: dict[str, yaml.Node | Exception | None],
    marks: Callable[[str], bool] | None,
    paths: Iterable[str] | None = None,
) -> None:
    """The mappings of ``paths`` (the repository's YAML files by default; JSON is YAML)
    flattened to dotted keys, kept in ``found.flat`` where some key ``marks`` the kind of
    config wanted (an optimizer's ``type``, a model's ``target``; every mapping without
    ``marks``); one that does not parse is a note, the rest stand."""
    for path in yaml_files(root) if paths is None else paths:
        try:
            node = _compose(root, path, nodes)
        except (yaml.YAMLError, OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
            found.notes.append(f"{path} ({type(err).__name__})")
            continue
        if not isinstance(node, yaml.MappingNode):
            continue
        flat: dict[str, Setting] = {}
        for key, value in node.value:
            _flatten(path, (str(key.value),), value, flat)
        if marks is None or any(map(marks, flat)):
            found.flat[path] = flat


#: The top section of an OmegaConf config naming the model it builds (``model.target``).
_TOP_TARGET = re.compile(r"^(network|net|model|arch)(_\w+)?\.target$")
#: The flags of an option naming OmegaConf configs (latent-diffusion's ``--base``, a list of
#: configs merged left to right).
_TARGET_FLAGS = r"opt|cfg|config|base"


def _target_yamls(
    root: Path, files: Sequence[FileAnalysis], nodes: dict[str, yaml.Node | Exception | None]
) -> OptionFiles | None:
    """OmegaConf configs whose sections name the class they build by a dotted ``target``
    with its ``params`` (taming-transformers, latent-diffusion: ``OmegaConf.load`` of the
    files a command-line option names, then ``instantiate_from_config(config.model)``
    doing ``get_obj_from_str(config["target"])(**config.get("params", dict()))``). A
    config is a YAML whose top section names a model (``model.target``); None when the
    code loads no OmegaConf file or never reads a ``target`` with its ``params``."""
    if not _loads(files, "OmegaConf") or not {"target", "params"} <= _constants(files):
        return None
    found = OptionFiles("OmegaConf config", type_key="target")
    _flat_yamls(found, root, nodes, lambda k: bool(_TOP_TARGET.match(k)))
    if not found.flat:
        return None
    # a sampling script's ``--config`` default (latent-diffusion's scripts/knn2img.py)
    # names the config it samples with, not the training's
    _choose_option(found, root, [fa for fa in files if _trains(fa)], _TARGET_FLAGS)
    if not found.chosen:
        _documented_sampling(found, root, files)
    return found


def _documented_sampling(found: OptionFiles, root: Path, files: Sequence[FileAnalysis]) -> None:
    """Where no training settles the config, and the documentation launches no training
    script but runs a script of the repository with a config option (a text-to-image
    README's ``python scripts/txt2img.py --prompt ...``, its ``--config`` defaulting to
    ``configs/x/v1-inference.yaml``): the config that option names by default is the one
    the documented run builds, the model the review looks at."""
    scripts = {
        name: fa.path
        for fa in files
        if fa.syntax is not None and fa.syntax.main_guard
        for name in (*fa.modules, fa.path)
    }
    trained = {fa.path for fa in files if _trains(fa)}
    training = {n: p for n, p in scripts.items() if p in trained}
    if not scripts or documented_entry(root, training) is not None:
        return
    if documented_scripts(root, training):
        return
    # the script the documentation runs most often first (its first command's on a tie)
    launched = documented_scripts(root, scripts)
    first = documented_entry(root, scripts)
    ordered = sorted(
        (fa for fa in files if fa.path in launched), key=lambda fa: (fa.path != first, fa.path)
    )
    chosen = OptionFiles(found.kind, type_key=found.type_key)
    chosen.flat = found.flat
    _choose_option(chosen, root, ordered, _TARGET_FLAGS)
    if chosen.chosen and chosen.chosen_by.startswith("the default of"):
        found.chosen = chosen.chosen
        found.chosen_by = f"{chosen.chosen_by}, the script the documentation runs"


def _trains(fa: FileAnalysis) -> bool:
    """Whether a file runs a training: ``train`` in its name, or it calls a trainer's
    ``fit`` or a loss's ``backward``."""
    if "train" in PurePosixPath(fa.path).name:
        return True
    return any(
        c.expr.func.text.rpartition(".")[2] in ("fit", "backward")
        for c in fa.syntax.values.calls  # type: ignore[union-attr]
    )


def _json_hparams(root: Path, files: Sequence[FileAnalysis]) -> OptionFiles | None:
    """JSON hparams: the code loads JSON and a config option names a ``.json`` file (its
    default, or the training command's); every JSON of that folder is a candidate.

    A training script's config option with no default (hifi-gan's ``--config``, read as
    ``json.loads(open(a.config).read())``) counts only when the documented training command
    names a JSON file beside the script (``python train.py --config config_v1.json``): with no
    command, no JSON is the config and none is read."""
    if not _loads(files, "json"):
        return None
    options: list[tuple[str, str, str]] = []  # (flag, default, where)
    bare: list[tuple[str, str, str]] = []  # a training script's option with no default
    for fa in files:
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            option = _option(call.expr)
            if option is None or not re.search(r"cfg|config|hparams", option[0]):
                continue
            if option[1].endswith(".json"):
                options.append((*option, f"{fa.path}:{call.expr.line}"))
            elif not option[1] and "train" in PurePosixPath(fa.path).name:
                bare.append((*option, f"{fa.path}:{call.expr.line}"))
    if not options and not bare:
        return None
    found = OptionFiles("JSON hparams")
    folders = {
        os.path.normpath(c).rpartition("/")[0] or "."
        for flag, default, where in options
        for c in list(_candidates(where.rpartition(":")[0], default))[:1]
    }
    if not options:
        # the script's folder and the root: where a command run beside either finds the file
        folders = {"."} | {
            str(PurePosixPath(where.rpartition(":")[0]).parent) for _, _, where in bare
        }
    # JSON is YAML: composed, every value keeps its line
    paths = [
        full.relative_to(root).as_posix()
        for folder in sorted(folders)
        if (root / folder).is_dir()
        for full in sorted((root / folder).glob("*.json"))
    ]
    _flat_yamls(found, root, {}, None, paths)
    if not found.flat:
        return None
    if not options:
        commanded = commanded_config(root, set(found.flat))
        if commanded is None:
            return None  # no command names one: no JSON is the config
        found.chosen, found.chosen_by = commanded[0], f"the training command at {commanded[1]}"
        return found
    for flag, default, where in sorted(options):
        for candidate in _candidates(where.rpartition(":")[0], default):
            if candidate in found.flat:
                found.chosen, found.chosen_by = candidate, f"the default of {flag} at {where}"
                return found
        found.option = found.option or f"{flag} at {where}"
    commanded = commanded_config(root, set(found.flat))
    if commanded is not None:
        found.chosen, found.chosen_by = commanded[0], f"the training command at {commanded[1]}"
    return found


def _choose_option(
    found: OptionFiles, root: Path, files: Sequence[FileAnalysis], flags: str = r"opt|cfg|config"
) -> None:
    """The option YAML the training's option (a flag matching ``flags``) names by default,
    else the one its documented command names; none when it is required (``-opt``) and no
    command settles it."""
    for fa in files:
        for call in fa.syntax.values.calls:  # type: ignore[union-attr]
            option = _option(call.expr)
            if option is None or not re.search(flags, option[0]):
                continue
            where = f"{fa.path}:{call.expr.line}"
            for candidate in _candidates(fa.path, option[1]) if option[1] else ():
                if candidate in found.flat:
                    found.chosen, found.chosen_by = candidate, f"the default of {option[0]}"
                    found.chosen_by += f" at {where}"
                    return
            if not option[1] and "train" in PurePosixPath(fa.path).name:
                found.option = found.option or f"{option[0]} at {where}"
    commanded = commanded_config(root, set(found.flat))
    if commanded is not None:
        found.chosen, found.chosen_by = commanded[0], f"the training command at {commanded[1]}"
        return
    found.commanded = commanded_configs(root, set(found.flat))
    stages = _stages(found.commanded, found.flat)
    if stages:
        (last, where), earlier = stages[-1], stages[:-1]
        found.chosen, found.stages = last, earlier
        found.chosen_by = (
            f"the last of {len(stages)} training stages the documentation runs in order "
            f"(its command at {where}), each started from the weights of the one before"
        )


#: Keys of an option file naming the weights a training starts from.
_START_KEY = re.compile(r"(^|[._])(pretrain\w*|load_from|init_from|resume_from|weights?|ckpt)$")
#: Words a config's file name gives its stage by (``train_``, ``finetune_``), not its model.
_STAGE_WORDS = re.compile(r"^(train|finetune|fine_tune|pretrain|stage\d*)[_-]")


def _stages(
    commanded: Sequence[tuple[str, str, int]], flat: dict[str, dict[str, Setting]]
) -> list[tuple[str, str]]:
    """(file, its first command) of each stage, in order, when the files the documented
    training commands name most often (a tie: Real-ESRGAN's docs train
    ``train_realesrnet_x4plus.yml`` and ``train_realesrgan_x4plus.yml`` four times each)
    are stages of one training: each, in the order the documentation first names them,
    starts from weights named for the one before (``pretrain_network_g:
    experiments/pretrained_models/RealESRNet_x4plus.pth``). Else empty: a tie of
    alternatives (HRNet's MPII and COCO) is no sequence, and no stage is picked."""
    if len(commanded) < 2:
        return []
    top = commanded[0][2]
    tied = [(path, where) for path, where, count in commanded if count == top]
    if len(tied) < 2:
        return []

    def _first(where: str) -> tuple[str, int]:
        page, _, line = where.rpartition(":")
        return page, int(line) if line.isdigit() else 0

    tied.sort(key=lambda pw: _first(pw[1]))
    for (before, _), (after, _) in itertools.pairwise(tied):
        model = _squeezed(_STAGE_WORDS.sub("", PurePosixPath(before).stem))
        starts = [
            _squeezed(PurePosixPath(setting.text.strip("'\"")).stem)
            for key, setting in flat.get(after, {}).items()
            if _START_KEY.search(key) and not _null(setting.text)
        ]
        if not model or model not in starts:
            return []
    return tied


def _squeezed(name: str) -> str:
    """A name compared with others: lower case, letters and digits only
    (``RealESRNet_x4plus`` and ``realesrnet_x4plus`` alike)."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def option_rows(
    found: OptionFiles | None, analyses: Sequence[FileAnalysis]
) -> tuple[RecipeItem, ...]:
    """The rows of the option YAMLs: each section built by name (optimizer, scheduler,
    losses, the network) with its type and values, and the plain training keys (length of
    training, batch size, augmentation switches)."""
    if found is None or found.kind not in ("option YAML", "OmegaConf config"):
        return ()
    classes = _class_lines(analyses)
    if found.type_key == "target":
        rows = [row for group in _model_groups(found) for row in _rows(*group, classes)]
        return tuple(_with_code_use(row, with_values(analyses)) for row in rows)
    return tuple(_rows(found, found.why(), "", classes))


#: At most this many later uses of a config value are named in a row's note.
_USES_SHOWN = 2


def _with_code_use(row: RecipeItem, files: Sequence[FileAnalysis]) -> RecipeItem:
    """A plain key's row with where the code reads the key and what it computes from it
    (latent-diffusion's ``bs, base_lr = config.data.params.batch_size,
    config.model.base_learning_rate``, then ``model.learning_rate = accumulate_grad_batches
    * ngpu * bs * base_lr``): the value in the file is not the one the training runs."""
    key = row.name.removeprefix("config ").partition(" ")[0]
    if row.name.startswith(f"config {key}:") or key.count(".") < 1:
        return row  # a section's row
    tail = ".".join(key.split(".")[-2:])
    for fa in files:
        facts = fa.syntax.values  # type: ignore[union-attr]
        # each scope: the module's code (a script's ``if __name__ == "__main__":``), each def
        for scope in (facts.assigns, *(d.assigns for d in facts.defs)):
            for a in scope:
                name = _bound_name(a.target, a.value, tail)
                if name is None:
                    continue
                # arithmetic on it (a scaled learning rate), not every use
                uses = [
                    f"{fa.path}:{b.line} ({b.target.text} = {b.value.text})"
                    for b in sorted(scope, key=lambda b: b.line)
                    if b.line > a.line
                    and b.value.kind == "BinOp"
                    and any(e.kind == "Name" and e.name == name for e in b.value.walk())
                ][:_USES_SHOWN]
                if not uses:
                    continue
                note = f"{row.note}; the training reads it at {fa.path}:{a.line} as {name}"
                note += ", then computes " + ", ".join(uses)
                return RecipeItem(row.category, row.name, row.where, row.values, note)
    return row


def _bound_name(target: Expr, value: Expr, tail: str) -> str | None:
    """The name an assignment binds to a read of the config key ending ``tail``
    (``base_lr`` in ``bs, base_lr = config.data.params.batch_size,
    config.model.base_learning_rate``), or None."""
    pairs = [(target, value)]
    if target.kind == "Tuple" and value.kind == "Tuple" and len(target.parts) == len(value.parts):
        pairs = list(zip(target.parts, value.parts, strict=True))
    for t, v in pairs:
        if t.kind == "Name" and v.kind == "Attribute" and f".{v.text}".endswith(f".{tail}"):
            return t.name
    return None


def _rows(found: OptionFiles, why: str, suffix: str, classes: dict[str, str]) -> list[RecipeItem]:
    """The rows of one set of option files: its sections and its plain keys; ``suffix``
    after each row's name says which group of configs it is (`` (VQModel)``)."""
    key_of = found.type_key
    plain = _TARGET_PLAIN if key_of == "target" else _PLAIN
    all_keys = {k for f in found.files().values() for k in f}
    # a nested section building its own class (a loss config inside the model's params)
    # has its own row: its keys are not the outer section's
    owners = sorted(
        (k.removesuffix(f".{key_of}") for k in all_keys if k.endswith(f".{key_of}")),
        key=len,
        reverse=True,
    )
    out: list[RecipeItem] = []
    for category, section in found.sections():
        picked = found.value(f"{section}.{key_of}")
        if picked is None or "." in _owner(section, owners):
            # a loss config of a part the model builds from its own config (a frozen
            # first stage's ``first_stage_config.params.lossconfig``) is that part's
            # training, not this one's
            continue
        type_name, setting, _ = picked
        type_name = type_name.strip("'\"")
        # nested settings by their path in the section (a perceptual loss's
        # ``layer_weights.conv1_2``: which VGG layers it compares, each with its weight)
        keys = sorted(
            {
                k
                for k in all_keys
                if k.startswith(f"{section}.")
                # its own keys, and the class each part it builds names
                and section in (_owner(k, owners), _owner(k.removesuffix(f".{key_of}"), owners))
                and not any(p.search(k) for _, p in plain)
            },
            key=lambda k: (k != f"{section}.{key_of}", k.count("."), k),
        )
        values = [(k[len(section) + 1 :], found.shown(k) or "") for k in keys]
        if len(values) > _SECTION_SHOWN:
            more = len(values) - _SECTION_SHOWN
            values = [*values[:_SECTION_SHOWN], ("…", f"{more} more keys in {setting.path}")]
        note = why + _earlier_stages(found, keys, section)
        defined = classes.get(_class_name(type_name))
        if defined:
            note = f"{_class_name(type_name)} defined at {defined}; {note}"
        # the model's own row names its group already
        shown = "" if suffix == f" ({_class_name(type_name)})" else suffix
        name = f"config {section}: {type_name}{shown}"
        where = Where(setting.path, setting.line)
        out.append(RecipeItem(category, name, where, tuple(values), note))
    keys = sorted(all_keys)
    for category, pattern in plain:
        for key in keys:
            if pattern.search(key):
                picked = found.value(key)
                # ``pretrain_network_d: ~``: no weights to start from, no row
                if picked is not None and not (category == "checkpoint" and _null(picked[0])):
                    where = Where(picked[1].path, picked[1].line)
                    note = why + _earlier_stages(found, [key], "")
                    value = (("value", found.shown(key) or ""),)
                    out.append(RecipeItem(category, f"config {key}{suffix}", where, value, note))
    return out


#: At most this many keys of a section are shown in its row (a model's architecture config).
_SECTION_SHOWN = 16
#: Plain keys of an OmegaConf config -> their category: the learning rate beside the model's
#: target (``model.base_learning_rate``), the data module's batch size and the training
#: images' size, the trainer's length and accumulation.
_TARGET_PLAIN = (
    ("optimizer", re.compile(r"^(network|net|model|arch)\w*\.(base_)?(learning_rate|lr)$")),
    ("batch_size", re.compile(r"^data\w*\.params\.batch_size$")),
    ("preprocessing", re.compile(r"^data\w*\.params\.train\.params\.\w*size$")),
    ("epochs", re.compile(r"(^|\.)trainer\.max_(epochs|steps)$")),
    ("grad_accum", re.compile(r"(^|\.)trainer\.accumulate_grad_batches$")),
)


def _owner(key: str, owners: Sequence[str]) -> str:
    """The innermost section building a class (longest first in ``owners``) that ``key``
    is inside; "" when none."""
    return next((o for o in owners if key.startswith(f"{o}.")), "")


def _model_groups(found: OptionFiles) -> list[tuple[OptionFiles, str, str]]:
    """The OmegaConf configs grouped by the model their top section builds, the most
    common first: (the group's files, where its values come from, the row names' suffix).
    One config picked: that one alone. Several models: each group's rows say which model
    (`` (VQModel)``) and name its configs (``configs/a.yaml (and 3 other configs)``)."""
    if found.chosen is not None:
        return [(found, found.why(), "")]
    groups: dict[str, list[str]] = {}
    for path, flat in sorted(found.flat.items()):
        top = next((flat[k] for k in sorted(flat) if _TOP_TARGET.match(k)), None)
        if top is not None:
            groups.setdefault(top.text.strip("'\""), []).append(path)
    ranked = sorted(groups, key=lambda t: (-len(groups[t]), t))
    by = f" ({found.option} names none by default)" if found.option else ""
    out: list[tuple[OptionFiles, str, str]] = []
    for target in ranked:
        paths = groups[target]
        sub = OptionFiles(found.kind, {p: found.flat[p] for p in paths}, type_key="target")
        others = f" (and {len(paths) - 1} other config{'s' if len(paths) > 2 else ''})"
        why = (
            f"{paths[0]}{others if len(paths) > 1 else ''} build {target}: "
            f"{len(paths)} of {len(found.flat)} {found.kind}s, none picked{by}; "
            "the most common value first, with how many of them set it"
        )
        if found.notes:
            why += f"; {len(found.notes)} file(s) not read: " + ", ".join(found.notes[:3])
        suffix = f" ({_class_name(target)})" if len(ranked) > 1 else ""
        out.append((sub, why, suffix))
    return out


def _earlier_stages(found: OptionFiles, keys: Sequence[str], section: str) -> str:
    """What the earlier stages of a documented multi-stage training set otherwise for a
    row's keys (Real-ESRNet's ``train.optim_g.lr: 2e-4`` before Real-ESRGAN's 1e-4; no
    ``train.gan_opt`` section at all), "" when they agree or there are none."""
    out = []
    chosen = found.flat.get(found.chosen or "", {})
    for path, _ in found.stages:
        earlier = found.flat.get(path, {})
        if not any(k in earlier for k in keys):
            out.append(f"{path} sets none of it")
            continue
        differ = [
            f"{k[len(section) + 1 :] if section else k} {earlier[k].text}"
            for k in keys
            if k in earlier and (k not in chosen or earlier[k].text != chosen[k].text)
        ]
        if differ:
            out.append(f"{path} sets " + ", ".join(differ[:4]))
    return "; earlier stage: " + "; ".join(out) if out else ""


def _class_name(text: str) -> str:
    """The class a ``type`` or ``target`` value names, by its last name
    (``'taming.models.vqgan.VQModel'`` -> ``VQModel``; ``NAFNet`` -> ``NAFNet``)."""
    return text.strip("'\"").rpartition(".")[2]


def _null(text: str) -> bool:
    """A YAML null or empty value, as written."""
    return text.strip("'\"").lower() in ("~", "null", "none", "")


def _quoted(name: str, text: str) -> bool:
    """``name`` is written quoted in ``text`` (a branch's test: ``optim_type == 'AdamW'``)."""
    return f"'{name}'" in text or f'"{name}"' in text


def _class_lines(analyses: Sequence[FileAnalysis]) -> dict[str, str]:
    """Class name -> ``path:line`` of its definition (the first, tests left out)."""
    out: dict[str, str] = {}
    for fa in sorted(analyses, key=lambda a: a.path):
        if is_test_path(fa.path):
            continue
        for cls in fa.classes:
            out.setdefault(cls.qualname.rpartition(".")[2], f"{fa.path}:{cls.line}")
    return out


def picked_by_options(
    items: tuple[RecipeItem, ...], found: OptionFiles | None, analyses: Sequence[FileAnalysis]
) -> tuple[RecipeItem, ...]:
    """The code's rows with the option YAMLs' picks applied: of the optimizers and schedulers
    built in branches on the type name (``if optim_type == 'Adam': ... elif 'AdamW'``), only
    those some file picks stay, their note saying which; losses defined beside a loss class
    the files build by name, inside none the files pick, go (``l1_loss`` beside the picked
    ``PSNRLoss``)."""
    if found is None or found.kind != "option YAML":
        return items
    loss_types = found.types("loss")
    loss_files: dict[str, list[tuple[int, str]]] = {}
    for fa in analyses:
        spans = sorted((c.line, c.qualname.rpartition(".")[2]) for c in fa.classes)
        if any(name in loss_types for _, name in spans):
            loss_files[fa.path] = spans
    out: list[RecipeItem] = []
    for item in items:
        if item.category in ("optimizer", "scheduler") and "alternatives" in item.note:
            types = found.types(item.category)
            last = item.name.rpartition(".")[2]
            hit = next((t for t in types if t == last or _quoted(t, item.note)), None)
            if types and hit is None:
                continue
            if hit is not None:
                setting = found.value(f"{types[hit]}.type")
                where = f" at {setting[1].loc()}" if setting else ""
                item = RecipeItem(
                    item.category,
                    item.name,
                    item.where,
                    item.values,
                    # the option files say the value that picks it
                    item.note.replace(" (the value that picks it is not known here)", "")
                    + f"; picked by {types[hit]}.type: {hit}{where}",
                )
        elif item.category == "loss" and item.where.path in loss_files:
            inside = [n for line, n in loss_files[item.where.path] if line <= item.where.line]
            if not inside or inside[-1] not in loss_types:
                continue
        out.append(item)
    return tuple(out)


#: Code rows an inference helper gives (its half-precision casts, its checkpoint loads) that
#: a framework's training does not run: kept only in files defining a class the option
#: files build by name.
_HELPER_CATEGORIES = frozenset({"amp", "checkpoint"})
#: ``self.mean`` passed to a step: the attribute the step reads its setting from.
_SELF_ATTR = re.compile(r"^self\.(\w+)$")


def framework_rows(
    items: tuple[RecipeItem, ...], found: OptionFiles | None, analyses: Sequence[FileAnalysis]
) -> tuple[RecipeItem, ...]:
    """The code's rows that an installed framework's training runs, when the training entry
    point hands control to one (:func:`framework_training`): the framework builds what the
    option files name (``network_g.type``, ``datasets.train.type``, ``model_type``), so the
    casts and checkpoint loads of a file defining none of those classes are an inference
    helper's (a ``.half()`` for inference, its ``torch.load``), no recipe row; and a step
    whose setting is an option no option file sets (``normalize(img, self.mean, ...)`` with
    ``self.mean = opt['mean'] if 'mean' in opt else None``, run only ``if self.mean is not
    None``) never runs in the training."""
    keeps = framework_keeps(found, analyses)
    if found is None or keeps is None:
        return items
    keys = {k.rpartition(".")[2] for f in found.flat.values() for k in f}
    files = {fa.path: fa for fa in analyses}
    out: list[RecipeItem] = []
    for item in items:
        fa = files.get(item.where.path)
        if fa is not None:
            if item.category in _HELPER_CATEGORIES and not keeps(item.where.path):
                continue
            if item.category in ("augmentation", "preprocessing") and _unset_options(
                item, fa, keys
            ):
                continue
        out.append(item)
    return tuple(out)


def framework_keeps(
    found: OptionFiles | None, analyses: Sequence[FileAnalysis]
) -> Callable[[str], bool] | None:
    """None unless an installed framework runs the training (:func:`framework_training`);
    then whether a file's casts and checkpoint loads are the training's: the entry point's
    own, or a file defining a class the option files build by name (``type``,
    ``model_type``); the rest are an inference helper's."""
    if found is None or found.framework is None:
        return None
    named = {
        s.text.strip("'\"")
        for f in found.flat.values()
        for k, s in f.items()
        if k.rpartition(".")[2].endswith("type")
    }
    training = {
        fa.path for fa in analyses if {c.qualname.rpartition(".")[2] for c in fa.classes} & named
    }
    training.add(found.framework.where.path)
    return training.__contains__


def _unset_options(item: RecipeItem, fa: FileAnalysis, keys: set[str]) -> bool:
    """Some argument of the row is ``self.<attr>``, assigned in the file only from an
    option of that name (``opt['mean'] if 'mean' in opt else None``), and no option file
    sets that option."""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None:
        return False
    assigns = [a for d in values.defs for a in d.assigns]
    for _, text in item.values:
        match = _SELF_ATTR.match(text)
        if match is None or match[1] in keys:
            continue
        attr = match[1]
        sources = [a.value.text for a in assigns if a.target.text == f"self.{attr}"]
        if sources and all(_quoted(attr, s) and "None" in s for s in sources):
            return True
    return False


#: A name a config file may write: a class or function a builder looks up by it.
_CONFIG_WORD = re.compile(r"[A-Za-z_]\w*")


def config_words(root: Path | None) -> frozenset[str]:
    """Every word (:data:`_CONFIG_WORD`) the repository's YAML and JSON files write, each
    file read as text, within the size and count limits of the YAML configs. Read once per
    review (:attr:`~apiscan.review.readings.Readings.config_words`): every question of
    :func:`config_names` is asked of it."""
    words: set[str] = set()
    if root is None:
        return frozenset()
    for path in files_below(root, (".yaml", ".yml", ".json"), _SKIPPED_DIRS, _MAX_YAML):
        full = root / path
        try:
            if full.stat().st_size > _SIZE_LIMIT:
                continue
            text = full.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        words.update(_CONFIG_WORD.findall(text))
    return frozenset(words)


def config_names(words: Collection[str], names: Iterable[str]) -> frozenset[str]:
    """The ``names`` that a YAML or JSON file of the repository writes as a word
    (``words``: its :func:`config_words`): a class named only in a model config (yolov7's
    ``[-1, 1, MP, []]``, built by ``eval`` of the string) may be built, whatever the Python
    code names."""
    return frozenset(name for name in names if name in words)
