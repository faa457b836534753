"""Porting work the API tables do not show, and which files are ported at all.

An API table says whether ``scipy.optimize.linear_sum_assignment`` has a MindSpore row; a
migration lead needs to know that it runs on the host on every training step, between a
``.cpu()`` and a ``torch.as_tensor``. The same goes for a backbone built by
``torchvision.models`` with pretrained weights (a MindSpore counterpart and a weight
conversion), for the checkpoint the code loads, and for a parameter MindSpore lacks that a call
really passes (``antialias=True``). Each item has its places and a sentence saying why it
matters.

Which files are ported decides what the effort counts: tools, demos, export scripts, hub files,
plotting, notebooks, adapters for other frameworks and what the code never reaches in a vendored
copy of another repository are counted apart (:class:`Ancillary`; ``review-ancillary`` in
``[tool.apiscan]`` replaces the patterns).
"""

from __future__ import annotations

import itertools
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from apiscan.config import path_matches
from apiscan.extract import import_package
from apiscan.extract.models import REGISTER
from apiscan.extract.records import RETURNS, ClassFact, FileAnalysis
from apiscan.extract.shapes import BATCH_PADDING, HOST_INDEX, RANDOM_RESIZE, SIZED_LIST
from apiscan.extract.syntax import HostTrip, SyntaxFacts, shorten
from apiscan.extract.values import (
    CallValues,
    DefValues,
    Expr,
    FileValues,
    IfValues,
    literal_value,
)
from apiscan.mapping.match import memory_only
from apiscan.model import ApiFinding, ScanResult, ShapeFinding
from apiscan.program.index import follow, module_aliases
from apiscan.resolve.torch_api import TorchApi, load_torch_api
from apiscan.review.commands import (
    documented_entry,
    documented_scripts,
    documented_stages,
    launch_commands,
    launches,
    training_commands_scripts,
)
from apiscan.review.config_files import OptionFiles, config_names, config_words
from apiscan.review.evaluate import Namespaces, bind_call, choice_key, outcomes, values_of
from apiscan.review.gaps import OPTIONAL_KERNEL, float_only_passes, own_packages, sibling_module
from apiscan.review.leftout import call_index, globals_picks
from apiscan.review.masked import METRICS
from apiscan.review.model import (
    ARCHITECTURE_ONLY,
    BACKBONE_ARCHITECTURE,
    WORK_KINDS,
    ModuleNode,
    TopModel,
    Where,
    WorkItem,
    work_label,
)
from apiscan.review.names import NEUTRAL_VALUES, ArgparseDefaults, NameValues, config_key
from apiscan.review.oplibs import (
    NETWORK_OP_LIBRARIES,
    TRAINING_PIECES,
    absolute_call_values,
    model_parallel_library,
    training_piece,
)
from apiscan.review.readings import Readings
from apiscan.review.roles import (
    BACKWARD_APIS,
    DATASETS,
    DEMO_DIRS,
    GUI_DIRS,
    GUI_TOOLKITS,
    HOST_READS,
    RANDOM_DRAW,
    STEP_COMPUTATION,
    STEP_RUN,
    TORCH_FRAMEWORKS,
    TRAINING_STEP,
    VENDORED,
    WEIGHTS_FILE,
    evaluation_file,
    evaluation_folder,
    gradient_syncs,
    is_composition,
    side_script,
    trains,
)
from apiscan.review.sources import (
    import_place,
    imported_modules,
    is_test_path,
    place,
    self_tests,
    with_facts,
)
from apiscan.review.trainers import trainer_functions
from apiscan.rewrite.composed import COMPOSITIONS
from apiscan.scope.classify import EXPORT_DIRS

#: Directories whose code is not ported with the model (anywhere in the path).
ANCILLARY_DIRS: dict[str, str] = {
    "tools": "tools",
    "tool": "tools",
    "scripts": "scripts",
    **dict.fromkeys(sorted(DEMO_DIRS | GUI_DIRS), "demo"),
    "examples": "examples",
    "example": "examples",
    # walkthroughs written for readers (litgpt's tutorials/full_finetune_example.py)
    "tutorials": "examples",
    "tutorial": "examples",
    "notebooks": "notebooks",
    "docs": "documentation",
    "doc": "documentation",
    "benchmarks": "benchmarks",
    "benchmark": "benchmarks",
    "projects": "side projects",
    "log": "training output",
    "logs": "training output",
    "runs": "training output",
    "work_dirs": "training output",
    # experiment trackers' integrations (yolov9's utils/loggers/: wandb, comet, clearml)
    "loggers": "training output",
    "wandb": "training output",
    "visualizer": "plotting",
    "visualization": "plotting",
    "vis": "plotting",
    # the scope's export folders (``export/``, ``deploy/``, ``onnx/``...): one list for both
    **dict.fromkeys(sorted(EXPORT_DIRS), "deployment/export"),
    # a TorchScript-friendly copy of the model for export (MODNet's torchscript/)
    "torchscript": "deployment/export",
}
#: File name patterns of code that is not ported with the model.
ANCILLARY_FILES: dict[str, str] = {
    "hubconf.py": "torch.hub entry points",
    "setup.py": "packaging",
    "*export*.py": "deployment/export",
    "*onnx*.py": "deployment/export",
    "*torchscript*.py": "deployment/export",
    "*plot*.py": "plotting",
    "*visuali[sz]*.py": "plotting",
    "*demo*.py": "demo",
    "*.ipynb": "notebook",
    "*collect_env*.py": "environment report",
    "testing.py": "test helpers",
    # scripts that time the model (a training step or an inference pass), not train it
    "*benchmark*.py": "timing",
    "bench.py": "timing",
    "*profil*.py": "timing",
}
#: Other frameworks' inference runtimes a deployment hands the model's inputs to (NVIDIA
#: Triton's inference-server client too: yolov9's utils/triton.py).
DEPLOY_RUNTIMES = frozenset(
    {"onnx", "onnxruntime", "tensorrt", "openvino", "coremltools", "paddle", "tritonclient"}
)
#: Frameworks a file adapts the model to (an adapter is not ported with the model).
FOREIGN_FRAMEWORKS = DEPLOY_RUNTIMES | frozenset(
    {
        "detectron2",
        "tensorflow",
        "jax",
        "flax",
        # deep-learning frameworks a repository may ship a second implementation for
        # (ResNeSt-like ``gluon/`` packages beside ``torch/``): another framework's model and
        # training script, not port work
        "mxnet",
        "gluoncv",
        "gluonnlp",
        "chainer",
        "oneflow",
        "megengine",
        "mmdet",
        "mmcv",
        # the OpenMMLab task frameworks beside mmdet (ConvNeXt's semantic_segmentation/
        # registers its backbone with mmseg's BACKBONES)
        "mmseg",
        "mmpose",
        "mmcls",
        "mmpretrain",
        "mmocr",
        "mmrotate",
        "mmdet3d",
        "lightning",
        "pytorch_lightning",
        # Replicate's predictor (SwinIR's predict.py beside cog.yaml): a hosting entry point
        "cog",
    }
)
#: Why a file adapting the model to another framework is counted apart.
ADAPTER = "adapter for"
PRETRAINED_KEYWORDS = frozenset({"pretrained", "weights", "pretrained_backbone"})
#: Torch APIs that load a checkpoint.
CHECKPOINT_APIS = frozenset(
    {
        "torch.load",
        # a released TorchScript archive (CLIP's): its state_dict is what gets converted
        "torch.jit.load",
        "torch.hub.load_state_dict_from_url",
        "torch.utils.model_zoo.load_url",
        # its spelling before torchvision 0.13 (imported first, torch's as the fallback)
        "torchvision.models.utils.load_state_dict_from_url",
    }
)
#: Torch APIs that download weights by URL (a backbone's ImageNet weights, usually).
URL_WEIGHTS = frozenset(
    {
        "torch.hub.load_state_dict_from_url",
        "torch.utils.model_zoo.load_url",
        "torchvision.models.utils.load_state_dict_from_url",
    }
)
#: Parameter values that pass nothing MindSpore would miss.
#: Packages whose APIs a parameter gap is plumbing for (loaders, optimizers): they have idioms.
PLUMBING = (
    "torch.optim.",
    "torch.utils.data.",
    "torch.distributed.",
    "torch.cuda.",
    "torchvision.datasets.",
)
#: What a parameter note says when only the keyword's spelling differs (dim= → axis=).
SPELLING = "has no parameter named"
#: Parameters about placement and memory: MindSpore places tensors globally.
PLACEMENT = frozenset({"device", "non_blocking", "memory_format", "layout", "pin_memory"})


#: The reasons of folders of side projects, examples, demos, documentation and benchmarks
#: (:func:`dir_reason`): their own training loops (a benchmark timing ``loss.backward()``)
#: are not the repository's; ``benchmark/`` and ``benchmarks/`` both count.
_SIDE_REASONS = frozenset({"examples", "side projects", "demo", "documentation", "benchmarks"})


def dir_reason(name: str) -> str:
    """Why a folder named ``name`` is counted apart (:data:`ANCILLARY_DIRS`), or "": by its
    whole name, or a demo's by one of the words it joins with ``_`` or ``-`` (co-tracker's
    ``gradio_demo/``, whose app downloads the released model from the hub)."""
    name = name.lower()
    if name in ANCILLARY_DIRS:
        return ANCILLARY_DIRS[name]
    return ANCILLARY_DIRS["demo"] if DEMO_DIRS & set(re.split(r"[_-]", name)) else ""


def _dirs_reason(folders: Iterable[str]) -> str:
    """The reason of the first of ``folders`` counted apart (:func:`dir_reason`), or ""."""
    return next(filter(None, map(dir_reason, folders)), "")


#: File name patterns of plotting code (:data:`ANCILLARY_FILES`).
_PLOTTING = tuple(p for p, why in ANCILLARY_FILES.items() if why == "plotting")


#: Folders that hold a repository's code, not a task of its own (CenterNet's ``src/main.py``
#: beside a root script is the same product's entry point).
_CODE_ROOTS = frozenset({"src", "lib", "source", "code"})


#: Scripts that run the training step to time it, not to train (timm's ``benchmark.py``).
_TIMING = tuple(p for p, why in ANCILLARY_FILES.items() if why == "timing")


#: whether an API builds an optimizer or runs the backward pass (a method's local ``trains``
#: flag shadows the name)
_trains_api = trains


def _timing_scripts(analyses: Sequence[FileAnalysis], keep: Collection[str]) -> set[str]:
    """The files of ``keep`` named for timing (:data:`_TIMING`: ``bench.py``,
    ``*benchmark*.py``), in any folder, that run a backward pass to time it but build no
    optimizer and step none: they train nothing, so they are no training files and their
    code is no training step (a ``tools/bench.py`` timing one forward and backward pass of
    the model the solver builds)."""
    out: set[str] = set()
    for fa in analyses:
        name = PurePosixPath(fa.path).name.lower()
        if fa.path not in keep or not any(path_matches(name, p) for p in _TIMING):
            continue
        if not any(
            (u.api.startswith("torch.optim.") and TRAINING_STEP.match(u.api))
            or (STEP_RUN.match(u.api) and u.api not in BACKWARD_APIS)
            for u in fa.uses
        ):
            out.add(fa.path)
    return out


class Ancillary:
    """Which files are counted apart from the effort, and why: tests, tools, demos, exports,
    hub files, plotting, notebooks, adapters for other frameworks, the parts of a vendored
    copy the code never reaches (:func:`vendored_apart`). ``patterns`` (globs as in
    ``exclude``) replace the built-in directory and file-name lists when given; files in
    ``keep`` (the training step: ``tools/train.py`` building the optimizer) are ported."""

    def __init__(
        self,
        analyses: Sequence[FileAnalysis],
        patterns: Sequence[str] | None = None,
        keep: Iterable[str] = (),
        root: Path | None = None,
        readings: Readings | None = None,
    ) -> None:
        self.patterns = tuple(patterns) if patterns is not None else None
        #: what the review reads of the repository's files (the YAML config the documented
        #: command names); read here on first use when none is given
        self._readings = readings
        #: files that hold the training step (an optimizer, a backward pass): always ported
        self.keep = frozenset(keep)
        self._why: dict[str, str] = {}
        #: top-level folder -> why, for the adapter projects (their configs and data files
        #: the scan does not read are counted apart with them)
        self._adapter_dirs: dict[str, str] = {}
        #: path -> "tool" or "task": a tool's or another task's training facts (the recipe's)
        self._recipes: dict[str, str] = {}
        #: the training scripts of the pipeline's earlier stages the documentation launches
        #: before the entry, each training its own model (their rows are the recipe's too)
        self.stages: tuple[str, ...] = ()
        #: the Python config files the documented training commands name (``-f x.py``)
        self.configs: frozenset[str] = frozenset()
        #: the files the scan analysed without error: their reasons are all in ``_why``
        self._read = frozenset(fa.path for fa in analyses if not fa.errors)
        #: the modules the packaging declares as commands (console scripts): entry points
        #: that nothing needs to import
        self._declared = declared_entry_points(root, analyses)
        self._root = root
        #: files that define a torch Module (a TensorFlow twin's Keras layers are not)
        self._torch_modules = frozenset(
            fa.path
            for fa in analyses
            if any(b.startswith("torch.nn.") for c in fa.classes for b in c.bases)
        )
        #: files that build one of the repository's torch Modules (MiDaS's
        #: ``midas/model_loader.py``: ``DPTDepthModel(...)``, its classes subclassing
        #: ``BaseModel``, a ``torch.nn.Module``)
        builders = _module_builders(analyses)
        self._builders = frozenset(
            fa.path
            for fa in analyses
            if fa.path in builders
            # a script of its own (yolov9's export.py, imported by a method of the model
            # for its format table) or one named for an export stays an adapter
            and not (fa.syntax is not None and fa.syntax.main_guard)
            and not any(
                path_matches(PurePosixPath(fa.path).name.lower(), p) for p in ANCILLARY_FILES
            )
        )
        #: the vendored copies' files the repository's own code never reaches: another
        #: project's training, evaluation and data code, counted apart (a training loop there
        #: is not this repository's)
        self._vendored: dict[str, str] = {}
        if self.patterns is None:
            self._vendored = vendored_apart(analyses)
            self.keep -= self._vendored.keys()
            self.keep -= _timing_scripts(analyses, self.keep)
        local = _local_packages(analyses)
        #: the torch training frameworks the repository trains with: no adapters
        # (where no file holds the training step, a framework's runner trains: the scripts
        # the documented training commands run are the training files)
        self._trained_with = _training_frameworks(
            analyses, self.keep or training_commands_scripts(root)
        )
        for fa, facts in with_facts(analyses, tests=True):
            why = self._classify(fa.path, facts, local)
            if why:
                self._why[fa.path] = why
        for path, why in self._vendored.items():
            if self._why.get(path) != "tests":
                self._why[path] = why
        # a vendored copy's entry point that the repository's own code loads
        # (``torch.hub.load(DIR, ..., source='local')``) builds the model's backbone: ported
        # with it, and what it imports too, not a hub file beside the model
        for path, hub in _local_hub_loads(analyses):
            if path not in self._why and self._why.get(hub) == ANCILLARY_FILES["hubconf.py"]:
                del self._why[hub]
        if self.patterns is None and not self.keep:
            # inference only: the root scripts run the model (MiDaS's ``run.py``)
            self._imports = _import_graph(analyses)
            self._adapted_parts(
                fa.path
                for fa in analyses
                if fa.syntax is not None
                and fa.syntax.main_guard
                and len(PurePosixPath(fa.path).parts) == 1
                and fa.path not in self._why
            )
        if self.patterns is None and self.keep:
            self._imports = _import_graph(analyses)
            self._adapted_parts(self._ported_entries())
            tasks = self._other_tasks(analyses)
            self._why.update(tasks)
            superseded = self._superseded(analyses)
            self._why.update(superseded)
            self._why.update(self._variants(analyses))
            tools = self._tools(analyses)
            self._why.update(tools)
            # what only those tools reach (stylegan2's inception.py, lpips/) goes with them
            tools.update(self._tool_reach(analyses))
            self._why.update(tools)
            # what the training reaches in a tools folder or an application's folder
            # (``gui/``) is part of the port
            for path in self._trained_tools(analyses):
                del self._why[path]
            for path in self._documented_tools(analyses):
                del self._why[path]
            self._why.update(self._hub_reach(analyses))
            evaluation = self._evaluation_reach(analyses)
            self._why.update(evaluation)
            self._recipes.update(dict.fromkeys(evaluation, "tool"))
            self._why.update(self._adapter_projects(analyses))
            self._why.update(self._adapter_reach(analyses))
            self._why.update(self._unimported(analyses))
            self._why.update(self._unrun_scripts(analyses))
            self._recipes.update(dict.fromkeys(tasks, "task"))
            self._recipes.update({p: "tool" for p, why in tools.items() if why == "tools"})
            # a script of a tools folder that the training does not reach (a sweep's set-up
            # seeding its own sampling of configs) is a tool's: its seeds and draws are no
            # row of the run's recipe. One named for training may still hold the options
            # the training reads (a parser module beside the library's loop)
            for fa in analyses:
                why = self._why.get(fa.path, "")
                if (
                    why in _TOOL_REASONS
                    and _tool_folder(fa.path)
                    and fa.syntax is not None
                    and fa.syntax.main_guard
                    and "train" not in PurePosixPath(fa.path).name
                ):
                    self._recipes.setdefault(fa.path, "tool")
            scripts = self._scripts(analyses) if root else {}
            entry = documented_entry(root, scripts) if root else None
            self.stages = (
                _earlier_stages(analyses, documented_stages(root, scripts, entry), entry)
                if root and entry
                else ()
            )
            ported = self._ported_entries()
            steps = {fa.path for fa in analyses if fa.path in ported and not _runs_as_script(fa)}
            entries = (entry, *self.stages) if entry else ()
            launched = documented_scripts(root, scripts) if root else frozenset()
            for path, whose in _side_recipes(analyses, entries, steps, launched).items():
                self._recipes.setdefault(path, whose)
            if entry is not None:
                others = self._undocumented_trainings(analyses, entry, scripts)
                self._why.update(others)
                self._recipes.update(dict.fromkeys(others, "task"))
                self._configure(analyses, entry, scripts)
            unloaded = self._other_config_system(analyses, entry)
            self._why.update(unloaded)
            self._recipes.update(dict.fromkeys(unloaded, "task"))
            # (one that builds an optimizer holds another launcher's training, not the run's)
            self.keep -= unloaded.keys()
            unpicked = self._unpicked_loads(analyses)
            self._why.update(unpicked)
            self._recipes.update(dict.fromkeys(unpicked, "task"))
            self.keep -= unpicked.keys()
        self._why.update(self._copies(analyses))

    def _unpicked_loads(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The modules a loader picks by an option's value (``import_module("models." +
        opt.model + "_model")``: :func:`_pattern_loads`) that no value the run can give
        names: not the option's default, not a value a model's ``parser.set_defaults``
        gives it, not one a documented command of a ported script passes (``python train.py
        --model pix2pix``). A template or an inference-only model (``--model test``, run by
        a tool) is another configuration's, counted apart with its recipe rows. Only where
        exactly one option's values all name modules of the pattern: otherwise nothing."""
        if self._root is None:
            return {}
        loads = _pattern_keys(analyses)
        if not loads:
            return {}
        readings = self._readings or Readings(self._root, analyses)
        defaults = readings.argparse.values()
        # a module some file imports or names (the loader's ``BaseModel``) is no pick; the
        # loader's own references to the modules it may load are not such a use
        loaders = _pattern_loads(analyses)
        imported = {
            t
            for source, targets in _reference_graph(analyses, self._imports).items()
            for t in targets - loaders.get(source, set())
        }
        candidates = {path for keyed in loads.values() for path in keyed.values()}
        #: path -> dest -> the values its ``parser.set_defaults(dest=...)`` calls give
        given: dict[str, dict[str, set[str]]] = {}
        for fa, facts in with_facts(analyses):
            for call in facts.values.calls if facts.values is not None else ():
                if call.expr.callee() == "set_defaults":
                    for k in call.expr.keywords:
                        value = k.target
                        if value.kind == "Constant" and isinstance(value.value, str):
                            given.setdefault(fa.path, {}).setdefault(k.name, set()).add(value.value)
        commands = [
            words
            for path, _, words, _ in launch_commands(self._root)
            if not path.endswith(".sh") or not self._why.get(path)
        ]
        picks: dict[tuple[str, str], tuple[str, set[str]]] = {}
        picked_paths: set[str] = set()
        for _ in range(2):  # a picked model's ``set_defaults(dataset_mode=...)`` picks more
            for pattern, keyed in loads.items():
                if not pattern[1]:
                    continue  # no naming convention (``"models." + arch``): any module fits
                dests = [
                    dest
                    for dest, held in defaults.items()
                    if held and all(isinstance(v, str) and v in keyed for v in held)
                ]
                if len(dests) != 1:
                    continue
                dest = dests[0]
                picked = {v for v in defaults[dest] if isinstance(v, str)}
                for path, by_dest in given.items():
                    if path not in candidates or path in picked_paths:
                        picked |= by_dest.get(dest, set())
                flag = f"--{dest}"
                for words in commands:
                    script = next((w for w in words if w.endswith(".py")), "")
                    if not script or self._why.get(script.removeprefix("./")):
                        continue  # a tool's command (``test.py --model test``) trains nothing
                    for i, word in enumerate(words[:-1]):
                        if word == flag:
                            picked.add(words[i + 1])
                        elif word.startswith(flag + "="):
                            picked.add(word.partition("=")[2])
                picks[pattern] = (flag, picked)
                picked_paths |= {keyed[k] for k in picked if k in keyed}
        out: dict[str, str] = {}
        for pattern, (flag, picked) in picks.items():
            keyed = loads[pattern]
            if not picked & keyed.keys():
                continue
            for key, path in keyed.items():
                if key not in picked and path not in self._why and path not in imported:
                    out[path] = f"{UNPICKED} ({flag} {key})"
        return out

    def _other_config_system(
        self, analyses: Sequence[FileAnalysis], entry: str | None
    ) -> dict[str, str]:
        """The Python modules of the folder holding the YAML config the documented training
        command names (``configs/`` of ``train_net.py --config-file
        ../configs/x/mask_rcnn.yaml``) that no file outside that folder imports: the
        configurations of another launcher, which loads them by path (a lazy-config
        trainer's ``configs/common/models/fcos.py``, ``configs/x/retinanet.py``), never
        read by the documented run. Counted apart, with what only they build."""
        if self._root is None:
            return {}
        readings = self._readings or Readings(self._root, analyses)
        chosen = readings.commanded_yaml
        if chosen is None:
            return {}
        parts = PurePosixPath(chosen[0]).parts
        if len(parts) < 2:
            return {}
        folder = PurePosixPath(parts[0])
        graph = _reference_graph(analyses, self._imports)
        inside = {
            fa.path
            for fa in analyses
            if folder in PurePosixPath(fa.path).parents and fa.path.endswith(".py")
        }
        # a module of the folder the code outside it imports (``configs/defaults.py`` read
        # by the training) is the run's, and what it imports there too
        used = {t for source, targets in graph.items() if source not in inside for t in targets}
        used = (used & inside) | _closure(used & inside, graph)
        return {
            path: UNLAUNCHED
            for path in sorted(inside - used)
            if path not in self._why and path != entry
        }

    def _scripts(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Each module name and path of the ported training scripts (a ``__main__`` block,
        the training step reached) -> its path: what a documented command may launch.
        Where some of them build one of the repository's own torch Modules (themselves or
        through what they import) and others do not, only the former: a script that trains a
        library's network (barlowtwins' ``evaluate.py``: a linear classifier on a torchvision
        ResNet-50 loaded from the pretraining's checkpoint) evaluates or fine-tunes what the
        repository is about, however often the README runs it; the one building the
        repository's model (``main.py`` building ``BarlowTwins``) is its training."""
        scripts = {
            fa.path: fa
            for fa in analyses
            if fa.path in self._ported_entries()
            and _runs_as_script(fa)
            and not is_test_path(fa.path)
        }
        builders = _module_builders(analyses)
        graph = _reference_graph(analyses, self._imports)
        reach = {p: {p} | _closure({p}, graph, packages=True) for p in scripts}
        # a script that only loads an averaged model (``swa_utils.AveragedModel`` in an
        # evaluation script) uses torch.optim without training: one that builds an
        # optimizer, steps it or runs a backward pass (itself or through what it imports)
        # is the training a command may launch
        steps = {fa.path for fa in analyses if any(TRAINING_STEP.match(u.api) for u in fa.uses)}
        trains = {p for p in scripts if reach[p] & steps}
        if trains:
            scripts = {p: fa for p, fa in scripts.items() if p in trains}
        own = {p for p in scripts if reach[p] & builders}
        if own:
            scripts = {p: fa for p, fa in scripts.items() if p in own}
        return {name: path for path, fa in scripts.items() for name in (*fa.modules, path)}

    def vendored(self, path: str) -> bool:
        """Whether ``path`` is in a vendored copy of another repository and the repository's
        own code never reaches it (:func:`vendored_apart`)."""
        return path in self._vendored

    def _ported_entries(self) -> set[str]:
        """The training files that are ported (not adapters, side projects...)."""
        return {p for p in self.keep if p in self._read and p not in self._why}

    def _adapted_parts(self, entries: Iterable[str]) -> None:
        """A file the training entry (the inference script, where nothing trains) imports,
        directly or through the repository's own modules, is part of the model even when one
        of its classes adapts to another framework (yolov9's ``models/common.py``: its
        blocks, and a multi-backend loader importing TensorRT inside a method) when it
        defines torch Modules or builds them (MiDaS's ``model_loader.py``: the loader
        ``run.py`` calls, importing openvino only in a branch): ported, not an adapter (an
        export script or a TensorFlow twin it imports stays one)."""
        reached = _closure(entries, self._imports)
        for path in reached & (self._torch_modules | self._builders):
            if self._why.get(path, "").startswith(ADAPTER):
                del self._why[path]

    def _other_tasks(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The other products of a multi-task repository whose root training entry trains one
        task (yolov9's root ``train.py`` trains detection; ``classify/``, ``segment/``,
        ``panoptic/`` hold their own training scripts): a top-level folder with its own
        training script that no root-level training file imports, and the folders of the
        same name elsewhere (``utils/segment/``). Listed, and overridable by
        ``review-ancillary``."""
        entries = {p for p in self._ported_entries() if len(PurePosixPath(p).parts) == 1}
        if not entries:
            return {}
        direct = {q for p in entries for q in self._imports.get(p, ())}
        imported_tops = {PurePosixPath(q).parts[0] for q in direct}
        scripts = {fa.path for fa in analyses if fa.syntax is not None and fa.syntax.main_guard}
        tasks = {
            parts[0]
            for p in self._ported_entries()
            if p in scripts
            and len(parts := PurePosixPath(p).parts) > 1
            and parts[0] not in imported_tops
            and not dir_reason(parts[0])
            and parts[0].lower() not in _CODE_ROOTS
        }
        found: dict[str, str] = {}
        for fa in analyses:
            parts = PurePosixPath(fa.path).parts
            task = next((d for d in parts[:-1] if d in tasks), None)
            if task and fa.path not in direct and fa.path not in self._why:
                found[fa.path] = f"{OTHER_TASK} ({task}/)"
        return found

    def _superseded(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The training scripts an older copy of which sits beside them: a script whose
        name marks it old (``legacy_train.py``, ``train_old.py``, ``deprecated_main.py``)
        next to a ported training script named the same without the mark (``train.py``).
        The current one is ported; the old one is counted apart, with what only it imports
        (:meth:`_tool_reach`), not priced as a variant to port beside it."""
        scripts = {fa.path for fa in analyses if fa.syntax is not None and fa.syntax.main_guard}
        entries = self._ported_entries() & scripts
        found: dict[str, str] = {}
        for path in sorted(entries):
            p = PurePosixPath(path)
            words = re.split(r"[_\-]", p.stem)
            marked = [w for w in words if w.lower() in _OLD_WORDS]
            if not marked or len(marked) == len(words):
                continue
            rest = "_".join(w for w in words if w.lower() not in _OLD_WORDS)
            base = str(p.with_name(f"{rest}{p.suffix}"))
            if base in entries:
                found[path] = f"{SUPERSEDED} {base}"
        return found

    def _variants(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Files that are variants of a ported file, named after it in its folder: sibling
            training scripts (yolov9's ``train_dual.py`` and ``train_triple.py`` beside
            ``train.py``: one port, and a small delta each; a script that is a near copy of a
        training script under another name, :func:`_near_copy`) and the modules only such variants
            import (``utils/loss_tal_dual.py`` beside the ``utils/loss_tal.py`` that
            ``train.py`` imports), or nothing imports (``utils/loss.py``). The script with the
            shortest name is the one ported; a module is a variant only when it defines a public
            class or function of the same name as its ported sibling, registers nothing (a
            registry builds entries by name) and every file importing it is counted apart."""
        scripts = {fa.path for fa in analyses if fa.syntax is not None and fa.syntax.main_guard}
        entries = sorted(self._ported_entries() & scripts, key=lambda p: (len(p), p))
        by_path = {fa.path: fa for fa in analyses}
        # a script the documentation launches is a task of its own, copy or not, unless
        # the documentation names one training entry and the script is neither it nor a
        # stage run before it (a fine-tuning copy launched after the training)
        protected: frozenset[str] = frozenset()
        if self._root is not None:
            launchable = {
                n: fa.path for fa in analyses if fa.path in entries for n in (*fa.modules, fa.path)
            }
            protected = documented_scripts(self._root, launchable)
            entry = documented_entry(self._root, launchable)
            if entry is not None:
                stages = documented_stages(self._root, launchable, entry)
                protected = protected & {entry, *stages}
        found: dict[str, str] = {}
        for path in entries:
            base = next((q for q in entries if _named_variant(q, path)), None)
            if base is None and path not in protected:
                # a training script copied under another name with a few lines changed (a
                # tuning script importing another loader): the training-named one is ported
                base = next(
                    (
                        q
                        for q in sorted(entries, key=_entry_rank)
                        if _entry_rank(q) < _entry_rank(path)
                        and _near_copy(by_path[q], by_path[path])
                    ),
                    None,
                )
            if base is not None and base not in found:
                found[path] = f"{VARIANT} {base}"
        apart = self._why.keys() | found.keys()
        importers: dict[str, set[str]] = {}
        for path, target in _local_references(analyses):
            importers.setdefault(target, set()).add(path)
        # a training-step module (a checkpoint saver, a grad scaler) is the run's unless only
        # variant scripts import it (an MoE variant's ``utils_moe.py`` beside the
        # ``utils.py`` the training imports): then it may be that variant's delta
        only_variants = {
            p
            for p in self.keep
            if p not in scripts and importers.get(p) and importers[p] <= found.keys()
        }
        entries_kept = self._ported_entries() - found.keys() - only_variants
        reached = _closure(entries_kept, self._imports) | entries_kept
        folders: dict[PurePosixPath, list[str]] = {}
        for path in sorted(reached):
            folders.setdefault(PurePosixPath(path).parent, []).append(path)
        names: dict[str, set[str]] = {}
        for fa in analyses:
            if fa.errors or fa.syntax is None:
                continue
            models = fa.syntax.models
            if models is not None and any(
                chain or arch for _, _, found_in in models.decorated for arch, chain, _ in found_in
            ):
                continue  # registered entries are built by name
            names[fa.path] = {
                n
                for n in [c.qualname for c in fa.classes]
                + [fn.qualname for fn in fa.functions if not fn.cls]
                if "." not in n and not n.startswith("_")
            }
        for path in sorted(names):
            if path in apart or path in reached or path in self.keep - only_variants:
                continue
            if PurePosixPath(path).name == "__init__.py":
                continue
            if not importers.get(path, set()) <= apart:
                continue
            base = next(
                (
                    q
                    for q in folders.get(PurePosixPath(path).parent, ())
                    if (_named_variant(q, path) or _named_variant(path, q))
                    and names[path] & names.get(q, set())
                ),
                None,
            )
            if base is not None:
                used = bool(importers.get(path, set()) & found.keys())
                found[path] = f"{VARIANT} {base}" + ("" if used else f" {UNUSED}")
        return found

    def variants(self) -> tuple[str, ...]:
        """The variant files that are a delta to port after their ported sibling (a sibling
        training script, a module such a script imports); unused variants are not."""
        return tuple(
            p
            for p, w in sorted(self._why.items())
            if w.startswith(VARIANT) and not w.endswith(UNUSED)
        )

    def _adapter_projects(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The top-level folders that are projects for another framework beside the
        repository's own training (ConvNeXt's ``object_detection/`` and
        ``semantic_segmentation/``: mmdet and mmseg adapters, their OpenMMLab configs, run by
        those frameworks' trainers): a folder with an adapter in it, none of the ported
        training entries, and nothing outside it that is ported importing from it. Its
        every file is counted apart with the adapter (the configs too: their optimizer,
        losses and pipeline are that framework's recipe, not this one's)."""
        entries = self._ported_entries()
        adapters: dict[str, set[str]] = {}
        for path, why in self._why.items():
            parts = PurePosixPath(path).parts
            if len(parts) > 1 and why.startswith("adapter for "):
                adapters.setdefault(parts[0], set()).update(why[12:].split(", "))
        found: dict[str, str] = {}
        for top, frameworks in sorted(adapters.items()):
            inside = [fa.path for fa in analyses if PurePosixPath(fa.path).parts[0] == top]
            if any(PurePosixPath(p).parts[0] == top for p in entries):
                continue
            importers = {
                p
                for p, targets in self._imports.items()
                if PurePosixPath(p).parts[0] != top
                and p not in self._why
                and any(PurePosixPath(t).parts[0] == top for t in targets)
            }
            if importers:
                continue
            why = f"adapter for {', '.join(sorted(frameworks))} ({top}/)"
            self._adapter_dirs[top] = why
            found.update({p: why for p in inside if p not in self._why})
        return found

    def _tools(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Root-level tools beside a training entry point: a script run on its own
        (``if __name__ == "__main__"``, a click or argparse command) that does not reach the
        training step and that no ported file imports (stylegan2's ``generate.py``,
        ``projector.py``, ``calc_metrics.py``) or reaches it only to time it (timm's
        ``benchmark.py``), and a root-level ``metrics/`` or
        ``evaluation/`` package (evaluation runs on the host beside the model). Only where
        the repository trains: an inference-only repository's script is its inference path."""
        found: dict[str, str] = {}
        candidates: dict[str, tuple[str, ...]] = {}
        # the kept files that train (the others are kept as entry points): beside them, a
        # root script named for sampling, evaluating or inferring that trains nothing is a
        # tool (nanoGPT-like ``sample.py`` drawing text from the trained checkpoint)
        training = {
            fa.path
            for fa in analyses
            if fa.path in self.keep and any(trains(u.api) for u in fa.uses)
        }
        for fa in analyses:
            if fa.errors or fa.path in self._why:
                continue
            parts = PurePosixPath(fa.path).parts
            if fa.path in self.keep and not (
                len(parts) == 1
                and (
                    _optimizes_inputs(fa)
                    or any(path_matches(parts[0], p) for p in _TIMING)
                    or (training and fa.path not in training and side_script(fa.path))
                )
            ):
                continue
            if evaluation_folder(fa.path, root_only=True):
                found[fa.path] = "evaluation"
            # a script runs from a ``__main__`` block, from options parsed at its top level
            # (LPIPS's ``lpips_2imgs.py``: two images' distance, no guard) or from a loop
            # there (a sampling script drawing from the trained model, no guard, no options)
            elif len(parts) == 1 and _runs_as_script(fa, work_at_top=True):
                candidates[fa.path] = fa.modules
        # a projector optimising a latent is a tool only beside the model's own training
        if not candidates or not self.keep - candidates.keys():
            return found
        # what the ported files import (a tool imported by the training loop is ported)
        imported: set[str] = set()
        for fa in analyses:
            if fa.errors or fa.syntax is None or fa.path in self._why or fa.path in found:
                continue
            if fa.path in candidates:
                continue
            imported.update(name for _, name in fa.syntax.imports)
            # a script the code reads to run it (``exec(open("configurator.py").read())``:
            # the training's option overrides) is that code's, not a tool
            if fa.syntax.values is not None:
                imported.update(
                    a.value[:-3].replace("/", ".")
                    for c in fa.syntax.values.calls
                    for a in c.expr.args
                    if a.kind == "Constant" and isinstance(a.value, str) and a.value.endswith(".py")
                )
        # where no training script sits at the root, one that runs only models the
        # training never reaches (Depth-Anything's run.py: depth_anything/ has no training
        # loop, metric_depth/ fine-tunes its own copy) is that model's inference path, not a
        # tool beside it (stylegan2's fid.py beside its root train.py stays a tool)
        entries = self._ported_entries()
        trained = _closure(entries, self._imports) | entries
        beside = any("/" not in p for p in entries)
        for path, modules in candidates.items():
            if any(n == m or n.startswith(m + ".") for m in modules for n in imported):
                continue
            runs = self._imports.get(path, set()) & (self._torch_modules | self._builders)
            if runs and not runs & trained and not beside:
                continue
            found[path] = "tools"
        return found

    def _tool_reach(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Root-level scripts beside a root training script that reach a training step only
        through modules that script never imports (stylegan2's ``ppl.py``: LPIPS's own
        ``lpips/dist_model.py`` optimizer, not the GAN's), and the modules that only such
        tools import (stylegan2's ``inception.py`` for ``fid.py`` and ``calc_inception.py``,
        ``lpips/`` for ``ppl.py``): counted apart with the tools, with every work item,
        custom op, gap and recipe row they hold. A module that any ported file imports
        stays ported; without a root training script nothing changes (a package's entry
        points decide what it ports).

        A script in a tools folder (``tools/``, ``scripts/``) that the root training never
        reaches is such a tool too when it trains a model of its own (pytorch-YOLOv4's
        ``tool/tv_reference/train.py``: torchvision's detection reference, with its own
        optimizer and ``engine.py``) or reaches none of the training's files: a second
        entry point, counted apart with the helpers only it reaches."""
        files = {fa.path: fa for fa in analyses if not fa.errors and fa.syntax is not None}
        scripts = {p for p, fa in files.items() if fa.syntax is not None and fa.syntax.main_guard}
        # a root training file is one with or without a ``__main__`` guard (XMem's
        # ``train.py`` runs its loop at the top level)
        roots = {p for p in self._ported_entries() if "/" not in p and _TRAINING_NAME.search(p)}
        if not roots:
            return {}
        # relative imports too (``from . import networks_basic``): what a module refers to
        graph = _reference_graph(analyses, self._imports)
        core = roots | _closure(roots, graph)
        found: dict[str, str] = {}
        for path in sorted(self._ported_entries() & scripts - core):
            trains_itself = any(trains(u.api) for u in files[path].uses)
            reached = _closure({path}, graph)
            if "/" in path and _tool_folder(path):
                if trains_itself or not reached & self.keep & core:
                    found[path] = "tools"
                continue
            if "/" in path or trains_itself or reached & self.keep & core:
                continue
            found[path] = "tools"
        tools = found.keys() | {
            p
            for p, w in self._why.items()
            if (w == "tools" or w.startswith(SUPERSEDED)) and "/" not in p
        }
        # a demo is such an entry too (XMem's ``interactive_demo.py`` and the click-based
        # segmentation networks of the GUI only it imports): what only demos reach is theirs
        demos = {p for p, w in self._why.items() if w == "demo" and p in files} - tools
        apart = self._why.keys() | tools
        only = _reached_only_from(
            tools | demos, core, apart, graph, set(files), scripts | self.keep
        )
        reach = {t: _closure({t}, graph, packages=True) for t in sorted(tools | demos)}
        for path in sorted(only):
            users = [t for t, reached in reach.items() if path in reached]
            # a module a tool uses goes with the tools; one only demos use, with the demos
            only_by = DEMOS_ONLY if users and set(users) <= demos else TOOLS_ONLY
            found[path] = f"{only_by} ({', '.join(users)})" if users else only_by
            self._recipes[path] = "tool"
        return found

    def _trained_tools(self, analyses: Sequence[FileAnalysis]) -> set[str]:
        """The files of a tools folder (``tools/``, ``scripts/``) that a ported training
        entry imports, directly or through the repository's modules: part of the port
        whatever their folder is named (pytorch-YOLOv4's ``tool/darknet2pytorch.py`` builds
        the ``Darknet`` model ``train.py`` trains by default, ``tool/yolo_layer.py`` is a
        layer of its head). Only the folder's reason is undone: a file named for a demo or
        an export, or adapting the model to another framework, stays apart."""
        entries = self._ported_entries()
        if not entries:
            return set()
        graph = _reference_graph(analyses, self._imports)
        reached = _closure(entries, graph)
        # importing ``tool.darknet2pytorch`` runs the package's ``tool/__init__.py`` first
        reached |= {
            str(folder / "__init__.py")
            for p in reached
            for folder in PurePosixPath(p).parents
            if folder != PurePosixPath(".")
        }
        return {
            p
            for p in reached
            if (_tool_folder(p) or _gui_folder(p))
            and self._why.get(p) == _folder_reason(p)
            and p not in entries
        }

    def _documented_tools(self, analyses: Sequence[FileAnalysis]) -> set[str]:
        """The scripts of a tools folder (``scripts/``, ``tools/``) that the documentation
        launches where it launches no training script: the way the repository tells its
        users to run the model (a text-to-image model's ``scripts/txt2img.py``, the only
        command of a README whose training loop ships undocumented). Such a script is the
        inference path to port, not a helper: only the folder's reason is undone (a file
        named for a demo or an export stays apart)."""
        if self._root is None:
            return set()
        if documented_scripts(self._root, self._scripts(analyses)):
            return set()
        runnable = {
            name: fa.path
            for fa in analyses
            if fa.syntax is not None
            and fa.syntax.main_guard
            and _tool_folder(fa.path)
            and self._why.get(fa.path) == _folder_reason(fa.path)
            for name in (*fa.modules, fa.path)
        }
        if not runnable:
            return set()
        return set(documented_scripts(self._root, runnable))

    def _hub_reach(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The modules that only the repository's torch.hub entry points reach (DINOv2's
        ``dinov2/hub/``: the builders ``hubconf.py`` exposes, with depth and text heads no
        training builds): counted apart with ``hubconf.py``, as what only tools reach goes
        with the tools. A module any ported file reaches stays ported (the backbone those
        builders wrap); where nothing trains, the hub builders may be the model's only
        entry, so nothing changes."""
        entries = self._ported_entries()
        hub = ANCILLARY_FILES["hubconf.py"]
        hubs = {p for p, why in self._why.items() if why == hub}
        if not entries or not hubs:
            return {}
        graph = _reference_graph(analyses, self._imports)
        core = entries | _closure(entries, graph, packages=True)
        files = {fa.path for fa in analyses if not fa.errors and fa.syntax is not None}
        scripts = {fa.path for fa in analyses if fa.syntax is not None and fa.syntax.main_guard}
        only = _reached_only_from(hubs, core, self._why.keys(), graph, files, scripts | self.keep)
        return dict.fromkeys(sorted(only), HUB_ONLY)

    def _adapter_reach(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The modules that only adapters for another framework reach (a Gluon training
        script's augmentation helpers beside the torch package, importing no framework
        themselves): counted apart with the adapters, as what only tools reach goes with the
        tools. A module any ported file reaches stays ported."""
        entries = self._ported_entries()
        adapters = {p: w for p, w in self._why.items() if w.startswith(ADAPTER)}
        if not entries or not adapters:
            return {}
        graph = _reference_graph(analyses, self._imports)
        core = entries | _closure(entries, graph, packages=True)
        files = {fa.path for fa in analyses if not fa.errors and fa.syntax is not None}
        scripts = {fa.path for fa in analyses if fa.syntax is not None and fa.syntax.main_guard}
        only = _reached_only_from(
            set(adapters), core, self._why.keys(), graph, files, scripts | self.keep
        )
        found: dict[str, str] = {}
        for path in sorted(only):
            reach = {a for a in adapters if path in _closure({a}, graph, packages=True)}
            frameworks = sorted(
                {
                    f
                    for a in reach
                    for f in adapters[a].removeprefix(ADAPTER).split("(")[0].split(",")
                    if f.strip()
                }
            )
            found[path] = f"used only by adapters for {', '.join(f.strip() for f in frameworks)}"
        return found

    def _evaluation_reach(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """The files of evaluation folders at any depth (DINOv2's ``dinov2/eval/``: linear
        and k-NN probes, depth and segmentation heads; ``dinov2/run/eval/``) that no ported
        entry outside them reaches: counted apart as "evaluation", as a top-level
        ``evaluation/`` package is (:meth:`_tools`), with the probes' own training scripts
        (a linear probe's SGD is no recipe of the model). An evaluation package the training
        reaches (detectron2's ``evaluation/``, which its trainer runs) stays ported; where
        every training entry is evaluation code, nothing changes."""
        entries = {p for p in self._ported_entries() if not evaluation_folder(p)}
        if not entries:
            return {}
        graph = _reference_graph(analyses, self._imports)
        core = entries | _closure(entries, graph, packages=True)
        return {
            fa.path: "evaluation"
            for fa in analyses
            if evaluation_folder(fa.path)
            and fa.path not in core
            and fa.path not in self._why
            and not fa.errors
        }

    def _unimported_packages(
        self,
        files: Sequence[FileAnalysis],
        graph: dict[str, set[str]],
        used_folders: set[PurePosixPath],
    ) -> list[str]:
        """The ``__init__.py`` of a subpackage that nothing imports, neither it nor any module
        below its folder from outside (importing one would run it), beside modules of its
        parent package that are imported (semantic-segmentation-pytorch's
        ``lib/utils/data/``: a copy of an old torch ``DataLoader`` that no file imports, the
        training using torch's own): the training never runs it."""
        found: list[str] = []
        for fa in files:
            path = PurePosixPath(fa.path)
            folder = path.parent
            if (
                path.name != "__init__.py"
                or len(path.parts) < 3
                or folder.parent not in used_folders
                or fa.path in self._why
                or fa.path in self.keep
                or fa.path in self._declared
            ):
                continue
            reached = any(
                target == fa.path or folder in PurePosixPath(target).parents
                for source, targets in graph.items()
                if source != fa.path and folder not in PurePosixPath(source).parents
                for target in targets
            )
            if not reached:
                found.append(fa.path)
        return found

    def _unimported(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Modules of a package that nothing imports (YOLOP's ``lib/core/activations.py``
        beside the ``lib/core/`` modules the training imports): not scripts (a package's
        module whose ``__main__`` block tries it out is no script), not a
        package's ``__init__.py``, in a folder another of whose modules is imported. A module
        defining torch.nn Modules whose ``__main__`` only tries them out (YOLOP's
        ``lib/models/light.py``, a variant of the model no script builds) is no script: its
        self-test runs nothing of the training. A module registering models by decorator
        (T2T-ViT's ``models/vit.py``: ``@register_model`` over timm's registry) registers
        them only when something imports it: nothing does, so no registry look-up builds
        them. Where the repository loads modules by name (``importlib``, ``pkgutil``,
        ``__import__``: YOLOX's experiment files, a registry importing its package's
        modules), only the modules of a package that lists its modules itself: its
        ``__init__.py`` imports some of them by name and no file of its folder loads any by
        name (fairseq's ``modules/kmeans_attention.py`` beside the layers ``modules/
        __init__.py`` imports, while the model and task registries load their own folders'
        modules by name): a package's load by name scans its own folder, or a folder a
        user names (:func:`_listed_packages`). None where a ported script outside any
        package loads by name (``__import__(args.model)``: any module its user names)."""
        files = [fa for fa in analyses if not fa.errors and fa.syntax is not None]
        loaders = {
            fa.path
            for fa in files
            if any(n.partition(".")[0] in _LOADS_BY_NAME for _, n in fa.syntax.imports)
        } | {
            fa.path
            for fa, facts in with_facts(analyses)
            if facts.values is not None
            and any(c.expr.callee() == "__import__" for c in facts.values.calls)
        }
        packages = {
            PurePosixPath(fa.path).parent
            for fa in files
            if PurePosixPath(fa.path).name == "__init__.py"
        }
        # a ported script outside any package loading by name (``__import__(args.model)``)
        # may load whatever module its user names: every module stays
        if any(PurePosixPath(p).parent not in packages and p not in self._why for p in loaders):
            return {}
        graph = _reference_graph(analyses, self._imports)
        listed = _listed_packages(files, graph, loaders) if loaders else None
        if listed is not None and not listed:
            return {}
        imported = {t for targets in graph.values() for t in targets}
        used_folders = {PurePosixPath(p).parent for p in imported}
        if listed is not None:
            used_folders &= listed
        # a package's module with a ``__main__`` block that nothing imports tries itself out
        # (YOLOP's ``lib/models/light.py`` building its own MCnet): no script, since the
        # training never reaches it; a script lives in a folder that is no package
        # a model file at the root that no file imports and that runs nothing itself (DeiT's
        # ``patchconvnet_models.py`` beside the ``models.py`` its ``main.py`` imports): the
        # training never builds its models, where there is a training to tell it by (a root
        # module of a library with no training is what users import)
        trains = bool(self._ported_entries())
        # a package's training-step module that nothing imports and that runs nothing itself
        # (a vendored detector's ``train_utils/train_eval_utils.py`` whose training script
        # was left out), beside a training script of the repository's own that runs: its
        # step never runs, the step is the script's
        scripts = {
            fa.path
            for fa in files
            if fa.path in self.keep and fa.syntax.main_guard and fa.path not in self._why
        }
        orphans = {
            fa.path
            for fa in files
            if scripts
            and fa.path in self.keep
            and fa.path not in scripts
            and not fa.syntax.main_guard
            and PurePosixPath(fa.path).parent in packages
            and fa.path not in imported
            and any(_trains_api(u.api) for u in fa.uses)
        }
        # a package's module that the documented training command runs (Real-ESRGAN's
        # ``python realesrgan/train.py -opt ...``, handing the loop to basicsr) is the
        # training's entry, however little of it any file imports
        launched = training_commands_scripts(self._root) if self._root is not None else ()
        candidates: list[str] = []
        for fa in files:
            path = PurePosixPath(fa.path)
            root_model = trains and not fa.syntax.main_guard and _defines_modules(fa)
            if (
                fa.path in self._why
                or (fa.syntax.main_guard and fa.path in launched)
                or (fa.path in self.keep and fa.path not in orphans)
                or fa.path in self._declared
                or (
                    fa.syntax.main_guard
                    and not _defines_modules(fa)
                    and path.parent not in packages
                )
                or path.suffix != ".py"
                or path.name == "__init__.py"
                or (len(path.parts) == 1 and not root_model)
                or path.parent not in used_folders
            ):
                continue
            candidates.append(fa.path)
        found = {p: UNIMPORTED for p in candidates if p not in imported}
        found.update(
            dict.fromkeys(self._unimported_packages(files, graph, used_folders), UNIMPORTED)
        )
        # then the modules only those import (the helpers of an unused model file), as
        # :func:`unreached` follows the files only its unreached ones import
        importers: dict[str, set[str]] = {}
        for path, targets in graph.items():
            for target in targets:
                importers.setdefault(target, set()).add(path)
        # and the modules of an unimported subpackage that only its ``__init__.py`` imports
        unused_packages = {PurePosixPath(p).parent for p in found if p.endswith("__init__.py")}
        packaged = [
            fa.path
            for fa in files
            if fa.path not in found
            and fa.path not in candidates
            and fa.path not in self.keep
            and fa.path not in self._why
            and unused_packages & set(PurePosixPath(fa.path).parents)
        ]
        changed = True
        while changed:
            changed = False
            for path in candidates + packaged:
                users = importers.get(path, set()) - {path}
                if path in found or not users or not users <= found.keys():
                    continue
                found[path] = f"unused (imported only from {sorted(users)[0]})"
                changed = True
        return found

    def _unrun_scripts(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Scripts the training never runs: a file run as ``python x.py`` (a ``__main__``
        block, options parsed at its top level) outside a tools folder, that trains nothing
        (no training entry), that no file imports and the training entries do not reach,
        and that defines no torch Module (a model file's self-test is the model's). A
        dataset's download and tokenizing script, or one evaluating a reference model on a
        benchmark (llm.c's ``dev/data/hellaswag.py``: HellaSwag rendered to tensors and scored
        with a Hugging Face GPT-2) runs beside the training, on the host or on the original
        framework: counted apart, with its work items. Never where the repository loads its
        modules by name (``importlib``: an experiment file the launcher imports)."""
        files = [fa for fa in analyses if not fa.errors and fa.syntax is not None]
        if any(n.partition(".")[0] in _LOADS_BY_NAME for fa in files for _, n in fa.syntax.imports):
            return {}
        graph = _reference_graph(analyses, self._imports)
        entries = self._ported_entries()
        core = entries | _closure(entries, graph, packages=True)
        imported = {t for source, targets in graph.items() for t in targets if t != source}
        return {
            fa.path: UNRUN_SCRIPT
            for fa in files
            if "/" in fa.path
            and fa.path not in self._why
            and fa.path not in self.keep
            and fa.path not in self._declared
            and fa.path not in core
            and fa.path not in imported
            and not _defines_modules(fa)
            and _runs_as_script(fa)
        }

    def _undocumented_trainings(
        self, analyses: Sequence[FileAnalysis], entry: str, scripts: Mapping[str, str]
    ) -> dict[str, str]:
        """Training scripts beside the documented entry (:func:`documented_entry`) that no
        documentation launches and that share none of the repository's modules with it,
        neither importing the other: another model's training kept in the repository
        (llm.c's ``train_llama3.py`` beside ``train_gpt2.py``, the one its README runs, each
        self-contained). Counted apart as another task; a training sharing the entry's
        modules (a fine-tuning, a linear probe) stays ported, as does any the documentation
        launches (:func:`documented_scripts`)."""
        if self._root is None:
            return {}
        documented = documented_scripts(self._root, scripts) | {entry}
        graph = _reference_graph(analyses, self._imports)
        reach = {entry} | _closure({entry}, graph, packages=True)
        found: dict[str, str] = {}
        for path in sorted(set(scripts.values()) - documented):
            if path in self._why or path not in self._ported_entries():
                continue
            theirs = {path} | _closure({path}, graph, packages=True)
            if theirs & reach:
                continue
            found[path] = f"{OTHER_TASK} ({path}: its own model, not launched by the documentation)"
        return found

    def _configure(
        self, analyses: Sequence[FileAnalysis], entry: str, scripts: Mapping[str, str]
    ) -> None:
        """The Python config files the documented training commands name (``train.py -f
        exps/example/mot/x.py``: an experiment module the launcher loads by path) are the
        run's configuration, ported wherever they lie (an ``example`` folder); where every
        such command names one, the files like them that none names, that nothing imports
        and that define the same module-level class the named ones do (the launcher's
        ``module.Exp()``: another experiment's ``exps/default/yolov3.py``) are configurations
        the run never loads, counted apart with what only they build."""
        if self._root is None:
            return
        modules = [m for m, p in scripts.items() if p == entry and not m.endswith(".py")]
        named: set[str] = set()
        every = True
        for launch in launches(self._root, entry, modules):
            words = [w.partition("=")[2] if "=" in w else w for w in launch.words]
            given = {os.path.normpath(w.removeprefix("./")) for w in words if w.endswith(".py")}
            every = every and bool(given)
            named |= given & self._read
        if not named:
            return
        for path in named:
            why = self._why.get(path, "")
            if (
                why
                and why != "tests"
                and not why.startswith(ADAPTER)
                and path not in self._vendored
            ):
                del self._why[path]
                self._recipes.pop(path, None)
        self.configs = frozenset(named)
        if not every:
            return
        files = {fa.path: fa for fa in analyses if not fa.errors and fa.syntax is not None}

        def tops(path: str) -> set[str]:
            return {c.qualname for c in files[path].classes if "." not in c.qualname}

        classes = set().union(*(tops(p) for p in named if p in files))
        graph = _reference_graph(analyses, self._imports)
        imported = {t for source, targets in graph.items() for t in targets if t != source}
        # (a config subclassing the library's experiment reaches the training step through
        # its base: kept as an entry, though no command loads it)
        unloaded = {
            path
            for path, fa in files.items()
            if path not in named
            and path not in self._why
            and path not in imported
            and not fa.syntax.main_guard
            and tops(path) & classes
        }
        self._why.update(dict.fromkeys(unloaded, UNLAUNCHED))
        self.keep -= unloaded

    def _copies(self, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
        """Ported files that are copies of another ported file (Depth-Anything-V2's
        ``metric_depth/depth_anything_v2/`` repeats ``depth_anything_v2/`` file for file):
        ported once, so every copy of the shallowest one is counted apart. Copies
        are told by their records, not their text: the same file name, length and torch uses
        at the same places."""
        first: dict[tuple[object, ...], str] = {}
        copies: dict[str, str] = {}
        # the shallowest file is the original (``pkg/`` before ``metric/pkg/``)
        for fa in sorted(analyses, key=lambda fa: (len(PurePosixPath(fa.path).parts), fa.path)):
            if fa.errors or not fa.uses or fa.path in self._why or fa.path in self.keep:
                continue
            key = (
                PurePosixPath(fa.path).name,
                fa.lines,
                tuple((u.api, u.span.line, u.span.column) for u in fa.uses),
                tuple(c.qualname for c in fa.classes),
            )
            if key in first:
                copies[fa.path] = f"copy of {first[key]}"
            else:
                first[key] = fa.path
        return copies

    def _classify(self, path: str, facts: SyntaxFacts, local: set[str]) -> str:
        if (is_test_path(path) and not _script_named_test(path, facts)) or _op_check(path, facts):
            return "tests"
        if self.patterns is not None:
            hit = next((p for p in self.patterns if path_matches(path, p)), None)
            return f"matches {hit!r}" if hit else ""
        # a framework imported only inside a function of a file defining torch Modules is an
        # optional converter of the network, not an adapter of it (timm's vision_transformer.py
        # imports jax in the helper reading Flax checkpoints)
        # a framework imported only in a ``try:`` that survives its absence (DLRM's
        # ``try: import onnx`` beside the model and its training loop, for an optional
        # export) is optional to the network too: the file runs without it
        lazy = (
            set(facts.lazy_imports) | set(facts.optional_packages)
            if path in self._torch_modules
            else set()
        )
        # a framework used only to write training logs (stargan's TensorBoard logger through
        # ``tf.summary.FileWriter``) adapts nothing: the logger is the training's own
        logs = {top for top, names in facts.package_uses if names and all(map(_logging, names))}
        # a framework imported and never used (a notebook's ``try: import tensorflow`` kept
        # for a hosted runtime's protobuf pins) adapts nothing either
        unused = {top for top, names in facts.package_uses if not names}
        foreign = sorted(
            {
                top
                for _, name in facts.imports
                if (top := name.partition(".")[0]) in FOREIGN_FRAMEWORKS
                and top not in local
                and top not in lazy
                and top not in logs
                and top not in unused
                and top not in self._trained_with
            }
        )
        if foreign:  # a training script for detectron2 trains the adapter, not the model
            return f"{ADAPTER} {', '.join(foreign)}"
        parts = PurePosixPath(path).parts
        # a plotting module that steps a scheduler to draw it (yolov9's utils/plots.py:
        # plot_lr_scheduler) uses torch.optim, but trains nothing
        if any(path_matches(parts[-1].lower(), p) for p in _PLOTTING):
            return "plotting"
        if self._notebook_apart(path):  # in its folder's reason (examples/) if it has one
            folder = _dirs_reason(parts[:-1])
            return folder or ANCILLARY_FILES["*.ipynb"]
        if path in self.keep and not any(dir_reason(d) in _SIDE_REASONS for d in parts[:-1]):
            return ""  # the training step in tools/ or scripts/ is ported
        for pattern, why in ANCILLARY_FILES.items():  # tools/demo.py is a demo
            if path_matches(parts[-1].lower(), pattern):
                folder = _dirs_reason(parts[:-1])
                if why == "notebook" and folder:  # demo/visualize.ipynb: a demo
                    return folder
                return why
        folder = _dirs_reason(parts[:-1])
        if not folder and path not in self.keep and _gui_script(facts):
            return ANCILLARY_DIRS["demo"]
        return folder

    def _notebook_apart(self, path: str) -> bool:
        """A notebook is counted apart even when it trains (SimCLR's
        ``feature_eval/*.ipynb`` fits a linear probe and loads a checkpoint) wherever a
        module trains too: its cells are an experiment beside the training, not the code
        ported. Where only notebooks train, they are the training."""
        if path not in self.keep or not path_matches(PurePosixPath(path).name.lower(), "*.ipynb"):
            return False
        return any(not path_matches(p.lower(), "*.ipynb") for p in self.keep)

    def count_apart(self, found: dict[str, str]) -> None:
        """Count apart more files, with why (:func:`unreached`: what no shipped config
        selects). Configured ``patterns`` replace every built-in reason, these too: a lead
        who lists what is counted apart is not second-guessed."""
        if self.patterns is None:
            for path, why in found.items():
                if path not in self.keep and path not in self.configs:
                    self._why.setdefault(path, why)

    @property
    def built_on(self) -> frozenset[str]:
        """The frameworks the repository is built on (every training file imports them:
        :func:`_training_frameworks`), whose files are no adapters."""
        return frozenset(self._trained_with)

    def why(self, path: str) -> str:
        """Why ``path`` is counted apart; "" when it is ported. A file the review does not
        read (a visualiser's ``.cpp``) is told by its folders, or the configured patterns."""
        if path in self._why or path in self._read:
            return self._why.get(path, "")
        if self.patterns is not None:
            hit = next((p for p in self.patterns if path_matches(path, p)), None)
            return f"matches {hit!r}" if hit else ""
        parts = PurePosixPath(path).parts
        if len(parts) > 1 and parts[0] in self._adapter_dirs:
            return self._adapter_dirs[parts[0]]
        return _dirs_reason(parts[:-1])

    def documented_script(self) -> str:
        """The path of the script the documented training command runs, "" when none is
        known (:attr:`~apiscan.review.readings.Readings.documented_run`)."""
        if self._readings is None:
            return ""
        run = self._readings.documented_run
        return run.script if run is not None else ""

    def other_recipe(self, path: str) -> str:
        """Whose recipe the training facts of ``path`` are, when not this one's: "tool" (a
        root-level tool beside the training script: stylegan2's ``projector.py`` optimizes a
        latent with its own Adam; a script nothing imports: fairseq's ``generate.py``),
        "task" (another task's folder: yolov9's ``classify/``); "" otherwise. The recipe
        reads it from here (one home for which files are which product's)."""
        return self._recipes.get(path, "")

    def apart(self, path: str) -> str:
        """Why ``path`` is counted apart and its code goes with it ("" for a ported file, and
        for a variant, priced as a delta of its ported sibling)."""
        why = self.why(path)
        return "" if why.startswith(VARIANT) else why

    def listing(self) -> tuple[tuple[str, str], ...]:
        """(path, why) of every file counted apart, tests left out (they are never ported)."""
        return tuple((p, w) for p, w in sorted(self._why.items()) if w != "tests")


#: A framework's logging API by a part of its dotted name (``tensorflow.summary.FileWriter``,
#: ``tensorflow.Summary.Value``, ``tensorboardX``).
_LOGGING_PART = re.compile(r"^(summary|tensorboard\w*|logging)$", re.IGNORECASE)


#: The reasons of folders that hold a repository's helper code (``tools/``, ``scripts/``):
#: what the training reaches there is ported, what only another entry there reaches is not.
_TOOL_REASONS = frozenset({"tools", "scripts"})


def _folder_reason(path: str) -> str:
    """Why ``path`` is counted apart by its folders alone (:data:`ANCILLARY_DIRS`), or ""."""
    return _dirs_reason(PurePosixPath(path).parts[:-1])


def _gui_script(facts: SyntaxFacts) -> bool:
    """Whether a file is a script (a ``__main__`` block) that imports a GUI or web-demo
    toolkit (:data:`~apiscan.review.roles.GUI_TOOLKITS`): it drives an interactive
    application around the trained model, which trains nothing; what only it reaches goes
    with the demos."""
    return facts.main_guard and any(
        name.partition(".")[0] in GUI_TOOLKITS for _, name in facts.imports
    )


def _gui_folder(path: str) -> bool:
    """Whether ``path`` lies in an interactive application's folder
    (:data:`~apiscan.review.roles.GUI_DIRS`: ``gui/``, ``interactive/``)."""
    return any(part.lower() in GUI_DIRS for part in PurePosixPath(path).parts[:-1])


def _tool_folder(path: str) -> bool:
    """Whether ``path`` lies in a folder of helper code (``tool/``, ``tools/``, ``scripts/``)."""
    return _folder_reason(path) in _TOOL_REASONS


def _logging(name: str) -> bool:
    """Whether a dotted name used from a framework is its logging API."""
    return any(_LOGGING_PART.match(part) for part in name.split(".")[1:])


#: ``name = package.module:function`` of a console script, as setup.py's ``entry_points``
#: writes it.
_SCRIPT_SPEC = re.compile(r"^\s*([\w.-]+)\s*=\s*([A-Za-z_][\w.]*)\s*:\s*[A-Za-z_][\w.]*\s*$")


def declared_entry_points(root: Path | None, analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The files the packaging declares as commands (:func:`console_scripts`). Such a module
    is run by its command, not imported: an entry point, never "unused"."""
    return frozenset(console_scripts(root, analyses).values())


def console_scripts(root: Path | None, analyses: Sequence[FileAnalysis]) -> dict[str, str]:
    """Each command the packaging declares -> the file it runs: ``[project.scripts]``,
    ``[project.gui-scripts]`` and ``[tool.poetry.scripts]`` of the root's ``pyproject.toml``
    (PyTorch-YOLOv3's ``yolo-detect = "pytorchyolo.detect:run"``), and the ``name =
    module:function`` strings of setup.py's ``entry_points`` (read from its value records:
    ``fairseq-train = fairseq_cli.train:cli_main``)."""
    specs: list[str] = []
    pyproject = root / "pyproject.toml" if root is not None else None
    if pyproject is not None and pyproject.is_file():
        import tomllib

        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            data = {}
        project = data.get("project", {})
        poetry = data.get("tool", {}).get("poetry", {})
        for table in (
            project.get("scripts", {}) if isinstance(project, dict) else {},
            project.get("gui-scripts", {}) if isinstance(project, dict) else {},
            poetry.get("scripts", {}) if isinstance(poetry, dict) else {},
        ):
            if isinstance(table, dict):
                specs += [f"{k} = {v}" for k, v in table.items() if isinstance(v, str)]
    for fa, facts in with_facts(analyses):
        if PurePosixPath(fa.path).name != "setup.py" or facts.values is None:
            continue
        for call in facts.values.calls:
            specs += [
                e.value
                for e in call.expr.walk()
                if e.kind == "Constant" and isinstance(e.value, str)
            ]
    named = {hit.group(1): hit.group(2) for spec in specs if (hit := _SCRIPT_SPEC.match(spec))}
    by_module = {m: fa.path for fa in analyses for m in fa.modules}
    return {name: by_module[m] for name, m in named.items() if m in by_module}


#: Folders that hold copies of other projects, each child one project (``third_party/x/``).
_THIRD_PARTY_DIRS = frozenset(
    {"third_party", "third-party", "thirdparty", "3rdparty", "external", "externals"}
    | {"extern", "vendor", "vendored"}
)


def vendored_dirs(analyses: Sequence[FileAnalysis]) -> tuple[str, ...]:
    """The folders that hold a copy of another repository: a folder below the root with its
    own ``hubconf.py`` (a torch.hub repository checked in, often under torch.hub's cache
    name ``owner_repo_branch``: Depth-Anything's ``torchhub/facebookresearch_dinov2_main/``,
    loaded with ``torch.hub.load(..., source='local')``), and each folder in a
    ``third_party/``, ``external/`` or ``vendor/`` folder. The outermost one when they nest
    (DINOv2's own ``thirdparty/CLIP/`` is part of the DINOv2 copy). The root's own
    ``hubconf.py`` is the repository's entry points, never a copy."""
    found: set[PurePosixPath] = set()
    for fa in analyses:
        path = PurePosixPath(fa.path)
        if path.name == "hubconf.py" and len(path.parts) > 1:
            found.add(path.parent)
        for i, part in enumerate(path.parts[:-2]):
            if part.lower() in _THIRD_PARTY_DIRS:
                found.add(PurePosixPath(*path.parts[: i + 2]))
                break
    outer = {d for d in found if not any(o != d and o in d.parents for o in found)}
    return tuple(sorted(str(d) for d in outer))


def _in_dir(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")


def _local_hub_dir(args: Sequence[str], keywords: dict[str, str], dirs: Sequence[str]) -> str:
    """The vendored folder a ``torch.hub.load(DIR, ..., source='local')`` loads from: the one
    whose path ends the literal ``DIR`` (``'../torchhub/x'`` from a subfolder, an absolute
    path on the author's machine); "" for a hub repository on GitHub or a name."""
    if keywords.get("source", "").strip("'\"") != "local" or not args:
        return ""
    literal = args[0]
    if literal[:1] not in ("'", '"') or literal[-1:] != literal[:1]:
        return ""
    parts = [p for p in literal[1:-1].split("/") if p not in ("", ".", "..")]
    for folder in dirs:
        mine = folder.split("/")
        if parts and mine[-len(parts) :] == parts[-len(mine) :]:
            return folder
    return ""


def vendored_apart(analyses: Sequence[FileAnalysis]) -> dict[str, str]:
    """The files of the vendored copies (:func:`vendored_dirs`) that the repository's own
    code never reaches, with why (``vendored <folder name>``). What its files import, refer
    to or load with a local ``torch.hub.load`` (its hub entry point, then the model and the
    layers that entry point imports) is ported with the network; the rest (the copy's
    training loop, losses, data pipeline, evaluation, FSDP wrappers) is that project's code,
    not this one's: counted apart, its recipe not this repository's."""
    dirs = vendored_dirs(analyses)
    if not dirs:
        return {}
    graph = _reference_graph(analyses, _import_graph(analyses))
    inside = {fa.path: folder for fa in analyses for folder in dirs if _in_dir(fa.path, folder)}
    own = [fa.path for fa in analyses if fa.path not in inside and not is_test_path(fa.path)]
    reached = _closure(own, graph, packages=True)
    return {
        path: f"{VENDORED} {PurePosixPath(folder).name}"
        for path, folder in sorted(inside.items())
        if path not in reached
    }


#: Why a package's module that nothing imports is counted apart.
UNIMPORTED = "unused (nothing imports it)"
#: Modules that load other modules by name: a module nothing imports may still be loaded.
_LOADS_BY_NAME = frozenset({"importlib", "pkgutil", "imp"})


def _listed_packages(
    files: Sequence[FileAnalysis], graph: Mapping[str, set[str]], loaders: Collection[str]
) -> set[PurePosixPath]:
    """The package folders that list their modules themselves: the ``__init__.py`` imports
    some of the folder's modules by name (``graph``: what each file imports or refers to),
    and no file of the folder (``loaders``: the files loading modules by name) imports
    modules by name, so no scan of its own loads the others."""
    loading = {PurePosixPath(p).parent for p in loaders}
    found: set[PurePosixPath] = set()
    for fa in files:
        path = PurePosixPath(fa.path)
        if path.name != "__init__.py" or path.parent in loading:
            continue
        if any(
            PurePosixPath(t).parent == path.parent and t != fa.path for t in graph.get(fa.path, ())
        ):
            found.add(path.parent)
    return found


def _defines_modules(fa: FileAnalysis) -> bool:
    """Whether the file defines a class derived from a torch.nn class (a model module)."""
    return any(base.startswith("torch.nn.") for c in fa.classes for base in c.bases)


#: Why the files of another product of the repository are counted apart (:meth:`Ancillary.
#: _other_tasks`, :meth:`Ancillary._undocumented_trainings`).
OTHER_TASK = "other task"

#: Why a script the training never runs is counted apart (:meth:`Ancillary._unrun_scripts`).
UNRUN_SCRIPT = "script the training does not run (data preparation, evaluation...)"
#: Why a config module no documented training command loads is counted apart.
UNLAUNCHED = "configuration the documented training does not load"
#: Why a module an option picks by name that no value of the run names is counted apart.
UNPICKED = "alternative no documented run picks"

#: Why a module that only root-level tools import is counted apart (with the tools).
TOOLS_ONLY = "used only by tools"
#: ... and one that only demos import (an interactive GUI's networks): counted with them.
DEMOS_ONLY = "used only by demos"
#: ... and one that only the torch.hub entry points reach (their builders and heads).
HUB_ONLY = "used only by torch.hub entry points"
#: Why an older copy of a ported training script is counted apart: ``older copy of
#: train.py`` (:meth:`Ancillary._superseded`).
SUPERSEDED = "older copy of"
#: The words of a script's name that mark it as an older copy of another.
_OLD_WORDS = frozenset({"legacy", "old", "deprecated", "obsolete", "outdated"})
#: Why a variant of a ported file is counted apart: ``variant of train.py``.
VARIANT = "variant of"
#: ... and when no ported file nor variant imports it (a superseded copy: yolov9's
#: ``utils/loss.py``, imported only by the other tasks' losses): nothing to port.
UNUSED = "(no ported file or variant imports it)"


def _named_variant(base: str, path: str) -> bool:
    """Whether ``path`` is named as a variant of ``base`` in the same folder
    (``train_dual.py`` of ``train.py``, ``loss_tal.py`` of ``loss.py``)."""
    b, p = PurePosixPath(base), PurePosixPath(path)
    return (
        b.parent == p.parent and b.suffix == p.suffix == ".py" and p.stem.startswith(b.stem + "_")
    )


#: A training script by its name (``train.py``, ``train_dual.py``, ``image_train.py``).
_TRAINING_NAME = re.compile(r"(^|[^a-z])train")


def _entry_rank(path: str) -> tuple[bool, int, str]:
    """Which of two copies of a script is the one ported: a training script by its name,
    then the shorter path."""
    return (not _TRAINING_NAME.search(PurePosixPath(path).stem), len(path), path)


#: Two scripts whose torch uses agree at this share of their places are one script copied.
_COPIED_SHARE = 0.95


def _near_copy(a: FileAnalysis, b: FileAnalysis) -> bool:
    """Whether ``b`` is ``a`` copied with a few lines changed: the same folder, about the
    same length, and the torch APIs used at the same lines, all but a few (an import of
    another dataset loader under the same name, a changed default). Told by the scan's
    records, as :meth:`Ancillary._copies` tells whole copied files."""
    if PurePosixPath(a.path).parent != PurePosixPath(b.path).parent or not a.lines:
        return False
    if abs(a.lines - b.lines) > max(2, a.lines // 50):
        return False
    ua = {(u.api, u.span.line) for u in a.uses}
    ub = {(u.api, u.span.line) for u in b.uses}
    return bool(ua) and len(ua & ub) >= _COPIED_SHARE * max(len(ua), len(ub))


def _side_recipes(
    analyses: Sequence[FileAnalysis],
    entries: Sequence[str] = (),
    steps: Collection[str] = (),
    launched: Collection[str] = (),
) -> dict[str, str]:
    """The scripts whose training facts are another recipe's, where the repository's root
    holds a training script, though they stay ported: any script nothing imports beside the
    training ones ("tool": fairseq's ``fairseq_cli/generate.py`` seeds and halves its own
    run, yolov9's ``utils/loggers/comet/hpo.py`` has its own options), and the files under a
    top-level folder holding its own training script ("task": yolov9's ``classify/``).
    ``entries``: the training script the documentation launches
    (:func:`~apiscan.review.commands.documented_entry`), wherever it lives, then the scripts
    of its earlier stages (:func:`_earlier_stages`: DALL-E's ``train_vae.py`` before
    ``train_dalle.py``, each training its own model, so their rows are recipe too); then every other
    script it does not import is a tool (open_clip's ``scripts/*_probe.py``, its profiler,
    its ``legacy_main.py``), and so is what only those scripts import. ``steps``: the
    modules holding the training step (an optimizer built, a backward pass); where the entry
    reaches none of them, it hands the training to a framework that builds the model from
    its config (latent-diffusion's ``main.py``: ``instantiate_from_config``, then
    ``trainer.fit``): what those modules reach is the entry's too, the model it trains, and
    only the other scripts themselves are tools (a module only they import statically may be
    one the config names: a conditioning encoder). ``launched``: the training scripts the
    documentation runs (:func:`~apiscan.review.commands.documented_scripts`); where it names
    no one entry, each is a training of its own whatever its name (BLIP's ``pretrain.py``
    beside its ``train_*.py`` fine-tunings), never a tool."""
    analyses = [fa for fa in analyses if not is_test_path(fa.path)]
    if entries:
        graph = _reference_graph(analyses, _import_graph(analyses))
        reach = _closure(set(entries), graph, packages=True) | set(entries)
        configured = bool(steps) and not reach & set(steps)
        if configured:
            reach |= _closure(steps, graph, packages=True) | set(steps)
        tools = {fa.path for fa in analyses if fa.path not in reach and _runs_as_script(fa, True)}
        if configured:  # any module may be what the config builds: the scripts alone
            return dict.fromkeys(sorted(tools), "tool")
        return dict.fromkeys(sorted(tools | _closure(tools, graph, packages=True) - reach), "tool")
    imported = imported_modules(analyses)
    # a script runs as ``python x.py``; another may still import it (yolov9's
    # ``panoptic/val.py`` imports from ``panoptic/train.py``)
    mains = {
        fa.path: any(m in imported for m in fa.modules)
        for fa in analyses
        if fa.syntax is not None and fa.syntax.main_block != (0, 0)
    }
    training = {p for p in mains if _TRAINING_NAME.search(PurePosixPath(p).name) or p in launched}
    if not any("/" not in p for p in training):
        return {}
    found = {p: "tool" for p, used in mains.items() if not used and p not in training}
    tasks = {p.partition("/")[0] for p in training if p.count("/") == 1}
    for fa in analyses:
        if fa.path not in found and tasks & set(PurePosixPath(fa.path).parts[:-1]):
            found[fa.path] = "task"
    return found


def _runs_as_script(fa: FileAnalysis, work_at_top: bool = False) -> bool:
    """A file run as ``python x.py``: a ``__main__`` block, or options parsed in its
    module-level code (T2T-ViT's ``transfer_learning.py``: ``args = parser.parse_args()``
    and its loop at the top level, no guard). ``work_at_top``: a ``for`` loop in its
    module-level code counts too (a data-preparation script copying a dataset's files into
    folders and seeding its split, no guard, no options): for a file the training entry does
    not reach, where a library module's top-level loop would not run anyway."""
    syntax = fa.syntax
    if syntax is None:
        return False
    if syntax.main_block != (0, 0):
        return True
    values = syntax.values
    return values is not None and (
        any(
            c.function < 0 and c.expr.callee().rpartition(".")[2] == "parse_args"
            for c in values.calls
        )
        or (work_at_top and any(loop.function < 0 for loop in values.loops))
    )


def _earlier_stages(
    analyses: Sequence[FileAnalysis], launched: Sequence[str], entry: str
) -> tuple[str, ...]:
    """Of the training scripts the documentation ``launched`` before ``entry``
    (:func:`~apiscan.review.commands.documented_stages`), those that train a model of their
    own that the entry then builds on: each builds one of the repository's torch Modules
    itself, and the entry builds all the stage's and more (DALL-E's ``train_vae.py`` builds
    ``DiscreteVAE``; ``train_dalle.py`` builds it again to load the trained weights, and
    ``DALLE`` on it). A second trainer of the entry's own model (a legacy main building the
    same network) is no stage, nor is a pretraining whose network the entry never builds
    (a linear evaluation on a torchvision backbone): their values are another run's."""
    built = _modules_built(analyses)
    own = built.get(entry, frozenset())
    return tuple(p for p in launched if built.get(p) and built[p] < own)


def _modules_built(
    analyses: Sequence[FileAnalysis], exports: bool = True
) -> dict[str, frozenset[str]]:
    """path -> the repository's torch Module classes its own calls build (themselves
    subclassing ``torch.nn`` or one of the repository's Modules), a package's re-export
    (``dalle_pytorch.DiscreteVAE``) named by its definition (``exports`` False: the
    call's own name only, as the adapter classification has always read it)."""
    modules = _module_classes(analyses)
    alias = {
        f"{m}.{name}": target
        for fa in analyses
        if exports and not fa.errors
        for m in fa.modules
        for name, target in fa.exports
    }

    def defined(name: str) -> str:
        for _ in range(4):  # a chain of re-exports, never a cycle
            if name in modules or alias.get(name, name) == name:
                break
            name = alias[name]
        return name

    found = {
        fa.path: frozenset(
            name for c in fa.calls if c.role == "call" and (name := defined(c.callee)) in modules
        )
        for fa in analyses
        if not fa.errors
    }
    return {p: names for p, names in found.items() if names}


def _module_builders(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The files that call one of the repository's torch Module classes (subclassing
    ``torch.nn`` directly or through the repository's own classes) at module or function
    level: they build the model."""
    return frozenset(_modules_built(analyses, exports=False))


def _module_classes(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The repository's torch Module classes (module.qualname): subclassing ``torch.nn``
    directly or through the repository's own classes."""
    bases = {
        f"{m}.{c.qualname}": c.bases
        for fa in analyses
        if not fa.errors
        for m in fa.modules
        for c in fa.classes
    }
    modules: set[str] = set()
    grown = True
    while grown:  # through the repository's own base classes (DPT → BaseModel → Module)
        grown = False
        for name, of in bases.items():
            if name not in modules and any(b.startswith("torch.nn.") or b in modules for b in of):
                modules.add(name)
                grown = True
    return frozenset(modules)


def _import_graph(analyses: Sequence[FileAnalysis]) -> dict[str, set[str]]:
    """path → the repository's files it imports (absolute imports, function level included),
    each import name resolved to the longest module of the repository it starts with. A
    ``from pkg.models import *`` imports that module as surely as a named import does (a
    training script taking its whole model file so): the import table leaves star imports
    out, the value records keep them."""
    by_module = {m: fa.path for fa in analyses if not fa.errors for m in fa.modules}
    files = set(by_module.values())
    graph: dict[str, set[str]] = {}
    for fa in analyses:
        if fa.errors or fa.syntax is None:
            continue
        out = graph.setdefault(fa.path, set())
        names = [name for _, name in fa.syntax.imports]
        if fa.syntax.values is not None:
            names += [_star_module(fa, *star) for star in fa.syntax.values.star_imports]
        for name in names:
            target = _module_file(name, by_module) if name else ""
            if target and target != fa.path:
                out.add(target)
                # importing a module runs the ``__init__.py`` of each package above it first
                # (ResNeSt's ``resnest.torch.models.build`` runs ``resnest/torch/__init__.py``,
                # whose star import registers the models the training builds by name)
                out.update(p for p in _parent_packages(target, files) if p != fa.path)
        # ``MODEL = importlib.import_module(FLAGS.model)`` (``--model`` defaulting to
        # ``votenet``) or ``import_module('votenet')``: the module the default names
        for name in _imported_by_name(fa):
            found = sorted(
                (m for m in by_module if m == name or m.endswith(f".{name}")),
                key=lambda m: (len(m), m),
            )
            target = by_module[found[0]] if found else ""
            if target and target != fa.path:
                out.add(target)
    return graph


def _imported_by_name(fa: FileAnalysis) -> list[str]:
    """The module names a file loads with ``importlib.import_module``: a literal argument,
    or the default of the file's own argparse option the argument reads (``FLAGS.model``,
    ``args.model``: the option ``--model``)."""
    facts = fa.syntax
    if facts is None or facts.values is None:
        return []
    imports = dict(facts.imports)
    options = {
        dest: default
        for dest, default, _ in (facts.models.options if facts.models is not None else ())
        if default
    }
    found: list[str] = []
    for call in facts.values.calls:
        if imported_name(call.expr, imports) != "importlib.import_module":
            continue
        args = call.expr.args
        if not args:
            continue
        arg = args[0]
        if arg.kind == "Constant" and isinstance(arg.value, str):
            found.append(arg.value)
        elif arg.kind == "Attribute" and arg.name in options:
            found.append(str(options[arg.name]))
    return found


def _parent_packages(path: str, files: Collection[str]) -> list[str]:
    """The ``__init__.py`` of each package above ``path`` among ``files`` (the repository's
    files), nearest first, up to the first folder that is no package."""
    found: list[str] = []
    for folder in PurePosixPath(path).parents:
        init = str(folder / "__init__.py")
        if folder == PurePosixPath(".") or init not in files:
            break
        if init != path:
            found.append(init)
    return found


def _star_module(fa: FileAnalysis, level: int, module: str) -> str:
    """The absolute module a ``from X import *`` of ``fa`` names (relative ones resolved
    against the file's own module), "" when a relative one climbs above it."""
    if not level:
        return module
    if not fa.modules:
        return ""
    base = fa.modules[0].split(".")
    package = base if PurePosixPath(fa.path).name == "__init__.py" else base[:-1]
    if level - 1 > len(package):
        return ""
    parts = package[: len(package) - (level - 1)]
    return ".".join([*parts, module] if module else parts)


def file_graph(analyses: Sequence[FileAnalysis]) -> dict[str, set[str]]:
    """path → the repository's files it imports or refers to, relative imports resolved:
    the one reading of which file uses which, for the review's parts outside this module
    (the recipe's "same run" test)."""
    return _reference_graph(analyses, _import_graph(analyses))


def _reference_graph(
    analyses: Sequence[FileAnalysis], imports: dict[str, set[str]]
) -> dict[str, set[str]]:
    """``imports`` (absolute imports) with the repository's names each file refers to,
    relative imports resolved (``from . import networks_basic``)."""
    graph = {path: set(targets) for path, targets in imports.items()}
    for path, target in _local_references(analyses):
        graph.setdefault(path, set()).add(target)
    for path, target in _local_hub_loads(analyses):
        graph.setdefault(path, set()).add(target)
    # modules loaded by a name an option spells (``import_module("models." + name +
    # "_model")``): the loader uses each of them
    for path, targets in _pattern_loads(analyses).items():
        graph.setdefault(path, set()).update(targets)
    return graph


def unasked_hub_weights(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The vendored ``hubconf.py`` files (:func:`vendored_dirs`) that every local
    ``torch.hub.load(DIR, ..., source='local')`` of the repository asks for no weights
    (``pretrained=False``, Depth-Anything's DINOv2: its own checkpoint holds the backbone's
    weights): the download its entry points make ``if pretrained:`` never runs, so it is no
    checkpoint to convert."""
    dirs = vendored_dirs(analyses)
    if not dirs:
        return frozenset()
    asked: dict[str, bool] = {}
    for fa, facts in with_facts(analyses):
        for call in facts.zoo_calls:
            if call.callee != "torch.hub.load":
                continue
            keywords = dict(call.keywords)
            folder = _local_hub_dir(call.args, keywords, dirs)
            if folder and not _in_dir(fa.path, folder):
                hub = f"{folder}/hubconf.py"
                off = keywords.get("pretrained", "True") in NEUTRAL_VALUES
                asked[hub] = asked.get(hub, False) or not off
    return frozenset(hub for hub, weights in asked.items() if not weights)


def _local_hub_loads(analyses: Sequence[FileAnalysis]) -> Iterator[tuple[str, str]]:
    """(file, the vendored ``hubconf.py`` it loads) for each ``torch.hub.load(DIR, ...,
    source='local')`` of a vendored copy (:func:`vendored_dirs`) made outside that copy: the
    entry point builds the backbone the file's model holds, so the entry point and what it
    imports are reached like an import (ported with the network, whoever else trains)."""
    dirs = vendored_dirs(analyses)
    if not dirs:
        return
    for fa, facts in with_facts(analyses):
        for call in facts.zoo_calls:
            if call.callee != "torch.hub.load":
                continue
            folder = _local_hub_dir(call.args, dict(call.keywords), dirs)
            if folder and not _in_dir(fa.path, folder):
                yield fa.path, f"{folder}/hubconf.py"


def trained_reach(analyses: Sequence[FileAnalysis], training: Iterable[str]) -> set[str]:
    """The repository files the training files reach through what they import and refer
    to (packages followed through their ``__init__.py``, the starts included), with the
    scripts (a ``__main__`` block) that import or refer to a training file as starts too:
    they run the training loop defined there and build the model it trains (improved-diffusion's
    ``scripts/image_train.py`` builds the UNet through ``script_util`` and runs
    ``train_util.TrainLoop``, whose file holds the optimizer and the backward pass), or a
    module beside training files that imports one of them by name."""
    trains = set(training)
    graph = _reference_graph(analyses, _import_graph(analyses))
    # a module that imports one of the training files beside it by name at run time
    # (Depth-Anything's metric_depth ``trainers/builder.py``: ``import_module(
    # f"zoedepth.trainers.{config.trainer}_trainer")``) hands the script the training loop
    folders = {PurePosixPath(p).parent for p in trains}
    dynamic = {
        fa.path
        for fa, facts in with_facts(analyses)
        if "/" in fa.path
        and any(name in ("importlib", "importlib.import_module") for _, name in facts.imports)
    }
    pickers = {p for p in dynamic if PurePosixPath(p).parent in folders}
    # and one in a package's folder reaches the modules below it (the model builder's
    # ``import_module(f"zoedepth.models.{config.model}")``)
    graph = dict(graph)
    for path in dynamic:
        below = PurePosixPath(path).parent
        graph[path] = graph.get(path, set()) | {
            fa.path for fa in analyses if below in PurePosixPath(fa.path).parents
        }
    runners = {
        fa.path
        for fa in analyses
        if not fa.errors
        and fa.syntax is not None
        and fa.syntax.main_guard
        and graph.get(fa.path, set()) & (trains | pickers)
    }
    start = trains | runners
    return _closure(start, graph, packages=True) | start


def imported_name(call: Expr, imports: Mapping[str, str]) -> str | None:
    """A call's callee by the absolute name the file imports its head as (``a.b.f`` of
    ``x.f(...)`` under ``import a.b as x``); None when the file does not import the head (a
    local, a def of its own)."""
    chain = call.func.chain() if call.parts else None
    if not chain or chain[0] not in imports:
        return None
    return ".".join([imports[chain[0]], *chain[1:]])


def _local_references(analyses: Sequence[FileAnalysis]) -> Iterator[tuple[str, str]]:
    """(file, the other repository file it refers to) for each of the repository's names a
    file uses, relative imports resolved."""
    by_module = {m: fa.path for fa in analyses if not fa.errors for m in fa.modules}
    for fa in analyses:
        if fa.errors or fa.syntax is None:
            continue
        for ref in fa.local_refs:
            target = _module_file(ref, by_module)
            if target and target != fa.path:
                yield fa.path, target


def _skipping_import(
    path: str, dropped: dict[tuple[str, str], Where], graph: dict[str, set[str]]
) -> Where:
    """The skipped import that leaves ``path`` out: the one importing it, else the first
    (in file order) whose target reaches it through imports, else the one whose target
    shares the most folders with it (the rest of an alternative's own package, which
    nothing imports by name). Where is no ordered type: sorted by its fields."""
    ordered = sorted(dropped.items(), key=lambda item: (item[1].path, item[1].cell, item[1].line))
    for (_, target), at in ordered:
        if target == path:
            return at
    for (_, target), at in ordered:
        if path in _closure({target}, graph, packages=True):
            return at
    parts = PurePosixPath(path).parts

    def shared(item: tuple[tuple[str, str], Where]) -> int:
        target_parts = PurePosixPath(item[0][1]).parts
        return next(
            (i for i, (a, b) in enumerate(zip(parts, target_parts, strict=False)) if a != b),
            min(len(parts), len(target_parts)),
        )

    return max(ordered, key=shared)[1]


def _reached_only_from(
    starts: set[str],
    core: set[str],
    apart: Iterable[str],
    graph: dict[str, set[str]],
    files: set[str],
    runs: set[str],
) -> set[str]:
    """The files that ``starts`` (entries counted apart: tools, demos, hub entry points)
    reach and nothing else reaches: not in ``core`` (what the ported entries reach), not
    counted apart already, and imported by no file outside them, transitively (a module any
    ported file imports is ported, and what it imports). A package is followed through its
    ``__init__.py`` (``import lpips``). ``files``: those the scan read; ``runs``: the
    scripts and ported entries, which are never dead code."""
    apart = set(apart)
    only = (_closure(starts, graph, packages=True) - core - apart) & files
    importers: dict[str, set[str]] = {}
    for source, targets in graph.items():
        for target in targets:
            importers.setdefault(target, set()).add(source)
    # a package's module nothing refers to, no script, keeps nothing it imports ported
    # (an f-BRS ``evaluation.py`` nothing runs, importing the demo's model loader); a
    # script run at the top level (XMem's ``eval.py``, no ``__main__`` guard) is no
    # package's module
    packages = {PurePosixPath(p).parent for p in files if PurePosixPath(p).name == "__init__.py"}
    dead = {
        p
        for p in files - runs
        if not importers.get(p)
        and PurePosixPath(p).name != "__init__.py"
        and PurePosixPath(p).parent in packages
    }
    changed = True
    while changed:
        kept = {p for p in only if not importers.get(p, set()) <= only | apart | dead}
        only -= kept
        changed = bool(kept)
    return only


def _closure(start: Iterable[str], graph: dict[str, set[str]], packages: bool = False) -> set[str]:
    """The files ``start`` imports, transitively (``start`` left out unless imported); a
    package's ``__init__.py`` is reached but not followed (it imports all its modules, the
    adapters among them, whichever one is used) unless ``packages``."""
    seen: set[str] = set()
    todo = [q for p in start for q in graph.get(p, ())]
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            if packages or PurePosixPath(path).name != "__init__.py":
                todo.extend(graph.get(path, ()))
    return seen


#: What an optimizer's parameters are called when they are a network's (``model.parameters()``,
#: ``param_groups``, ``params``).
_NETWORK_PARAMETERS = re.compile(r"param", re.IGNORECASE)


def _optimizes_inputs(fa: FileAnalysis) -> bool:
    """Every optimizer the file builds optimises tensors, not a network's parameters
    (stylegan2's ``projector.py``: ``Adam([w_opt] + list(noise_bufs.values()))``, a list of
    tensors written out that names no parameters): a tool that fits an input, not the
    training step."""
    built = [
        u.args
        for u in fa.uses
        if u.api.startswith("torch.optim.")
        and u.api.count(".") == 2
        and u.api.rpartition(".")[2][:1].isupper()
        and u.args is not None
    ]
    if not built:
        return False
    for args in built:
        first = args.positional[0] if args.positional else dict(args.keywords).get("params", "")
        # a list of tensors written out; a name (``groups``) may hold a network's parameters
        if not first.startswith("[") or _NETWORK_PARAMETERS.search(first):
            return False
    return True


def _places(findings: Iterable[ApiFinding | ShapeFinding]) -> tuple[Where, ...]:
    """Where the findings are, each place once, in their order."""
    return tuple(dict.fromkeys(Where(f.path, f.span.line, f.cell) for f in findings))


def name_values(
    analyses: Sequence[FileAnalysis], argparse: ArgparseDefaults | None = None
) -> NameValues:
    """The values each name is given in the files the scan analysed without error (their
    argparse options read from ``argparse``, the review's table, when given)."""
    return NameValues(
        ((fa, sf.values) for fa, sf in with_facts(analyses) if sf.values is not None),
        argparse,
        unloaded_hub_entries(analyses),
    )


#: A format field of a hub entry's name (``'dinov2_{:}14'.format(encoder)``, an f-string's).
_FORMAT_FIELD = re.compile(r"\{[^{}]*\}")
#: A string literal, or one formatted (``'x_{}'.format(a)``, ``f'x_{a}'``): its text.
_ENTRY_NAME = re.compile(r"""^[rfRF]?(['"])(.*?)\1(?:\.format\(.*\))?$""")


def unloaded_hub_entries(analyses: Sequence[FileAnalysis]) -> dict[str, list[tuple[int, int]]]:
    """The entry points of a vendored ``hubconf.py`` (:func:`vendored_dirs`) that no local
    ``torch.hub.load(DIR, NAME, source='local')`` of the repository names, by path, as the
    (first, last line) of each: Depth-Anything loads ``'dinov2_{:}14'.format(encoder)``, so
    the copy's ``dinov2_vitl14_reg`` (``interpolate_antialias=True``) never runs and the
    values it passes are none the model is built with. A name held in a variable may be any
    entry: then none is left out."""
    dirs = vendored_dirs(analyses)
    if not dirs:
        return {}
    patterns: dict[str, list[re.Pattern[str] | None]] = {}
    for fa, facts in with_facts(analyses):
        for call in facts.zoo_calls:
            if call.callee != "torch.hub.load" or len(call.args) < 2:
                continue
            folder = _local_hub_dir(call.args, dict(call.keywords), dirs)
            if not folder or _in_dir(fa.path, folder):
                continue
            m = _ENTRY_NAME.match(call.args[1].strip())
            pattern = None
            if m is not None and not m.group(2).endswith("…"):
                parts = _FORMAT_FIELD.split(m.group(2))
                pattern = re.compile(".*".join(re.escape(p) for p in parts))
            patterns.setdefault(f"{folder}/hubconf.py", []).append(pattern)
    out: dict[str, list[tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        names = patterns.get(fa.path)
        if not names or None in names or facts.values is None:
            continue
        functions = [
            d for d in facts.values.defs if d.owner < 0 and not d.is_class and d.function >= 0
        ]
        for d in functions:
            if d.name.startswith("_") or any(
                o is not d and o.line < d.line <= o.end_line for o in functions
            ):
                continue  # a helper, or a def nested in another: its outer one decides
            if not any(p.fullmatch(d.name) for p in names if p is not None):
                out.setdefault(fa.path, []).append((d.line, d.end_line))
    return out


#: The test frameworks a test module imports.
_TEST_FRAMEWORKS = frozenset({"pytest", "unittest", "nose", "hypothesis"})


def _op_check(path: str, facts: SyntaxFacts) -> bool:
    """A script named ``test*.py`` that checks an op's gradients numerically (it imports
    ``torch.autograd.gradcheck``): a vendored extension's own test (CenterNet's
    ``DCNv2/test.py`` running the deformable pooling's forward and gradient checks), not an
    entry point of the model, whatever it imports by bare name from beside it."""
    if not PurePosixPath(path).name.startswith("test"):
        return False
    return any(
        name.startswith(("torch.autograd.gradcheck", "torch.autograd.gradgradcheck"))
        for _, name in facts.imports
    )


def _script_named_test(path: str, facts: SyntaxFacts) -> bool:
    """A command-line script whose name only looks like a test module (``run_test.py``,
    ``eval_test.py`` beside ``train.py``: the documented command that loads the released
    weights and runs them on an image): it runs under a ``__main__`` guard, defines no
    ``test*`` function and imports no test framework. A file in a test folder, a
    ``test_*.py`` and a ``conftest.py`` stay tests."""
    p = PurePosixPath(path)
    if not (p.name.endswith("_test.py") and len(p.parts) == 1 and facts.main_guard):
        return False
    if any(name.partition(".")[0] in _TEST_FRAMEWORKS for _, name in facts.imports):
        return False
    values = facts.values
    return values is not None and not any(
        d.qual.rpartition(".")[2].startswith("test") for d in values.defs
    )


def ported(findings: Iterable[ApiFinding], ancillary: Ancillary) -> list[ApiFinding]:
    """The findings in files that are ported with the model."""
    return [f for f in findings if not ancillary.why(f.path)]


def _module_tails(analyses: Iterable[FileAnalysis]) -> set[str]:
    """The trailing two or more parts of the repository's module names below their top
    package (``data.datasets.cocodataset`` of ``yolox.data.datasets.cocodataset``)."""
    out: set[str] = set()
    for fa in analyses:
        if fa.errors:
            continue
        for module in fa.modules:
            parts = module.split(".")
            out.update(".".join(parts[i:]) for i in range(1, len(parts) - 1))
    return out


def _repository_tail(name: str, tails: set[str]) -> bool:
    """Whether the dotted ``name`` imports one of the repository's own modules by a path
    below its top package (an experiment file's stale ``from data.datasets.cocodataset
    import COCODataset`` for ``yolox/data/datasets/cocodataset.py``): the repository's code,
    not a third-party package's; its module is two parts or more."""
    parts = name.split(".")
    return any(".".join(parts[:i]) in tails for i in range(2, len(parts) + 1))


def _local_packages(analyses: Iterable[FileAnalysis]) -> set[str]:
    """The repository's own top-level packages (of the files analysed without error;
    :func:`own_packages`: a namespace folder named like the framework it imports is not)."""
    return own_packages(analyses)


#: Bases that call none of a class's methods by name.
_PLAIN_BASES = frozenset({"object", "abc.ABC", "ABC"})


def plain_classes(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The names of the repository's classes that derive from nothing of another package
    (no base, ``object``, ``abc.ABC``, or the repository's own such classes): an
    evaluator, a tracker, a config. No framework calls their methods by name, so the calls
    the code writes are all their uses; a torch Module's, a Dataset's or a Lightning
    module's hooks run without one. A name two classes share is plain only if both are."""
    local = _local_packages(analyses)
    bases: dict[str, set[str]] = {}
    for fa in analyses:
        if fa.errors:
            continue
        for c in fa.classes:
            bases.setdefault(c.qualname.rpartition(".")[2], set()).update(c.bases)
    foreign = {
        name
        for name, found in bases.items()
        if any(b not in _PLAIN_BASES and b.partition(".")[0] not in local for b in found)
    }
    grew = True
    while grew:  # through the repository's own bases
        grew = False
        for name, found in bases.items():
            if name not in foreign and any(
                b.rpartition(".")[2] in foreign or b.rpartition(".")[2] not in bases
                for b in found
                if b not in _PLAIN_BASES
            ):
                foreign.add(name)
                grew = True
    return frozenset(bases.keys() - foreign)


def work_items(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    names: NameValues | None = None,
    root: Path | None = None,
    unselected: Callable[[Where], str] | None = None,
    choices: StringChoices | None = None,
    tree: Mapping[str, bool] | None = None,
    switched_off: Iterable[tuple[str, str]] = (),
    masked: Mapping[tuple[str, str], str] | None = None,
    runs: Callable[[str, int], bool] | None = None,
    words: frozenset[str] | None = None,
    op_unselected: Callable[[Where], str] | None = None,
) -> tuple[WorkItem, ...]:
    """Every work item of the ported files, in the order of :data:`WORK_KINDS`; the ops of
    compiled extensions when ``root`` (the scanned directory) is given. ``unselected``
    names the model a place belongs to when the configuration selects another one
    (:func:`alternative_places`): the backbones only such models build are no work item,
    only noted beside the selected model's. ``choices``: the review's
    :func:`string_choices`, read here when not given. ``tree``: the module classes in and
    out of the top models' trees (:func:`tree_classes`): a host round trip only the forward
    of a part outside them reaches is no trip of the training (:func:`_unreached_trips`).
    ``switched_off``: (path, qualified name) of the functions every call of which the
    defaults switch off (:func:`switched_off_functions`): the weights a backbone or a
    download there would load are never loaded. ``masked``: the functions whose masked
    selections are only reduced or read on the host
    (:func:`~apiscan.review.masked.masked_selections`): the metrics among them go with the
    step's host reads. ``runs``: whether a line runs in the configured run (a
    :class:`Reach`'s): the backbones and API sites of code it never reaches are no work, as
    the effort leaves them unpriced (the review filters every item's places the same way
    after: :func:`reached_work`). ``words``: the words of ``root``'s config files
    (:func:`~apiscan.review.config_files.config_words`), read here when not given.
    ``op_unselected``: as ``unselected``, for the places of compiled ops, with what only
    evaluation code reaches besides the alternatives counted with them (a rotated-box IoU
    op that only the unpicked rotated detectors and a rotated-box evaluator call)."""
    if words is None:
        words = config_words(root)
    if op_unselected is None:
        op_unselected = unselected
    if names is None:
        names = name_values(analyses)
    tests = self_tests(analyses)
    trips = _round_trips(result, analyses, ancillary)
    items = _one_per_function([_with_callers(t, analyses, ancillary) for t in trips])
    backbones: list[WorkItem] = []
    local = _local_packages(analyses)
    defaults = names.argparse.values()  # the review's argparse table
    registered = _registered_models(analyses)
    unchosen, given = choices or _string_choices(analyses, ancillary, defaults)
    others: dict[str, list[str]] = {}
    vendored = vendored_dirs(analyses)
    flags = namespace_gates(analyses, unpassed_flags(analyses))
    # a backbone built in a class the repository imports where it builds its model, leaves
    # unused and nothing else builds (a core swapped for another, its factory's hub load
    # never run) is never built; a class nothing refers to at all may be the package's API
    dead_spans: dict[str, list[tuple[int, int]]] = {}
    modules = {fa.path: fa.modules for fa in analyses}
    swapped = {target for fa in analyses for target in _unused_imports(fa)}
    uncalled_defs = documented_uncalled(analyses, result, root)
    for (path, name), span in uncalled_defs.items():
        if any(f"{m}.{name}" in swapped for m in modules.get(path, ())):
            dead_spans.setdefault(path, []).append(span)
    # the functions nothing calls, builds or names, a config file's words included (the
    # review's "not reached": semantic-segmentation's ``resnet18``, beside the ``resnet50``
    # its config.json names): the weights they would download are never downloaded
    configured = config_names(words, (name for _, name in uncalled_defs))
    unreached_spans: dict[str, list[tuple[int, int, str]]] = {}
    for (path, name), (first, last) in uncalled_defs.items():
        if name not in configured:
            unreached_spans.setdefault(path, []).append((first, last, name))
    # a method named for loading pretrained weights that no ported file calls is dead code
    # (YOLOX's YOLOFPN.load_pretrained_model; minGPT's GPT.from_pretrained, called only by
    # a notebook and a test): it loads nothing, neither a backbone's weights nor a checkpoint
    # ... and so does an array loader only files counted apart call (a Darknet model's
    # ``load_weights``, called by demos and an evaluation script, never by training)
    called = {
        c.callee.rpartition(".")[2]
        for fa in analyses
        if not ancillary.why(fa.path)
        for c in fa.calls
        if c.role == "call"
    }
    methods = frozenset((fa.path, fn.qualname) for fa in analyses for fn in fa.functions if fn.cls)
    dead = unreached_loaders(analyses, ancillary)
    off_spans: dict[str, list[tuple[int, int, str]]] = {}
    switched = set(switched_off)
    for fa, facts in with_facts(analyses):
        for d in facts.values.defs if facts.values is not None else ():
            if (fa.path, d.qual) in dead:
                dead_spans.setdefault(fa.path, []).append((d.line, d.end_line))
            if (fa.path, d.qual) in switched:
                off_spans.setdefault(fa.path, []).append((d.line, d.end_line, d.qual))

    def never_run(where: Where) -> str:
        """Why weights loaded at ``where`` never are: the function around it is one the
        defaults never call (EfficientDet's ``load_pretrained_weights``, reached only under
        ``if load_weights:`` with ``load_weights=False`` handed down its constructors)."""
        for a, z, qual in off_spans.get(where.path, ()):
            if a <= where.line <= z:
                return f"only if {qual} runs, off by default"
        return ""

    def not_reached(where: Where) -> str:
        """Why weights downloaded at ``where`` never are: the function around it is one
        nothing calls, builds or names (a backbone builder beside the one the config
        names)."""
        for a, z, name in unreached_spans.get(where.path, ()):
            if a <= where.line <= z:
                return f"{name}, not reached: nothing calls, builds or names it"
        return ""

    files_by_module = {
        module: (fa, facts.values)
        for fa, facts in with_facts(analyses)
        if facts.values is not None
        for module in fa.modules
    }
    for fa, facts in with_facts(analyses):
        if not ancillary.why(fa.path):
            first, last = tests.get(fa.path, (0, 0))
            for b in _backbones(fa, facts, names, vendored):
                if b.what.partition(".")[0] in local or first <= b.where[0].line <= last:
                    continue
                if _own_model(b, fa, defaults, registered):
                    continue  # deit's ``create_model(args.model)``: its own registered ViT
                line = b.where[0].line
                if any(a <= line <= z for a, z in dead_spans.get(fa.path, ())):
                    continue
                if runs is not None and not runs(fa.path, line):
                    continue  # in code the run never reaches: no weights load
                off = (
                    switched_off_branch(fa, b.where[0].line, defaults, flags.get(fa.path))
                    or unchosen(fa.path, b.where[0].line)
                    or never_run(b.where[0])
                )
                if off:  # deit's teacher, built only with distillation on
                    others.setdefault(b.what.partition("(")[0], []).append(off)
                    continue
                b = _weights_given(b, given, defaults)
                b = _replaced_layers(
                    b,
                    fa,
                    facts,
                    files_by_module,
                    lambda path, at: not ancillary.why(path) and (runs is None or runs(path, at)),
                )
                backbones.append(_shown_architecture(b, names, defaults))
            backbones.extend(_zoo_subclasses(fa, local))
            backbones.extend(
                b
                for b in _zoo_constructions(fa, local)
                if not any(a <= b.where[0].line <= z for a, z in dead_spans.get(fa.path, ()))
                and (runs is None or runs(fa.path, b.where[0].line))
            )
    if unselected is not None:
        kept = []
        for b in backbones:
            model = never_run(b.where[0]) or unselected(b.where[0])
            if model:
                others.setdefault(b.what.partition("(")[0], []).append(model)
            else:
                kept.append(b)
        backbones = kept
    items.extend(_one_per_backbone(backbones, names))
    items.extend(zoo_layers(analyses, ancillary))
    items.extend(model_parallel_layers(analyses, ancillary))
    uncalled = documented_uncalled(analyses, None, root)
    items.extend(training_machinery(analyses, ancillary, defaults, uncalled))
    dead |= _uncalled_variants(analyses)
    # nor does a class swapped for another (its forward hooks, its parameters): the work
    # items are those of the code that runs
    findings = [
        f
        for f in ported(result.api_findings, ancillary)
        if (f.path, f.function) not in dead
        and not any(a <= f.span.line <= z for a, z in dead_spans.get(f.path, ()))
        and (runs is None or f.cell or runs(f.path, f.span.line))
    ]
    # weights downloaded in a model the configuration does not select, or by a builder the
    # defaults do not run (``resnet18()`` when ``--depth`` defaults to 50, as the tree's
    # "selected by" reads it): alternatives, not work
    # (nor the weights a vendored hub entry point downloads when no local load asks)
    unasked = unasked_hub_weights(analyses)
    checkpoints = list(
        _checkpoints(
            [f for f in findings if f.path not in unasked],
            methods,
            lambda w: (
                # a loader only a switched-off call runs says so before the alternative
                # its branch also makes it
                never_run(w)
                or (unselected(w) if unselected is not None else "")
                or unchosen(w.path, w.line)
                or not_reached(w)
            ),
            others,
            _url_loaders(analyses),
        )
    )
    if others:  # noted on the selected model's first backbone item
        items, checkpoints = _noted_alternatives(items, checkpoints, others)
    checkpoints.extend(
        _array_loaders(findings, called, _fallback_loaders(analyses, ancillary, root))
    )
    if not any(i.what.startswith("weights read as arrays") for i in checkpoints):
        checkpoints.extend(_numpy_archives(analyses, ancillary))
    released = list(_released_checkpoint(result.api_findings, ancillary, analyses, root))
    if not any(i.kind == "checkpoint" for i in checkpoints):
        checkpoints.extend(released)
    else:  # the released weights a tool or demo loads: the same conversion, its places named
        shown = [w for r in released for w in r.where if ancillary.why(w.path) in _RELEASED_USERS][
            :3
        ]
        checkpoints = [_with_released(i, shown) for i in checkpoints]
    checkpoints.extend(_pickled_modules(findings, analyses, ancillary))
    checkpoints = _launched_weights(root, checkpoints)
    checkpoints = _with_inherited_loads(checkpoints, _inherited_loads(analyses, ancillary))
    checkpoints = _with_inherited_loads(
        checkpoints, _library_loads(analyses, ancillary), _LIBRARY_LOADED
    )
    if not _has_batch_statistics(result, analyses, [*items, *checkpoints]):
        # a network with no BatchNorm (a transformer of RMSNorm and Linear layers): its
        # checkpoint's conversion renames parameters, no moving statistics to map
        checkpoints = [
            replace(i, why=i.why.replace(_BN_TERMS, "")) if i.kind == "checkpoint" else i
            for i in checkpoints
        ]
    whole = list(_loaded_modules(findings, analyses, ancillary))
    if whole:  # the loads of whole networks are theirs, not a state dict's to convert
        claimed = set(whole[0].where)
        shared = []
        for i in checkpoints:
            kept = tuple(w for w in i.where if w not in claimed)
            if i.kind != "checkpoint" or kept == i.where:
                shared.append(i)
            elif kept:
                shared.append(replace(i, where=kept, uses=i.uses - (len(i.where) - len(kept))))
        checkpoints = shared
        checkpoints.extend(whole)
    items.extend(checkpoints)
    # the sites in branches the defaults do not take (MiDaS's other model types: their
    # backbones' hooks, their fusion blocks' parameters) are alternatives, not work
    chosen = [f for f in findings if not unchosen(f.path, f.span.line)]
    items.extend(_parameters(chosen, names))
    items.extend(float_only_passes(chosen, names))
    torch_api = load_torch_api()
    items.extend(_cells_in_forward(findings, torch_api))
    items.extend(_torch_in_data(findings, analyses, torch_api))
    items.extend(_torch_in_datasets(findings, analyses, ancillary, torch_api))
    items.extend(_bn_momentum_writes(findings, analyses, uncalled))
    items.extend(_tied_weights(analyses, ancillary, uncalled))
    items.extend(_loss_attributes(analyses, ancillary, uncalled))
    items.extend(_frozen_batch_norm(findings, analyses, uncalled, defaults))
    items.extend(_frozen_statistics(findings, analyses, uncalled))
    items.extend(_forward_hooks(chosen, tests))
    items.extend(_patched_methods(analyses, ancillary, tests, unchosen))
    items.extend(_state_in_forward(findings, analyses, ancillary))
    # the submodules not checked out, read from ``.gitmodules`` once for both readers
    submodules = missing_submodules(root)
    items.extend(
        # (dead code's places are the reachability's to drop: :func:`reached_work`)
        alternative_ops(
            compiled_ops(root, result, analyses, ancillary, submodules),
            lambda w: (
                (op_unselected(w) if op_unselected is not None else "") or unchosen(w.path, w.line)
            ),
        )
    )
    items.extend(_import_built_ops(result, analyses, ancillary, items))
    items.extend(triton_kernels(analyses, ancillary, findings))
    items.extend(_library_ops(result, analyses, ancillary))
    items.extend(helper_libraries(result, analyses, ancillary))
    items.extend(submodule_code(result, analyses, ancillary, submodules, uncalled, items))
    steps = step_functions(findings, analyses, ancillary, names)
    items.extend(third_party_parts(result, analyses, ancillary, uncalled, items, steps))
    items.extend(vendored_parallel(analyses, ancillary, defaults, findings))
    items.extend(sharded_training(findings))
    items.extend(_second_order_grads(result, analyses, ancillary))
    items.extend(_host_calls_in_loss(result, analyses, ancillary, items))
    items.extend(_host_arrays_in_network(findings, analyses, items))
    items.extend(_host_copies_in_forward(findings, analyses, items))
    items = _tokenized_in_forward(items, findings, analyses)
    items.extend(_host_buffers_in_network(findings, analyses, ancillary))
    items.extend(suppressions(result.shape_findings, ancillary))
    items.extend(
        step_syncs(
            findings,
            steps,
            result.shape_findings,
            masked or {},
            step_loops(findings, analyses, ancillary),
            analyses,
            names,
            ancillary.documented_script(),
        )
    )
    items.extend(adversarial_steps(findings, analyses, ancillary, unchosen))
    if tree is not None:
        items = _unreached_trips(items, analyses, ancillary, tree)
    order = list(WORK_KINDS)
    return tuple(
        sorted(items, key=lambda i: (order.index(i.kind), i.where[0].path, i.where[0].line))
    )


#: An optimizer's step on a known optimizer class (not a scaler's, not a scheduler's).
_OPTIMIZER_STEP = re.compile(r"^torch\.optim\.(?:[A-Z]\w*|Optimizer)\.step$")


def _stepped_receivers(values: FileValues, stepped: Sequence[ApiFinding]) -> set[str]:
    """The objects whose ``.step()`` the calls on the lines of ``stepped`` (optimizer step
    findings) are made on (``optimizer_G``, ``self.optimizer_D``): one per network a
    training steps in turn."""
    lines = {f.span.line for f in stepped}
    return {
        c.expr.func.text.rpartition(".")[0]
        for c in values.calls
        if c.expr.parts
        and c.expr.func.kind == "Attribute"
        and c.expr.func.name == "step"
        and c.expr.line in lines
    }


def adversarial_steps(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    unchosen: Callable[[str, int], str] = lambda path, line: "",
) -> list[WorkItem]:
    """A training step that steps two or more optimizers in turn, each after a backward pass
    of its own (a GAN's ``optimizer_D.step()`` after ``loss_D.backward()``, then
    ``optimizer_G.step()`` after ``loss_G.backward()``), in the function itself or in the
    methods and functions of its file it calls (``backward_G``, ``backward_D``): one item
    per such function. A single backward pass followed by several optimizers' steps (one
    loss, parameter groups split over optimizers) is one gradient computation, no item."""
    by_path = {fa.path: fa for fa in analyses if not fa.errors}
    steps: dict[tuple[str, str], list[ApiFinding]] = {}
    backwards: dict[tuple[str, str], int] = {}
    for f in findings:
        if f.usage != "call" or ancillary.why(f.path) or is_test_path(f.path):
            continue
        if _OPTIMIZER_STEP.match(f.api):
            steps.setdefault((f.path, f.function), []).append(f)
        elif f.api in BACKWARD_APIS:
            backwards[(f.path, f.function)] = backwards.get((f.path, f.function), 0) + 1
    out: list[WorkItem] = []
    for (path, function), stepped in sorted(steps.items()):
        fa = by_path.get(path)
        values = fa.syntax.values if fa is not None and fa.syntax is not None else None
        if values is None or all(unchosen(path, f.span.line) for f in stepped):
            continue  # (a training mode the run's values leave out: another run's step)
        receivers = _stepped_receivers(values, stepped)
        if len(receivers) < 2:
            continue
        # the backward passes of the function and of what it calls in its own file,
        # transitively (``backward_D_A`` calling ``backward_D_basic``)
        edges: dict[str, set[str]] = {}
        for c in fa.calls:
            if c.role == "call":
                edges.setdefault(c.caller, set()).add(c.callee.rpartition(".")[2])
        own = {fn for p, fn in backwards if p == path}
        reached, todo = {function}, [function]
        while todo:
            caller = todo.pop()
            for fn in own | set(edges):
                if (
                    fn not in reached
                    and fn.rpartition(".")[2] in edges.get(caller, ())
                    and fn.rpartition(".")[0] == caller.rpartition(".")[0]
                ):
                    reached.add(fn)
                    todo.append(fn)
        passes = sum(backwards.get((path, fn), 0) for fn in reached)
        if passes < 2:
            continue
        names = ", ".join(sorted(receivers))
        out.append(
            WorkItem(
                kind="adversarial-step",
                what=f"{function}: {len(receivers)} optimizers ({names}) stepped in turn, "
                f"{passes} backward passes",
                where=tuple(place(fa, f.span.line) for f in stepped),
                why="each network's loss is differentiated over its own parameters and its "
                "optimizer stepped in turn (a GAN's generator and discriminator, an actor "
                "and its critic): in MindSpore one gradient function per network "
                "(mindspore.value_and_grad over that network's parameters), the other "
                "network's output passed through ops.stop_gradient where PyTorch detaches it "
                "(a generated batch in the discriminator's loss, a target in the critic's), "
                "the requires_grad toggles dropped; checked step by step against PyTorch, "
                "since a wrong detach or parameter set trains silently wrong",
            )
        )
    out.extend(_split_adversarial_steps(steps, backwards, by_path, unchosen, out))
    return out


def _split_adversarial_steps(
    steps: Mapping[tuple[str, str], list[ApiFinding]],
    backwards: Mapping[tuple[str, str], int],
    by_path: Mapping[str, FileAnalysis],
    unchosen: Callable[[str, int], str],
    found: Sequence[WorkItem],
) -> list[WorkItem]:
    """The adversarial steps split over sibling functions (SPADE's trainer:
    ``run_generator_one_step`` steps ``optimizer_G`` after the generator's backward pass,
    ``run_discriminator_one_step`` steps ``optimizer_D`` after the discriminator's) that one
    caller runs in turn (the training loop calling both): one item per such caller's set,
    at the optimizers' steps. Functions of one class (or one module's functions), each
    stepping one optimizer after a backward pass of its own, the optimizers distinct."""
    taken = {(w.path, w.line) for item in found for w in item.where}
    #: (path, owner) -> function name -> (its optimizer, its steps)
    groups: dict[tuple[str, str], dict[str, tuple[str, list[ApiFinding]]]] = {}
    for (path, function), stepped in steps.items():
        fa = by_path.get(path)
        values = fa.syntax.values if fa is not None and fa.syntax is not None else None
        if values is None or not backwards.get((path, function)):
            continue
        if all(unchosen(path, f.span.line) for f in stepped):
            continue
        if any((path, f.span.line) in taken for f in stepped):
            continue
        receivers = _stepped_receivers(values, stepped)
        if len(receivers) != 1:
            continue
        owner, _, name = function.rpartition(".")
        groups.setdefault((path, owner), {})[name] = (receivers.pop(), stepped)
    out: list[WorkItem] = []
    for (path, owner), members in sorted(groups.items()):
        if len({r for r, _ in members.values()}) < 2:
            continue
        callers: dict[tuple[str, str], set[str]] = {}
        for fa in by_path.values():
            for c in fa.calls:
                last = c.callee.rpartition(".")[2]
                if c.role == "call" and last in members:
                    callers.setdefault((fa.path, c.caller), set()).add(last)
        runs = sorted(
            {frozenset(names) for names in callers.values() if len(names) >= 2}, key=sorted
        )
        for names in runs:
            receivers = sorted({members[n][0] for n in names})
            if len(receivers) < 2:
                continue
            fa = by_path[path]
            stepped = [f for n in sorted(names) for f in members[n][1]]
            where = owner + "." if owner else ""
            out.append(
                WorkItem(
                    kind="adversarial-step",
                    what=f"{', '.join(where + n for n in sorted(names))}: {len(receivers)} "
                    f"optimizers ({', '.join(receivers)}) stepped in turn, one backward pass "
                    "each",
                    where=tuple(
                        sorted({place(fa, f.span.line) for f in stepped}, key=lambda w: w.line)
                    ),
                    why="each network's loss is differentiated over its own parameters and "
                    "its optimizer stepped in turn (a GAN's generator and discriminator, each "
                    "in a method the training loop calls): in MindSpore one gradient function "
                    "per network (mindspore.value_and_grad over that network's parameters), "
                    "the other network's output passed through ops.stop_gradient where "
                    "PyTorch detaches it; checked step by step against PyTorch, since a wrong "
                    "detach or parameter set trains silently wrong",
                )
            )
    return out


def _registered_models(analyses: Sequence[FileAnalysis]) -> set[str]:
    """The functions the repository registers with a model zoo's registry by name (timm's
    ``@register_model``: ``deit_base_patch16_224``), built by ``create_model(name)``."""
    return {
        name
        for _, facts in with_facts(analyses)
        for name, decorators in decorators_of(facts).items()
        if any(registry_of(d).rpartition(".")[2] == "register_model" for d in decorators)
    }


#: An option read by a call (``args.model``, ``opt.teacher_model``): its dest.
_OPTION = re.compile(r"^(?:args|opt|opts|cfg|config|FLAGS)\.(\w+)$")
#: The receivers an option is read from in a branch test (``args.distillation_type``).
_OPTION_RECEIVERS = frozenset({"args", "opt", "opts", "cfg", "config"})


def _option_key(expr: Expr, bound: Mapping[str, Expr] | None = None) -> str | None:
    """The dest an option read ``args.x`` names; ``config:a.b`` for a config file's key
    read by string subscripts (``self.config["a"]["b"]``, valued by the chosen config file:
    :attr:`~apiscan.review.names.ArgparseDefaults.settings`); None for any other
    expression. ``bound``: the locals of the function the read is in (name -> the value
    assigned once), through which a name holding a section (``data = args["data"]``, then
    ``data["flip"]``) reads ``config:data.flip``."""
    if expr.kind == "Subscript":
        return config_key(expr, bound)
    chain = expr.chain() if expr.kind == "Attribute" else None
    if (
        chain
        and len(chain) > 2
        and chain[0] in _YACS_RECEIVERS
        and chain[1].isupper()
        and all(part.isupper() for part in chain[1:-1])
    ):
        # a yacs key (``cfg.DATA_LOADER.MODE``, ``cfg.MODEL.arch_encoder``), valued by the
        # run's config
        # (:func:`~apiscan.review.config_files.yacs_settings`)
        return "config:" + ".".join(chain[1:])
    tail = chain[1:] if chain and chain[0] == "self" else chain
    if (
        tail
        and len(tail) == 3
        and tail[0] in _YACS_RECEIVERS
        and all(part.islower() or "_" in part for part in tail[1:])
    ):
        # a section of a config of nested dataclasses (``cfg.common.model_parallel_size``),
        # valued by the field's default (:func:`~apiscan.review.names.dataclass_settings`)
        return "config:" + ".".join(tail[1:])
    return chain[1] if chain and len(chain) == 2 and chain[0] in _OPTION_RECEIVERS else None


#: The names a yacs config is read through (``cfg.TRAIN.AUGMENT``, ``_C.MODEL.TYPE``).
_YACS_RECEIVERS = frozenset({"cfg", "_C", "C", "config"})


def _own_model(
    item: WorkItem, fa: FileAnalysis, defaults: dict[str, set[object]], registered: set[str]
) -> bool:
    """A zoo factory called with a name that is one the repository registers itself (deit's
    ``create_model(args.model)`` with ``--model`` defaulting to its ``deit_base_patch16_224``):
    the repository's own model, ported with it, not a third-party backbone."""
    if not item.what.startswith(_NAMED_ZOO):
        return False
    arg = item.what.partition("(")[2].partition(",")[0].rstrip(")").strip()
    if arg[:1] in "'\"" and arg:
        return arg.strip("'\"") in registered
    m = _OPTION.match(arg)
    values = defaults.get(m.group(1), set()) if m else set()
    return bool(values) and all(isinstance(v, str) and v in registered for v in values)


def switched_off_branch(
    fa: FileAnalysis,
    line: int,
    defaults: dict[str, set[object]],
    flags: Mapping[int, Mapping[str, list[object]]] | None = None,
    every: bool = False,
) -> str:
    """ "only if <test>, off by default" when the call on ``line`` is built under an ``if``
    on an argparse option that its default turns off (deit's teacher under ``if
    args.distillation_type != 'none'``, ``--distillation-type`` defaulting to ``'none'``),
    or on a parameter no call passes whose default turns it off (``flags``, by def index:
    :func:`unpassed_flags`; a remote hub load in the ``else`` of ``if localhub:``, the
    parameter defaulting to True); "" when it is built, or that cannot be told. The
    innermost ``if`` only, or with ``every`` each ``if`` around the call, the outermost
    first (a resume's ``torch.load`` under ``if opts.startswith("https"):`` inside ``if
    opts.resume:``); the innermost ``if`` includes the ``if``/``elif`` tests before it in
    its chain (an ``elif`` runs only when they fail: DINO's torchvision backbone after ``if
    args.arch in vits.__dict__.keys():``)."""
    values = fa.syntax.values if fa.syntax is not None else None
    for call in values.calls if values is not None else ():
        if call.expr.line != line or not call.ifs:
            continue
        for branch in reversed(call.ifs) if every else elif_chain(call.ifs):
            given = (flags or {}).get(branch.function, {})
            found = outcomes(branch.test, _gate_key, _gate_values(defaults, given))
            if found is None:
                continue
            in_else = 0 < branch.body_end < line  # its ``else``: run when the test fails
            if found == {in_else}:  # the branch around the call never runs
                test = branch.test.shown()
                return f"only if {'not ' if in_else else ''}{test}, off by default"
    return ""


def elif_chain(ifs: Sequence[IfValues]) -> Sequence[IfValues]:
    """The innermost of the ``if`` statements ``ifs`` (innermost first) around a line, with
    each one it is the ``elif`` of: an ``elif`` is an ``if`` alone in the ``else`` of the
    one before, written at its column."""
    n = 1
    while n < len(ifs):
        inner, outer = ifs[n - 1], ifs[n]
        if not (
            inner.function == outer.function
            and inner.col == outer.col
            and 0 < outer.body_end < inner.line <= inner.end_line <= outer.end_line
        ):
            break
        n += 1
    return ifs[:n]


def _in_dead(
    values: FileValues, path: str, call: object, dead: Collection[tuple[str, str]]
) -> bool:
    """Whether ``call`` is in a module-level function nothing runs (``dead``: (path, name),
    :func:`uncalled_functions`): a module's demo (``demo_nn_distance()`` passing
    ``l1smooth`` positionally, run only from its ``__main__`` block) switches nothing."""
    fn = call.function  # type: ignore[attr-defined]
    return bool(dead) and fn >= 0 and (path, values.defs[fn].qual.partition(".")[0]) in dead


def unpassed_flags(
    analyses: Sequence[FileAnalysis],
    dead: Collection[tuple[str, str]] = frozenset(),
) -> dict[str, dict[int, dict[str, list[object]]]]:
    """path -> def index -> name -> [default] of the parameters with a constant default
    (``localhub=True``) that no call in the repository passes: by keyword (written anywhere:
    a call's keyword, a dict's string key, any string constant, since a config may spread
    it in with ``**``), or positionally (a call of the function's name, of its class for
    ``__init__``, or a subclass's ``super().__init__``, with as many positional arguments,
    or spreading ``*args``; a call spreading ``**mapping`` may pass any). Such a parameter
    always holds its default, so a branch its default does not take never runs."""
    named: set[str] = set()  # keywords and strings written anywhere
    most: dict[str, int] = {}  # a callee's last name -> most positional arguments passed
    # callees' last names a call spreads a mapping into (``Generator(**hps.model)``): the
    # mapping may hold any keyword, a config file's key included
    spread: set[str] = set()
    # a base class's name -> most positional arguments a subclass's ``__init__`` passes up
    most_up: dict[str, int] = {}
    files = [(fa, facts.values) for fa, facts in with_facts(analyses) if facts.values is not None]
    for fa, values in files:
        bases = {c.qualname: c.bases for c in fa.classes}
        exprs = [c.expr for c in values.calls] + [a.value for a in values.assigns]
        for d in values.defs:
            exprs += [a.value for a in d.assigns]
        for e in exprs:
            for n in e.walk():
                if n.kind == "keyword" and n.name:
                    named.add(n.name)
                elif n.kind == "Constant" and isinstance(n.value, str):
                    named.add(n.value)
                named.update(k for k in n.keys if k)
        for c in values.calls:
            if _in_dead(values, fa.path, c, dead):
                continue
            args = c.expr.args
            count = 1 << 16 if any(a.kind == "Starred" for a in args) else len(args)
            name = c.expr.callee()
            most[name] = max(most.get(name, 0), count)
            if any(not k.name for k in c.expr.keywords):
                spread.add(name)
            if name == "__init__" and c.function >= 0 and values.defs[c.function].owner >= 0:
                holder = values.defs[values.defs[c.function].owner].qual
                for base in bases.get(holder, ()):
                    tail = base.rpartition(".")[2]
                    most_up[tail] = max(most_up.get(tail, 0), count)
    out: dict[str, dict[int, dict[str, list[object]]]] = {}
    for fa, values in files:
        defs = values.defs
        for i, d in enumerate(defs):
            if d.is_class or not d.params:
                continue
            owner = defs[d.owner] if d.owner >= 0 else None
            init = owner is not None and d.name == "__init__"
            passed = max(
                most.get(owner.name if init and owner is not None else d.name, 0),
                most_up.get(owner.name, 0) if init and owner is not None else 0,
            )
            bound = 1 if owner is not None and not d.static else 0  # self or cls
            if (owner.name if init and owner is not None else d.name) in spread:
                continue
            if owner is not None and d.name in _INSTANCE_CALLS:
                # ``logits, loss = model(x, y)`` names no ``forward``: an instance's calls are
                # told by the call facts that resolve to it (:func:`defaulted_flags`)
                continue
            for name, default in d.params:
                if default is None or default.kind != "Constant" or name in named:
                    continue
                position = d.positional.index(name) - bound if name in d.positional else -1
                if 0 <= position < passed:
                    continue
                out.setdefault(fa.path, {}).setdefault(i, {})[name] = [default.value]
    return out


#: The methods an instance's call runs (``model(x)``).
_INSTANCE_CALLS = frozenset({"forward", "__call__"})


def defaulted_flags(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    named: Mapping[str, Mapping[int, Mapping[str, list[object]]]],
    apart: Callable[[str], str] = lambda path: "",
    dead: Collection[tuple[str, str]] = frozenset(),
) -> dict[str, dict[int, dict[str, list[object]]]]:
    """:func:`unpassed_flags` (``dead``: the functions nothing runs, whose calls pass
    nothing), and the parameters with a constant default that every call
    which may reach their function passes only that default's value: a test-time switch of a
    model's forward (``forward(x, augment=False)`` branching on ``if augment:``) that the
    evaluation passes as ``augment=opt.augment`` (a ``store_true`` option, off by default)
    or as its own parameter every caller leaves False, and the training's ``model(imgs)``
    leaves out. A call may reach the function when a call fact on its line resolves to it,
    or, when no call fact on its line is a repository function's, when it is written with
    the function's name (its arguments bound to the parameters); a call of no repository
    function's name that passes the parameter's name as a keyword may be any (a call the
    scan cannot follow); a call resolved to or named as another function
    (``create_dataloader(..., augment=True)``) passes that one's. A value is told by
    the options' defaults and the caller's ``named`` values (:func:`switched_off_named`);
    one that cannot be told keeps the branch. Calls in tests, and the calls a file counted
    apart (``apart``: a demo passing ``class_agnostic=True``) makes of a function by its
    name, are not the ported run's; the keywords such a file passes to a call the scan
    cannot follow count (a config file's lazily built class)."""
    flags = unpassed_flags(analyses, dead)
    files = [(fa, facts.values) for fa, facts in with_facts(analyses) if facts.values is not None]
    # a parameter the function assigns again (``if local_rank is None: local_rank =
    # get_local_rank()``) holds more than what its callers pass
    for fa, values in files:
        for i, own in list(flags.get(fa.path, {}).items()):
            again = _reassigned(values.defs[i])
            if again & own.keys():
                flags[fa.path][i] = {k: v for k, v in own.items() if k not in again}
    #: (path, def index, parameter) -> its default's value, for the parameters not yet flagged
    candidates: dict[tuple[str, int, str], object] = {}
    by_target: dict[str, tuple[str, int]] = {}  # a def's qualified name -> (path, index)
    params: dict[str, list[tuple[str, int]]] = {}  # a parameter's name -> the defs having it
    by_name: dict[str, list[tuple[str, int]]] = {}  # a def's (or class's) name -> its defs
    for fa, values in files:
        for i, d in enumerate(values.defs):
            if d.is_class or not d.params:
                continue
            own = flags.get(fa.path, {}).get(i, {})
            again = _reassigned(d)
            for name, default in d.params:
                if (
                    default is not None
                    and default.kind == "Constant"
                    and name not in own
                    and name not in again
                ):
                    candidates[(fa.path, i, name)] = default.value
                    params.setdefault(name, []).append((fa.path, i))
            by_target.update({f"{m}.{d.qual}": (fa.path, i) for m in fa.modules})
            by_name.setdefault(d.name, []).append((fa.path, i))
            if d.name == "__init__" and d.owner >= 0:  # building the class calls it
                owner = values.defs[d.owner]
                by_target.update({f"{m}.{owner.qual}": (fa.path, i) for m in fa.modules})
                by_name.setdefault(owner.name, []).append((fa.path, i))
    if not candidates:
        return flags
    for _ in range(2):  # a package's re-exports name the same function
        for fa in analyses:
            for m in fa.modules:
                for name, target in fa.exports:
                    if target in by_target:
                        by_target.setdefault(f"{m}.{name}", by_target[target])
    defs = {fa.path: values.defs for fa, values in files}
    imported_names = {fa.path: dict(fa.syntax.imports) for fa, _ in files if fa.syntax}
    kept: set[tuple[str, int, str]] = set()  # passed a value other than the default, or untold
    # a def's ``**kwargs`` handed on whole to another def (``ResNet(Block, layers,
    # **kwargs)`` in a ``resnet50(**kwargs)`` builder): ``**p`` of the builder stands for
    # "its callers leave keyword ``p`` out", so a parameter ``p`` of the def it reaches keeps
    # its default exactly when ``**p`` holds (a candidate like any parameter)
    reach_of: dict[tuple[str, int], set[tuple[str, int]]] = {}  # a call's (path, index) ->
    spreads: list[tuple[str, int, int]] = []  # (path, call index, def index) spreading kwargs
    for fa, values in files:
        for n, call in enumerate(values.calls):
            d = values.defs[call.function] if call.function >= 0 else None
            if d is not None and d.kwarg and _spread_name(call.expr) == d.kwarg:
                spreads.append((fa.path, n, call.function))
    by_path = {fa.path: (fa, values) for fa, values in files}
    # each class's attributes set once from a parameter of its ``__init__`` (``self.x =
    # x``): what ``self.x`` holds in its methods, when that parameter keeps its default
    attrs = {fa.path: _init_attributes(values, analyses) for fa, values in files}

    def reach(fa: FileAnalysis, values: FileValues, n: int) -> set[tuple[str, int]]:
        key = (fa.path, n)
        if key not in reach_of:
            expr = values.calls[n].expr
            on_line = resolved_of.get(fa.path, {}).get(expr.line, set())
            reach_of[key] = _reached_defs(expr, on_line, by_target, by_name, imports_of[fa.path])
        return reach_of[key]

    imports_of = {fa.path: dict(fa.syntax.imports) for fa, _ in files if fa.syntax is not None}
    resolved_of: dict[str, dict[int, set[str]]] = {}
    for fa, _ in files:
        resolved = resolved_of.setdefault(fa.path, {})
        for c in fa.calls:
            if c.role == "call":
                resolved.setdefault(c.line, set()).add(c.callee)
    for _ in range(3):  # a builder's builder hands its ``**kwargs`` on in turn
        for path, n, i in spreads:
            fa, values = by_path[path]
            for target_path, j in reach(fa, values, n):
                target = defs[target_path][j]
                bound = _bind_names(values.calls[n].expr, target)
                passed = [
                    (name, default.value)
                    for name, default in target.params
                    if name not in bound and default is not None and default.kind == "Constant"
                ]
                passed += [
                    (tname[2:], value)
                    for (tp, tj, tname), value in list(candidates.items())
                    if (tp, tj) == (target_path, j) and tname.startswith("**")
                ]
                for name, value in passed:
                    # the default the keyword left out leaves; defs of other defaults clash
                    key = (path, i, "**" + name)
                    if candidates.setdefault(key, value) != value:
                        candidates[key] = _CLASH
    pseudo_of: dict[tuple[str, int], list[str]] = {}
    for path, i, name in candidates:
        if name.startswith("**"):
            params.setdefault(name[2:], []).append((path, i))
            pseudo_of.setdefault((path, i), []).append(name)

    # the candidates by their place among the positional arguments (``self`` left out) of
    # the defs no call names: a call of a computed callee (``getattr(resnet, name)(True)``,
    # a registry's pick) may pass any of them
    by_position: dict[int, list[tuple[str, int, str]]] = {}
    written = {c.expr.callee() for _, values in files for c in values.calls}
    for path, i, name in candidates:
        d = defs[path][i]
        called = defs[path][d.owner].name if d.owner >= 0 and d.name == "__init__" else d.name
        if name in d.positional and called not in written:  # only ever looked up
            shift = 1 if d.owner >= 0 and not d.static else 0
            by_position.setdefault(d.positional.index(name) - shift, []).append((path, i, name))

    def alive(key: tuple[str, int, str]) -> bool:
        return key in candidates and key not in kept

    def names_of(path: str, scope: int) -> Mapping[str, list[object]]:
        """The told names of a function: the callers' values, and (while they hold) its
        parameters that keep their defaults and the attributes set from them."""
        names = dict(named.get(path, {}).get(scope, {}))
        if scope < 0:
            return names
        for name, value in flags.get(path, {}).get(scope, {}).items():
            names.setdefault(name, value)
        for name, _ in defs[path][scope].params:
            if name not in names and alive((path, scope, name)):
                names[name] = [candidates[(path, scope, name)]]
        d = defs[path][scope]
        for attr, (init, param) in attrs[path].get(d.owner, {}).items():
            key = (path, init, param)
            if alive(key):
                names.setdefault(f"self.{attr}", [candidates[key]])
            elif param in flags.get(path, {}).get(init, {}):
                names.setdefault(f"self.{attr}", flags[path][init][param])
        return names

    def told(expr: Expr | None, path: str, scope: int) -> list[object] | None:
        if expr is None:
            return None
        if any(e.kind == "Name" and e.name in imported_names.get(path, ()) for e in expr.walk()):
            return None  # ``try: import wandb / except: wandb = None``: the module when there
        names = names_of(path, scope)
        return _fixed(values_of(expr, _forward_key, _gate_values(defaults, names)))

    def kill(key: tuple[str, int, str], found: list[object] | None) -> None:
        if key not in candidates or key in kept:
            return
        if found is None or any(v != candidates[key] for v in found):
            kept.add(key)

    def passed_keys(fa: FileAnalysis, values: FileValues, call: CallValues) -> dict | None:
        """keyword -> told values (None: untold) of what ``call`` spreads with ``**``;
        None when that cannot be told (a mapping not built in the calling function)."""
        name = _spread_name(call.expr)
        if name is None:
            return {} if not call.expr.unpacks() else None
        if call.function < 0:
            return None
        d = values.defs[call.function]
        if name == d.kwarg:
            return None  # followed through the ``**p`` candidates
        built = _built_dict(values, call.function, name)
        if built is None:
            return None
        out: dict[str, list[object] | None] = {}
        for key, value, ifs, line in built:
            if ifs and _branch_skipped(ifs, line, lambda f: names_of(fa.path, f), defaults):
                continue  # set under a branch the told values never take
            out[key] = told(value, fa.path, call.function)
        return out

    def visit(fa: FileAnalysis, values: FileValues, n: int, apart_file: bool) -> None:
        call = values.calls[n]
        expr = call.expr
        reached = reach(fa, values, n)
        followed = bool(reached)
        if apart_file:
            reached = set()
        spread = passed_keys(fa, values, call)
        own = values.defs[call.function] if call.function >= 0 else None
        forwards = own is not None and bool(own.kwarg) and _spread_name(expr) == own.kwarg
        words = {k.name: k.target for k in expr.keywords if k.name}
        for path, i in reached:
            target = defs[path][i]
            bound = _bind_names(expr, target)
            for name, _ in target.params:
                key = (path, i, name)
                if key not in candidates or key in kept:
                    continue
                if name in bound:
                    kill(key, told(bound[name], fa.path, call.function))
                elif forwards:
                    pseudo = (fa.path, call.function, "**" + name)
                    kill(key, [candidates[pseudo]] if alive(pseudo) else None)
                elif spread is None:
                    kill(key, None)
                elif name in spread:
                    kill(key, spread[name])
            for pseudo in pseudo_of.get((path, i), ()):
                key = (path, i, pseudo)
                word = pseudo[2:]
                if word in words:
                    kill(key, told(words[word], fa.path, call.function))
                elif spread is not None and word in spread:
                    kill(key, spread[word])
                elif forwards:
                    passed = (fa.path, call.function, pseudo)
                    kill(key, [candidates[passed]] if alive(passed) else None)
                elif spread is None:
                    kill(key, None)
        if followed:
            return
        head = expr.parts[0] if expr.parts else None
        if head is not None and head.kind in ("Call", "Subscript"):
            for k, arg in enumerate(expr.args):
                if arg.kind == "Starred":
                    break
                found = told(arg, fa.path, call.function)
                for key in by_position.get(k, ()):
                    kill(key, found)
        for word, value in words.items():
            for path, i in params.get(word, ()):
                kill((path, i, word), told(value, fa.path, call.function))
                kill((path, i, "**" + word), told(value, fa.path, call.function))
        for word, found in (spread or {}).items():
            for path, i in params.get(word, ()):
                kill((path, i, word), found)
                kill((path, i, "**" + word), found)

    revisit: list[tuple[FileAnalysis, FileValues, int, bool]] = []
    for fa, values in files:
        if is_test_path(fa.path):  # a test runs the switch on purpose
            continue
        # a demo's or a tool's call is not the run's, but a keyword a config file writes
        # for a lazily built class (``L(Backbone)(use_abs_pos=True)``) may be
        counted_apart = bool(apart(fa.path))
        scoped = {i for p, i, _ in candidates if p == fa.path}
        owners = set(attrs[fa.path])
        for n, call in enumerate(values.calls):
            if _in_dead(values, fa.path, call, dead):
                continue
            visit(fa, values, n, counted_apart)
            f = call.function
            if f >= 0 and (f in scoped or values.defs[f].owner in owners):
                revisit.append((fa, values, n, counted_apart))
    # a value a function forwards (``x=x``, ``x=self.x``) is told only while its own
    # parameter keeps its default: passes again until nothing more is kept
    before = -1
    while before != len(kept):
        before = len(kept)
        for fa, values, n, counted_apart in revisit:
            visit(fa, values, n, counted_apart)
    for (path, i, name), value in candidates.items():
        if (path, i, name) not in kept and not name.startswith("**"):
            flags.setdefault(path, {}).setdefault(i, {})[name] = [value]
    # what ``self.x`` holds in a class's methods where ``__init__`` sets it once from a
    # parameter that keeps its default (pointnet2's grouper testing ``if
    # self.sample_uniformly:`` in its ``forward``, the flag no construction switches on):
    # a branch on it in a method is told as one on the parameter
    for fa, values in files:
        own = flags.get(fa.path, {})
        for owner, found in attrs[fa.path].items():
            stored = {
                f"self.{attr}": own[init][param]
                for attr, (init, param) in found.items()
                if param in own.get(init, {})
            }
            if not stored:
                continue
            for m, d in enumerate(values.defs):
                if d.owner == owner and not d.is_class and d.name != "__init__":
                    given = flags.setdefault(fa.path, {}).setdefault(m, {})
                    for key, value in stored.items():
                        given.setdefault(key, value)
    return flags


#: The value of a ``**p`` candidate whose defs give ``p`` different defaults: equal to none.
_CLASH = object()


def _forward_key(expr: Expr) -> str | None:
    """:func:`_gate_key`, and ``self.x`` as ``=self.x`` (an attribute its class sets once
    from a parameter: :func:`_init_attributes`)."""
    if expr.kind == "Attribute" and expr.target.kind == "Name" and expr.target.name == "self":
        return f"=self.{expr.name}"
    return _gate_key(expr)


def _spread_name(call: Expr) -> str | None:
    """The name a call spreads with ``**name``, when that is all it unpacks; else None."""
    if any(a.kind == "Starred" for a in call.args):
        return None
    spread = [k for k in call.keywords if not k.name]
    if len(spread) != 1 or spread[0].target.kind != "Name":
        return None
    return spread[0].target.name


def _bind_names(call: Expr, d: DefValues) -> dict[str, Expr]:
    """The parameters of ``d`` a call names or passes by position, before any ``*args``."""
    return bind_call(d, call)


def _built_dict(
    values: FileValues, function: int, name: str
) -> list[tuple[str, Expr, tuple[IfValues, ...], int]] | None:
    """(key, value, the ``if`` statements around it, line) of each entry of the mapping
    ``name`` a function builds for a call to spread (``kw = {}`` or ``dict(a=1)``, then
    ``kw['last_gamma'] = True`` under ``if cfg.LAST_GAMMA:``); None when it is built or
    used otherwise (assigned twice, a key not a string, handed to another call)."""
    d = values.defs[function]
    made = [a for a in d.assigns if a.target.kind == "Name" and a.target.name == name]
    if len(made) != 1:
        return None
    value = made[0].value
    out: list[tuple[str, Expr, tuple[IfValues, ...], int]] = []
    if value.kind == "Dict" and all(k is not None for k in value.keys):
        out += [(k, v, (), made[0].line) for k, v in zip(value.keys, value.items, strict=False)]  # type: ignore[misc]
    elif (
        value.kind == "Call" and value.callee() == "dict" and not value.unpacks() and not value.args
    ):
        out += [(k.name, k.target, (), made[0].line) for k in value.keywords]
    else:
        return None
    for a in d.assigns:
        t = a.target
        if t.kind != "Subscript" or t.parts[0].kind != "Name" or t.parts[0].name != name:
            continue
        index = t.parts[1]
        if index.kind != "Constant" or not isinstance(index.value, str):
            return None
        out.append((index.value, a.value, a.ifs, a.line))
    for c in values.calls:
        if c.function != function or _spread_name(c.expr) == name:
            continue
        if any(e.kind == "Name" and e.name == name for e in c.expr.walk()):
            return None  # ``kw.update(...)``, ``f(kw)``: it may hold more
    return out


def _branch_skipped(
    ifs: Sequence[IfValues],
    line: int,
    names: Callable[[int], Mapping[str, list[object]]],
    defaults: Mapping[str, Iterable[object]],
) -> bool:
    """Whether an ``if`` around ``line`` (any of them) never takes the branch it is in."""
    for branch in ifs:
        found = outcomes(branch.test, _forward_key, _gate_values(defaults, names(branch.function)))
        if found is not None and found == {0 < branch.body_end < line}:
            return True
    return False


def _init_attributes(
    values: FileValues, analyses: Sequence[FileAnalysis]
) -> dict[int, dict[str, tuple[int, str]]]:
    """class index -> attribute -> (index of its ``__init__``, parameter) of the attributes a
    class sets exactly once, in its ``__init__``, from a parameter (``self.last_gamma =
    last_gamma``) that ``__init__`` does not assign again; none a subclass sets."""
    out: dict[int, dict[str, tuple[int, str]]] = {}
    sets: dict[tuple[int, str], int] = {}  # (class, attribute) -> assignments in its methods
    for d in values.defs:
        if d.owner < 0 or d.is_class:
            continue
        for a in d.assigns:
            t = a.target
            if t.kind == "Attribute" and t.target.kind == "Name" and t.target.name == "self":
                sets[(d.owner, t.name)] = sets.get((d.owner, t.name), 0) + 1
    for i, d in enumerate(values.defs):
        if d.name != "__init__" or d.owner < 0 or d.is_class:
            continue
        params = {n for n, _ in d.params}
        again = _reassigned(d)
        for a in d.assigns:
            t, v = a.target, a.value
            if not (t.kind == "Attribute" and t.target.kind == "Name" and t.target.name == "self"):
                continue
            once = sets.get((d.owner, t.name)) == 1
            if once and v.kind == "Name" and v.name in params and v.name not in again:
                out.setdefault(d.owner, {})[t.name] = (i, v.name)
    if out:
        # a subclass may set the attribute too
        names = {values.defs[c].name: c for c in out}
        for fa in analyses:
            for cls in fa.classes:
                for base in cls.bases:
                    owner = names.get(base.rpartition(".")[2])
                    if owner is not None and cls.qualname != values.defs[owner].qual:
                        out.pop(owner, None)
    return out


def _reached_defs(
    expr: Expr,
    resolved: Iterable[str],
    by_target: Mapping[str, tuple[str, int]],
    by_name: Mapping[str, list[tuple[str, int]]],
    imports: Mapping[str, str],
) -> set[tuple[str, int]]:
    """The repository defs a call may reach (:func:`defaulted_flags`), of the callees the
    scan resolved on its line (``resolved``)."""
    head = expr.parts[0] if expr.parts else None
    written = head.name.rpartition(".")[2] if head is not None and head.name else ""
    chain = head.chain() if head is not None else None
    imported = bool(chain) and chain[0] in imports  # ``torch.randn``, ``Net``
    # a callee on the call's line that is this call's: its own name, or a module's
    # forward called through an instance (``model(x)``: ``Net.forward``)
    on_line = {
        c
        for c in resolved
        if (last := c.rpartition(".")[2]) == written or (last in _INSTANCE_CALLS and not imported)
    }
    reached = {by_target[c] for c in on_line if c in by_target}
    if not reached:  # ``evaluator.evaluate(model, False, True)``: any of that name
        reached = set(by_name.get(written, ()))
    return reached


def _reassigned(d: DefValues) -> set[str]:
    """The plain names a function assigns in its own body (its loops' targets included)."""
    return {a.target.name for a in d.assigns if a.target.kind == "Name"} | set(d.loop_names)


def defaulted_branches(
    findings: Iterable[object],
    analyses: Sequence[FileAnalysis],
    flags: Mapping[str, Mapping[int, Mapping[str, list[object]]]],
) -> frozenset[tuple[str, int]]:
    """(path, line) of the ``findings`` (API uses, dynamic shapes) in a branch that the
    parameters' told values (:func:`defaulted_flags`) never take: the body of ``if
    augment:`` in a forward no caller switches on. The test's names are the function's
    parameters only; an option's default or a config key switches nothing here."""
    places = ((f.path, f.span.line) for f in findings)  # type: ignore[attr-defined]
    return defaulted_places(places, analyses, flags)


def defaulted_places(
    places: Iterable[tuple[str, int]],
    analyses: Sequence[FileAnalysis],
    flags: Mapping[str, Mapping[int, Mapping[str, list[object]]]],
) -> frozenset[tuple[str, int]]:
    """(path, line) of the ``places`` whose call is in a branch the parameters' told values
    never take (:func:`defaulted_branches`): a recipe row or a work item there (a
    ``zeros_`` under ``if last_gamma:``, a third-party conv under ``elif rectified_conv:``)
    is not the run's."""
    wanted: dict[str, set[int]] = {}
    for path, line in places:
        if path in flags:
            wanted.setdefault(path, set()).add(line)
    off: set[tuple[str, int]] = set()
    for fa in analyses:
        lines = wanted.get(fa.path)
        values = fa.syntax.values if lines and fa.syntax is not None else None
        if values is None:
            continue
        gated = {c.expr.line for c in values.calls if c.ifs and c.expr.line in lines}
        off.update(
            (fa.path, line)
            for line in gated
            if switched_off_branch(fa, line, {}, flags.get(fa.path), every=True)
        )
    return frozenset(off)


def _switched_off_call(
    call: object,
    defaults: Mapping[str, Iterable[object]],
    given: Mapping[int, Mapping[str, list[object]]] | None = None,
) -> bool:
    """Whether an ``if`` around ``call`` (any of them, innermost first) never takes the branch
    the call is in with the options' defaults (open_clip's ``load_sharded_checkpoint`` under
    ``if args.resume is not None:``, ``--resume`` defaulting to None). ``given`` values the
    plain names a test reads in each function (by its def index, -1 the module): a local
    assigned once (``if sharded_ckpt:`` after ``sharded_ckpt = args.fsdp and ...``) and a
    parameter every call passes a told value for (:func:`_name_values`)."""
    line = call.expr.line  # type: ignore[attr-defined]
    for branch in call.ifs:  # type: ignore[attr-defined]
        names = (given or {}).get(branch.function, {})
        found = outcomes(branch.test, _gate_key, _gate_values(defaults, names))
        if found is not None and found == {0 < branch.body_end < line}:
            return True
    return False


def _gate_key(expr: Expr, bound: Mapping[str, Expr] | None = None) -> str | None:
    """A test's name as :func:`_switched_off_call` values it: ``args.x`` by its option's dest,
    a plain name by ``=name`` (a local or a parameter of the function holding the test);
    ``bound`` as for :func:`_option_key`."""
    if expr.kind == "Name":
        return f"={expr.name}"
    if expr.kind == "Attribute" and expr.name == "__dict__" and expr.target.kind == "Name":
        return f"={expr.target.name}.__dict__"  # a module's namespace (:func:`namespace_gates`)
    if _self_attribute(expr):
        return f"=self.{expr.name}"  # an attribute a configured class stores
    return _option_key(expr, bound)


def namespace_gates(
    analyses: Iterable[FileAnalysis],
    into: dict[str, dict[int, dict[str, list[object]]]] | None = None,
) -> dict[str, dict[int, dict[str, list[object]]]]:
    """path -> def index -> ``name.__dict__`` -> [the namespace] of each repository module
    whose ``__dict__`` a branch test of the def reads (DINO's ``if args.arch in
    vits.__dict__.keys():``), as :func:`_gate_key` values it: with the option's default a
    name the module defines, the ``elif`` branches after it (a torchvision or hub backbone)
    are not taken. Added to ``into`` when given (the parameters' values,
    :func:`unpassed_flags`)."""
    analyses = list(analyses)
    out = into if into is not None else {}
    spaces: Namespaces | None = None
    for fa, facts in with_facts(analyses):
        for call in facts.values.calls if facts.values is not None else ():
            for branch in call.ifs:
                for e in branch.test.walk():
                    key = _gate_key(e) if e.kind == "Attribute" else None
                    if key is None or not key.endswith(".__dict__"):
                        continue
                    spaces = spaces or Namespaces(analyses)
                    space = spaces.of(fa, e.target.name)
                    if space is not None:
                        given = out.setdefault(fa.path, {}).setdefault(branch.function, {})
                        given[key[1:]] = [space]
    return out


def _gate_values(
    defaults: Mapping[str, Iterable[object]], names: Mapping[str, list[object]]
) -> Mapping[str, list[object]]:
    """The values a test's names may take (:func:`_gate_key`): the options' defaults, and
    the plain names of ``names`` as ``=name``, which win over an option of that key. A view,
    never a copy: a repository with thousands of options (fairseq) values a test for every
    local and every argument of every call, and copying the defaults each time was most of
    the review's time."""
    return _GateValues(defaults, names)


class _GateValues(Mapping[str, list[object]]):
    """The read-only view :func:`_gate_values` returns: a default listed when it is read."""

    __slots__ = ("_defaults", "_names")

    def __init__(
        self, defaults: Mapping[str, Iterable[object]], names: Mapping[str, list[object]]
    ) -> None:
        self._defaults = defaults
        self._names = names

    def __getitem__(self, key: str) -> list[object]:
        if key[:1] == "=" and key[1:] in self._names:
            return self._names[key[1:]]
        return list(self._defaults[key])

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str) and key[:1] == "=" and key[1:] in self._names:
            return True
        return key in self._defaults

    def __iter__(self) -> Iterator[str]:
        named = {f"={k}": None for k in self._names}
        return iter([k for k in self._defaults if k not in named] + list(named))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _once_assigned(
    assigns: Iterable[object], loop_names: Iterable[str], updates: Iterable[object] = ()
) -> dict[str, Expr]:
    """name -> value of the plain names a body assigns exactly once (``x = expr``), none of
    them a loop's target, unpacked from a tuple or updated in place (``updates``: a step
    counter ``train_steps = 0`` then ``train_steps += 1`` in the loop holds more than its
    first value): what such a name holds wherever it is read after."""
    count: dict[str, int] = {}
    for u in updates:
        node = u.node  # type: ignore[attr-defined]
        if u.op and node.kind == "Name":  # type: ignore[attr-defined]
            count[node.name] = 2
    value: dict[str, Expr] = {}
    for a in assigns:
        target = a.target  # type: ignore[attr-defined]
        for e in target.walk():
            if e.kind == "Name":
                count[e.name] = count.get(e.name, 0) + 1
        if target.kind == "Name":
            value[target.name] = a.value  # type: ignore[attr-defined]
    for name in loop_names:
        count[name] = 2
    return {n: v for n, v in value.items() if count.get(n) == 1}


def _call_arguments(call: Expr, d: object) -> dict[str, Expr | None] | None:
    """name -> the expression ``call`` passes for each parameter of the def ``d`` (the
    recipe's binding, its default where the call leaves it out, None where neither is
    there); None when a ``*args``/``**kwargs`` the call spreads hides which."""
    if call.unpacks():
        return None
    out: dict[str, Expr | None] = dict(d.params)  # type: ignore[attr-defined]
    out.update(bind_call(d, call))  # type: ignore[arg-type]
    return out


def switched_off_functions(
    analyses: Sequence[FileAnalysis], defaults: Mapping[str, Iterable[object]]
) -> set[tuple[str, str]]:
    """(path, name) of the functions every call of which the defaults switch off
    (:func:`_switched_off_named`, which also tells the values of each function's names)."""
    return _switched_off_named(analyses, defaults)[0]


def _switched_off_named(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    apart: Callable[[str], object] | None = None,
) -> tuple[set[tuple[str, str]], dict[str, dict[int, dict[str, list[object]]]]]:
    """(path, name) of the repository's functions and methods every call of which is in a
    branch the options' defaults switch off, or in such a function itself (open_clip's
    sharded checkpoint loading, reached only with ``--resume``; its ``prepare_fsdp`` method,
    called only under ``if args.fsdp:``): code that does not run as configured, so the
    effort does not count its gaps (as :func:`uncalled_functions`' dead code).

    A test is evaluated on the options' defaults, and on the plain names it reads: a local
    assigned once (``sharded_ckpt = args.fsdp and ...; if sharded_ckpt:``) and a parameter
    for which every call that runs passes a value told so, or leaves its told default
    (``_get_optim_state_dict(model, opt, args.fsdp)`` testing ``if fsdp_enabled:``).
    Functions are matched by their resolved name, through a package's re-exports; methods
    of module-level classes by their name (``task.prepare_fsdp(...)``), all methods of that
    name together, ``forward`` and dunders left out (the framework calls them). A function
    referred to otherwise (passed as a value) may run, and is kept unless no call of it runs
    either. ``apart``: whether a file is counted apart (an export's subclass, a side
    project's call passing its own config's value): its subclasses are not the run's, nor
    its calls of what the run's code calls too."""
    where: dict[str, tuple[str, str]] = {}  # qualified name -> (path, name)
    methods: dict[str, set[tuple[str, str]]] = {}  # a method's name -> (path, Class.name)
    defs: dict[tuple[str, str], tuple[object, bool]] = {}  # -> (its def, a method)
    # a module-level class's ``__init__``, called by building the class: its parameters'
    # values flow on to what it builds (EfficientDet's ``load_weights=False`` handed to the
    # backbone that downloads ImageNet weights only ``if load_weights:``); never switched off
    # itself, and left out where a subclass or a value may build it unseen
    inits: dict[tuple[str, str], tuple[int, int]] = {}  # -> its class's lines
    extended = {
        b.rpartition(".")[2]
        for fa in analyses
        if not (apart and apart(fa.path))
        for c in fa.classes
        for b in c.bases
    }
    for fa in analyses:
        for d in fa.functions:
            if not d.cls and "." not in d.qualname:
                where.update({f"{m}.{d.qualname}": (fa.path, d.qualname) for m in fa.modules})
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        registered = _decorated(fa.syntax) if values is not None else set()
        for d in values.defs if values is not None else ():
            owner = values.defs[d.owner] if d.owner >= 0 else None  # type: ignore[union-attr]
            if d.is_class:
                continue
            if (
                d.name == "__init__"
                and owner is not None
                and owner.is_class
                and owner.owner < 0
                and owner.name not in extended
                and owner.qual not in registered  # a registry builds it from a config
            ):
                key = (fa.path, d.qual)
                where.update({f"{m}.{owner.qual}": key for m in fa.modules})
                defs[key] = (d, True)
                inits[key] = (owner.line, owner.end_line)
            elif owner is None and "." not in d.qual:
                defs[(fa.path, d.qual)] = (d, False)
            elif (
                owner is not None
                and owner.is_class
                and owner.owner < 0
                and d.qual == f"{owner.qual}.{d.name}"
                and not d.name.startswith("__")
                and d.name not in _IMPLICIT_METHODS
            ):
                methods.setdefault(d.name, set()).add((fa.path, d.qual))
                defs[(fa.path, d.qual)] = (d, True)
    for fa in analyses:  # a package's re-exports name the same function
        for m in fa.modules:
            for name, target in fa.exports:
                if target in where:
                    where.setdefault(f"{m}.{name}", where[target])
    # every call of one of them: (its file's path, the call, whom it calls, through an object)
    sites: list[tuple[str, object, set[tuple[str, str]], bool]] = []
    locals_: dict[tuple[str, int], dict[str, Expr]] = {}  # (path, def index) -> name -> value
    index: dict[tuple[str, str], int] = {}  # (path, qual) -> its def index
    for fa in analyses:
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        if values is None or is_test_path(fa.path):  # a test runs the option on purpose
            continue
        locals_[(fa.path, -1)] = _once_assigned(values.assigns, (), values.updates)
        for i, d in enumerate(values.defs):
            index[(fa.path, d.qual)] = i
            if not d.is_class:
                own = _once_assigned(d.assigns, d.loop_names, d.updates)
                params = {name for name, _ in d.params} | set(d.positional)
                locals_[(fa.path, i)] = {n: v for n, v in own.items() if n not in params}
        by_line = calls_by_line(fa)
        for call in values.calls:
            head = call.expr.parts[0] if call.expr.parts else None
            last = head.name.rpartition(".")[2] if head is not None and head.name else ""
            target = where.get(by_line.get((call.expr.line, last), ""))
            built = _own_construction(values, call)
            if target is not None:
                sites.append((fa.path, call, {target}, False))
            elif head is not None and head.kind == "Attribute" and head.name in methods:
                sites.append((fa.path, call, methods[head.name], True))
            elif built:  # ``cls(pretrained=args.pretrained)`` in a factory classmethod
                sites.append((fa.path, call, {(fa.path, f"{built}.__init__")}, False))
    if apart:
        # a file counted apart passes its own values (a side project's config key): not the
        # run's, where the run's code calls the same function too
        own = {t for path, _, targets, _ in sites if not apart(path) for t in targets}
        sites = [x for x in sites if not apart(x[0]) or not x[2] <= own]
    # a method passed as a value (``register_hook(self.hook)``) may run: never switched off;
    # a class passed as a value (a registry, ``partial(Block, ...)``) may be built unseen
    # (a lazy config counted apart naming the class, ``L(Pooler)(...)``, is not the run's)
    written = _written_names([fa for fa in analyses if not (apart and apart(fa.path))])
    for name in written.keys() & methods.keys():
        for target in methods[name]:
            defs.pop(target, None)
    for (path, qual), (first, last) in inits.items():
        # ``super(Net, self).__init__()`` in its own body builds nothing else
        if any(
            p != path or not first <= line <= last
            for p, line in written.get(qual.rpartition(".")[0], ())
        ):
            defs.pop((path, qual), None)
    off: set[tuple[str, str]] = set()
    named: dict[str, dict[int, dict[str, list[object]]]] = {}
    holders = _holders(index)
    attributes = configured_attributes(analyses, apart)
    # a switched-off function's calls are switched off in turn, and a parameter's values
    # flow one call further each round (a flag handed down a chain of constructors)
    for _ in range(6):
        before = named
        named = _name_values(sites, defs, index, holders, locals_, defaults, off, named, attributes)
        now: dict[tuple[str, str], bool] = {}
        for path, call, targets, _method in sites:
            holder = _holder(path, call, holders)
            switched = holder in off or _switched_off_call(call, defaults, named.get(path))
            for target in targets & defs.keys():
                now[target] = now.get(target, True) and switched
        found = {target for target, switched in now.items() if switched and target not in inits}
        if found == off and named == before:
            break
        off = found
    return off, named


def _own_construction(values: FileValues, call: object) -> str:
    """The class a call builds from inside its own methods (``cls(...)`` in a factory
    classmethod, ``type(self)(...)``, ``self.__class__(...)``): its qualified name, else
    "". Such a construction names no class, yet passes its constructor's parameters (a
    ``from_data_cfg`` passing ``fp16=args.fp16``)."""
    expr = call.expr  # type: ignore[attr-defined]
    func = expr.func if expr.kind == "Call" and expr.parts else None
    if func is None or not (
        (func.kind == "Name" and func.name == "cls")
        or func.text in ("type(self)", "self.__class__")
    ):
        return ""
    defs = values.defs
    index = call.function  # type: ignore[attr-defined]
    d = defs[index] if 0 <= index < len(defs) else None
    while d is not None and d.owner >= 0 and not defs[d.owner].is_class:
        d = defs[d.owner]
    return defs[d.owner].qual if d is not None and d.owner >= 0 else ""


def skipped_spans(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    named: Mapping[str, Mapping[int, Mapping[str, list[object]]]],
) -> dict[str, list[tuple[int, int]]]:
    """path -> (first, last line) of the code the run's values never reach inside a
    function: the body of an ``if`` whose test they make false, the ``elif``/``else`` of one
    they make true (``elif pooler_type == "ROIAlignV2":`` with the caller passing the
    config's ``POOLER_TYPE``: the ``ROIPool`` and rotated branches after it), and the rest of
    the function after a guard they make true whose body returns (``if not
    cfg.MODEL.KEYPOINT_ON: return {}`` before the keypoint head is built). A test is valued
    by the options' and the config's values (``defaults``: ``config:MODEL.KEYPOINT_ON``) and
    the function's told names (``named``: :func:`switched_off_named`); one that cannot be
    told skips nothing, and so does a test reading neither a config key nor a told name (a
    command-line option's ``if opts.resume:``, which the switched-off calls' rules read,
    keeping a resume's checkpoint load as a format to convert)."""
    out = _skipped_spans(analyses, defaults, named)
    # a module's flag (``_USE_MEGATRON = False``) that only code the run skips sets to
    # another value (``global _USE_MEGATRON; _USE_MEGATRON = True`` in the model-parallel
    # branch): it keeps its first value, and the tests of it in the module's functions are
    # valued by it
    flagged = _module_flags(analyses, out)
    if flagged:
        told = {
            path: {i: {**named.get(path, {}).get(i, {}), **flags} for i in range(len(defs))}
            for path, (flags, defs) in flagged.items()
        }
        for path, spans in _skipped_spans(analyses, defaults, told, set(flagged)).items():
            out[path] = sorted(set(out.get(path, [])) | set(spans))
    return out


def _module_flags(
    analyses: Sequence[FileAnalysis], skipped: Mapping[str, Sequence[tuple[int, int]]]
) -> dict[str, tuple[dict[str, list[object]], Sequence[DefValues]]]:
    """path -> (flag -> [its values], the file's defs) for each module-level name assigned a
    literal at the top level and, elsewhere, only literals in functions (through ``global``),
    where those assignments outside the ``skipped`` spans leave it one value."""
    out: dict[str, tuple[dict[str, list[object]], Sequence[DefValues]]] = {}
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or is_test_path(fa.path) or fa.path not in skipped:
            continue
        spans = skipped[fa.path]
        top = {
            a.target.name: a.value
            for a in values.assigns
            if a.top and a.target.kind == "Name" and a.value.kind == "Constant"
        }
        flags: dict[str, list[object]] = {}
        for name, first in top.items():
            if (
                sum(1 for a in values.assigns if a.target.kind == "Name" and a.target.name == name)
                > 1
            ):
                continue
            later = [
                a
                for d in values.defs
                for a in d.assigns
                if a.target.kind == "Name" and a.target.name == name
            ]
            if not later or any(a.value.kind != "Constant" for a in later):
                continue
            running = {a.value.value for a in later if not any(x <= a.line <= y for x, y in spans)}
            if running <= {first.value}:
                flags[name] = [first.value]
        if flags:
            out[fa.path] = (flags, values.defs)
    return out


def _skipped_spans(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    named: Mapping[str, Mapping[int, Mapping[str, list[object]]]],
    paths: Collection[str] | None = None,
) -> dict[str, list[tuple[int, int]]]:
    """:func:`skipped_spans`' one pass (over ``paths`` only, when given)."""
    out: dict[str, list[tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or is_test_path(fa.path) or (paths is not None and fa.path not in paths):
            continue
        told = named.get(fa.path, {})
        for i, d in enumerate(values.defs):
            if d.is_class or not d.branches:
                continue
            names = told.get(i, {})
            for branch in d.branches:
                keys = [k for e in branch.test.walk() if (k := _gate_key(e)) is not None]
                if not any(k.startswith("config:") or k[1:] in names for k in keys):
                    continue  # an option's test: the rules of switched-off calls read it
                found = outcomes(branch.test, _gate_key, _gate_values(defaults, names))
                if found is None or len(found) != 1:
                    continue
                body_end = branch.body_end or branch.end_line
                if found == {False}:
                    if branch.line < body_end:
                        out.setdefault(fa.path, []).append((branch.line + 1, body_end))
                    continue
                if body_end < branch.end_line:  # its ``elif``/``else`` never runs
                    out.setdefault(fa.path, []).append((body_end + 1, branch.end_line))
                elif branch.end_line < d.end_line and _returns_in(d, branch, body_end):
                    out.setdefault(fa.path, []).append((branch.end_line + 1, d.end_line))
    return {path: sorted(set(found)) for path, found in out.items()}


def _returns_in(d: DefValues, branch: IfValues, body_end: int) -> bool:
    """Whether the body of ``branch`` (an ``if`` of ``d`` without ``else``) returns
    whenever it runs: a ``return`` of its own, not one of an ``if`` nested in it."""
    nested = [
        (b.line, b.end_line)
        for b in d.branches
        if b is not branch and branch.line < b.line and b.end_line <= body_end
    ]
    return any(
        branch.line <= r.line <= body_end and not any(a <= r.line <= z for a, z in nested)
        for r in d.returns
    )


def switched_off_named(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    apart: Callable[[str], object] | None = None,
) -> tuple[set[tuple[str, str]], dict[str, dict[int, dict[str, list[object]]]]]:
    """:func:`switched_off_functions` and the values of each function's names, computed once
    for the review's effort and :func:`unrun_draws` (on fairseq's thousands of options, each
    computation is seconds); ``apart`` as :func:`_switched_off_named` reads it."""
    return _switched_off_named(analyses, defaults, apart)


def switched_off_spans(
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    named: Mapping[str, Mapping[int, Mapping[str, list[object]]]] | None = None,
    unset: Collection[str] = (),
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, ``if@line``) -> (first, last line) of each branch of an ``if`` around a call or
    an assignment that the options' defaults never take (timm's ``if args.naflex_loader:``,
    a ``store_true`` flag off by default, holding the only calls of another data pipeline):
    its body when the test is false, its ``else`` when it is true. A test is valued as
    :func:`_switched_off_call` values it (the options' defaults, and ``named``: the plain
    names of each function, :func:`switched_off_named`). What only such a branch uses is
    not reached (:func:`apart_only`, which takes these spans as dead code). A test reading
    an option the code sets at run time (``args.distributed = True`` in an
    ``init_distributed_mode(args)`` beside ``--distributed`` defaulting to False) is not
    told by the default: its branches stay, as do those of the options in ``unset`` (no
    default written: required, or a value the command line is expected to give).

    Only a branch the switch takes *instead of* the default's is such a span: one that
    builds anew a name the branch the defaults take builds too (``loader_train =
    create_naflex_loader(...)`` beside ``else: loader_train = create_loader(...)``, a loss
    chosen in an ``if``/``elif`` chain), :func:`_instead_of_default`. A branch that adds
    to what the run builds (``if args.resume:`` loading a checkpoint, ``if
    args.model_ema:`` building the EMA, ``if pretrained:`` loading weights, with no
    ``else`` or an ``else`` that only sets a constant) is the script's own feature behind
    an off switch: what it uses stays reached, noted as off by default where it is
    work."""
    files = list(with_facts(analyses))
    # the attributes of a plain name the code assigns (``args.distributed = ...``)
    assigned = {
        a.target.name
        for _, facts in files
        if facts.values is not None
        for a in (*facts.values.assigns, *(x for d in facts.values.defs for x in d.assigns))
        if a.target.kind == "Attribute"
        and a.target.target.kind == "Name"
        and a.target.target.name not in ("self", "cls")
    }
    cache: dict[tuple[str, int, int], set[object] | None] = {}

    def told_in(path: str, branch: IfValues) -> set[object] | None:
        """The values ``branch``'s test (in ``path``) takes under the run's values (None:
        not told, or an option the code sets at run time or gives no default)."""
        key = (path, branch.line, branch.col)
        if key not in cache:
            given = (named or {}).get(path, {}).get(branch.function, {})
            cache[key] = (
                None
                if any(
                    e.kind == "Attribute"
                    and (e.name in assigned or e.name in unset)
                    and e.target.kind == "Name"
                    for e in branch.test.walk()
                )
                else outcomes(branch.test, _gate_key, _gate_values(defaults, given))
            )
        return cache[key]

    out: dict[tuple[str, str], tuple[int, int]] = {}
    for fa, facts in files:
        values = facts.values
        if values is None:
            continue
        seen: set[tuple[int, int]] = set()
        ifs = [b for c in values.calls for b in c.ifs]
        ifs += [b for a in values.assigns for b in a.ifs]
        ifs += [b for d in values.defs for a in d.assigns for b in a.ifs]
        told = partial(told_in, fa.path)
        for branch in ifs:
            if (branch.line, branch.col) in seen:
                continue
            seen.add((branch.line, branch.col))
            if not 0 < branch.body_end < branch.end_line:
                continue  # no other branch the defaults take: an added feature
            found = told(branch)
            body = (branch.line, branch.body_end)
            rest = (branch.body_end + 1, branch.end_line)
            if found == {False} and _instead_of_default(values.calls, branch, body, rest, told):
                out[(fa.path, f"if@{branch.line}")] = body
            elif found == {True} and _instead_of_default(values.calls, branch, rest, body, told):
                out[(fa.path, f"else@{branch.line}")] = rest
        out.update(_untaken_sides(fa.path, values, told))
    return out


def _untaken_sides(
    path: str, values: FileValues, told: Callable[[IfValues], set[object] | None]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, ``ifexp@line:col``) -> (first, last line) of the side of a conditional
    expression an assignment chooses its value with that the options' defaults never take
    (CenterNet's ``self.crit_reg = RegL1Loss() if opt.reg_loss == 'l1' else \\`` then
    ``RegLoss() if opt.reg_loss == 'sl1' else None``: with ``--reg_loss l1`` the second line
    builds nothing): the lines of that side that the taken side does not share, when they
    run on from its first line. A side on the taken side's lines is left (the spans are
    lines)."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    assigns = [(a, -1) for a in values.assigns]
    assigns += [(a, n) for n, d in enumerate(values.defs) for a in d.assigns]
    seen: set[tuple[int, int]] = set()
    for a, fn in assigns:
        for e in a.value.walk():
            if e.kind != "IfExp" or len(e.parts) != 3 or (e.line, e.col) in seen:
                continue
            seen.add((e.line, e.col))
            test, body, orelse = e.parts
            found = told(IfValues(test, fn, e.line, e.col, e.end_line, e.end_col))
            if found == {False}:
                skipped, taken = body, orelse
            elif found == {True}:
                skipped, taken = orelse, body
            else:
                continue
            # a taken side that names nothing the reachability follows (``None``, the
            # object's own attribute ``self.crit_reg``) shares its lines freely
            plain = taken.kind == "Constant" or (
                taken.kind == "Attribute" and taken.text.startswith("self.")
            )
            shared = set() if plain else set(range(taken.line, taken.end_line + 1))
            first = skipped.line
            while first in shared and first <= skipped.end_line:
                first += 1
            last = first
            while last + 1 <= skipped.end_line and last + 1 not in shared:
                last += 1
            if first <= skipped.end_line and not any(
                line in shared for line in range(first, last + 1)
            ):
                out[(path, f"ifexp@{e.line}:{e.col}")] = (first, last)
    return out


def _instead_of_default(
    calls: Sequence[CallValues],
    branch: IfValues,
    skipped: tuple[int, int],
    taken: tuple[int, int],
    told: Callable[[IfValues], set[object] | None],
) -> bool:
    """Whether the ``skipped`` lines of ``branch`` (its body or its ``else``) build anew a
    name its ``taken`` lines build too where the defaults run them: a call's result stored
    in the same target on both sides, neither call reading that target (``model =
    torch.jit.script(model)`` wraps what the run built, no alternative to it). An ``elif``
    the defaults switch off takes no part in the default's side; ``told`` values a test."""

    def builds(span: tuple[int, int], default: bool) -> set[str]:
        found: set[str] = set()
        for c in calls:
            if c.stored is None or not span[0] <= c.expr.line <= span[1]:
                continue
            if not any((b.line, b.col) == (branch.line, branch.col) for b in c.ifs):
                continue
            target = c.stored
            if any(
                e.text == target.text if target.kind != "Name" else e.name == target.name
                for e in c.expr.walk()
                if e.kind == target.kind
            ):
                continue
            if default and not _runs_by_default(c, branch, told):
                continue
            found.add(target.text)
        return found

    return bool(builds(skipped, False) & builds(taken, True))


def _runs_by_default(
    call: CallValues, outer: IfValues, told: Callable[[IfValues], set[object] | None]
) -> bool:
    """Whether no ``if`` between ``call`` and ``outer`` (an ``elif`` of its chain, an
    ``if`` in its body) is decided by ``told`` against the side ``call`` is on."""
    for b in call.ifs:
        if (b.line, b.col) == (outer.line, outer.col):
            return True
        line = call.expr.line
        in_else = 0 < b.body_end < line <= b.end_line
        found = told(b)
        if found == ({True} if in_else else {False}):
            return False
    return True


def unrun_draws(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    defaults: Mapping[str, Iterable[object]],
    named: Mapping[str, Mapping[int, Mapping[str, list[object]]]] | None = None,
) -> frozenset[tuple[str, str]]:
    """(path, function) of the random resizes (DS119) whose size is drawn only under an
    ``if`` the defaults never take: PyTorch-YOLOv3's ``collate_fn`` draws a new size under
    ``if self.multiscale and ...``, ``self.multiscale`` stored from the dataset's
    ``multiscale`` parameter, which every construction passes as False (the training's
    ``--multiscale_training`` flag off, its evaluation's literal). Every batch then has the
    configured size: no input pipeline to bucket, as the recipe keeps only the branches the
    defaults take. A test is valued as :func:`switched_off_functions` values it (options,
    parameters every running call passes), and a ``self`` attribute by what every
    construction of its class passes for the ``__init__`` parameter stored in it. ``named``:
    the names' values of :func:`switched_off_named`, computed here when not given."""
    drawn = [f for f in result.shape_findings if f.case == RANDOM_RESIZE]
    if not drawn:
        return frozenset()
    if named is None:
        named = _switched_off_named(analyses, defaults)[1]
    opts = _gate_values(defaults, {})
    files = {
        fa.path: fa.syntax.values
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    }
    # the class's ``self.x = x`` of an ``__init__`` parameter, stored nowhere else
    stored: dict[str, dict[str, str]] = {}  # class -> attribute -> parameter
    for values in files.values():
        for d in values.defs:
            if d.is_class:
                continue
            owner = values.defs[d.owner] if d.owner >= 0 else None
            if owner is None or not owner.is_class:
                continue
            params = {name for name, _ in d.params}
            for a in d.assigns:
                t = a.target
                if t.kind != "Attribute" or t.target.text != "self":
                    continue
                own = stored.setdefault(owner.name, {})
                if (
                    d.name == "__init__"
                    and a.value.kind == "Name"
                    and a.value.name in params
                    and t.name not in own
                ):
                    own[t.name] = a.value.name
                else:
                    own[t.name] = ""  # assigned elsewhere too: not the parameter's alone
    # what every construction passes for the stored parameter (its default when left out)
    held: dict[tuple[str, str], list[object] | None] = {}
    inits = {
        values.defs[d.owner].name: d
        for values in files.values()
        for d in values.defs
        if d.name == "__init__" and d.owner >= 0
    }
    for path, values in files.items():
        for call in values.calls:
            cls = call.expr.callee().rpartition(".")[2]
            if cls not in stored or cls not in inits:
                continue
            args = _call_arguments(call.expr, inits[cls])
            names = named.get(path, {}).get(call.function, {})
            for attr, param in stored[cls].items():
                if not param:
                    continue
                given = None if args is None else args.get(param)
                found = (
                    _fixed(values_of(given, _gate_key, _gate_values(defaults, names)))
                    if given is not None
                    else None
                )
                before = held.get((cls, attr), [])
                held[(cls, attr)] = (
                    None
                    if found is None or before is None
                    else before + [v for v in found if v not in before]
                )

    def key(e: Expr) -> str | None:
        if e.kind == "Attribute" and e.target.text == "self":
            return f"self.{e.name}"
        return _gate_key(e)

    out: set[tuple[str, str]] = set()
    for f in drawn:
        places = [(f.path, f.function or "")] + [(c.path, c.function) for c in f.chain]
        draws = []
        for path, function in places:
            values = files.get(path)
            if values is None:
                continue
            for call in values.calls:
                d = values.defs[call.function] if call.function >= 0 else None
                if (
                    d is not None
                    and d.qual == function
                    and call.expr.parts
                    and RANDOM_DRAW.match(call.expr.parts[0].text)
                ):
                    owner = values.defs[d.owner].name if d.owner >= 0 else ""
                    draws.append((path, call, owner))
        if not draws:
            continue

        def off(path: str, call: object, owner: str) -> bool:
            given = dict(opts)
            given.update(
                {f"={k}": v for k, v in named.get(path, {}).get(call.function, {}).items()}
            )
            given.update({f"self.{a}": v for (c, a), v in held.items() if c == owner and v})
            for branch in call.ifs:
                found = outcomes(branch.test, key, given)
                if found is not None and found == {0 < branch.body_end < call.expr.line}:
                    return True
            return False

        if all(off(*d) for d in draws):
            out.add((f.path, f.function or ""))
    return frozenset(out)


#: Methods a framework calls by itself (``model(x)`` runs ``forward``): an explicit call of
#: one under a switched-off branch does not make it dead.
_IMPLICIT_METHODS = frozenset({"forward", "extra_repr", "reset_parameters"})


def _holders(index: Mapping[tuple[str, str], int]) -> dict[tuple[str, int], tuple[str, str]]:
    """(path, def index) -> (path, qual) of the first def of ``index`` at that index: what
    :func:`_holder` looks up, indexed once rather than scanned for every call."""
    out: dict[tuple[str, int], tuple[str, str]] = {}
    for (path, qual), i in index.items():
        out.setdefault((path, i), (path, qual))
    return out


def _holder(
    path: str, call: object, holders: Mapping[tuple[str, int], tuple[str, str]]
) -> tuple[str, str] | None:
    """(path, qual) of the function or method whose body holds ``call``, None for the
    module's (``holders``: :func:`_holders`)."""
    scope = call.function  # type: ignore[attr-defined]
    if scope < 0:
        return None
    return holders.get((path, scope))


def _written(values: object) -> list[Expr]:
    """The expressions a file writes values in: its calls, its assignments, its parameters'
    defaults and its returns."""
    written = [call.expr for call in values.calls]  # type: ignore[attr-defined]
    written += [a.value for a in values.assigns]  # type: ignore[attr-defined]
    for d in values.defs:  # type: ignore[attr-defined]
        written += [a.value for a in d.assigns] + list(d.returns)
        written += [default for _, default in d.params if default is not None]
    return written


#: The last analyses :func:`_written_names` indexed, and the index: one review asks for it
#: several times (dead, switched-off and export-only definitions) of the same analyses.
_WRITTEN_MEMO: list[tuple[Sequence[FileAnalysis], dict[str, set[tuple[str, int]]]]] = []


def _written_names(analyses: Sequence[FileAnalysis]) -> dict[str, set[tuple[str, int]]]:
    """name -> (path, line) of each expression of :func:`_written` that uses it as a value,
    not as what it calls (:func:`_value_names`): a function or method so named may be passed
    along and run though no call names it (``mp.spawn(worker, ...)``,
    ``register_hook(self.hook)``). The one index the dead functions
    (:func:`uncalled_functions`), the switched-off ones (:func:`switched_off_functions`) and
    the export-only ones (:func:`apart_only`) read; the last one built is kept for the same
    sequence of analyses (the caller must not change it)."""
    if _WRITTEN_MEMO and _WRITTEN_MEMO[0][0] is analyses:
        return _WRITTEN_MEMO[0][1]
    out = _index_written(analyses)
    _WRITTEN_MEMO[:] = [(analyses, out)]
    return out


def _index_written(analyses: Iterable[FileAnalysis]) -> dict[str, set[tuple[str, int]]]:
    out: dict[str, set[tuple[str, int]]] = {}
    for fa in analyses:
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        for x in _written(values) if values is not None else ():
            for name in _value_names(x):
                out.setdefault(name, set()).add((fa.path, x.line))
    return out


def _fixed(found: list[object] | None) -> list[object] | None:
    """``found`` when every value is one no call can change in place (a number, a string,
    None, a tuple), else None: a local assigned ``[]`` and appended to later (timm's
    ``muon_params = []`` before ``if muon_params:``) holds more than its assignment says."""
    if found is None or not all(isinstance(v, _FIXED) for v in found):
        return None
    return found


_FIXED = (type(None), bool, int, float, str, tuple)


def _name_values(
    sites: Sequence[tuple[str, object, set[tuple[str, str]], bool]],
    defs: Mapping[tuple[str, str], tuple[object, bool]],
    index: Mapping[tuple[str, str], int],
    holders: Mapping[tuple[str, int], tuple[str, str]],
    locals_: Mapping[tuple[str, int], Mapping[str, Expr]],
    defaults: Mapping[str, Iterable[object]],
    off: set[tuple[str, str]],
    known: Mapping[str, Mapping[int, Mapping[str, list[object]]]] | None = None,
    attributes: Sequence[ConfiguredAttribute] = (),
) -> dict[str, dict[int, dict[str, list[object]]]]:
    """path -> def index -> name -> every value a plain name of that function may hold: a
    local assigned once from a told expression, a parameter every running call passes a
    told value for (or leaves its told default); a name that cannot be told is left out.
    ``known``: the values a previous round told, through which a call passing its own
    function's parameter on (``EfficientNet(coef, load_weights)``) tells the callee's.
    ``attributes``: the ``self.x`` a class built from its config stores
    (:func:`configured_attributes`), told as ``self.x`` in each of its methods."""
    opts = {k: list(v) for k, v in defaults.items()}

    def tell(expr: Expr | None, path: str, scope: int) -> list[object] | None:
        if expr is None:
            return None
        names = [
            e.name if e.kind == "Name" else f"self.{e.name}"
            for e in expr.walk()
            if e.kind == "Name" or _self_attribute(e)
        ]
        bound = locals_.get((path, scope), {})
        named = {
            n: found
            for n, v in bound.items()
            if n != (expr.name if expr.kind == "Name" else None)
            and n in names
            and (found := _fixed(values_of(v, partial(_option_key, bound=bound), opts))) is not None
        }
        if known is not None and scope >= 0:
            params = known.get(path, {}).get(scope, {})
            named.update({n: params[n] for n in names if n in params and n not in named})
        return _fixed(values_of(expr, partial(_gate_key, bound=bound), _gate_values(opts, named)))

    out: dict[str, dict[int, dict[str, list[object]]]] = {}
    for (path, scope), names in locals_.items():
        for name, value in names.items():
            found = tell(value, path, scope)
            if found is not None:
                out.setdefault(path, {}).setdefault(scope, {})[name] = found
    passes: dict[tuple[str, str], dict[str, list[object] | None]] = {}
    for path, call, targets, _ in sites:
        holder = _holder(path, call, holders)
        if holder in off or _switched_off_call(call, defaults, out.get(path)):
            continue  # a call that does not run passes nothing
        scope = index.get(holder, -1) if holder is not None else -1
        for target in targets & defs.keys():
            d = defs[target][0]
            args = _call_arguments(call.expr, d)  # type: ignore[attr-defined]
            told = passes.setdefault(target, {})
            for name, _ in d.params:  # type: ignore[attr-defined]
                given = None if args is None else args.get(name)
                found = tell(given, path, scope) if given is not None else None
                if found is None or told.get(name, []) is None:
                    told[name] = None
                else:
                    told[name] = told.get(name, []) + [
                        v for v in found if v not in told.get(name, [])
                    ]
    for (path, qual), told in passes.items():
        i = index.get((path, qual))
        for name, found in told.items():
            if i is not None and found:
                out.setdefault(path, {}).setdefault(i, {}).setdefault(name, found)
    for attribute in attributes:
        every: list[object] = []
        for scope, expr in attribute.sources:
            found = tell(expr, attribute.path, scope)
            if found is None:
                break
            every += [v for v in found if v not in every]
        else:
            for method in attribute.methods:
                scopes = out.setdefault(attribute.path, {}).setdefault(method, {})
                scopes.setdefault(f"self.{attribute.name}", every)
    return out


def _self_attribute(expr: Expr) -> bool:
    """Whether ``expr`` is ``self.x``."""
    return (
        expr.kind == "Attribute"
        and bool(expr.parts)
        and expr.target.kind == "Name"
        and expr.target.name == "self"
    )


class ConfiguredAttribute(NamedTuple):
    """An attribute ``self.<name>`` a class built from its config stores from a parameter of
    its ``__init__`` (:func:`configured_attributes`): the expressions it may hold, each with
    the def index it is read in, and the methods of the class that read it."""

    path: str
    name: str
    sources: tuple[tuple[int, Expr], ...]
    methods: tuple[int, ...]


#: The decorator of an ``__init__`` whose class builds itself from a config through its
#: ``from_config`` classmethod (detectron2-style ``@configurable``).
_CONFIGURABLE = re.compile(r"(^|\.)configurable$")


def configured_attributes(
    analyses: Sequence[FileAnalysis], apart: Callable[[str], object] | None = None
) -> list[ConfiguredAttribute]:
    """The attributes a class that builds itself from a config stores: its ``__init__``
    decorated as configurable (``@configurable``) takes its keywords from the dict its
    ``from_config`` classmethod returns (``"box_reg_loss_type": cfg.MODEL.RPN.
    BBOX_REG_LOSS_TYPE``, a literal dict returned, or a name bound to one and given more
    keys by subscript), and ``self.box_reg_loss_type = box_reg_loss_type`` stores it: every
    method then reads the config's value (a loss type picking a branch of the loss). A key
    the dict leaves out is the parameter's default. Not told when the dict is updated
    wholesale (``ret.update(...)``), when another method stores the attribute too, or when
    a subclass (files counted apart left out) stores it or sets the key in its own
    ``from_config``."""
    files = [
        (fa, values)
        for fa, facts in with_facts(analyses)
        if (values := facts.values) is not None
        and not is_test_path(fa.path)
        and not (apart and apart(fa.path))
    ]
    # a class's name -> the (values, def index) of the classes naming it as a base
    subclasses: dict[str, list[tuple[FileValues, int]]] = {}
    for fa, values in files:
        bases = {c.qualname: c.bases for c in fa.classes}
        for n, d in enumerate(values.defs):
            for base in bases.get(d.qual, ()) if d.is_class else ():
                subclasses.setdefault(base.rpartition(".")[2], []).append((values, n))
    out: list[ConfiguredAttribute] = []
    for fa, values in files:
        defs = values.defs
        for c, cls in enumerate(defs):
            if not cls.is_class or cls.owner >= 0:
                continue
            methods = {d.name: n for n, d in enumerate(defs) if d.owner == c and not d.is_class}
            init, maker = methods.get("__init__"), methods.get("from_config")
            if init is None or maker is None:
                continue
            if not any(_CONFIGURABLE.search(e.full()) for e in defs[init].decorators):
                continue
            keys = _returned_keys(values, maker)
            if keys is None:
                continue
            stored: dict[str, int] = {}
            for n in methods.values():
                for a in defs[n].assigns:
                    if _self_attribute(a.target):
                        stored[a.target.name] = stored.get(a.target.name, 0) + 1
            params = dict(defs[init].params)
            for a in defs[init].assigns:
                if not (_self_attribute(a.target) and a.value.kind == "Name"):
                    continue
                name, param = a.target.name, a.value.name
                if stored.get(name) != 1 or param not in params:
                    continue
                if any(_sets_key(sub, n, name, param) for sub, n in subclasses.get(cls.name, ())):
                    continue
                if param in keys:
                    sources = ((maker, keys[param]),)
                elif params[param] is not None:
                    sources = ((init, params[param]),)  # type: ignore[assignment]
                else:
                    continue
                out.append(
                    ConfiguredAttribute(
                        fa.path,
                        name,
                        sources,
                        tuple(sorted(methods.values())),  # type: ignore[arg-type]
                    )
                )
    return out


def _returned_keys(values: FileValues, maker: int) -> dict[str, Expr] | None:
    """The string keys of the dict def ``maker`` returns and their values: a dict literal
    returned, or a name bound once to one and given keys by subscript (``ret["head"] =
    ...``); None for anything else, or a dict updated wholesale (``ret.update(...)``)."""
    d = values.defs[maker]
    if len(d.returns) != 1:
        return None
    returned = d.returns[0]
    if returned.kind == "Dict":
        return dict(_dict_items(returned))
    if returned.kind != "Name":
        return None
    bound = [a for a in d.assigns if a.target.kind == "Name" and a.target.name == returned.name]
    if len(bound) != 1 or bound[0].value.kind != "Dict":
        return None
    keys = dict(_dict_items(bound[0].value))
    for call in values.calls:
        func = call.expr.func if call.expr.parts else None
        if (
            call.function == maker
            and func is not None
            and func.kind == "Attribute"
            and func.target.kind == "Name"
            and func.target.name == returned.name
        ):
            return None  # ``ret.update(...)``, ``ret.setdefault(...)``: keys not seen
    for a in d.assigns:
        target = a.target
        if target.kind != "Subscript" or len(target.parts) < 2:
            continue
        holder, key = target.parts[0], target.parts[1]
        if holder.kind == "Name" and holder.name == returned.name:
            if key.kind != "Constant" or not isinstance(key.value, str):
                return None
            keys[key.value] = a.value
    return keys


def _dict_items(expr: Expr) -> Iterator[tuple[str, Expr]]:
    """The (key, value) pairs of a dict literal with string keys (``**spread`` left out)."""
    for key, item in zip(expr.keys, expr.items, strict=True):
        if key is not None:
            yield key, item


def _sets_key(values: FileValues, cls: int, name: str, key: str) -> bool:
    """Whether class ``cls`` of ``values`` (a subclass) stores ``self.<name>`` in a method of
    its own or sets ``key`` in a ``from_config`` of its own (a dict it returns, a subscript
    assignment)."""
    for d in values.defs:
        if d.owner != cls or d.is_class:
            continue
        if any(_self_attribute(a.target) and a.target.name == name for a in d.assigns):
            return True
        if d.name != "from_config":
            continue
        for a in d.assigns:
            target = a.target
            if target.kind == "Subscript" and len(target.parts) > 1:
                index = target.parts[1]
                if index.kind != "Constant" or index.value == key:
                    return True
        if any(r.kind == "Dict" and key in r.keys for r in d.returns):
            return True
    return False


def decorators_of(facts: SyntaxFacts) -> dict[str, tuple[str, ...]]:
    """def or class -> its decorators, each by the name it resolves to through the file's
    imports (``timm.models.register_model``, ``torch.no_grad``), else as it is written
    (``LOADERS.register`` of a ``Registry()`` built in the same module, which the
    import-resolved record leaves out; a function's only: a class registered so is told by
    the registry picks of the model tree). The one reading of a file's decorators for every
    rule that asks which registry a def is registered into, or whether it is decorated at
    all: reading only the resolved ones loses the registries a module builds for itself."""
    out = {name: tuple(found) for name, _, found in facts.decorators}
    for d in facts.values.defs if facts.values is not None else ():
        if d.decorators and d.qual not in out:
            out[d.qual] = tuple(_decorator_name(e) for e in d.decorators)
    return out


def _decorator_name(expr: Expr) -> str:
    """A decorator as written, less the call that configures it (``LOADERS.register`` of
    ``@LOADERS.register("R-50")``)."""
    func = expr.parts[0] if expr.kind == "Call" and expr.parts else expr
    return func.full()


def registry_of(decorator: str) -> str:
    """The registry a decorator registers into: the receiver of a ``register`` method
    (``LOADERS`` of ``LOADERS.register``), a bare ``register_model`` its own table; "" for
    a decorator that registers nothing (``torch.no_grad``)."""
    head, _, tail = decorator.rpartition(".")
    if tail not in REGISTER:
        return ""
    return decorator if tail == "register_model" or not head else head


def _decorated(facts: SyntaxFacts) -> set[str]:
    """The defs and classes of a file that carry a decorator (:func:`decorators_of`): a
    registry builds them by name, so no call names them and they are never dead code."""
    return set(decorators_of(facts))


def _registered_classes(facts: SyntaxFacts) -> set[str]:
    """The classes of a file a decorator registers into a table (``@REGISTRY.register()``
    over ``class Head(nn.Module)``), as the scan's model records have them."""
    models = facts.models
    return {name for name, _, found in models.decorated if found} if models is not None else set()


def uncalled_methods(
    analyses: Sequence[FileAnalysis],
    dead: Collection[tuple[str, str]],
    apart: Callable[[str], str],
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, ``Class.method``) -> (first, last line) of the methods of ported module-level
    classes that only code not reached calls: glow-tts-like ``STFT.inverse``, called by an
    unreached ``griffin_lim`` and by the class's own ``forward``, which nothing runs (the
    module is built as ``self.stft_fn`` and only its ``transform`` is called). Their dynamic
    shapes and gaps are not priced. ``dead`` are the (path, top-level def) nothing reaches
    (:func:`uncalled_functions`, :func:`apart_only`); ``apart(path)`` is non-empty for a file
    counted apart.

    Methods are reached by default (why :func:`uncalled_functions` looks only at module-level
    defs): a base class, a framework or a hook may call any of them by name. A method is
    dead only on positive evidence: some call names it (by its last name, a torch or other
    package's call of the same name aside) and every such call is in dead code. Only the
    public methods of network classes (deriving from a ``torch.nn`` class) count: a
    ``_``-prefixed hook (``_load_from_state_dict``), an autograd ``backward`` or a method of
    a logger or a meter may be called by the framework around it. A class's
    ``forward`` is dead only where every construction of the class assigns it to a
    ``self.<attribute>`` that is never called nor passed whole, no call resolves to that
    ``forward`` and no class derives from it."""
    local = _local_packages(analyses)
    #: last name called -> the (path, caller qualname) of each call
    callers: dict[str, list[tuple[str, str]]] = {}
    #: class name -> how many calls name it; the (path, attribute) of its ``self.x = C(...)``
    built: Counter[str] = Counter()
    parts: dict[str, list[tuple[str, str]]] = {}
    used_whole: set[tuple[str, str]] = set()  # (path, attribute): ``self.x(...)``, passed
    resolved_forward: set[str] = set()  # ``Class`` of every call resolved to its forward
    bases: set[str] = set()
    methods: list[tuple[str, str, str, tuple[int, int]]] = []  # path, class, method, span
    #: class name -> its bases, to tell the network classes (a ``torch.nn`` base, directly
    #: or through the repository's classes)
    class_bases: dict[str, set[str]] = {}
    for fa, facts in with_facts(analyses):
        bases.update(b.rpartition(".")[2] for c in fa.classes for b in c.bases)
        for c in fa.classes:
            class_bases.setdefault(c.qualname.rpartition(".")[2], set()).update(c.bases)
        resolved_forward.update(
            c.callee.rpartition(".")[0].rpartition(".")[2]
            for c in fa.calls
            if c.callee.endswith(".forward")
        )
        values = facts.values
        if values is None:
            continue
        foreign = {b for b, n in facts.imports if n.partition(".")[0] not in local}
        defs = values.defs
        for call in values.calls:
            chain = call.expr.func.chain()
            name = call.expr.callee()
            caller = defs[call.function].qual if 0 <= call.function < len(defs) else ""
            if name and not (chain and len(chain) > 1 and chain[0] in foreign):
                callers.setdefault(name, []).append((fa.path, caller))
                built[name] += 1
            if chain and len(chain) == 2 and chain[0] == "self":
                used_whole.add((fa.path, chain[1]))
            for arg in (*call.expr.args, *(k.target for k in call.expr.keywords)):
                whole = arg.chain()
                if whole and len(whole) == 2 and whole[0] == "self":
                    used_whole.add((fa.path, whole[1]))
        for d in defs:
            for a in d.assigns:
                target = a.target.chain()
                built_by = a.value.func.chain() if a.value.kind == "Call" else None
                if (
                    built_by
                    and not (len(built_by) > 1 and built_by[0] in foreign)  # nn.Embedding
                    and target
                    and len(target) == 2
                    and target[0] == "self"
                ):
                    parts.setdefault(built_by[-1], []).append((fa.path, target[1]))
            owner = defs[d.owner] if 0 <= d.owner < len(defs) else None
            if (
                owner is None
                or d.is_class
                or not owner.is_class
                or owner.owner >= 0
                or "." in owner.qual
                or d.name.startswith("__")
                or apart(fa.path)
                or (fa.path, owner.qual) in dead
            ):
                continue
            methods.append((fa.path, owner.qual, d.name, (d.line, d.end_line)))

    network = {c for c, bs in class_bases.items() if any(b.startswith("torch.nn.") for b in bs)}
    grew = True
    while grew:  # through the repository's own bases
        grew = False
        for c, bs in class_bases.items():
            if c not in network and any(b.rpartition(".")[2] in network for b in bs):
                network.add(c)
                grew = True
    methods = [
        m for m in methods if m[1] in network and not m[2].startswith("_") and m[2] != "backward"
    ]

    def forward_dead(cls: str) -> bool:
        found = parts.get(cls, [])
        return (
            cls not in bases
            and cls not in resolved_forward
            and bool(found)
            and len(found) == built[cls]
            and not any(p in used_whole for p in found)
        )

    out: dict[tuple[str, str], tuple[int, int]] = {}
    changed = True
    while changed:  # a method only dead methods call is dead too
        changed = False
        for path, cls, name, span in methods:
            key = (path, f"{cls}.{name}")
            if key in out:
                continue
            if name == "forward":
                if forward_dead(cls):
                    out[key] = span
                    changed = True
                continue
            calls = callers.get(name, [])
            if calls and all(
                bool(apart(p))
                or (p, q.partition(".")[0]) in dead
                or (p, q) == key
                or (p, ".".join(q.split(".")[:2])) in out
                for p, q in calls
            ):
                out[key] = span
                changed = True
    return out


def _trains_here(analyses: Sequence[FileAnalysis]) -> bool:
    """Whether a file of the repository (tests aside) builds an optimizer or runs a backward
    pass: what is ported is what that training builds, not a package's public names."""
    return any(trains(u.api) for fa in analyses if not is_test_path(fa.path) for u in fa.uses)


def _framework_classes(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The last names of the repository's classes that derive from another package's class
    (a torch Module, a Dataset): the classes a training builds, unlike the plain ones
    (:func:`plain_classes`: a package's ``Reader``, ``Predictor``, which users build)."""
    names = {c.qualname.rpartition(".")[2] for fa in analyses if not fa.errors for c in fa.classes}
    return frozenset(names - plain_classes(analyses))


def _handed_on(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The repository modules some file uses as a value, not only through their attributes:
    handed to a call (``get_instance(models, "arch", config)``, ``getattr(models, name)``)
    or read whole (``models.__dict__[args.arch]``). Any name such a package exports may be
    looked up by a string: its re-exports are uses (:func:`_reexported`)."""
    out: set[str] = set()
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None:
            continue
        bound = dict(facts.imports)
        for name, level, module, imported in values.relative_imports:
            package = import_package(fa.modules, fa.path.endswith("__init__.py")).split(".")
            parts = package[: len(package) - (level - 1)] if level else []
            bound[name] = ".".join(p for p in [*parts, module, imported] if p)
        if not bound:
            continue
        todo = list(_written(values))
        while todo:
            e = todo.pop()
            if e.kind == "Call":
                todo.extend(e.parts[1:])  # its arguments, not what it calls
                evaluated = _evaluated_module(e, bound)
                if evaluated:
                    out.add(evaluated)
                if e.parts and e.func.kind == "Subscript":
                    # ... unless it calls what a key picks: ``models.__dict__[args.arch](...)``
                    todo.append(e.func)
            elif e.kind == "Attribute":
                # ``models.__dict__``: the module read whole; ``models.FCN8``: one name
                chain = e.parts[0].chain() if e.name == "__dict__" else None
                if chain and chain[0] in bound:
                    out.add(".".join([bound[chain[0]], *chain[1:]]))
            elif e.kind == "Name":
                if e.name in bound:
                    out.add(bound[e.name])
            else:
                todo.extend(e.parts)
    return frozenset(out)


def _evaluated_module(call: Expr, bound: Mapping[str, str]) -> str | None:
    """The imported module whose names ``eval`` looks up by a string built around a key
    (``eval('dataset.' + cfg.DATASET.DATASET)(...)``, the package re-exporting its classes
    under the names the configs write: ``from .coco import COCODataset as coco``): that
    module, as :func:`_handed_on` tells it; None for any other call."""
    from apiscan.review.registry import _concatenated

    if call.callee() != "eval" or len(call.parts) < 2:
        return None
    pieces = _concatenated(call.parts[1])
    if not pieces or len(pieces) < 2 or not isinstance(pieces[0], str):
        return None
    head, dot, _ = pieces[0].partition(".")
    if not dot or head not in bound:
        return None
    return bound[head]


def _pattern_imports(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The repository modules a call loads by a name built around a key
    (:func:`_pattern_loads`): every module whose dotted name fits the pattern may be the one
    an option picks, its classes looked up by name in it (``lib.__dict__.items()``). None
    of them is imported by name."""
    paths = {p for targets in _pattern_loads(analyses).values() for p in targets}
    return frozenset(m for fa in analyses if fa.path in paths for m in fa.modules)


def _pattern_keys(analyses: Sequence[FileAnalysis]) -> dict[tuple[str, str], dict[str, str]]:
    """Each (prefix, suffix) of a module name built around a key
    (:func:`_pattern_loads`) -> key -> the path of the module that key loads
    (``"cycle_gan"`` -> ``models/cycle_gan_model.py``)."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for found in _load_patterns(analyses).values():
        for prefix, suffix in found:
            fit = re.compile(rf"(?:\w+\.)*{re.escape(prefix)}(\w+){re.escape(suffix)}")
            keyed = out.setdefault((prefix, suffix), {})
            for fa in analyses:
                for m in fa.modules:
                    hit = fit.fullmatch(m)
                    if hit:
                        keyed.setdefault(hit.group(1), fa.path)
    return {k: v for k, v in out.items() if v}


def _load_patterns(analyses: Sequence[FileAnalysis]) -> dict[str, set[tuple[str, str]]]:
    """path of each file that loads modules by a name built around a key
    (``importlib.import_module("data." + name + "_dataset")``, the name assigned first in
    the same def or written in the call) -> the (prefix, suffix) of each such name."""
    from apiscan.review.evaluate import bind_call
    from apiscan.review.registry import _concatenated

    every = [(fa, facts.values) for fa, facts in with_facts(analyses) if facts.values is not None]

    def stored(values: FileValues, fn: int, arg: Expr, line: int) -> Expr:
        """The value last assigned in def ``fn`` to the name ``arg`` before ``line``."""
        if arg.kind != "Name" or not 0 <= fn < len(values.defs):
            return arg
        found = [
            a.value
            for a in values.defs[fn].assigns
            if a.target.kind == "Name" and a.target.name == arg.name and a.line <= line
        ]
        return found[-1] if found else arg

    def passed(values: FileValues, fn: int, name: str) -> list[Expr]:
        """What the calls of def ``fn`` pass its parameter ``name`` (``find_class_in_module(
        target, module)`` called with ``module_name = "models.networks." + filename``), each
        as the caller's def last assigned it; nothing when ``fn`` reassigns it."""
        d = values.defs[fn]
        if name not in dict(d.params) or any(
            a.target.kind == "Name" and a.target.name == name for a in d.assigns
        ):
            return []
        out = []
        for _, other in every:
            for call in other.calls:
                if call.expr.callee() != d.name:
                    continue
                arg = bind_call(d, call.expr).get(name)
                if arg is not None:
                    out.append(stored(other, call.function, arg, call.expr.line))
        return out

    patterns: dict[str, set[tuple[str, str]]] = {}
    for fa, values in every:
        bound = dict(fa.syntax.imports) if fa.syntax is not None else {}
        for call in values.calls:
            expr = call.expr
            func = expr.func if expr.parts else None
            chain = func.chain() if func is not None else None
            if not chain or not expr.args:
                continue
            dotted = ".".join([bound.get(chain[0], chain[0]), *chain[1:]])
            if dotted != "importlib.import_module":
                continue
            arg = stored(values, call.function, expr.args[0], expr.line)
            names = [arg]
            if arg.kind == "Name" and 0 <= call.function < len(values.defs):
                # a loader handed the module's name: what its callers build it from
                names = passed(values, call.function, arg.name) or names
            for name in names:
                pieces = _concatenated(name)
                if not pieces or sum(not isinstance(p, str) for p in pieces) != 1:
                    continue
                at = next(i for i, p in enumerate(pieces) if not isinstance(p, str))
                prefix, suffix = "".join(pieces[:at]), "".join(pieces[at + 1 :])
                if prefix or suffix:
                    patterns.setdefault(fa.path, set()).add((prefix, suffix))
    return patterns


def _pattern_loads(analyses: Sequence[FileAnalysis]) -> dict[str, set[str]]:
    """path of each file that loads modules by a name built around a key
    (:func:`_load_patterns`) -> the paths of the modules that fit the pattern."""
    patterns = _load_patterns(analyses)
    out: dict[str, set[str]] = {}
    for path, found in patterns.items():
        fits = [re.compile(rf"(?:\w+\.)*{re.escape(a)}\w+{re.escape(b)}") for a, b in found]
        out[path] = {
            fa.path
            for fa in analyses
            if fa.path != path and any(f.fullmatch(m) for m in fa.modules for f in fits)
        }
    return out


def _reexported(
    fa: FileAnalysis, framework: Collection[str], handed: Collection[str] = ()
) -> set[str]:
    """The classes of ``framework`` (:func:`_framework_classes`) a package's
    ``__init__.py`` imports from its submodules only to re-export them (``from .darknet
    import CSPDarknet, Darknet``, each bound name written nowhere in the file), as the
    qualified names they are bound to; nothing for another file. Where the repository
    trains, such a re-export is no use: what the training builds is
    (:func:`uncalled_functions`, :func:`apart_only`). A plain class the package exports (an
    inference API's ``Reader``) is its users' to build, and a package some file hands on
    whole (:func:`_handed_on`) is looked up by name: their re-exports stay uses."""
    facts = fa.syntax if not fa.errors else None
    values = facts.values if facts is not None else None
    if not fa.path.endswith("__init__.py") or facts is None or values is None or not framework:
        return set()
    if any(m in handed for m in fa.modules):
        return set()
    exprs = _written(values) + [loop.iter for loop in values.loops]
    written = {e.name for x in exprs for e in x.walk() if e.kind in ("Name", "Attribute")}
    written.update(base.split(".")[0] for c in fa.classes for base in c.bases)
    written.update(d.split(".")[0] for _, _, decorators in facts.decorators for d in decorators)
    return {
        target
        for bound, target in fa.exports
        if target.rpartition(".")[0] not in fa.modules
        and bound not in written
        and target.rpartition(".")[2] in framework
    }


def _not_listing(values: FileValues, written: list[Expr]) -> list[Expr]:
    """The written expressions less a module's ``__all__ = [...]``: the names a package
    lists for ``import *`` and its users, which builds nothing (as a re-export uses
    nothing where the repository trains)."""
    listing = {
        id(a.value)
        for a in values.assigns
        if a.target.kind == "Name" and a.target.name == "__all__"
    }
    return [x for x in written if id(x) not in listing] if listing else written


def package_trials(
    analyses: Sequence[FileAnalysis], shown: Collection[tuple[str, str]]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, ``__main__``) -> lines of the ``__main__`` block of each module of the packages
    holding what the documentation's examples build (``shown``), whether other files import
    it or not: a variant module of the library trying its own copy of the model out
    (``GaussianDiffusion(Unet(...))`` at the end of a guidance variant's file), no entry
    point of the run the documentation shows. The repository's root is no package: the
    scripts there (a training script beside the model the README imports) are entry
    points."""
    packages = {PurePosixPath(path).parent for path, _ in shown} - {PurePosixPath(".")}
    out = {(path, "__main__"): span for path, span in self_tests(analyses).items()}
    for fa in analyses:
        syntax = fa.syntax
        if syntax is None or syntax.main_block == (0, 0):
            continue
        if PurePosixPath(fa.path).parent in packages and (fa.path, "__main__") not in out:
            out[(fa.path, "__main__")] = syntax.main_block
    return out


def documented_uncalled(
    analyses: Sequence[FileAnalysis], result: ScanResult | None, root: Path | None
) -> dict[tuple[str, str], tuple[int, int]]:
    """:func:`uncalled_functions` less what the documentation's Python examples import
    from the package and call (a library's ``Model`` and ``Trainer`` its README builds):
    the one answer the review and its work items read."""
    from apiscan.review.commands import documented_imports
    from apiscan.review.config_files import config_words
    from apiscan.review.leftout import documented_definitions

    shown = documented_definitions(analyses, documented_imports(root))
    uncalled = uncalled_functions(analyses, result, shown, config_words(root))
    return {k: v for k, v in uncalled.items() if k not in shown}


def uncalled_functions(
    analyses: Sequence[FileAnalysis],
    result: ScanResult | None = None,
    shown: Collection[tuple[str, str]] = frozenset(),
    words: Collection[str] = frozenset(),
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, name) -> (first, last line) of the module-level functions of the repository's
    library modules that nothing runs: dead code (yolov9's ``prune`` in
    ``utils/torch_utils.py``, its ``torch.nn.utils.prune`` gaps never run; semseg's
    ``step_learning_rate`` beside the ``poly_learning_rate`` its training calls, no recipe
    row). The one rule the effort (gaps in them are not counted) and the recipe (their rows
    are no recipe) read.

    A function is used when a call or a reference names it: by its resolved name (a method
    ``x.prune(...)`` of another object is not a call of ``prune``), through a package's
    re-export, by its name as a value in a call's arguments, an assignment, a parameter
    default or a return (a callback, ``mp.spawn(worker, ...)``, detectron2's
    ``@configurable(from_config=_train_loader_from_config)``, a dict of step functions), or
    when it builds the optimizer or runs the backward pass (the training itself, run by a
    launcher the records may not show). Only a library's functions count: a module other
    files import, without a ``__main__`` block (a script's functions run as its entry
    points); decorated functions (a registry builds them by name), ``main``, functions
    nested in another def and the public names of a module some file reads whole
    (``models_vit.__dict__[args.model](...)``: :func:`_handed_on`) are left out. A
    module-level class is dead the same way, unless a class names it as a base, a string
    written in a call or an assignment names it (a config's ``type=``) or a method of it is
    called (deit's ``horizontal_flip`` transform, built by nothing: no augmentation row).
    What a class's own body writes does not keep it: a factory method that builds its
    class (``MidasCore.build``: ``MidasCore(...)``), with nothing outside naming the class,
    runs only if something else reaches the class. ``words`` are those the repository's
    YAML and JSON files write (:func:`~apiscan.review.config_files.config_words`): a class
    whose own method trains is built by its name there."""
    local = _local_packages(analyses)
    # the ``__main__`` blocks of library modules: self-tests, not entry points (and, where
    # the documentation builds the package's definitions, those of its variant modules)
    tried = self_tests(analyses)
    variants = (
        {p: span for (p, _), span in package_trials(analyses, shown).items()} if shown else {}
    )
    tried.update(variants)
    # where something trains, a package's re-export is no use (what the training builds
    # is); where nothing does, the package's names are its product
    trained = _trains_here(analyses)
    framework = _framework_classes(analyses) if trained else frozenset()
    handed = _handed_on(analyses) if trained else frozenset()
    loaded = _pattern_imports(analyses)
    every_call = call_index(
        fa.syntax.values
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    )
    used: set[str] = set()  # resolved names, "path::name" and "::last name"
    named: set[str] = set()  # every name written in a call, an assignment, a default...
    strings: set[str] = set()  # every string constant written there
    # a name written in a call, an assignment... -> (path, line) of each expression writing it
    written_at = _written_names(analyses)
    # a resolved name called -> the (path, top-level def or class) of each caller
    called_from: dict[str, set[tuple[str, str]]] = {}
    # what keeps a class: the references above less the imports a file never uses (a class
    # imported beside the one built, ``from .cores import HubCore, LocalCore``)
    used_class: set[str] = set()
    named_class: set[str] = set()
    # the module-level defs by every module spelling: a reference resolved to one of them
    # names that def alone, not every def of the same name (CenterTrack's five
    # ``fill_fc_weights``, one per network file, two of them called)
    defined = {
        f"{m}.{d.qual}"
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
        for d in fa.syntax.values.defs
        if d.owner < 0 and "." not in d.qual
        for m in fa.modules
    }

    def by_name(ref: str) -> bool:
        """Whether a reference may reach a def by its last name: one of the repository's
        own packages' names that resolves to no def (a package's re-export)."""
        return ref.partition(".")[0] in local and ref not in defined

    for fa in analyses:
        unused = _unused_imports(fa)
        reexported = _reexported(fa, framework, handed)
        for refs, into in (
            (fa.local_refs, used),
            (set(fa.local_refs) - unused - reexported, used_class),
        ):
            into.update(refs)
            # through a package's re-export (YOLOX's ``yolox.utils.occupy_mem`` for
            # ``yolox/utils/metric.py``): any name of the repository's own packages ending so
            into.update("::" + ref.rpartition(".")[2] for ref in refs if by_name(ref))
        named_class.update(
            ref.rpartition(".")[2] for ref in set(fa.local_refs) - unused if ref not in defined
        )
        first, last = tried.get(fa.path, (0, 0))
        for c in fa.calls:  # called: by whom, so that a class's own body does not keep it
            if first <= c.line <= last:
                continue  # a library module's self-test runs nothing of the model
            by = (fa.path, c.caller.partition(".")[0])
            keys = [c.callee, f"{fa.path}::{c.callee}"]
            if by_name(c.callee):
                keys.append("::" + c.callee.rpartition(".")[2])
            for key in keys:
                called_from.setdefault(key, set()).add(by)
        named.update(ref.rpartition(".")[2] for ref in fa.local_refs if ref not in defined)
        # re-exported by another module (a package's ``__init__``, its submodules' names
        # included: ``pkg/__init__.py`` exporting ``pkg.pkg.Trainer``)
        # a star import in a module (yolov7's ``models/yolo.py``: ``from models.common
        # import *``) re-exports every name of the other module without using one: a name
        # it uses is written in it (``outside`` sees that), one it does not is not named
        # ... and where something trains, so does a package's ``__init__`` (pytorch-cifar's
        # ``models/__init__.py``: ``from .dpn import *`` for each of its 18 network files,
        # the training script building one of them): the names the training uses are
        # written where it uses them, the others are the package's unpicked networks
        starred = (
            set()
            if fa.path.endswith("__init__.py") and not trained
            else {ref.removesuffix(".*") for ref in fa.local_refs if ref.endswith(".*")}
        )
        explicit = {bound for bound, _ in fa.syntax.imports} if fa.syntax is not None else set()
        if fa.syntax is not None and fa.syntax.values is not None:
            explicit |= {b for b, _, _, name in fa.syntax.values.relative_imports if name != "*"}
        # a name bound by a star import: the module starred, or (through a package's star
        # re-exports: ``from models import *`` binding ``models.dpn.DPN26``) any name no
        # explicit import binds in a file that star-imports
        exported = {
            target
            for bound, target in fa.exports
            if target.rpartition(".")[0] not in fa.modules
            and not (starred and bound not in explicit)
        }
        named.update(target.rpartition(".")[2] for target in exported)
        # a package's ``__init__`` re-exports on purpose (its plain classes, and every name
        # where nothing trains: the package's product); another module's import is a use
        # only where the module uses it
        kept = exported - reexported if fa.path.endswith("__init__.py") else exported - unused
        named_class.update(target.rpartition(".")[2] for target in kept)
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        if values is None:
            continue
        written = _written(values)
        # a module function picked from ``globals()`` by name (``globals()[base_name](
        # pretrained=True)``, ``globals()['dla{}'.format(n)]``) is named by the pick: each
        # module-level def of the file whose name the key may spell (the strings the
        # callers pass a key that is a parameter) and the call's arguments bind to
        # (a class too: ``globals()[kind]()`` may build one)
        picks = globals_picks(values, every_call)
        if picks:
            picked = {
                d.qual
                for n, d in enumerate(values.defs)
                if d.owner < 0
                and "." not in d.qual
                and any(p.admits(values.defs, n) for p in picks)
            }
            named.update(picked)
            named_class.update(picked)
        # a class is named by the classes it is a base of, and by a string a config or a
        # table builds it from (``dict(type="RandomFlip")``)
        bases = {base.rpartition(".")[2] for c in fa.classes for base in c.bases}
        named.update(bases)
        named_class.update(bases)
        strings.update(
            e.value
            for x in (_not_listing(values, written) if trained else written)
            for e in x.walk()
            if e.kind == "Constant" and isinstance(e.value, str)
        )
    # a function that builds the optimizer or runs the backward pass is the training itself
    steps = {
        (f.path, f.function.partition(".")[0])
        for f in (result.api_findings if result is not None else ())
        if trains(f.api)
    }
    # ... and so is one that hands the loop to a library's trainer (``transformers.Trainer``)
    steps |= trainer_functions(analyses)
    # ... unless the documentation's examples run one of them (``shown``: a library's
    # ``Trainer`` its README builds): another trainer nothing calls (a variant module's
    # copy) is then no launcher's, dead like any other definition nothing calls
    if steps & set(shown):
        steps &= set(shown)
    # ... and a class whose own method trains (a Lightning module's
    # ``configure_optimizers``) is built by a config's string where configs name such
    # classes (``target: taming.models.vqgan.VQModel``): then one no string names (an EMA
    # variant subclassing it) is dead like any other class nothing builds
    classes = {
        (fa.path, d.qual)
        for fa, facts in with_facts(analyses)
        if facts.values is not None
        for d in facts.values.defs
        if d.is_class and d.owner < 0
    }
    string_named = {v.rpartition(".")[2] for v in strings} | strings | set(words)
    trainer_classes = steps & classes
    if any(name in string_named for _, name in trainer_classes):
        steps -= {key for key in trainer_classes if key[1] not in string_named}
    imported = imported_modules(fa for fa in analyses if not is_test_path(fa.path))
    # a dotted prefix -> the callers of the names inside it (``m.C`` for ``m.C.build``)
    called_inside: dict[str, set[tuple[str, str]]] = {}
    for key, callers in called_from.items():
        parts = key.split(".")
        for i in range(1, len(parts)):
            called_inside.setdefault(".".join(parts[:i]), set()).update(callers)
    out: dict[tuple[str, str], tuple[int, int]] = {}
    called_last: set[str] = set()
    #: the last names dotted strings spell (``"nets.beta.Generator"`` a class is built from
    #: by ``importlib`` and ``getattr``: dnnlib's ``construct_class_by_name``)
    string_last = {v.rpartition(".")[2] for v in strings if "." in v}

    def last_called() -> set[str]:
        """The last name of every call's callee as written, resolved or not (read once)."""
        if not called_last:
            called_last.update(
                call.expr.callee()
                for _, facts in with_facts(analyses)
                for call in (facts.values.calls if facts.values is not None else ())
            )
            called_last.add("")
        return called_last

    # a class whose method is called through its name (an autograd Function's
    # ``RankSort.apply(...)``, which resolves to torch's ``Function.apply``: no call record
    # names the repository's class) -> (path, line) of each such call
    through: dict[str, set[tuple[str, int]]] = {}
    for fa, facts in with_facts(analyses):
        for c in facts.values.calls if facts.values is not None else ():
            func = c.expr.func if c.expr.parts else None
            written = func.full() if func is not None and func.kind == "Attribute" else ""
            for part in written.split(".")[:-1]:  # ``functions.RankSort.apply``
                if part.lstrip("_")[:1].isupper():  # ``_ScaleGradient.apply``
                    through.setdefault(part, set()).add((fa.path, c.expr.line))

    # the names each file's module level defines: a name another file writes refers to
    # its own def when it defines one (copies of one backbone file, each with its own
    # ``BottleneckX``: the one a sibling copy builds is not this file's)
    own_tops: dict[str, set[str]] = {
        fa.path: {
            d.name for d in facts.values.defs if d.owner < 0 and "." not in d.qual and d.line > 0
        }
        for fa, facts in with_facts(analyses)
        if facts.values is not None
    }

    def outside(name: str, path: str, cls: str, first: int, last: int) -> bool:
        """Whether ``name`` is written or called somewhere other than the body of the class
        ``cls`` (lines ``first``-``last`` of ``path``; "" for a function: anywhere), a class
        also through a method called on its name; never by another file that defines a
        module-level def of that name itself (its own def is the one it names)."""
        return any(
            not (cls and p == path and first <= line <= last)
            and (p == path or name not in own_tops.get(p, ()))
            for p, line in (*written_at.get(name, ()), *(through.get(name, ()) if cls else ()))
        )

    def called(names: set[str], path: str, cls: str) -> bool:
        return any(
            not (cls and p == path and top == cls)
            for n in names
            for p, top in called_from.get(n, ())
        ) or bool(names & (used_class if cls else used))

    for fa, facts in with_facts(analyses):
        values = facts.values
        # a script's functions are its entry points; a library module's own ``__main__``
        # self-test (ZoeDepth's loss module trying one loss out) makes it no script
        if (facts.main_guard and fa.path not in tried) or values is None:
            continue
        # a module no file imports by name (an architecture file a registry's folder scan
        # imports, HAT's ``hat/archs/*_arch.py``): where something trains, its network and
        # dataset classes are built only by name, so one no string, registry or call names
        # is dead (its functions may be entry points run by name, its plain classes an
        # inference API's ``Reader`` users build: kept)
        library = any(m in imported for m in fa.modules) or fa.path in variants
        if not library and not trained:
            continue
        if not library and any(m in loaded for m in fa.modules):
            continue  # loaded by a name an option spells: any of its classes may be picked
        # (a class a registry's decorator fills a table with is built by name)
        decorated = _decorated(facts) | _registered_classes(facts)
        # a module some file reads whole (``models_vit.__dict__[args.model](...)``,
        # ``getattr(models, name)``): each public name it defines may be the one the
        # string picks, as a registry's entries are (:func:`_handed_on`)
        lookup = library and any(m in handed for m in fa.modules)
        by_pattern = any(m in loaded for m in fa.modules)
        spans = [(d.line, d.end_line) for d in values.defs]
        for d in values.defs:
            name = d.qual
            if d.owner >= 0 or "." in name or name.startswith("__"):
                continue
            # ... and a call naming the class by its last name anywhere keeps it, as does a
            # dotted string ending in it: the module may be imported by a spelling that
            # resolves to no file (``import datasets.transforms as T`` beside
            # ``transforms.py``: ``T.Mot...``) or by a string (``"nets.beta.Generator"``)
            if not library and (
                name not in framework or name in last_called() or name in string_last
            ):
                continue
            if d.is_class and (
                name in strings
                or any(u.startswith(f"{m}.{name}.") for m in fa.modules for u in used_class)
                or any(
                    by != (fa.path, name)
                    for m in fa.modules
                    for by in called_inside.get(f"{m}.{name}", ())
                )
            ):
                continue  # built from a config's string, or a method of it called: it may run
            if name in decorated or name == "main" or (fa.path, name) in steps:
                continue
            if lookup and not name.startswith("_"):
                continue  # picked by a string from the module read whole: it may run
            if d.is_class and by_pattern and not name.startswith("_"):
                # a class of a module loaded by a name built around a key, the loader
                # picking from its namespace (``find_class_in_module(opt.netG + "generator",
                # "models.networks." + filename)``): any of them may be the one built
                continue
            if any(a < d.line and d.end_line <= b for a, b in spans):
                continue  # nested in another def: its enclosing def decides
            names = {f"{m}.{name}" for m in fa.modules} | {f"{fa.path}::{name}", f"::{name}"}
            cls = name if d.is_class else ""
            if (
                name not in (named_class if cls else named)
                and not outside(name, fa.path, cls, d.line, d.end_line)
                and not called(names, fa.path, cls)
            ):
                out[(fa.path, name)] = (d.line, d.end_line)
    return out


#: Work kinds whose ``uses`` counts something other than their places (a library's op kinds
#: or patterns, each at its first use; a framework's parts).
_USES_NOT_PLACES = frozenset({"op-library", "network-library", "framework-training"})


def reached_work(
    items: Sequence[WorkItem], runs: Callable[[str, int], bool]
) -> tuple[WorkItem, ...]:
    """The work items less their places the configured run never reaches (``runs``: a
    :class:`Reach`'s), an item with none left dropped: an unsupported parameter of a loss no
    config picks, a backbone built only by an evaluation metric's network counted apart. The
    effort leaves the API sites and dynamic shapes of that code unpriced; its work items
    follow the same answer. ``uses`` that counted the places counts those left; an item
    whose ``uses`` counts something else keeps its places while one of them runs."""
    out = []
    for item in items:
        # a notebook's lines count within their cell: no definition's lines to compare
        kept = tuple(w for w in item.where if w.cell or runs(w.path, w.line))
        if len(kept) == len(item.where) or (
            kept and (item.kind in _USES_NOT_PLACES or item.uses != len(item.where))
        ):
            # a count that is not the places' (a library's op kinds, each at its first
            # use): a kind first used in code not reached may still run further on
            out.append(item)
        elif kept:
            out.append(replace(item, where=kept, uses=len(kept)))
    return tuple(out)


#: The line :func:`apart_only` gives an import by name: a use of the whole file, in no
#: definition (no line is negative).
_IMPORTED = -1


class Reach(NamedTuple):
    """What the configured run never reaches among the module-level classes and functions of
    ported files, as :func:`apart_only` tells it: the one answer the effort (API sites,
    dynamic-shape functions), the gaps and the work items all read."""

    #: (path, name) -> the files counted apart that use it (``via X`` through another one)
    exporting: dict[tuple[str, str], str]
    #: (path, name) of the definitions only code nothing reaches uses (``DiceLoss``, built
    #: only by the ``CE_DiceLoss`` nothing builds), beside :func:`uncalled_functions`' own
    unreached: frozenset[tuple[str, str]]
    #: (path, name) -> (first, last line) of every definition of both, and of the dead
    #: definitions given: where a call site, a finding or a work item's place does not run
    spans: dict[tuple[str, str], tuple[int, int]]

    def runs(self, path: str, line: int) -> bool:
        """Whether ``line`` of ``path`` lies outside every definition not reached."""
        return not any(p == path and a <= line <= z for (p, _), (a, z) in self.spans.items())


def apart_called(
    analyses: Sequence[FileAnalysis], apart: Callable[[str], str]
) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(``path:name`` of a def in a file counted apart, why that file is, the places in ported
    files calling it) for each class or function of a file counted apart that ported code
    calls (a training loop writing its model with an export script's ``model_export`` at
    every checkpoint): the port drops those calls or ports what they call with the model;
    listing the file apart alone would hide them. Tests neither call nor are called."""
    defined: dict[str, tuple[str, str]] = {}
    for fa in analyses:
        if not apart(fa.path) or is_test_path(fa.path):
            continue
        for module in fa.modules:
            for d in (*fa.functions, *fa.classes):
                if "." not in d.qualname:
                    defined.setdefault(f"{module}.{d.qualname}", (fa.path, d.qualname))
    found: dict[tuple[str, str], list[str]] = {}
    for fa in analyses:
        if apart(fa.path) or is_test_path(fa.path) or fa.errors:
            continue
        for c in fa.calls:
            callee = defined.get(c.callee)
            if callee is not None and c.role == "call":
                found.setdefault(callee, []).append(f"{fa.path}:{c.line}")
    return tuple(
        (f"{path}:{name}", apart(path), tuple(dict.fromkeys(sorted(places))))
        for (path, name), places in sorted(found.items())
    )


#: What a multi-backend wrapper may run the model through: the deployment runtimes, and
#: TensorFlow's (SavedModel, GraphDef, TFLite) interpreters.
_WRAPPED_RUNTIMES = DEPLOY_RUNTIMES | {"tensorflow", "tflite_runtime", "ncnn", "mnn"}


def backend_wrappers(
    analyses: Sequence[FileAnalysis], apart: Callable[[str], str]
) -> dict[tuple[str, str], tuple[str, tuple[int, int]]]:
    """(path, class) -> (why, its lines) of each module-level class of a ported file whose
    methods run the model through two or more other frameworks' runtimes (YOLOv5's
    ``DetectMultiBackend``: ONNX Runtime, TensorRT, OpenVINO, Core ML, TFLite... picked by
    the weights file's suffix): a deployment wrapper, whose host copies and engine bindings
    are those runtimes' plumbing, not work of the port; counted apart as the export files
    that use it are. One runtime alone (a helper reading Flax weights) is a converter of
    the network, which stays."""
    out: dict[tuple[str, str], tuple[str, tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or apart(fa.path):
            continue
        classes = {d.qual: (d.line, d.end_line) for d in values.defs if d.is_class and d.owner < 0}
        imports = dict(facts.imports)  # local name -> dotted (lazy imports included)
        used: dict[str, set[str]] = {}
        for call in values.calls:
            if call.function < 0:
                continue
            owner = values.defs[call.function].qual.partition(".")[0]
            dotted = imported_name(call.expr, imports) if owner in classes else None
            top = (dotted or "").partition(".")[0]
            if top in _WRAPPED_RUNTIMES:
                used.setdefault(owner, set()).add(top)
        for cls, runtimes in sorted(used.items()):
            if len(runtimes) >= 2:
                why = f"a deployment wrapper running {', '.join(sorted(runtimes))}"
                out[(fa.path, cls)] = (why, classes[cls])
    return out


def apart_only(
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], str],
    dead: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    kept: Collection[str] = frozenset(),
    shown: Collection[tuple[str, str]] = frozenset(),
    tried: Collection[str] = frozenset(),
) -> Reach:
    """The module-level classes and functions of ported library modules that only code counted
    apart uses (``exporting``: (path, name) -> the files counted apart that use it): yolov7's
    ``End2End`` in ``models/experimental.py``, built only by ``export.py`` (an export), and
    the ONNX/TensorRT wrappers only ``End2End`` builds (``ONNX_ORT``, and the ``ORT_NMS``
    autograd Function ``ONNX_ORT`` applies). Their code goes with the files using it: counted
    apart, not priced. A use is a call, a name written as a value (:func:`_written_names`), a
    method called through the class's name (``ORT_NMS.apply``) or an import by name (a star
    import names nothing); a use inside the definition itself does not count, one inside
    another such definition counts as that one's. A definition with no use at all is
    :func:`uncalled_functions`' (not reached), not one of these.

    ``dead`` are those definitions nothing uses ((path, name) -> their lines): a use inside
    one runs no more than one in a file counted apart, so what only they (and files counted
    apart) use is not reached either (``unreached``): a loss's helpers (``flatten_probas``,
    called only by the ``lovasz_softmax`` only an unbuilt ``LovaszSoftmax`` calls), a
    builder's blocks only the depths nothing builds use. Reachability is told here once, by
    definition, and read by every section that prices code. ``kept`` are names something
    else may build (a config file writes them: a model YAML's layer): reached, whatever
    uses them; ``shown`` are (path, name) definitions the documentation's examples build
    (a library's ``Model`` its README imports from the package): reached, though another
    definition of the package uses them only as a base or a default; ``tried`` are library
    modules whose ``__main__`` block only tries them out, though nothing imports them (a
    variant module beside the one the documentation builds): library modules, not scripts."""
    dead = dict(dead or {})
    trained = _trains_here(analyses)
    framework = _framework_classes(analyses) if trained else frozenset()
    handed = _handed_on(analyses) if trained else frozenset()
    files = {fa.path: fa for fa in analyses if not fa.errors and fa.syntax is not None}
    imported = imported_modules(fa for fa in analyses if not is_test_path(fa.path))
    plain = plain_classes(analyses)
    # a library module trying itself out under ``__main__`` (a text encoder's module
    # building one to count its parameters) is a library all the same, not a script
    trials = {*self_tests(analyses), *tried}
    defs: dict[tuple[str, str], tuple[int, int]] = {}
    classes: set[tuple[str, str]] = set()
    for path, fa in files.items():
        facts = fa.syntax
        values = facts.values if facts is not None else None
        if apart(path) or facts is None or values is None:
            continue
        if facts.main_guard and path not in trials:
            continue
        # a module nothing imports by name: its network and dataset classes where something
        # trains, as :func:`uncalled_functions` reads them
        library = any(m in imported for m in fa.modules) or path in tried
        if not library and not trained:
            continue
        # and the classes a registry's decorator fills it with: built by name
        decorated = _decorated(facts) | _registered_classes(facts)
        spans = [(d.line, d.end_line) for d in values.defs]
        for d in values.defs:
            name = d.qual
            if d.owner >= 0 or "." in name or name.startswith("__") or name in decorated:
                continue
            if not library and name not in framework:
                continue
            if any(a < d.line and d.end_line <= b for a, b in spans):
                continue  # nested in another def
            defs[(path, name)] = (d.line, d.end_line)
            if d.is_class:
                classes.add((path, name))
        # the methods of its plain classes (:func:`plain_classes`): a method only files
        # counted apart call is theirs, with what only it builds (an evaluator's method for
        # another tracker, which only that tracker's script calls, and the tracker it builds)
        for d in values.defs:
            owner = values.defs[d.owner] if 0 <= d.owner < len(values.defs) else None
            if (
                owner is not None
                and owner.is_class
                and owner.owner < 0
                and "." not in owner.qual
                and owner.qual in plain
                and not d.is_class
                and not d.name.startswith("__")
                and (path, owner.qual) in defs
            ):
                defs[(path, f"{owner.qual}.{d.name}")] = (d.line, d.end_line)
    # a class a string names may be built from it (a registry's ``type=``), as
    # :func:`uncalled_functions` keeps it: reached, whatever else uses it
    strings = {
        e.value
        for fa in files.values()
        if fa.syntax is not None and fa.syntax.values is not None
        for x in (
            _not_listing(fa.syntax.values, _written(fa.syntax.values))
            if trained
            else _written(fa.syntax.values)
        )
        for e in x.walk()
        if e.kind == "Constant" and isinstance(e.value, str)
    }
    by_name: dict[str, list[tuple[str, str]]] = {}
    for key in defs:  # a method by its own name: what a call of it writes last
        by_name.setdefault(key[1].rpartition(".")[2], []).append(key)
    # each use of a name: (path, line or 0 for a whole-file use, the qualified name of the
    # definition it is in or "")
    uses: dict[str, set[tuple[str, int, str]]] = {}
    for name, places in _written_names(analyses).items():
        if name.rpartition(".")[2] in by_name:
            last = name.rpartition(".")[2]
            uses.setdefault(last, set()).update((p, line, "") for p, line in places)
    # every definition of the repository by its dotted name (methods and nested functions
    # too): a call the scan resolved to one (``pkg.cloud.Cloud.sample``, or
    # ``pkg.cloud.Cloud.sample.dists``, a function nested in that method) uses it, not
    # another module's function ``sample`` of the same last name (``aims_elsewhere``)
    known = {
        f"{m}.{d.qual}"
        for fa in files.values()
        if fa.syntax is not None and fa.syntax.values is not None
        for d in fa.syntax.values.defs
        for m in fa.modules
    }
    aimed: dict[tuple[str, int, str, str], set[str | None]] = {}
    # a name imported in several ``if`` branches: a call the scan resolved to the last
    # binding may run any of them (the branch the run's values pick above all)
    from apiscan.review.registry import branch_alternatives, model_files  # no cycle

    alternatives = {file.path: branch_alternatives(file) for file in model_files(files.values())}
    for path, fa in files.items():
        branches = alternatives.get(path, {})
        for c in fa.calls:
            parts = c.callee.split(".")
            for n, part in enumerate(parts[-2:][::-1]):
                if part not in by_name:
                    continue
                # the definition the call names: the callee itself, or what its last part
                # is called on
                named = ".".join(parts[: len(parts) - n])
                # with its line: a call in a branch the defaults never take is dead
                use = (path, c.line, c.caller)
                uses.setdefault(part, set()).add(use)
                # which definition the calls of that name there use, None when not told (a
                # name written as a value on the same line, ``L(Dense)``, is a use of its own)
                for target in branches.get(named, frozenset({named})):
                    aimed.setdefault((*use, part), set()).add(target if target in known else None)
        # a package's re-export is no use where the repository trains (ByteTrack's
        # ``yolox/models/__init__.py`` re-exporting the Darknet only YOLOv3's neck builds)
        reexported = _reexported(fa, framework, handed)
        for ref in fa.local_refs:
            module, _, last = ref.rpartition(".")
            if last in by_name and module not in fa.modules and ref not in reexported:
                uses.setdefault(last, set()).add((path, _IMPORTED, ""))
        # a class's base is used by the class: reached wherever the class is (a training
        # set ``JointSet(LoadImages)`` runs its base's ``__getitem__`` and helpers), however
        # the files counted apart use the base
        for c in fa.classes:
            top = c.qualname.partition(".")[0]
            for base in c.bases:
                last = base.rpartition(".")[2]
                if last in by_name and last != top:
                    uses.setdefault(last, set()).add((path, 0, top))
        values = fa.syntax.values if fa.syntax is not None else None
        for call in values.calls if values is not None else ():
            func = call.expr.func if call.expr.parts else None
            written = func.full() if func is not None and func.kind == "Attribute" else ""
            for part in written.split(".")[:-1]:  # ``ORT_NMS.apply(...)``
                if part in by_name:
                    uses.setdefault(part, set()).add((path, call.expr.line, ""))

    spans = {**defs, **dead}

    # an import is a use only where the file uses the name no other way (a package's
    # ``__init__`` re-exporting it); where it does, those uses tell where it runs
    for name, places in uses.items():
        other = {p for p, line, _ in places if line != _IMPORTED}
        uses[name] = {u for u in places if u[1] != _IMPORTED or u[0] not in other}
        # where the repository trains, a package's ``__init__`` re-exporting a name other
        # files use is the path those uses import it by, no use of its own: they tell
        # whether it runs (a loader factory called only in a branch the defaults skip)
        if trained and other:
            uses[name] = {
                u for u in uses[name] if u[1] != _IMPORTED or not u[0].endswith("__init__.py")
            }

    def inside(path: str, line: int, top: str, keys: Iterable[tuple[str, str]]) -> bool:
        return any(
            k[0] == path
            and ((top and (top == k[1] or top.startswith(f"{k[1]}."))) or (line and a <= line <= z))
            for k in keys
            for a, z in (spans[k],)
        )

    def aims_elsewhere(use: tuple[str, int, str], key: tuple[str, str]) -> bool:
        """A call the scan resolved only to other definitions of ``key``'s last name; a
        method may override the one named (``reader.read_batch`` resolved to the base
        class's runs a subclass's), so only a module-level function is told apart."""
        targets = aimed.get((*use, key[1].rpartition(".")[2]))
        return (
            "." not in key[1]
            and bool(targets)
            and None not in targets
            and not targets & {f"{m}.{key[1]}" for m in files[key[0]].modules}
        )

    outer = {
        key: [
            (p, line, top)
            for p, line, top in uses.get(key[1].rpartition(".")[2], ())
            if not inside(p, line, top, (key,)) and not aims_elsewhere((p, line, top), key)
        ]
        for key in defs
        if key not in dead
    }

    # the dead spans by file: many (each branch the defaults skip is one), read for every use
    dead_by_path: dict[str, list[tuple[str, int, int]]] = {}
    for (dpath, dname), (first, last) in dead.items():
        dead_by_path.setdefault(dpath, []).append((dname, first, last))

    def in_dead(path: str, line: int, top: str) -> bool:
        """:func:`inside` one of the dead spans."""
        return any(
            (top and (top == name or top.startswith(f"{name}."))) or (line and a <= line <= z)
            for name, a, z in dead_by_path.get(path, ())
        )

    def unrun(p: str, line: int, top: str, keys: Collection[tuple[str, str]]) -> bool:
        """A use in a file counted apart, inside a dead definition or inside one of ``keys``."""
        return apart(p) or inside(p, line, top, keys) or in_dead(p, line, top)

    def largest(excluded: Collection[str]) -> set[tuple[str, str]]:
        """The largest set of used definitions, none named in ``excluded``, whose every use
        is in a file counted apart, inside a dead definition or inside one of the set."""
        found = {
            key
            for key, used in outer.items()
            if used and key[1] not in excluded and key not in shown
        }
        while True:
            still = {key for key in found if all(unrun(*use, found) for use in outer[key])}
            if still == found:
                return found
            found = still

    def reached_from(
        found: set[tuple[str, str]], seed: Callable[[str, int, str], bool]
    ) -> set[tuple[str, str]]:
        """Those of ``found`` a use of ``seed`` reaches, directly or through others of it
        (a cycle of definitions using only each other is reached by nothing)."""
        reached = {key for key in found if any(seed(*use) for use in outer[key])}
        while True:
            more = {
                key for key in found - reached if any(inside(*use, reached) for use in outer[key])
            }
            if not more:
                return reached
            reached |= more

    # those code counted apart reaches: counted apart with it; those only dead code reaches:
    # not reached at all, less a class a string names, which a registry's ``type=`` may build
    # (:func:`uncalled_functions` keeps it so too)
    # a method whose name a string spells may be looked up by it (``getattr(self, name)``)
    picked = {name for _, name in defs if "." in name and name.rpartition(".")[2] in strings}
    exported = reached_from(largest({*kept, *picked}), lambda p, line, top: bool(apart(p)))
    unreached = (
        reached_from(
            largest({*kept, *picked, *(name for _, name in classes if name in strings)}),
            in_dead,
        )
        - exported
    )

    def users(key: tuple[str, str]) -> str:
        direct = sorted({p for p, _, _ in outer[key] if apart(p)})
        via = sorted(
            k[1]
            for k in exported
            if k != key and any(inside(p, line, top, (k,)) for p, line, top in outer[key])
        )
        return ", ".join([*direct, *(f"via {name}" for name in via)])

    def of_listed(key: tuple[str, str], listed: Collection[tuple[str, str]]) -> bool:
        """A method of a class listed itself: the class's lines hold it."""
        return "." in key[1] and (key[0], key[1].partition(".")[0]) in listed

    return Reach(
        {key: users(key) for key in sorted(exported) if not of_listed(key, exported)},
        frozenset(k for k in unreached if not of_listed(k, unreached)),
        {k: spans[k] for k in (*exported, *unreached, *dead)},
    )


def within(keys: Collection[tuple[str, str]], path: str, function: str) -> bool:
    """Whether the code of ``function`` (a qualified name) in ``path`` lies in one of
    ``keys``, the (path, name) of :class:`Reach`: its module-level def or class, or the
    method of that class it is in."""
    parts = function.split(".")
    return (path, parts[0]) in keys or (len(parts) > 1 and (path, ".".join(parts[:2])) in keys)


def _unused_imports(fa: FileAnalysis) -> set[str]:
    """The repository's names a file imports and never uses: its bound name written nowhere
    in the file's calls, assignments, defaults, returns, loops, bases or decorators, and no
    reference of the file reaching inside it (``cores.LocalCore.build``)."""
    facts = fa.syntax if not fa.errors else None
    values = facts.values if facts is not None else None
    if facts is None or values is None:
        return set()
    exprs = _written(values) + [loop.iter for loop in values.loops]
    written = {e.name for x in exprs for e in x.walk() if e.kind in ("Name", "Attribute")}
    # a base is recorded resolved (``exp.base.Exp``) or as written (``nn.Module``)
    bases = {base for c in fa.classes for base in c.bases}
    written.update(base.split(".")[0] for base in bases)
    written.update(d.split(".")[0] for _, _, decorators in facts.decorators for d in decorators)
    refs = set(fa.local_refs)
    return {
        full
        for bound, full in facts.imports
        if full in refs
        and full not in bases
        and bound not in written
        and not any(r.startswith(full + ".") for r in refs)
    }


def _value_names(expr: Expr) -> Iterator[str]:
    """The names ``expr`` uses as values, not as what it calls (``prune.l1_unstructured(m)``
    uses ``m``: the module alias ``prune`` it calls through is no use of a function
    ``prune``)."""
    todo = [expr]
    while todo:
        e = todo.pop()
        if e.kind == "Call":
            todo.extend(e.parts[1:])  # its arguments, not its callee
            continue
        if e.kind in ("Name", "Attribute"):
            yield e.name
        todo.extend(e.parts)


#: A backbone item's weights asked for through a parameter (``pretrained=pretrained``).
_WEIGHTS_PARAM = re.compile(r"(?:, |(?<=\())(pretrained|weights)=([A-Za-z_]\w*(?:\.\w+)?)(?=[,)])")
#: What a backbone item says of its pretrained weights.
_WEIGHTS_WHY = (
    " and its pretrained weights converted to a MindSpore checkpoint (parameter "
    "names and BatchNorm statistics mapped), checked against PyTorch's outputs"
)
#: ... and of a language model's weights from a hub (no BatchNorm statistics to map).
_HUB_WEIGHTS_WHY = (
    " and its pretrained weights loaded by MindNLP's from_pretrained from the same hub name "
    "(or converted once to a MindSpore checkpoint, parameter names mapped), checked against "
    "PyTorch's outputs"
)


def _weights_given(
    item: WorkItem,
    given: Callable[[str, int, str], set[object] | None],
    defaults: dict[str, set[object]] | None = None,
) -> WorkItem:
    """The item without pretrained weights when the parameter its weights are asked for
    with is given only ``False``/``None`` by the calls that run (MiDaS's BEiT: the
    architecture only; its weights come from the repository's checkpoint), or when they are
    asked for with an option whose default is ``False``/``None`` (T2T-ViT's
    ``create_model(args.model, pretrained=args.pretrained)``, ``--pretrained`` off)."""
    m = _WEIGHTS_PARAM.search(item.what)
    if m is None:
        return item
    option = _OPTION.match(m.group(2))
    if option is not None:
        values = set((defaults or {}).get(option.group(1), set()))
    elif "." in m.group(2):
        return item
    else:
        values = given(item.where[0].path, item.where[0].line, m.group(2)) or set()
    if not values or any(v not in (False, None) for v in values):
        return item
    return replace(
        item,
        # the first detail leaves "(" behind: "vgg16_bn(pretrained=pretrained)" → "vgg16_bn"
        # (and the marker a hub load asking for them carries: none are loaded)
        what=(item.what[: m.start()] + item.what[m.end() :])
        .replace(", pretrained weights", "")
        .replace("(, ", "(")
        .replace("()", ""),
        why=item.why.replace(_WEIGHTS_WHY, "").replace(_HUB_WEIGHTS_WHY, "")
        + f" {ARCHITECTURE_ONLY}{m.group(2)} is {values.pop()} where the model builds it, "
        "the weights come from the repository's checkpoint)",
    )


#: (what picks a (path, line) out, "" when it runs; the literals a parameter there is given)
StringChoices = tuple[Callable[[str, int], str], Callable[[str, int, str], set[object] | None]]


def string_choices(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, argparse: ArgparseDefaults
) -> StringChoices:
    """Which calls the string-keyed branches the defaults take leave out (see
    :func:`_string_choices`), with the review's argparse table: one home for the work items'
    selected backbone and the model tree's parts (MiDaS's ``pretrained`` is the default's
    BEiT, not six alternatives)."""
    return _string_choices(analyses, ancillary, argparse.values())


def _called_name(call: Expr) -> str:
    """The last name of what ``call`` calls (:meth:`Expr.callee`), or the literal key of a
    module's namespace it calls through (``resnet.__dict__['resnet18'](pretrained=True)``:
    ``resnet18``)."""
    name = call.callee().rpartition(".")[2]
    func = call.parts[0] if call.parts else None
    if name or func is None or func.kind != "Subscript" or len(func.parts) < 2:
        return name
    table, key = func.parts[0], func.parts[1]
    if table.kind == "Attribute" and table.name == "__dict__" and key.kind == "Constant":
        return key.value if isinstance(key.value, str) else ""
    return ""


def _plain_method(defs: Sequence[DefValues], d: DefValues) -> bool:
    """``d`` is a method (not a dunder) of a module-level class."""
    return (
        d.owner >= 0
        and not d.is_class
        and defs[d.owner].owner < 0
        and not (d.name.startswith("__") and d.name.endswith("__"))
    )


#: The string methods a key is passed through unchanged in meaning (``arch.lower()``).
_CASE_METHODS = frozenset({"lower", "upper", "strip"})


def _bound_parameters(
    calls: Sequence[tuple[str, int, str, object, tuple[tuple[Expr, bool], ...]]],
    off_functions: Collection[str],
    off_calls: Collection[tuple[str, int]],
    unique: Collection[str],
    params: Mapping[str, list[str]],
    defaults_of: Mapping[str, Mapping[str, object]],
    fixed: Mapping[str, set[object]],
) -> dict[str, dict[str, set[object]]]:
    """The values each function's (or class's) own parameters take from the calls that run:
    a string or whole-number constant, or an option's default handed on (``Backbone_VGG(
    args.backbone, True)`` with ``--backbone`` defaulting to 'vgg16_bn'), by position or
    keyword. A parameter one running call hands anything else (or leaves to ``*args``) is
    not bound, nor one a call leaves out with no constant default; read only for the tests
    inside that function."""
    out: dict[str, dict[str, set[object]]] = {}
    loose: set[tuple[str, str]] = set()
    handed: list[tuple[str, set[str]]] = []  # (callee, the parameters a running call gives)
    for path, line, fn, call, _ in calls:
        if fn in off_functions or (path, line) in off_calls:
            continue
        expr = call.expr  # type: ignore[attr-defined]
        callee = expr.callee().rpartition(".")[2]
        if callee not in unique or callee not in params:
            continue
        names = params[callee]
        if any(a.kind == "Starred" for a in expr.args) or any(not k.name for k in expr.keywords):
            loose.update((callee, n) for n in names)
            continue
        given = [(names[i], a) for i, a in enumerate(expr.args) if i < len(names)]
        given += [(k.name, k.target) for k in expr.keywords if k.name]
        handed.append((callee, {param for param, _ in given}))
        for param, value in given:
            # ``cfg.MODEL.arch_encoder.lower()``: the setting's value, lower-cased
            case = ""
            if (
                value.kind == "Call"
                and value.func.kind == "Attribute"
                and value.func.name in _CASE_METHODS
                and not value.args
                and not value.keywords
            ):
                case, value = value.func.name, value.func.target
            key = (
                (choice_key(value) or _option_key(value) or "") if value.kind == "Attribute" else ""
            )
            if (
                not case
                and value.kind == "Constant"
                and isinstance(value.value, str | int)
                and not isinstance(value.value, bool)
            ):
                found: set[object] = {value.value}
            elif value.kind == "Attribute" and fixed.get(key):
                found = {
                    getattr(v, case)() if case and isinstance(v, str) else v for v in fixed[key]
                }
            else:
                loose.add((callee, param))
                continue
            out.setdefault(callee, {}).setdefault(param, set()).update(found)
    for callee, names in handed:  # a call leaving a bound parameter out: its default
        for param in out.get(callee, {}).keys() - names:
            default = defaults_of.get(callee, {}).get(param, loose)
            if default is loose:
                loose.add((callee, param))
            else:
                out[callee][param].add(default)
    return {
        fn: kept
        for fn, values in out.items()
        if (kept := {p: v for p, v in values.items() if (fn, p) not in loose})
    }


def _string_choices(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, defaults: dict[str, set[object]]
) -> StringChoices:
    """Which calls a string-keyed ``if``/``elif`` chain leaves out with the values the code
    starts from (MiDaS: ``--model_type`` defaults to ``dpt_beit_large_512``; ``load_model``'s
    branch for it builds ``DPTDepthModel(backbone="beitl16_512")``; ``_make_encoder``'s
    branch for that backbone calls ``_make_pretrained_beitl16_512``, the one of its six
    ``_make_pretrained_*`` functions that runs). A name's values are its argparse default,
    else the literals the calls that run pass it by keyword; a call is left out when an
    ``if`` around it compares such a name with another literal, and a module-level
    function is left out when every call of it is. Returns, for a (path, line), what picks
    it out ("" when it runs, or that cannot be told); and the literals a parameter of the
    function around a (path, line) is given by the calls that run (MiDaS's
    ``_make_pretrained_beitl16_512(pretrained)``: ``False``, passed down by ``DPT``'s
    ``_make_encoder(backbone, features, False, ...)``), None when that cannot be told."""
    # path, line, function, call, the tests around it
    calls: list[tuple[str, int, str, object, tuple[tuple[Expr, bool], ...]]] = []
    #: path, line, function, the tests around it: the assignments under ``if`` tests
    stores: list[tuple[str, int, str, tuple[tuple[Expr, bool], ...]]] = []
    #: id of each test -> the names it reads (:func:`choice_key`), read once: most tests
    #: read none the running calls give a value (the tests live as long as ``calls``)
    reads: dict[int, frozenset[str]] = {}
    functions: dict[str, set[str]] = {}  # a module-level function's name -> its paths
    #: a method's name -> (path, qualified name) of each method so named (ModelBuilder's
    #: ``build_encoder(arch=...)``: its parameters are bound as a function's are when no
    #: other def shares its name)
    methods: dict[str, set[tuple[str, str]]] = {}
    method_of: dict[tuple[str, int], str] = {}  # (path, line) of a call -> its method
    # a library module's self-test (CRAFT's ``CRAFT(pretrained=True)`` under ``__main__`` in
    # craft.py) is not a call that runs when the model is used
    tests = self_tests(analyses)
    # (path, line, name) of each call the scan resolved to a repository function or class:
    # a library call of the same last name (torchvision's ``models.vgg16_bn(...)`` inside
    # CRAFT's own ``vgg16_bn`` class) passes nothing to the repository's function
    repo_calls = {
        (fa.path, c.line, c.callee.removesuffix(".__init__").rpartition(".")[2])
        for fa in analyses
        for c in fa.calls
        if c.role == "call"
    }
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or ancillary.why(fa.path):
            continue
        first, last = tests.get(fa.path, (0, 0))
        for d in values.defs:
            # a module-level function, or a class: built by calling it by name
            if d.owner < 0 and (d.is_class or d.function >= 0):
                functions.setdefault(d.name, set()).add(fa.path)
            elif _plain_method(values.defs, d):
                methods.setdefault(d.name, set()).add((fa.path, d.qual))
        for call in values.calls:
            if first <= call.expr.line <= last:
                continue
            around = values.defs[call.function] if call.function >= 0 else None
            if around is not None and _plain_method(values.defs, around):
                method_of[(fa.path, call.expr.line)] = around.name
            # every ``if`` around it in its function (an ``elif`` is an ``if`` in its
            # parent's ``else``), negated where the call is in the ``else`` part
            inner = tuple(
                (i.test, 0 < i.body_end < call.expr.line)
                for i in call.ifs
                if i.function == call.function
            )
            for test, _ in inner:
                if id(test) not in reads:
                    reads[id(test)] = frozenset(
                        k for e in test.walk() if (k := choice_key(e)) is not None
                    )
            outer = values.defs[call.function] if call.function >= 0 else None
            if outer is not None and outer.owner >= 0:  # a method: its class's
                outer = values.defs[outer.owner]
            name = outer.name if outer is not None and outer.owner < 0 else ""
            calls.append((fa.path, call.expr.line, name, call, inner))
        # the assignments under the same tests (stylegan3's ``if opts.cfg == 'stylegan2':
        # c.G_kwargs.class_name = '...networks_stylegan2.Generator' else: ...``): a class
        # named by its dotted path is picked where no call sits
        scoped = [(-1, a) for a in values.assigns]
        scoped += [(d.function, a) for d in values.defs if d.function >= 0 for a in d.assigns]
        for function, a in scoped:
            inner = tuple(
                (i.test, 0 < i.body_end < a.line) for i in a.ifs if i.function == function
            )
            if not inner or first <= a.line <= last:
                continue
            for test, _ in inner:
                if id(test) not in reads:
                    reads[id(test)] = frozenset(
                        k for e in test.walk() if (k := choice_key(e)) is not None
                    )
            outer = values.defs[function] if function >= 0 else None
            if outer is not None and outer.owner >= 0:  # a method: its class's
                outer = values.defs[outer.owner]
            name = outer.name if outer is not None and outer.owner < 0 else ""
            stores.append((fa.path, a.line, name, inner))
    unique = {n for n, paths in functions.items() if len(paths) == 1}
    unique_methods = {n for n, found in methods.items() if len(found) == 1 and n not in functions}
    #: a module-level function's positional parameter names (a class's are its __init__'s,
    #: less ``self``), and the literal defaults of its parameters (CRAFT's
    #: ``CRAFT.__init__(self, pretrained=False, ...)``: what a call that omits one passes)
    params: dict[str, list[str]] = {}
    defaults_of: dict[str, dict[str, object]] = {}
    for _, facts in with_facts(analyses):
        defs = facts.values.defs if facts.values is not None else ()
        for d in defs:
            method = d.owner >= 0 and d.name == "__init__" and defs[d.owner].owner < 0
            own = d.name in unique_methods and _plain_method(defs, d)
            if (d.owner < 0 and not d.is_class and d.function >= 0) or method or own:
                name = defs[d.owner].name if method else d.name
                if name in params:
                    continue
                bound_self = method or (own and not d.static)
                params[name] = list(d.positional[1:] if bound_self else d.positional)
                defaults_of[name] = {
                    p: e.value for p, e in d.params if e is not None and e.kind == "Constant"
                }
    # a string or a whole number an option defaults to (``--depth`` 50 picks ``elif
    # parser.depth == 50``); a flag's True/False gates a branch rather than keying a chain
    fixed = {
        k: {v for v in vs if isinstance(v, str | int) and not isinstance(v, bool)}
        for k, vs in defaults.items()
    }
    fixed = {k: v for k, v in fixed.items() if v}
    off_functions: set[str] = set()
    off_calls: set[tuple[str, int]] = set()
    for _ in range(6):  # a few rounds: entry → loader → model → encoder → backbone factory
        chosen: dict[str, set[str]] = {k: set(v) for k, v in fixed.items()}
        for path, line, fn, call, _ in calls:
            if fn in off_functions or (path, line) in off_calls:
                continue
            # only a call of the repository's own function or class keys its chains: a
            # library call's keyword (``F.interpolate(..., mode='bilinear')``) says nothing
            # of a dataset's ``if mode == 'train':``
            last = call.expr.callee().rpartition(".")[2]  # type: ignore[attr-defined]
            if (path, line, last) not in repo_calls:
                continue
            for kw in call.expr.keywords:  # type: ignore[attr-defined]
                target = kw.target
                if (
                    kw.name
                    and kw.name not in fixed
                    and target.kind == "Constant"
                    and isinstance(target.value, str)
                ):
                    chosen.setdefault(kw.name, set()).add(target.value)
        bound = _bound_parameters(
            calls, off_functions, off_calls, unique | unique_methods, params, defaults_of, fixed
        )
        new_calls: set[tuple[str, int]] = set()
        for path, line, fn, _, tests_around in calls:
            # the values the running calls hand the function's own parameters (P2PNet's
            # ``Backbone_VGG(args.backbone, True)``, ``--backbone`` 'vgg16_bn': ``name``)
            known = {**chosen, **bound[fn]} if fn in bound else chosen
            method = method_of.get((path, line), "")
            if method in bound:  # a method's own parameters (``build_encoder(arch)``)
                known = {**known, **bound[method]}
            for test, in_else in tests_around:
                if reads[id(test)].isdisjoint(known):
                    continue  # it reads no name the running calls give a value
                if outcomes(test, choice_key, known) == {in_else}:  # its branch never runs
                    new_calls.add((path, line))
                    break
        callers: dict[str, list[bool]] = {}
        for path, line, fn, call, _ in calls:
            last = _called_name(call.expr)  # type: ignore[attr-defined]
            # (a method no other def shares a name with too: stargan's ``train_multi()``
            # under ``elif config.dataset in ['Both']:`` with ``--dataset`` CelebA)
            if last in unique or last in unique_methods:
                off = (
                    fn in off_functions
                    or method_of.get((path, line), "") in off_functions
                    or (path, line) in new_calls
                )
                callers.setdefault(last, []).append(off)
        new_functions = {n for n, offs in callers.items() if offs and all(offs)}
        if new_calls == off_calls and new_functions == off_functions:
            break
        off_calls, off_functions = new_calls, new_functions
    # the assignments the chosen values leave out, as the calls beside them
    for path, line, _, tests_around in stores if fixed else ():
        for test, in_else in tests_around:
            if reads[id(test)].isdisjoint(fixed):
                continue
            if outcomes(test, choice_key, fixed) == {in_else}:
                off_calls.add((path, line))
                break
    tests = {
        (path, line): ("not " if around[0][1] else "") + around[0][0].shown()
        for path, line, _, _, around in calls
        if around
    }
    tests.update(
        ((path, line), ("not " if around[0][1] else "") + around[0][0].shown())
        for path, line, _, around in stores
        if (path, line) not in tests
    )
    where_fn = {(path, line): fn for path, line, fn, _ in stores}
    where_fn.update({(path, line): fn for path, line, fn, _, _ in calls})

    def unchosen(path: str, line: int) -> str:
        if (path, line) in off_calls:
            return (
                f"{fn}() only if {tests[(path, line)]}"
                if (fn := where_fn[(path, line)])
                else (f"only if {tests[(path, line)]}")
            )
        fn = where_fn.get((path, line), "")
        if fn in off_functions:
            return f"{fn}()"
        method = method_of.get((path, line), "")
        if method in off_functions:
            return f"{method}()"
        return ""

    def passed(fn: str, param: str, depth: int = 0) -> set[object] | None:
        """The literals the calls that run pass ``fn``'s parameter ``param`` (through
        the callers' own parameters), None when one cannot be told."""
        d = params.get(fn)
        if d is None or depth > 4 or fn not in unique:
            return None
        index = d.index(param) if param in d else -1
        out: set[object] = set()
        for path, line, caller, call, _ in calls:
            expr = call.expr  # type: ignore[attr-defined]
            if expr.callee().rpartition(".")[2] != fn or (path, line, fn) not in repo_calls:
                continue
            if caller in off_functions or (path, line) in off_calls:
                continue
            given = next((k.target for k in expr.keywords if k.name == param), None)
            if given is None and 0 <= index < len(expr.args):
                given = expr.args[index]
            if given is None:
                # omitted: the parameter's literal default (``CRAFT()``: pretrained=False),
                # unless ``*args``/``**kwargs`` may pass it
                unpacked = any(k.name == "" for k in expr.keywords) or any(
                    a.kind == "Starred" for a in expr.args
                )
                if unpacked or param not in defaults_of.get(fn, {}):
                    return None
                out.add(defaults_of[fn][param])
            elif given.kind == "Constant":
                out.add(given.value)
            elif given.kind == "Name" and caller in params:
                more = passed(caller, given.name, depth + 1)
                if more is None:
                    return None
                out |= more
            else:
                return None
        return out or None

    def literal(path: str, line: int, param: str) -> set[object] | None:
        return passed(where_fn.get((path, line), ""), param)

    return unchosen, literal


def _uncalled_variants(analyses: Sequence[FileAnalysis]) -> set[tuple[str, str]]:
    """(path, name) of the module-level functions nothing calls in a file whose sibling
    functions other files call: the variants the model never builds (semseg's
    ``resnet18``/``resnet34`` downloading ImageNet weights, while PSPNet calls only
    ``resnet50``/``resnet101``/``resnet152``). Decorated functions are left alone (a registry
    builds them by name: timm's ``@register_model``)."""
    called_from: dict[str, set[str]] = {}  # a callee's last name -> the calling files
    callers_of: dict[str, set[str]] = {}  # a callee as the scan resolved it -> the same
    for fa in analyses:
        for c in fa.calls:
            if c.role == "call":
                called_from.setdefault(c.callee.rpartition(".")[2], set()).add(fa.path)
                callers_of.setdefault(c.callee, set()).add(fa.path)
    decorated = {
        (fa.path, name) for fa, facts in with_facts(analyses) for name in _decorated(facts)
    }
    out: set[tuple[str, str]] = set()
    for fa in analyses:
        plain = [fn.qualname for fn in fa.functions if not fn.cls and "." not in fn.qualname]
        # a sibling called from outside by its own name (another script's ``main()`` is
        # that script's, not a call of this file's ``main``)
        if not any(
            callers_of.get(f"{module}.{name}", set()) - {fa.path}
            for name in plain
            for module in fa.modules
        ):
            continue  # no sibling is called from outside: a dispatch by name, or a script
        out.update(
            (fa.path, name)
            for name in plain
            if name not in called_from and (fa.path, name) not in decorated
        )
    return out


def _noted_alternatives(
    items: list[WorkItem], checkpoints: list[WorkItem], others: dict[str, list[str]]
) -> tuple[list[WorkItem], list[WorkItem]]:
    """The selected model's first backbone item noting the backbones only the models the
    configuration does not select build (pytorch-segmentation's VGG of FCN8 and SegNet
    beside PSPNet's ResNet): alternatives a lead may choose, not work."""

    def kind(model: str) -> str:
        if model.startswith("only if ") and model.endswith("off by default"):
            return "optional"
        return "branch" if model.endswith(")") or " only if " in model else "model"

    def listed(which: str) -> str:
        return "; ".join(
            f"{what} ({', '.join(sorted(m))})"
            for what, models in sorted(others.items())
            if (m := {x for x in models if kind(x) == which})
        )

    # said apart from the item's own text, so that the alternatives' weights and
    # architectures never read as this item's (faster-rcnn's VGG-16 beside the ResNet
    # downloads of ``--net res101``)
    note = ""
    for which, how in (
        ("model", "built only by models the config does not select"),
        ("branch", "built only in branches the defaults do not take"),  # MiDaS's model types
        ("optional", "optional (a branch the defaults do not take)"),  # a distillation teacher
    ):
        if shown := listed(which):
            note += f"; alternatives beside it (not counted, {how}: {shown})"
    for group in (items, checkpoints):
        for n, item in enumerate(group):
            if item.kind == "pretrained-backbone":
                group[n] = replace(item, why=item.why + note)
                return items, checkpoints
    return items, checkpoints


def alternative_places(
    tops: Sequence[TopModel],
    analyses: Sequence[FileAnalysis],
    modules: Iterable[ModuleNode],
    left: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> Callable[[Where], str]:
    """Which model a place belongs to when the configuration selects another: the class
    around it is an alternative (a top model the tree calls ``an alternative to PSPNet``, or
    a module class the package exports beside the selected model: pytorch-segmentation's
    ``models/__init__.py`` exporting FCN8 and SegNet beside PSPNet), or its file defines
    only alternatives (deeplabv3_plus.py's own ResNet, built by DeepLab), or it lies in
    ``left``, the code only the entries a default key leaves out of a table reach
    (:func:`~apiscan.review.leftout.left_out`: CenterTrack's unpicked networks and the
    backbones they pick in turn). "" everywhere when no configuration selects a model."""
    outside = _left_out_names(analyses, left or {})
    alternative = {
        t.cls
        for t in tops
        if t.parts and t.parts[0][0] == "selected by" and t.parts[0][1].startswith("an alt")
    }
    chosen = {
        t.cls
        for t in tops
        if t.parts and t.parts[0][0] == "selected by" and t.cls not in alternative
    }
    if not alternative or not chosen:
        return lambda where: outside(where)
    classes = {m.cls for m in modules}
    for fa in analyses:
        exported = {q for _, q in fa.exports}
        if exported & chosen:
            alternative |= (exported & classes) - chosen
    used = {
        n
        for t in tops
        if t.cls in chosen
        for _, part in t.parts
        for n in re.findall(r"\b[A-Z]\w*", part)
    }
    defined: dict[str, set[str]] = {}  # a class's short name -> the files defining it
    inside: dict[str, set[str]] = {}  # a file -> the alternatives and chosen models it defines
    starts: dict[str, list[tuple[int, str, str]]] = {}
    for fa in analyses:
        if fa.errors or not fa.modules:
            continue
        marks = []
        for c in fa.classes:
            dotted = f"{fa.modules[0]}.{c.qualname}"
            defined.setdefault(c.qualname, set()).add(fa.path)
            if dotted in alternative or dotted in chosen:
                inside.setdefault(fa.path, set()).add(dotted)
            if "." not in c.qualname:
                marks.append((c.line, c.qualname, dotted))
        marks += [(f.line, "", "") for f in fa.functions if not f.cls and "." not in f.qualname]
        starts[fa.path] = sorted(marks)

    # a model file beside the selected one that nothing imports (pytorch-segmentation's
    # ``models/ deeplabv3_plus_xception.py``): a variant no configuration can reach
    # (a file that failed to parse refers to nothing the scan recorded: its records hold no
    # names, so it imports no file here either)
    imported = {target for _, target in _local_references(analyses)}
    imported |= _named_by_string(analyses)
    folders = {
        str(PurePosixPath(fa.path).parent)
        for fa in analyses
        if any(c.startswith(f"{m}.") for c in chosen for m in fa.modules)
    }
    unused = {
        fa.path
        for fa in analyses
        if str(PurePosixPath(fa.path).parent) in folders
        and fa.path not in imported
        and fa.path not in inside
        and fa.classes
        and not is_test_path(fa.path)
    }

    def model(where: Where) -> str:
        if where.path in unused:
            return f"{PurePosixPath(where.path).name}, imported by no file"
        if off := outside(where):
            return off
        before = [m for m in starts.get(where.path, ()) if m[0] <= where.line]
        name, dotted = (before[-1][1], before[-1][2]) if before else ("", "")
        if dotted in chosen:
            return ""
        if dotted in alternative:
            return name
        here = inside.get(where.path, set())
        if not here or not here <= alternative:
            return ""
        if name in used and defined.get(name) == {where.path}:
            return ""  # the selected model builds this very class
        return ", ".join(sorted(c.rpartition(".")[2] for c in here))

    return model


def _named_by_string(analyses: Sequence[FileAnalysis]) -> set[str]:
    """The repository files a string literal names as ``module.Class`` (a settings dict's
    ``class_name='training.loss.GANLoss'`` that ``construct_class_by_name`` imports, a
    registry's dotted target): used by the code that writes the name, though no import
    statement names the file."""
    by_module = {m: fa.path for fa in analyses if not fa.errors for m in fa.modules}
    classes = {fa.path: {c.qualname for c in fa.classes} for fa in analyses if not fa.errors}
    named: set[str] = set()
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None:
            continue
        exprs = [c.expr for c in values.calls] + [a.value for a in values.assigns]
        exprs += [a.value for d in values.defs for a in d.assigns]
        for e in exprs:
            for n in e.walk():
                if n.kind != "Constant" or not isinstance(n.value, str) or "." not in n.value:
                    continue
                module, _, name = n.value.rpartition(".")
                target = by_module.get(module)
                if target and target != fa.path and name in classes.get(target, ()):
                    named.add(target)
    return named


def _left_out_names(
    analyses: Sequence[FileAnalysis], left: Mapping[str, Sequence[tuple[int, int]]]
) -> Callable[[Where], str]:
    """The name of the outermost left-out def around a place (``DLA``), "" outside them."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for fa in analyses:
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        found = left.get(fa.path)
        if values is None or not found:
            continue
        for d in values.defs:
            if (d.line, d.end_line) in found:
                spans.setdefault(fa.path, []).append((d.line, d.end_line, d.name))

    def name(where: Where) -> str:
        around = [s for s in spans.get(where.path, ()) if s[0] <= where.line <= s[1]]
        if not around:
            return ""
        outer = max(around, key=lambda s: s[1] - s[0])[2]
        return f"{outer}, reached only from the entries the default does not pick"

    return name


def _one_per_function(trips: Sequence[WorkItem]) -> list[WorkItem]:
    """One host round trip item per function and host calls: the same method in several
    experiment folders (DeFCN's ``FCOS.get_ground_truth`` matching with scipy in nine
    ``playground/`` variants) is one port of the computation, with every place listed."""
    groups: dict[str, list[WorkItem]] = {}
    for item in trips:
        groups.setdefault(item.what, []).append(item)
    out = []
    for what, items in groups.items():
        files = list(dict.fromkeys(i.where[0].path for i in items))
        why = items[0].why
        if len(files) > 1:
            why += (
                f"; the same function in {len(files)} files (variants of one model): one "
                "port of the computation, checked in each"
            )
        out.append(
            WorkItem(
                kind=items[0].kind,
                what=what,
                where=tuple(dict.fromkeys(w for i in items for w in i.where)),
                why=why,
                uses=sum(i.uses for i in items),
            )
        )
    return out


#: Model-zoo factories whose first argument names the architecture.
_NAMED_ZOO = ("timm.create_model", "timm.models.create_model")
#: The architecture name a factory's item shows first (``timm.create_model("vit_b16"``).
_ARCH_NAME = re.compile(r"^([\w.]+\()(['\"][^'\"]*['\"])")
#: The model a hub entry point names after its repository (``torch.hub.load(REPO,
#: 'gluon_resnet34_v1b', ...)``): the variants of one hub repository, loaded into the
#: repository's own architecture by depth (RITM's ResNet-34/50/101/152), are one conversion.
_HUB_NAME = re.compile(r"^(torch\.hub\.load\([^,()]+, )(['\"][^'\"]*['\"])")


def _named(what: str) -> re.Pattern[str] | None:
    """The pattern of the architecture name in a backbone item built by name, else None."""
    if what.startswith(_NAMED_ZOO):
        return _ARCH_NAME
    return _HUB_NAME if _HUB_NAME.match(what) else None


#: The details of a backbone item that say whether it loads weights (``pretrained=True``,
#: ``weights=...``, ``pretrained weights``), removed to group the items by architecture.
_WEIGHTS_DETAIL = re.compile(
    r"(?:, )?(?:pretrained weights|(?:pretrained|weights|pretrained_backbone)=[^,()]*)"
)


#: A torchvision constructor named by family and depth (``resnet101``, ``vgg16_bn``).
_FAMILY = re.compile(r"^(torchvision\.models\.(?:[a-z_]+\.)*)([a-z_]*[a-z])\d+(?:_bn)?(?=\(|$)")


#: A torchvision constructor picked by a name (``getattr(models, backbone)``): its key.
_BY_NAME = re.compile(r"^(torchvision\.models\.(?:[a-z_]+\.)*)<([^<>]+)>")
#: A literal that can name a torchvision constructor (``'resnet101'``).
_ARCH_LITERAL = re.compile(r"^['\"]([a-z][a-z_0-9]*)['\"]$")


def _by_name(key: str, names: NameValues | None) -> tuple[list[str], list[str]]:
    """(the architectures a constructor picked by name can be, the family keys they reach)
    for the key of ``torchvision.models.<backbone>``: the literals the repository gives
    ``backbone`` (``'resnet101'`` → the key of ``torchvision.models.resnet<depth>``)."""
    m = _BY_NAME.match(key)
    if m is None or names is None:
        return [], []
    archs = [a.group(1) for v in names.candidates(m.group(2)) if (a := _ARCH_LITERAL.match(v))]
    rest = key[m.end() :]
    return archs, [_FAMILY.sub(r"\1\2<depth>", m.group(1) + a + rest) for a in archs]


def _one_per_backbone(found: Sequence[WorkItem], names: NameValues | None = None) -> list[WorkItem]:
    """One item per backbone (the same constructor with the same arguments), with every
    place that builds it: a student and a teacher, or each evaluation script, load one
    architecture and convert one set of weights. A torchvision constructor picked by a name
    (``getattr(models, backbone)(pretrained)``) joins the family its values reach
    (``backbone='resnet101'``: the ResNet item), saying which architectures it can be."""
    groups: dict[str, list[WorkItem]] = {}
    for item in found:  # with or without pretrained weights: the same architecture
        key = item.what.replace(", pretrained weights", "").replace("(pretrained weights)", "")
        # the variants one factory builds by name are one port and one conversion script
        named = _named(key)
        if named is not None:
            key = named.sub(r"\1<name>", key)
        else:  # one constructor (torchvision's), whether it loads weights or not
            key = _WEIGHTS_DETAIL.sub("", key).replace("(, ", "(").replace("()", "")
            # the depths of one family (resnet50, resnet101; vgg16, vgg16_bn) are one port
            # of the architecture and one conversion script
            key = _FAMILY.sub(r"\1\2<depth>", key)
        groups.setdefault(key, []).append(item)
    #: why an item picked by name was merged into a family item: its places and choices
    merged: dict[str, list[str]] = {}
    for key in [k for k in groups if _BY_NAME.match(k)]:
        archs, families = _by_name(key, names)
        reached = [f for f in dict.fromkeys(families) if f in groups and f != key]
        if not reached:
            continue
        items = groups.pop(key)
        groups[reached[0]].extend(items)
        places = ", ".join(str(w) for i in items for w in i.where[:1])
        merged.setdefault(reached[0], []).append(
            f"{items[0].what.partition('(')[0]} at {places} builds it by name: "
            f"{_BY_NAME.match(key).group(2)} is {' | '.join(map(repr, archs))} "  # type: ignore[union-attr]
            "where the repository sets it"
        )
    _architectures_into_weights(groups)
    _one_per_architecture_file(groups)
    out = []
    for group, items in groups.items():
        items.sort(key=lambda i: (i.where[0].path, i.where[0].cell, i.where[0].line))
        extended = [m for i in items if (m := _EXTENDED.match(i.what)) is not None]
        # the pretrained one, named by its constructor rather than by a name it is picked by
        # (or by a class the repository extends)
        shown = max(
            items,
            key=lambda i: (not _EXTENDED.match(i.what), "<" not in i.what, len(i.why), len(i.what)),
        )
        named = _named(shown.what)
        names = list(
            dict.fromkeys(
                m.group(2) for i in items if named is not None and (m := named.match(i.what))
            )
        )
        what = shown.what
        if named is not None and len(names) > 1:  # timm.create_model("vit_large" | "vit_b...")
            listed = " | ".join(names)
            what = named.sub(lambda m, listed=listed: m.group(1) + listed, what, count=1)
        # the constructors named first, one picked by a name (``<backbone>``) after them
        callees = sorted(
            dict.fromkeys(i.what.partition("(")[0] for i in items if not _EXTENDED.match(i.what)),
            key=lambda c: "<" in c,
        )
        if named is None and len(callees) > 1:  # torchvision.models.resnet50 | resnet101
            head = shown.what.partition("(")[0]
            listed = " | ".join([head, *(c.rpartition(".")[2] for c in callees if c != head)])
            what = listed + shown.what[len(head) :]
        why = [shown.why, *merged.get(group, ())]
        if extended and (len(extended) > 1 or len(extended) < len(items)):
            what, why = (
                _extended_shown(what, extended, bool(callees)),
                [
                    *why,
                    "the classes it extends come from one file of the package "
                    f"({_defined_in(extended[0].group(1))}): one port of that architecture, "
                    "however many of its classes the repository extends",
                ],
            )
        out.append(
            WorkItem(
                kind=shown.kind,
                what=what,
                where=tuple(dict.fromkeys(w for i in items for w in i.where)),
                why="; ".join(why),
                uses=len(items),
            )
        )
    return out


#: A zoo class the repository extends, as :func:`_zoo_subclasses` names it.
_EXTENDED = re.compile(r"^(\S+) \(extended by (\S+)\)$")


def _defined_in(name: str) -> str:
    """The zoo package's module that defines ``name`` (:meth:`TorchApi.defined_in`), "" for
    a package the torch index does not cover (timm)."""
    return load_torch_api().defined_in(name) or ""


def _extended_shown(what: str, extended: Sequence[re.Match[str]], constructor: bool) -> str:
    """The item of one architecture file naming the classes the repository extends:
    ``torchvision.models.InceptionA | InceptionC | InceptionE (extended by FIDInceptionA,
    FIDInceptionC, FIDInceptionE_1, FIDInceptionE_2)``, after the constructor's call when
    the file's constructor is built too."""
    bases = list(dict.fromkeys(m.group(1) for m in extended))
    subclasses = ", ".join(dict.fromkeys(m.group(2) for m in extended))
    listed = " | ".join([bases[0], *(b.rpartition(".")[2] for b in bases[1:])])
    if constructor:
        return f"{what} with {listed} extended by {subclasses}"
    return f"{listed} (extended by {subclasses})"


def _one_per_architecture_file(groups: dict[str, list[WorkItem]]) -> None:
    """Merge, in place, the zoo classes the repository extends that one file of the package
    defines (pytorch-fid's FID blocks extend torchvision's ``InceptionA``, ``InceptionC``
    and ``InceptionE`` twice, all of ``torchvision/models/inception.py``) into one group,
    and into the group of that file's constructor when the repository builds it too
    (``inception_v3``): one port of the architecture, not one per class extended. A class
    of a package the torch index does not cover (timm's) keeps its own group."""
    files: dict[str, list[str]] = {}  # module -> the groups of classes extended from it
    constructors: dict[str, str] = {}  # module -> the group of a constructor it defines
    for key, items in groups.items():
        m = _EXTENDED.match(items[0].what)
        name = m.group(1) if m else items[0].what.partition("(")[0]
        module = _defined_in(name) if name.startswith("torchvision.models.") else ""
        if not module:
            continue
        if m is not None and all(_EXTENDED.match(i.what) for i in items):
            files.setdefault(module, []).append(key)
        elif m is None:
            constructors.setdefault(module, key)
    for module, keys in files.items():
        into = constructors.get(module, keys[0])
        for key in keys:
            if key != into:
                groups[into].extend(groups.pop(key))


def _architectures_into_weights(groups: dict[str, list[WorkItem]]) -> None:
    """Move, in place, each build by name of a factory that loads no weights into the group
    of the same factory that loads weights for that architecture: Person_reID builds
    ``timm.create_model('swinv2_base_window8_256', pretrained=False, img_size=...)`` and, on
    the next line, the same architecture with ``pretrained=True`` to copy its weights over:
    one backbone, one port and one conversion, not a second "architecture" item. An
    architecture no build loads weights for stays an architecture item."""

    def name(item: WorkItem) -> str:
        named = _named(item.what)
        m = named.match(item.what) if named is not None else None
        return m.group(2) if m is not None else ""

    def factory(item: WorkItem) -> str:
        return item.what.partition("(")[0]

    weighted: dict[tuple[str, str], str] = {}  # (factory, architecture) -> group
    for key, items in groups.items():
        if all(
            i.kind == "pretrained-backbone" and work_label(i) != BACKBONE_ARCHITECTURE
            for i in items
        ):
            for item in items:
                if name(item):
                    weighted.setdefault((factory(item), name(item)), key)
    for key in list(groups):
        moved = [
            (item, into)
            for item in groups[key]
            if work_label(item) == BACKBONE_ARCHITECTURE
            and (into := weighted.get((factory(item), name(item)))) is not None
            and into != key
        ]
        for item, into in moved:
            groups[into].append(item)
            groups[key].remove(item)
        if not groups[key]:
            del groups[key]


#: The scan's rule for data sized on a host library that comes back into torch.
ROUND_TRIP_RULE = "DS121"
#: The host call a DS121 message names (```linear_sum_assignment(...)` computed ...``).
_NAMED_CALL = re.compile(r"`([^`]+)` computed")
#: A layer class of torch.nn (``torch.nn.Upsample``): built, not a computation on tensors.
_LAYER_CLASS = re.compile(r"^torch\.nn\.(?:\w+\.)*[A-Z]\w*$")
#: The base of a torch module class (``torch.nn.Module``, ``torch.nn.modules.module.Module``).
_TORCH_MODULE = re.compile(r"^torch\.nn\.(?:modules\.module\.)?Module$")
#: Visualisation and logging helpers (of a Module too) run beside the step, not in it.
_NOT_NETWORK = re.compile(r"visuali[sz]|plot|draw|show|log_|print", re.IGNORECASE)


def _round_trips(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> Iterable[WorkItem]:
    """The functions of the network graph that send tensor data to a host library and bring
    the result back, one item each: where the scan found data sized on the host coming back
    (DS121), and where the worker saw a tensor taken to the host, a host library called and
    its result made a tensor again in a function the scan placed in the network graph (a
    round trip that keeps the length: DS121 is silent, the graph break and the device
    synchronisation remain). Named by the host library calls the worker recorded there
    (:class:`~apiscan.extract.syntax.HostTrip`), else by the scan's words. Visualisation and
    logging helpers (``show_boxes``, ``log_images``) run beside the step: never a trip."""
    found: dict[tuple[str, str], list[ShapeFinding]] = {}
    for f in result.shape_findings:
        if f.case == SIZED_LIST:
            # ``torch.tensor([i] * len(keep))``: a size, not data, left the device (the
            # dynamic-shape rewrite of the function already counts ``ops.full((n,), i)``)
            continue
        if (
            # an index array sized on the host comes back as an index: no
            # ``torch.as_tensor`` needed, a round trip all the same
            (f.rule == ROUND_TRIP_RULE or f.case == HOST_INDEX)
            and f.scope == "network"
            and not ancillary.why(f.path)
        ):
            found.setdefault((f.path, f.function), []).append(f)
    # a layer built where the tensors go to the host (an inference script's
    # ``nn.Upsample`` beside its test-time scaling with scipy) does not put the function in
    # the compiled graph: only a tensor computation the scan placed there does
    network = {
        (f.path, f.function)
        for f in result.api_findings
        if f.scope == "network" and not _LAYER_CLASS.match(f.api)
    }
    # the training step: a function that computes a loss or runs the backward pass (MODNet's
    # SOC adaptation step dilating its predicted matte with scipy), whatever its scope
    network |= {(f.path, f.function) for f in result.api_findings if STEP_COMPUTATION.match(f.api)}
    # a function only ``__init__`` or a checkpoint loader runs (a relative position table
    # resized with scipy as the weights load) runs once, not on every step
    loaders = {(f.path, f.function) for f in result.api_findings if f.api in CHECKPOINT_APIS}
    once = construction_only(analyses, loaders)
    trips: dict[tuple[str, str], tuple[FileAnalysis, HostTrip]] = {}
    for fa, facts in with_facts(analyses):
        if not ancillary.why(fa.path):
            # a method of a torch.nn module runs in its forward or loss (DeFCN's
            # ``FCOS.get_ground_truth`` matching with scipy), whatever scope the scan gave
            # the file (its COCO variants' files were placed on the host)
            modules = {c.qualname for c in fa.classes if any(map(_TORCH_MODULE.match, c.bases))}
            for trip in facts.host_trips:
                key = (fa.path, trip.function)
                method = trip.function.rpartition(".")[0] in modules
                if key in once and key not in found:
                    continue
                if key in found or (trip.back and (key in network or method)):
                    trips[key] = (fa, trip)
    # functions that take a tensor to the host themselves (``assign.cpu().numpy()`` handed
    # to a helper that calls scipy): what comes back went there from the device
    leaves = {(f.path, f.function) for f in result.api_findings if f.api in _TO_HOST}
    for path, function in sorted(found.keys() | trips.keys()):
        if _NOT_NETWORK.search(function.rpartition(".")[2]):
            continue
        if (path, function) in trips:
            fa, trip = trips[path, function]
            names = sorted({n for n, _ in trip.host})
            where = tuple(dict.fromkeys(place(fa, line) for _, line in trip.host))
            back, uses = trip.back, len(trip.host)
        else:  # the host call is in another function: the scan's words for it
            findings = found[path, function]
            named = (_NAMED_CALL.search(f.message) for f in findings)
            names = sorted({m.group(1) for m in named if m} or {f.api for f in findings})
            where = _places(findings)
            back, uses = True, len(findings)
        indexed = any(f.case == HOST_INDEX for f in found.get((path, function), ()))
        how = (
            " (.cpu()/.numpy(), then the host's arrays index a tensor)"
            if indexed
            else " (.cpu()/.numpy() then torch.as_tensor)"
        )
        yield WorkItem(
            kind="host-round-trip",
            what=f"{function}: {', '.join(names)}",
            where=where,
            why=(
                (
                    "tensors leave the device for "
                    + ", ".join(names)
                    + " and come back"
                    + (how if back else "")
                    if (path, function) in trips or not indexed or (path, function) in leaves
                    # no tensor taken to the host here: arrays decided on the host index the
                    # tensors (a mask of np.isin over host keys selecting sampled pairs)
                    else "an index array decided on the host ("
                    + ", ".join(names)
                    + ") gathers from tensors, its length the data's"
                )
                + " every time this runs in the network or loss path: a graph break "
                "under GRAPH_MODE and a device synchronisation per call; keep it on the "
                "host outside the compiled cell, or write the computation with MindSpore ops"
            ),
            uses=uses,
        )


#: The methods that run when a Module is called: MindSpore's ``construct``.
_FORWARD = re.compile(r"^forward(?:_\w+)?$")


def _cells_in_forward(findings: Sequence[ApiFinding], torch_api: TorchApi) -> Iterable[WorkItem]:
    """The torch.nn layers a Module builds inside its ``forward`` (YOLOP's ``m = nn.Sigmoid()``
    on every call), one item per layer class with every method that does it (one change,
    applied at each): MindSpore builds a Cell in ``__init__`` and calls it in
    ``construct``; one built in ``construct`` is not supported under GRAPH_MODE (and in
    PyTorch a layer with weights built there gets new untrained weights on every call)."""
    found: dict[str, list[ApiFinding]] = {}
    for f in findings:
        method = f.function.rpartition(".")[2]
        if (
            f.usage == "call"
            and f.scope == "network"
            and "." in f.function
            and _FORWARD.match(method)
            and f.api.startswith("torch.nn.")
            and torch_api.is_layer(f.api)
        ):
            found.setdefault(f.api, []).append(f)
    for api, uses in sorted(found.items()):
        uses.sort(key=lambda f: f.sort_key())
        functions = list(dict.fromkeys(f.function for f in uses))
        yield WorkItem(
            kind="cell-in-construct",
            what=f"{api} built in {', '.join(functions)}",
            where=_places(uses),
            why=(
                "a layer is built inside forward, on every call: in MindSpore a Cell is built "
                "once in __init__ and called in construct (GRAPH_MODE does not build Cells in "
                "construct); build it in __init__, or call the functional op (mindspore.ops, "
                "mindspore.mint.nn.functional) for a layer without weights"
            ),
            uses=len(uses),
        )


#: ``torch.distributed`` collectives: in a forward they are part of the step MindSpore
#: compiles, written with ``mindspore.communication`` / ``mindspore.ops`` collectives.
_COLLECTIVE = re.compile(
    r"^torch\.distributed\.(?:all_reduce|all_gather\w*|reduce\w*|broadcast\w*|all_to_all\w*"
    r"|gather|scatter|barrier)$"
)
#: An in-place method of a tensor (``mul_``, ``add_``, ``copy_``, ``zero_``), as findings name it.
_IN_PLACE = re.compile(r"^torch\.Tensor\.[a-z]\w*[a-z0-9]_$")


def module_classes(analyses: Sequence[FileAnalysis]) -> Callable[[str], bool]:
    """Whether a qualified class name is a ``torch.nn`` module through its bases, the
    repository's own included (a block base class deriving from ``nn.Module``); a plain
    object (a box list, a mask structure) is not."""
    bases = {
        f"{m}.{c.qualname}": c.bases for fa in analyses for m in fa.modules for c in fa.classes
    }

    def is_module(cls: str, depth: int = 0) -> bool:
        return depth < 8 and any(
            b.startswith("torch.nn.") or (b in bases and is_module(b, depth + 1))
            for b in bases.get(cls, ())
        )

    return is_module


def _state_in_forward(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> Iterable[WorkItem]:
    """A Module's state written while it runs (vq-vae's EMA codebook in ``Quantize.forward``:
    ``self.cluster_size.data.mul_(decay).add_(...)``, ``self.embed.data.copy_(...)``; a
    queue's ``self.queue[:, ptr:ptr + n] = keys`` in a method ``forward`` calls; a
    codebook's own update methods a quantizer's forward calls) and the ``torch.distributed``
    collectives it runs there (directly or in a function it calls), one item per forward
    (forwards that write the same way, copies in several files, are one: :func:`_priced_once`):
    MindSpore's GRAPH_MODE writes a buffer only as a ``Parameter`` (``requires_grad=False``)
    through ``ops.assign`` and friends, and reduces through its communication API. Read from
    the scan's findings (a tensor's in-place method, a collective, in the network graph) and
    the worker's value records (the receiver or the target rooted at ``self``): an in-place
    activation on a local (``x.relu_()``), a write in ``__init__`` or in what only it calls,
    and an update in the training loop (an optimizer's or a weight EMA's step) are none. A
    forward whose collectives write no state is its own item (:func:`_collective_in_forward`)
    from the same walk."""
    in_place: dict[tuple[str, str], list[ApiFinding]] = {}
    collectives: dict[tuple[str, str], list[ApiFinding]] = {}
    for f in findings:
        if f.usage != "call" or f.scope != "network":
            continue
        if _IN_PLACE.match(f.api):
            in_place.setdefault((f.path, f.function), []).append(f)
        elif _COLLECTIVE.match(f.api):
            collectives.setdefault((f.path, f.function), []).append(f)
    files = {
        fa.path: (fa, facts.values)
        for fa, facts in with_facts(analyses)
        if facts.values is not None and not ancillary.why(fa.path)
    }
    #: every spelling of a function's qualified name -> (path, module-relative name, is a
    #: method)
    named = {
        f"{module}.{fn.qualname}": (fa.path, fn.qualname, bool(fn.cls))
        for fa, _ in files.values()
        for module in fa.modules
        for fn in fa.functions
    }
    aliases = module_aliases(analyses)
    is_module = module_classes(analyses)
    written: dict[tuple[str, str], list[tuple[Where, str]]] = {}
    code: dict[Where, list[str]] = {}  # the text of the writes at each place
    items: list[tuple[tuple[str, ...], WorkItem]] = []

    calls_of: dict[tuple[str, str], list[str]] = {}
    for path, (fa, _) in files.items():
        for call in fa.calls:
            if call.role == "call":
                calls_of.setdefault((path, call.caller), []).append(call.callee)

    def reached_collectives(path: str, qual: str) -> list[ApiFinding]:
        """The collectives a function runs, itself or through the plain functions and
        methods it calls (a queue update gathering keys through a module-level
        ``concat_all_gather``), a few calls deep; another Module's forward is its own."""
        seen = {(path, qual)}
        todo = [(path, qual, 0)]
        out: list[ApiFinding] = []
        while todo:
            at_path, at_qual, depth = todo.pop(0)
            out += collectives.get((at_path, at_qual), ())
            if depth >= 3:
                continue
            for callee in calls_of.get((at_path, at_qual), ()):
                found = follow(callee, aliases, named.__contains__)
                if found is None:
                    continue
                key = named[found][:2]
                last = key[1].rpartition(".")[2]
                if key not in seen and last != "__init__" and not _FORWARD.match(last):
                    seen.add(key)
                    todo.append((*key, depth + 1))
        return out

    def writes_of(path: str, method: str) -> list[tuple[Where, str]]:
        key = (path, method)
        if key not in written:
            fa, values = files[path]
            written[key] = _state_writes(fa, values, method, in_place.get(key, ()), code)
        return written[key]

    for path, (fa, _) in sorted(files.items()):
        for fn in fa.functions:
            if not (fn.cls and _FORWARD.match(fn.qualname.rpartition(".")[2])):
                continue
            qual = fn.qualname
            writes = list(writes_of(path, qual))
            reduced: list[tuple[ApiFinding, str]] = [
                (f, "") for f in collectives.get((path, qual), ())
            ]
            helpers_written: list[str] = []
            for call in fa.calls:
                if call.caller != qual or call.role != "call":
                    continue
                # ``dist_fn.all_reduce`` through the package re-exporting it
                found = follow(call.callee, aliases, named.__contains__)
                if found is None:
                    continue
                tpath, tqual, method = named[found]
                last = tqual.rpartition(".")[2]
                if (tpath, tqual) == (path, qual) or last == "__init__" or _FORWARD.match(last):
                    continue  # another Module's forward is its own item
                run = reached_collectives(tpath, tqual)
                reduced += [(f, call.callee) for f in run]
                if run:  # the call in the forward: where the rewrite goes
                    writes.append((place(fa, call.line), ""))
                # a method the forward calls: of its class (``self._enqueue(k)``) or of a
                # part (``self.embedding.cluster_size_ema_update(n)``); a plain object's
                # (a box list clipped in place, built on every call) holds no Cell state
                owner = found.rpartition(".")[0]
                more = writes_of(tpath, tqual) if method and is_module(owner) else []
                if more and tqual not in helpers_written:
                    helpers_written.append(tqual)
                writes += more
            states = list(dict.fromkeys(text for _, text in writes if text))
            apis = sorted({f.api for f, _ in reduced})
            helpers = sorted({h for _, h in reduced if h})
            ordered = sorted(dict.fromkeys(w for w, _ in writes), key=_where_order(path))
            where = tuple(dict.fromkeys([*ordered, *_places(f for f, _ in reduced)]))
            # what the forward writes, as written: a copy of the same update in another
            # file or class has the same text
            same = (*apis, *helpers, *(t for w in where for t in code.get(w, ("",))))
            if not states:
                if apis:  # a collective alone: in the compiled graph, gradients through it
                    # (no code text is kept for a collective's call: never merged)
                    unique = (*same, *map(str, where))
                    items.append((unique, _collective_in_forward(qual, apis, helpers, where)))
                continue
            what = f"{qual}: {', '.join(states)} updated in place"
            if helpers_written:
                what += f" (in {', '.join(helpers_written)})"
            if apis:
                what += f"; {', '.join(apis)}"
                what += f" (through {', '.join(helpers)})" if helpers else ""
            item = WorkItem(
                kind="state-in-forward",
                what=what,
                where=where,
                why=(
                    "module state (buffers or parameters) is written in place while the "
                    "network runs"
                    + (" and reduced across devices there" if apis else "")
                    + ": MindSpore's GRAPH_MODE updates such state only as a Parameter "
                    "(requires_grad=False) through mindspore.ops.assign / ops.assign_add, "
                    "not through .data or in-place tensor methods"
                    + (
                        ", and runs the collective through mindspore.communication "
                        "(ops.AllReduce) inside the cell"
                        if apis
                        else ""
                    )
                    + "; rewrite the update and check it against PyTorch's over a few steps"
                ),
                uses=len(where),
            )
            items.append((same, item))
    return _priced_once(items)


def _priced_once(items: Sequence[tuple[tuple[str, ...], WorkItem]]) -> list[WorkItem]:
    """One item per update written the same way (``same``: its collectives and the text of
    its writes): a forward copied into several model files or classes (the same weight
    normalisation in a Conv2d, a Conv1d and a Linear of each of three U-Net variants) is one
    rewrite applied at every place, not one per copy. The item names each forward, keeps
    every place and says how many copies it stands for."""
    groups: dict[tuple[object, ...], list[WorkItem]] = {}
    for same, item in items:
        groups.setdefault((item.kind, same), []).append(item)
    out = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        owners = list(dict.fromkeys(i.what.partition(": ")[0] for i in group))
        rest = first.what.partition(": ")[2]
        where = tuple(dict.fromkeys(w for i in group for w in i.where))
        files = len({w.path for w in where})
        out.append(
            replace(
                first,
                what=f"{', '.join(owners)}: {rest} (one update written {len(group)} times, "
                f"in {_count_of(files, 'file')})",
                where=where,
                why=first.why + "; the copies share one rewrite",
                uses=len(where),
            )
        )
    return out


def _collective_in_forward(
    qual: str, apis: Sequence[str], helpers: Sequence[str], where: tuple[Where, ...]
) -> WorkItem:
    """A forward that runs a ``torch.distributed`` collective and writes no state
    (barlowtwins' cross-correlation all-reduced in the loss its forward computes): the
    collective is part of the graph MindSpore compiles and gradients flow through it, so the
    port calls MindSpore's communication op inside ``construct``; a collective of the
    training loop (gradient averaging, a metric, a barrier) is outside every forward and
    stays an API row."""
    what = f"{qual}: {', '.join(apis)}"
    what += f" (through {', '.join(helpers)})" if helpers else ""
    return WorkItem(
        kind="collective-in-forward",
        what=what,
        where=where,
        why=(
            "a torch.distributed collective runs inside the network's forward, so it is "
            "part of the graph MindSpore compiles and gradients flow through it: call "
            "MindSpore's collective (mindspore.ops.AllReduce, ops.AllGather; "
            "mindspore.communication) inside construct, with "
            "communication initialised (init()) before the network is built, and check "
            "that the output and the gradient through it match PyTorch's on several devices"
        ),
        uses=len(where),
    )


def _where_order(path: str) -> Callable[[Where], tuple[bool, str, int]]:
    """Places in the forward's own file first, then by file and line."""
    return lambda w: (w.path != path, w.path, w.line)


#: How a state root names the parameters of a submodule a loop walks (a momentum
#: encoder's ``for q, k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
#: k.data = k.data * m + q.data * (1 - m)``).
_PARAMETERS = "'s parameters"
#: The methods that hand a module's tensors one by one.
_PARAMETER_WALKS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers"})


def _parameter_loops(values: FileValues, index: int) -> dict[str, str]:
    """The names the ``for`` loops of the def ``index`` bind to the parameters of a
    submodule (``param_k`` of ``for param_q, param_k in zip(self.encoder_q.parameters(),
    self.encoder_k.parameters())`` → ``self.encoder_k's parameters``): a write through one
    is a write to that submodule's weights. ``named_parameters()`` binds its second name;
    ``self.parameters()`` (the module's own weights) binds ``self's parameters``."""
    out: dict[str, str] = {}
    # the names an outer loop binds to the elements of an attribute of ``self`` (BLIP's
    # ``for model_pair in self.model_pairs:``, then ``model_pair[1].parameters()``)
    held = {
        loop.names[0]: ".".join(chain)
        for loop in values.loops
        if loop.function == index
        and len(loop.names) == 1
        and (chain := loop.iter.chain()) is not None
        and chain[0] == "self"
        and len(chain) > 1
    }

    def walked(expr: Expr) -> str | None:
        if not (expr.kind == "Call" and expr.callee() in _PARAMETER_WALKS):
            return None
        if expr.func.kind != "Attribute":
            return None
        receiver = expr.func.target
        chain = receiver.chain()
        if chain and chain[0] == "self":
            return ".".join(chain) + _PARAMETERS
        while receiver.kind in ("Subscript", "Attribute"):
            receiver = receiver.target
        if receiver.kind == "Name" and receiver.name in held:
            return held[receiver.name] + _PARAMETERS
        return None

    for loop in values.loops:
        if loop.function != index or not loop.names:
            continue
        it = loop.iter
        if it.kind == "Call" and it.callee() == "zip" and len(it.args) == len(loop.names):
            pairs = list(zip(loop.names, it.args, strict=True))
        else:
            pairs = [(loop.names[-1], it)]
        for name, source in pairs:
            root = walked(source)
            if root is not None:
                out[name] = root
    return out


def _state_root(expr: Expr, looped: dict[str, str] | None = None) -> str | None:
    """``self.cluster_size`` of ``self.cluster_size.data.mul_(d)`` / ``self.queue[:, i]``:
    the attribute of ``self`` a receiver or a target is part of (through attributes,
    ``.data``, indexing and other in-place methods: ``.mul_(d).add_(x)``), else None; a
    name ``looped`` binds to a submodule's parameters (:func:`_parameter_loops`) is that."""
    names: list[str] = []  # the attributes read above ``self``, innermost last
    node = expr
    while True:
        if (
            node.kind == "Name"
            and looped
            and node.name in looped
            and all(not n or n == "data" for n in names)
        ):
            return looped[node.name]
        if node.kind == "Attribute":
            names.append(node.name)
            node = node.target
        elif node.kind == "Subscript":
            names.append("")
            node = node.target
        elif node.kind == "Call" and node.callee().endswith("_") and node.func.kind == "Attribute":
            names.append("")
            node = node.func.target
        elif node.kind == "Name" and node.name == "self" and names and names[-1]:
            # ``self.conv.conv.weight_v`` of ``self.conv.conv.weight_v.data[:, -1].zero_()``
            chain = []
            for name in reversed(names):
                if not name or name == "data":
                    break
                chain.append(name)
            return "self." + ".".join(chain)
        else:
            return None


def _tensor_state(values: FileValues, owner: int) -> tuple[set[str], set[str]]:
    """The attributes of the class ``owner`` (an index of the value records' defs) that
    hold tensor state (``self.register_buffer("queue", ...)`` names, ``self.w =
    nn.Parameter(...)`` targets), and every attribute its methods set (those included)."""
    defs = values.defs
    methods = {i for i, d in enumerate(defs) if d.owner == owner and owner >= 0}
    tensors: set[str] = set()
    for call in values.calls:
        expr = call.expr
        if call.function in methods and expr.callee() == "register_buffer" and expr.args:
            name = expr.args[0]
            if name.kind == "Constant" and isinstance(name.value, str):
                tensors.add(name.value)
    assigned = set(tensors)
    for i in methods:
        for a in defs[i].assigns:
            chain = a.target.chain()
            if chain and chain[0] == "self" and len(chain) == 2:
                assigned.add(chain[1])
                if _makes(a.value, "Parameter"):
                    tensors.add(chain[1])
    return tensors, assigned


def _inherited_from_torch(fa: FileAnalysis, cls: str, attr: str, assigned: set[str]) -> bool:
    """``attr`` is state a torch layer the class extends keeps (timm's ``BatchNormAct2d(
    nn.BatchNorm2d)`` counting ``self.num_batches_tracked.add_(1)``): the class never sets
    it, and a base is a torch layer; MindSpore's counterpart layer keeps it itself."""
    if attr in assigned:
        return False
    fact = next((c for c in fa.classes if c.qualname == cls), None)
    return fact is not None and any(
        b.startswith("torch.nn.") and not _TORCH_MODULE.match(b) for b in fact.bases
    )


def _makes(value: Expr, name: str) -> bool:
    """``value`` is a call of something last named ``name`` (``nn.Parameter(w)``)."""
    return value.kind == "Call" and value.callee() == name


def _state_writes(
    fa: FileAnalysis,
    values: FileValues,
    method: str,
    in_place: Sequence[ApiFinding],
    code: dict[Where, list[str]] | None = None,
) -> list[tuple[Where, str]]:
    """(place, ``self.attr``) of each write to module state in the method ``method`` (its
    value records): an in-place tensor method the scan found whose receiver is rooted at
    ``self``, and an index or ``.data`` store into a buffer or parameter of its class
    (``self.queue[:, a:b] = k``; a plain ``self.x = v`` rebinds, it writes nothing in
    place). ``code`` receives the text of the writes at each place: what tells a copy of the
    same update in another file from a different one (:func:`_priced_once`)."""
    if code is None:
        code = {}
    out: list[tuple[Where, str]] = []
    index = next((i for i, d in enumerate(values.defs) if d.qual == method and not d.is_class), -1)
    if index < 0:
        return out
    d: DefValues = values.defs[index]
    looped = _parameter_loops(values, index)
    at = {(f.span.line, f.cell, f.api.rpartition(".")[2]) for f in in_place}
    for call in values.calls if at else ():
        if call.function != index or call.expr.func.kind != "Attribute":
            continue
        where = place(fa, call.expr.line)
        if (where.line, where.cell, call.expr.callee()) not in at:
            continue
        if call.expr.callee() == "requires_grad_":
            continue  # a flag set, no tensor written
        root = _state_root(call.expr.func.target, looped)
        if root is not None:
            out.append((where, root))
            code.setdefault(where, []).append(call.expr.full())
    stores: list[tuple[Where, str]] = []
    written: list[tuple[Where, str]] = []  # a submodule's parameters, written by a loop
    for a in d.assigns:
        target = a.target
        if target.kind == "Subscript" or (target.kind == "Attribute" and target.name == "data"):
            root = _state_root(target.target, looped)
            if root is not None:
                (written if root.endswith(_PARAMETERS) else stores).append(
                    (place(fa, a.line), root)
                )
                code.setdefault(place(fa, a.line), []).append(f"{target.full()} = {a.value.full()}")
    out += written
    if not out and not stores:
        return out  # most methods: the class's attributes are not read
    tensors, assigned = _tensor_state(values, d.owner)
    cls = values.defs[d.owner].qual if d.owner >= 0 else ""
    # a store into a buffer or a parameter of the class (a ``self.cache[k] = v`` dict is
    # no tensor state)
    out += [(w, root) for w, root in stores if root.partition(".")[2] in tensors]
    out = [
        (w, root)
        for w, root in out
        if root.endswith(_PARAMETERS)
        or not _inherited_from_torch(fa, cls, root.split(".")[1], assigned)
    ]
    out.sort(key=lambda w: (w[0].line, w[1]))
    return out


#: BatchNorm layers of torch (``torch.nn.BatchNorm2d``, ``SyncBatchNorm``), as findings name them.
_BATCH_NORM = re.compile(r"^torch\.nn\.(?:modules\.\w+\.)?(?:Sync)?BatchNorm\w*$")


def _bn_momentum_writes(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    dead: frozenset[tuple[str, str]],
) -> Iterable[WorkItem]:
    """``m.momentum = v`` written on the BatchNorm layers a function picks out
    (DeepLabV3+'s ``set_bn_momentum``: ``if isinstance(m, nn.BatchNorm2d): m.momentum =
    momentum``; YOLOP's ``initialize_weights``: ``elif t is nn.BatchNorm2d: m.momentum =
    0.03``), one item for the repository: MindSpore's BatchNorm momentum is 1 − PyTorch's,
    and a value written as an attribute escapes the constructor's rewrite (``momentum=0.03``
    → ``momentum=0.97``). A function that names a BatchNorm class and writes ``momentum``
    on another object than ``self`` (an optimizer's or an EMA's own ``self.momentum`` is
    not this) is one; a function nothing calls is not."""
    named = {(f.path, f.function) for f in findings if _BATCH_NORM.match(f.api)}
    places: list[tuple[Where, str]] = []
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or "momentum" not in fa.stored_attrs:
            continue
        for d in values.defs:
            if (fa.path, d.qual) not in named or (fa.path, d.qual) in dead:
                continue
            for a in d.assigns:
                target = a.target
                receiver = target.parts[0] if target.parts else None
                if (
                    target.kind == "Attribute"
                    and target.name == "momentum"
                    and receiver is not None
                    and receiver.kind == "Name"
                    and receiver.name != "self"
                ):
                    places.append((place(fa, a.line), f"{target.text} = {a.value.text}"))
    if not places:
        return
    written = sorted({text for _, text in places})
    yield WorkItem(
        kind="bn-momentum",
        what="BatchNorm momentum written as an attribute: " + ", ".join(written),
        where=tuple(dict.fromkeys(w for w, _ in places)),
        why=(
            "MindSpore's BatchNorm momentum is 1 − PyTorch's (PyTorch 0.03 is MindSpore 0.97); "
            "a value written on the layers after construction escapes the constructor's "
            "rewrite: write 1 − the value (or the running statistics follow the batch)"
        ),
        uses=len(places),
    )


#: The attributes of a layer that hold its Parameters, as a tie assigns them.
_PARAMETER_ATTRS = frozenset({"weight", "bias"})


def _tied_weights(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, dead: Collection[tuple[str, str]]
) -> Iterable[WorkItem]:
    """Parameters shared between two layers by assigning one layer's to the other
    (``self.wte.weight = self.lm_head.weight``; recognize-anything's
    ``tie_encoder_decoder_weights`` helper walking two modules and setting
    ``encoder_pointer.weight = decoder_pointer.weight``), one item for the repository with
    the places that call a function doing so: MindSpore shares a Parameter only where the
    same object is given to both Cells, under one name, so the sharing is written again in
    the port and the converted checkpoint holds the tensor once. A layer's Parameters
    moved into a layer the same function builds (timm's conversion to a synchronized
    BatchNorm: ``module_output.weight = module.weight``, the old layer dropped) share
    nothing, nor does a copy (``a.weight.data = b.weight.data``, ``.clone()``)."""
    places: list[Where] = []
    tying: set[str] = set()
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or ancillary.why(fa.path):
            continue
        if not _PARAMETER_ATTRS.intersection(fa.stored_attrs):
            continue
        functions = {e.qual for e in values.defs if not e.is_class}
        for d in values.defs:
            if d.is_class or (fa.path, d.qual) in dead:
                continue
            built = {
                a.target.name
                for a in d.assigns
                if a.target.kind == "Name" and a.value.kind == "Call"
            }
            for a in d.assigns:
                target, value = a.target, a.value
                if not (
                    target.kind == "Attribute"
                    and value.kind == "Attribute"
                    and target.name in _PARAMETER_ATTRS
                    and value.name == target.name
                    and target.text != value.text
                ):
                    continue
                root = target.chain()
                if root is None or value.chain() is None or root[0] in built:
                    continue
                places.append(place(fa, a.line))
                # the def, and the helper a nested one is defined in (and called by)
                parent = d.qual.rpartition(".")[0]
                quals = {d.qual} | ({parent} if parent in functions else set())
                tying.update(f"{m}.{q}" for m in fa.modules for q in quals)
    if not places:
        return
    # where the model's code calls a helper that ties (the module's __init__)
    callers = [
        place(fa, c.line)
        for fa in analyses
        if not ancillary.why(fa.path) and not is_test_path(fa.path)
        for c in fa.calls
        if c.role == "call"
        and c.callee in tying
        and not any(f"{m}.{c.caller}" in tying for m in fa.modules)
    ]
    where = tuple(dict.fromkeys(sorted([*places, *callers], key=lambda w: (w.path, w.line))))
    yield WorkItem(
        kind="tied-weights",
        what=f"Parameters shared between layers ({_count_of(len(places), 'assignment')})",
        where=where,
        why=(
            "one layer's Parameter is assigned to another, so both use (and train) the same "
            "tensor: in MindSpore the same Parameter object is given to both Cells in "
            "__init__ (one name; the other Cell's own is never created), and the checkpoint "
            "conversion maps both PyTorch names to it; check that the tied layers still "
            "share after the port (one update moves both)"
        ),
        uses=len(places),
    )


#: An attribute a forward keeps its loss in (llama2.c's ``self.last_loss``, ``self.aux_loss``).
_LOSS_ATTR = re.compile(r"(^|_)loss(es)?($|_)", re.IGNORECASE)


def _loss_attributes(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, dead: Collection[tuple[str, str]]
) -> Iterable[WorkItem]:
    """A loss a network's ``forward`` keeps on the module (``self.last_loss =
    F.cross_entropy(...)``, the logits returned) that the training code reads back from the
    model after calling it (``logits = model(X, Y)``, then ``loss = raw_model.last_loss`` and
    ``loss.backward()``): mindspore.value_and_grad differentiates what the function it wraps
    returns, so the construct returns the loss (or the forward function returns it) and the
    attribute goes. One item with the assignments and the reads; none where nothing outside
    the module reads the attribute back."""
    stored: dict[str, list[Where]] = {}
    ported = [
        (fa, facts.values)
        for fa, facts in with_facts(analyses)
        if facts.values is not None and not ancillary.why(fa.path) and not is_test_path(fa.path)
    ]
    for fa, values in ported:
        for d in values.defs:
            if d.is_class or d.name != "forward" or d.owner < 0:
                continue
            if (fa.path, d.qual.partition(".")[0]) in dead:
                continue  # a network class nothing builds
            for a in d.assigns:
                target = a.target
                if (
                    target.kind == "Attribute"
                    and target.target.kind == "Name"
                    and target.target.name == "self"
                    and _LOSS_ATTR.search(target.name)
                    and a.value.kind in ("Call", "BinOp")
                ):
                    stored.setdefault(target.name, []).append(place(fa, a.line))
    if not stored:
        return
    reads: list[Where] = []
    for fa, values in ported:
        for a in (*values.assigns, *(x for d in values.defs for x in d.assigns)):
            value = a.value
            if (
                value.kind == "Attribute"
                and value.name in stored
                and value.target.text not in ("self", "cls")
            ):
                reads.append(place(fa, a.line))
    if not reads:
        return
    names = ", ".join(f"self.{n}" for n in sorted(stored))
    where = [w for places in stored.values() for w in places] + reads
    yield WorkItem(
        kind="loss-attribute",
        what=f"loss kept on the module in forward ({names}), read back by the training step",
        where=tuple(dict.fromkeys(sorted(where, key=lambda w: (w.path, w.line)))),
        why=(
            "the forward stores its loss on the module and the training code reads it from "
            "the model after the call: mindspore.value_and_grad differentiates what the "
            "function it wraps returns, and a graph-mode construct does not hand tensors back "
            "through attributes, so the construct (or the forward function the train step "
            "differentiates) returns the loss, and the reads take it from there"
        ),
        uses=len(reads),
    )


#: A layer's switch to evaluation mode, and back to training mode.
_EVAL_MODE = "torch.nn.Module.eval"
_TRAIN_MODE = "torch.nn.Module.train"


def _frozen_batch_norm(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    dead: frozenset[tuple[str, str]],
    defaults: dict[str, set[object]] | None = None,
) -> Iterable[WorkItem]:
    """BatchNorm layers put in evaluation mode during training (RetinaNet's ``freeze_bn``:
    ``for layer in self.modules(): if isinstance(layer, nn.BatchNorm2d): layer.eval()``,
    called after ``model.train()`` each epoch): their running statistics stay frozen while
    the rest trains. MindSpore's ``set_train`` cascades to every child cell and the training
    wrapper sets it, so the freeze is undone: one item for the repository. A function that
    names a BatchNorm class and calls ``.eval()`` on another object than ``self`` (the
    same picking-out as :func:`_bn_momentum_writes`) is one when a function that switches
    a model to training mode calls it after the switch; a whole model's ``model.eval()``
    in an evaluation function, or a freeze nothing calls in training, is not, nor one
    called only under a test the run's values fail (``defaults``, the review's option and
    config values: pytorch-segmentation's ``if self.config['arch']['args']['freeze_bn']:``
    with ``freeze_bn: false``)."""
    named = {(f.path, f.function) for f in findings if _BATCH_NORM.match(f.api)}
    evals = [
        f
        for f in findings
        if f.api == _EVAL_MODE
        and f.usage == "call"
        and (f.path, f.function) in named
        and (f.path, f.function) not in dead
        and f.args is not None
        and f.args.receiver not in ("", "self")
    ]
    if not evals:
        return
    # the functions that switch a model to training mode, with the first line they do
    trains: dict[tuple[str, str], int] = {}
    for f in findings:
        if (
            f.api == _TRAIN_MODE
            and f.usage == "call"
            and (f.args is None or f.args.positional[:1] not in (("False",), ("0",)))
        ):
            key = (f.path, f.function)
            trains[key] = min(trains.get(key, f.span.line), f.span.line)
    freezers = {f.function.rpartition(".")[2] for f in evals}
    calls = [
        place(fa, c.line)
        for fa in analyses
        for c in fa.calls
        if c.role == "call"
        and c.callee.rpartition(".")[2] in freezers
        and c.line > trains.get((fa.path, c.caller), c.line)
        and not (defaults and switched_off_branch(fa, c.line, defaults, every=True))
    ]
    if not calls:
        return
    yield WorkItem(
        kind="bn-frozen",
        what="BatchNorm layers frozen in training: "
        + ", ".join(sorted({f.function for f in evals})),
        where=tuple(dict.fromkeys([*_places(evals), *calls])),
        why=(
            "the training loop puts the BatchNorm layers in evaluation mode after "
            "model.train() (frozen running statistics); MindSpore's set_train cascades to "
            "every child cell and the training wrapper sets it, so the freeze is undone: "
            "build them as BatchNorm2d(use_batch_statistics=False), or freeze them with "
            "requires_grad=False and set_train(False) on the layers after the wrapper"
        ),
        uses=len(evals),
    )


#: The buffers of a normalisation whose statistics and affine are fixed: a Module registering
#: them itself (not torch's BatchNorm, which holds them for its subclasses).
_FROZEN_BUFFERS = frozenset({"running_mean", "running_var", "weight"})
_REGISTER_BUFFER = "torch.nn.Module.register_buffer"


def _frozen_statistics(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    dead: frozenset[tuple[str, str]],
) -> Iterable[WorkItem]:
    """The repository's own frozen BatchNorm (maskrcnn-benchmark's and detectron2's
    ``FrozenBatchNorm2d``: ``register_buffer("weight" / "running_mean" / "running_var")``,
    ``x * scale + bias`` in ``forward``) built by the model, with the parameters the model
    freezes (``p.requires_grad = False`` in a network class: the stem and first stages a
    ``FREEZE_AT`` switches off). One item, the frozen-BatchNorm home (:func:`
    _frozen_batch_norm`): the statistics and affine become ``Parameter``s with
    ``requires_grad=False`` loaded from the checkpoint by their names (GRAPH_MODE holds
    state only as Parameters), the frozen parameters are left out of the optimizer
    (``trainable_params()``), and the output is checked against the frozen layers. A class
    no other ported file names (built by nothing) is none."""
    buffers: dict[tuple[str, str], set[str]] = {}
    places: dict[tuple[str, str], ApiFinding] = {}
    for f in findings:
        if f.api != _REGISTER_BUFFER or f.usage != "call" or f.args is None:
            continue
        cls, _, method = f.function.rpartition(".")
        name = f.args.positional[0].strip("'\"") if f.args.positional else ""
        if method == "__init__" and cls and (f.path, f.function) not in dead:
            buffers.setdefault((f.path, cls), set()).add(name)
            places.setdefault((f.path, cls), f)
    # the network's classes, torch.nn modules through any of the repository's bases (what
    # their methods freeze is the model's: an optimizer's or an EMA's copy is not)
    is_module = module_classes(analyses)
    # built by the model: named by another ported file of network modules (a constructor's
    # default ``norm_func=FrozenBatchNorm2d``, a call), which no call edge may show; not by
    # a package's re-export or a utility converting a model on request
    ported = {f.path for f in findings}
    named = {
        (fa.path, ref.rpartition(".")[2])
        for fa in analyses
        if fa.path in ported
        and PurePosixPath(fa.path).name != "__init__.py"
        and fa.modules
        and any(is_module(f"{fa.modules[0]}.{c.qualname}") for c in fa.classes)
        for ref in fa.local_refs
    }
    frozen = sorted(
        (path, cls)
        for (path, cls), names in buffers.items()
        if names >= _FROZEN_BUFFERS and any(n == cls and p != path for p, n in named)
    )
    if not frozen:
        return
    freezes: list[Where] = []
    for fa, facts in with_facts(analyses):
        values = facts.values
        if (
            values is None
            or fa.path not in ported
            or not fa.modules
            or "requires_grad" not in fa.stored_attrs
        ):
            continue
        for d in values.defs:
            cls = d.qual.rpartition(".")[0]
            if (fa.path, d.qual) in dead or not cls or not is_module(f"{fa.modules[0]}.{cls}"):
                continue
            for a in d.assigns:
                if (
                    a.target.kind == "Attribute"
                    and a.target.name == "requires_grad"
                    and a.value.text == "False"
                ):
                    freezes.append(place(fa, a.line))
    names = ", ".join(cls for _, cls in frozen)
    what = f"frozen BatchNorm (fixed statistics and affine): {names}"
    if freezes:
        what += f"; {_count_of(len(freezes), 'parameter freeze')}"
    yield WorkItem(
        kind="bn-frozen",
        what=what,
        where=tuple(dict.fromkeys([*_places(places[k] for k in frozen), *freezes])),
        why=(
            "a BatchNorm whose statistics and affine are fixed buffers: "
            + COMPOSITIONS["torchvision.ops.FrozenBatchNorm2d"]
            + "; in MindSpore the buffers are Parameters with requires_grad=False, loaded "
            "from the checkpoint by their names, and the parameters the model freezes "
            "(requires_grad = False) are left out of the optimizer (trainable_params()): "
            "checked against the frozen layers' outputs"
        ),
        uses=len(frozen),
    )


#: What binds a function as a method of one object (``types.MethodType(fn, obj)``).
_METHOD_BINDERS = frozenset({"types.MethodType", "MethodType"})


def _patched_methods(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    tests: Mapping[str, tuple[int, int]],
    unchosen: Callable[[str, int], str],
) -> list[WorkItem]:
    """Methods the repository replaces on objects it has built (MiDaS's BEiT backbone:
    ``block.forward = types.MethodType(block_forward, block)``, its patch embedding and
    attention alike, for arbitrary window sizes), one item per function that replaces them:
    the network that runs is the zoo's or library's with those methods swapped in, so its
    MindSpore counterpart (MindCV's, or a port) must carry them, checked against PyTorch's
    outputs. A patch in a branch the defaults do not take (another model type's backbone)
    or in a self-test is none."""
    out: list[WorkItem] = []
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.values is None:
            continue
        first, last = tests.get(fa.path, (0, 0))
        found: dict[str, list[tuple[int, str]]] = {}
        for d in facts.values.defs:
            if d.is_class:
                continue
            for a in d.assigns:
                if (
                    a.target.kind != "Attribute"
                    or a.value.kind != "Call"
                    or a.value.callee() not in _METHOD_BINDERS
                    or first <= a.line <= last
                    or unchosen(fa.path, a.line)
                ):
                    continue
                found.setdefault(d.qual, []).append((a.line, a.target.text))
        for function, patches in found.items():
            patches.sort()
            names = ", ".join(dict.fromkeys(text for _, text in patches))
            out.append(
                WorkItem(
                    kind="patched-method",
                    what=f"{function}: {names}",
                    where=tuple(place(fa, line) for line, _ in patches),
                    why=(
                        f"{function} replaces methods of an object it has built "
                        "(types.MethodType): the network that runs is that object's class "
                        "with these methods swapped in, so its MindSpore counterpart (MindCV's "
                        "or a port) must carry them, checked against PyTorch's outputs"
                    ),
                    uses=len(patches),
                )
            )
    return out


#: Hooks that run a function on a layer's output (or input) as a side effect of forward.
_FORWARD_HOOKS = frozenset(
    {"torch.nn.Module.register_forward_hook", "torch.nn.Module.register_forward_pre_hook"}
)


def _forward_hooks(
    findings: Sequence[ApiFinding], tests: Mapping[str, tuple[int, int]]
) -> list[WorkItem]:
    """Forward hooks the network registers (Depth Pro's encoder: ``blocks[i]
    .register_forward_hook(self._hook0)`` storing a block's output on ``self``, read later
    in ``forward``), one item per function that registers them: a side effect of the
    forward pass that GRAPH_MODE does not trace, so the layer must return those outputs
    explicitly and its callers take them, a rewrite of the forward, not the API row's
    rename. A hook in code not ported (a feature-extraction tool) or in a self-test is
    not."""
    found: dict[tuple[str, str], list[ApiFinding]] = {}
    for f in findings:
        first, last = tests.get(f.path, (0, 0))
        if (
            f.api in _FORWARD_HOOKS
            and f.usage == "call"
            and f.scope == "network"
            and not first <= f.span.line <= last
        ):
            found.setdefault((f.path, f.function), []).append(f)
    return [
        WorkItem(
            kind="forward-hook",
            what=f"{function or 'module code'}: "
            + ", ".join(sorted({f.api.rpartition(".")[2] for f in hooks})),
            where=_places(hooks),
            why=(
                f"{function or 'module code'} registers forward hooks that collect "
                "intermediate outputs as a side effect of forward: under GRAPH_MODE the "
                "hooked layers' outputs must be returned explicitly by construct and taken "
                "by the code that read them, a rewrite of the forward, not a rename"
            ),
            uses=len(hooks),
        )
        for (_, function), hooks in sorted(found.items())
    ]


def _data_transforms(analyses: Sequence[FileAnalysis]) -> dict[str, Where]:
    """The repository classes used as data transforms, each with the first place that uses
    it so: passed as a loader's or dataset's ``transform`` (the call facts' data roles), or
    built as a step of a composition (``Compose([..., GaussianBlur(k), ...])``, a
    repository's ``ExtCompose``)."""
    classes = {
        f"{m}.{c.qualname}"
        for fa in analyses
        if not fa.errors
        for m in fa.modules
        for c in fa.classes
    }
    found: dict[str, Where] = {}
    for fa, facts in with_facts(analyses):
        spans = [
            (call.expr.line, call.expr.end_line)
            for call in (facts.values.calls if facts.values is not None else ())
            if is_composition(call.expr.callee())
        ]
        for c in fa.calls:
            if c.callee not in classes:
                continue
            step = any(first <= c.line <= last for first, last in spans)
            if step or c.role in _TRANSFORM_ROLES:
                found.setdefault(c.callee, place(fa, c.line))
    return found


#: The data roles that hand a transform to a dataset or loader.
_TRANSFORM_ROLES = frozenset({"transform", "transforms", "target_transform"})
#: What computes with torch: a torch.nn layer (its weights, its forward) or a functional op.
_FUNCTIONAL = "torch.nn.functional."


def _torch_in_data(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], torch_api: TorchApi
) -> Iterable[WorkItem]:
    """A data transform of the repository that computes with torch (SimCLR's
    ``GaussianBlur`` built from ``nn.Conv2d`` and run in a torchvision ``Compose``), one
    item per class: it runs per sample on the host, in the loader's workers; a MindSpore
    dataset pipeline runs NumPy/PIL code or mindspore.dataset ops there, so the computation
    is rewritten with them. Conversions (``torch.from_numpy``) and torchvision's own
    transforms are API rewrites, not this."""
    transforms = _data_transforms(analyses)
    if not transforms:
        return
    by_class: dict[tuple[str, str], str] = {}
    for fa in analyses:
        for m in fa.modules:
            for c in fa.classes:
                if f"{m}.{c.qualname}" in transforms:
                    by_class.setdefault((fa.path, c.qualname), f"{m}.{c.qualname}")
    found: dict[str, list[ApiFinding]] = {}
    for f in findings:
        cls = f.function.rpartition(".")[0]
        qual = by_class.get((f.path, cls))
        if qual is None or f.usage not in ("call", "reference"):
            continue
        if f.api.startswith(_FUNCTIONAL) or (
            f.api.startswith("torch.nn.") and torch_api.is_layer(f.api)
        ):
            found.setdefault(qual, []).append(f)
    for qual, uses in sorted(found.items()):
        uses.sort(key=lambda f: f.sort_key())
        used = transforms[qual]
        name = qual.rpartition(".")[2]
        yield WorkItem(
            kind="data-torch-op",
            what=f"{name}: {', '.join(sorted({f.api for f in uses}))}",
            where=(*_places(uses), used),
            why=(
                f"the data transform {name} (used at {used}) computes with torch on every "
                "sample, on the host in the loader's workers: a MindSpore dataset pipeline "
                "runs NumPy/PIL code or mindspore.dataset ops there, so rewrite it with "
                "NumPy/OpenCV/PIL or a mindspore.dataset.vision op"
            ),
            uses=len(uses),
        )


#: Torch computations a dataset may run per sample besides functional ops and layers: the
#: signal ops of an audio or spectral pipeline (a mel spectrogram in ``__getitem__``).
_SIGNAL_OPS = frozenset(
    {
        "torch.stft",
        "torch.istft",
        "torch.matmul",
        "torch.hann_window",
        "torch.hamming_window",
        "torch.blackman_window",
    }
)
#: The bases that make a class a map-style or iterable dataset.
_DATASET_BASES = ("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset")


def _torch_in_datasets(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    torch_api: TorchApi,
) -> Iterable[WorkItem]:
    """A dataset whose ``__getitem__`` computes with torch on every sample, itself or
    through a function of the repository it calls (HiFi-GAN's ``MelDataset`` calling
    ``mel_spectrogram``: ``torch.stft`` and a mel filterbank ``torch.matmul``), one item per
    dataset: it runs on the host in the loader's workers, where a MindSpore dataset
    pipeline runs NumPy code or mindspore.dataset ops; the computation is rewritten with
    them (``mindspore.dataset.audio``, librosa, NumPy), even where the network's loss calls
    the same function on the device."""
    module_paths = {m: fa.path for fa in analyses for m in fa.modules}
    datasets: list[tuple[FileAnalysis, str]] = []
    for fa in analyses:
        if fa.errors or ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        for c in fa.classes:
            if any(b in _DATASET_BASES for b in c.bases) and "__getitem__" in c.methods:
                datasets.append((fa, c.qualname))
    if not datasets:
        return
    by_function: dict[tuple[str, str], list[ApiFinding]] = {}
    for f in findings:
        if f.usage != "call" or not f.api.startswith("torch."):
            continue
        if (
            f.api in _SIGNAL_OPS
            or f.api.startswith(("torch.fft.", _FUNCTIONAL))
            or (f.api.startswith("torch.nn.") and torch_api.is_layer(f.api))
        ):
            by_function.setdefault((f.path, f.function), []).append(f)
    for fa, cls in datasets:
        getitem = f"{cls}.__getitem__"
        reached = [(fa.path, getitem)]
        for c in fa.calls:
            if c.caller != getitem or c.role != "call":
                continue
            module, _, name = c.callee.rpartition(".")
            path = module_paths.get(module)
            if path is not None and not ancillary.why(path):
                reached.append((path, name))
        uses = [f for key in reached for f in by_function.get(key, ())]
        computing = sorted({f.api for f in uses if f.api in _SIGNAL_OPS or "fft" in f.api})
        if not uses or not computing:
            continue
        uses.sort(key=lambda f: f.sort_key())
        via = sorted({fn for path, fn in reached[1:] if by_function.get((path, fn))})
        shown = f" (through {', '.join(via)})" if via else ""
        yield WorkItem(
            kind="data-torch-op",
            what=f"{cls}: {', '.join(sorted({f.api for f in uses}))}{shown}",
            where=(*_places(uses), place(fa, _class_line(fa, cls))),
            why=(
                f"the dataset {cls} computes with torch on every sample{shown}, on the host "
                "in the loader's workers: a MindSpore dataset pipeline runs NumPy code or "
                "mindspore.dataset ops there (mindspore.dataset.audio's Spectrogram and "
                "MelScale, or librosa and NumPy), so the features are computed with them; "
                "where the loss runs the same function on the device it is ported twice, "
                "and the two are checked to agree"
            ),
            uses=len(uses),
        )


def _class_line(fa: FileAnalysis, qualname: str) -> int:
    return next((c.line for c in fa.classes if c.qualname == qualname and c.line), 1)


def data_pipeline_sites(work: Sequence[WorkItem]) -> Callable[[ApiFinding], bool]:
    """Whether a finding is part of a data transform that a ``data-torch-op`` item already
    counts (SimCLR's blur: its ``nn.Sequential`` is rewritten with NumPy or a dataset op,
    not as a SequentialCell of the network, and so are the ``from_numpy`` and ``copy_`` of
    its ``__call__``): any finding in a method of that class, in the file of its places;
    and the ``.cpu()`` a forward's per-step host copy is chained on
    (:func:`_host_copies_in_forward`). The network's gaps and the effort's call sites leave
    it out."""
    classes = {
        (w.path, item.what.partition(": ")[0])
        for item in work
        if item.kind == "data-torch-op"
        for w in item.where[:-1]  # the last place is where the transform is used
    }
    # ... and the ``.cpu()`` of a per-step host copy (a forward's, or the training step's
    # ``iou.cpu().numpy()``), which its round trip or step-sync item counts (no placement
    # call to delete)
    copied = {
        (w.path, w.line)
        for item in work
        if (item.kind == "host-round-trip" and HOST_COPY_WHAT in item.what)
        or item.kind == "step-sync"
        for w in item.where
    }

    def covered(f: ApiFinding) -> bool:
        if f.api == "torch.Tensor.cpu" and (f.path, f.span.line) in copied:
            return True
        cls = f.function.rpartition(".")[0].rpartition(".")[2]
        return bool(cls) and (f.path, cls) in classes

    return covered


#: The rule for multi-scale training and dataset-dependent input shapes (padded batches too).
INPUT_SHAPE_RULE = "DS119"
#: The rule for per-sample tensors of their own lengths joined into one (the boxes of every
#: image of a batch concatenated into one targets tensor): in a collate function, the batch
#: field has as many rows as the batch has boxes.
PER_SAMPLE_TOTAL_RULE = "DS120"
#: The rule for a count read from the data (``nonzero``, ``argwhere``): in a collate
#: function, a batch field whose length is drawn per batch (a mask collator's kept-patch
#: indices, truncated to the batch's shortest).
DATA_DEPENDENT_COUNT_RULE = "DS103"
#: ``A.collate4 if quad else A.collate``: the alternatives of a conditional expression.
_ALTERNATIVES = re.compile(r"\s+if\s+.*?\s+else\s+")


#: What resizes an image, and what pads it to a given size, by the dotted API a call names:
#: a function calling one of each is a resize to a fixed size with padding (a letterbox).
_RESIZES = frozenset(
    {
        "cv2.resize",
        "torch.nn.functional.interpolate",
        "torchvision.transforms.functional.resize",
    }
)
_PADS = frozenset(
    {
        "cv2.copyMakeBorder",
        "numpy.pad",
        "torch.nn.functional.pad",
        "torchvision.transforms.functional.pad",
    }
)
#: The parameters of such a function that give the size it pads to.
_SIZE_PARAM = re.compile(r"(?:img_|new_|target_|out_|input_)?(?:size|shape|height|width|[hw])$")


def fixed_size_inputs(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    trained: Iterable[str],
    runs: Callable[[str, int], bool] | None = None,
) -> tuple[str, ...]:
    """The resizes with padding to a fixed size that the training's data code runs, each as
    ``name(...) at path:line (size: height=608, width=1088)``: a function of the repository
    whose own body resizes (``cv2.resize``, ``F.interpolate``) and pads (``cv2.
    copyMakeBorder``, ``np.pad``, ``F.pad``) an image, called by a method of a training
    dataset (``trained``: the classes whose methods the recipe reads the per-sample steps
    of, with their bases) in a ported file where the run reaches it (``runs``); an
    inference loader's letterbox is no training input. Every image then reaches the
    network at one size, whatever its own: good news for a static graph (the size is the
    call's literal arguments, else the function's defaults; a size passed as a name is
    shown as written)."""
    files = [
        (fa, fa.syntax.values)
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    ]
    letterboxes: dict[str, DefValues] = {}
    for fa, values in files:
        imports = dict(fa.syntax.imports) if fa.syntax is not None else {}
        found: dict[int, set[str]] = {}
        for call in values.calls:
            func = call.expr.func if call.expr.parts else None
            chain = func.chain() if func is not None else None
            if not chain or call.function < 0:
                continue
            dotted = ".".join([imports.get(chain[0], chain[0]), *chain[1:]])
            found.setdefault(call.function, set()).add(dotted)
        for n, apis in found.items():
            d = values.defs[n]
            if apis & _RESIZES and apis & _PADS and any(_SIZE_PARAM.match(p) for p, _ in d.params):
                letterboxes.setdefault(d.name, d)
    if not letterboxes:
        return ()
    # the training datasets, and the bases they name, transitively
    data = set(trained)
    bases = {c.qualname: c.bases for fa in analyses for c in fa.classes}
    todo = list(data)
    while todo:
        for base in bases.get(todo.pop(), ()):
            name = base.rpartition(".")[2]
            if name not in data:
                data.add(name)
                todo.append(name)
    out: list[str] = []
    for fa, values in files:
        if ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        for call in values.calls:
            d = letterboxes.get(call.expr.callee())
            if d is None or call.function < 0:
                continue
            owner = values.defs[call.function].owner
            if not (0 <= owner < len(values.defs) and values.defs[owner].name in data):
                continue
            if runs is not None and not runs(fa.path, call.expr.line):
                continue
            given = {k.name: k.target for k in call.expr.keywords if k.name}
            positional = [p for p in d.positional if p not in ("self", "cls")]
            given.update(zip(positional, call.expr.args, strict=False))
            sizes = []
            for param, default in d.params:
                if not _SIZE_PARAM.match(param):
                    continue
                value = given.get(param)
                if value is not None and literal_value(value) is None:
                    # passed as a name or an expression: the caller's value, not the default
                    shown = f"{param}={value.shown()} (passed by the caller)"
                else:
                    value = value if value is not None else default
                    shown = f"{param}={value.shown()}" if value is not None else ""
                if shown:
                    sizes.append(shown)
            out.append(
                f"{d.name}(...) at {place(fa, call.expr.line)}"
                + (f" ({', '.join(sizes)})" if sizes else "")
            )
    return tuple(dict.fromkeys(out))


def _collate_names(text: str) -> list[str]:
    """The last names of the functions a ``collate_fn=`` argument may pass
    (``A.collate_fn4 if quad else A.collate_fn``: the alternatives of one loader)."""
    parts = _ALTERNATIVES.split(text.strip())
    return [p.strip().rpartition(".")[2] for p in parts if p.strip()]


def padded_batches(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> tuple[tuple[str, str], ...]:
    """(path, function) of the collate functions (``DataLoader(collate_fn=...)``, followed
    one call deep through the scan's call facts) where DS119 found a batch padded to its
    largest item, DS120 per-sample tensors concatenated into one (``torch.cat(labels,
    0)`` of every image's boxes), or DS103 a count read from the data (the kept-patch
    indices of a mask collator, ``nonzero`` of a sampled block), whatever their scope
    (the rules decide what varies; this only asks whether a loader collates with it).
    Every batch then has its own shape, as with multi-scale training: the compiled network
    needs fixed buckets or one padded size (a maximum box count). The alternatives of one
    loader's collate (``collate_fn=A.f4 if quad else A.f``) are one pipeline."""
    padding = {
        (f.path, f.function)
        for f in result.shape_findings
        if f.case == BATCH_PADDING or f.rule in (PER_SAMPLE_TOTAL_RULE, DATA_DEPENDENT_COUNT_RULE)
    }
    if not padding:
        return ()
    #: a function's last name -> (its file's analysis, qualified name); a class's
    #: ``__call__`` under the class's name too: an instance handed as ``collate_fn``
    #: (``collate_fn=MaskCollator(...)``) collates with its ``__call__``
    defs: dict[str, list[tuple[FileAnalysis, str]]] = {}
    for fa, _ in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for qual in dict.fromkeys(fn.qualname for fn in fa.functions):
            defs.setdefault(qual.rpartition(".")[2], []).append((fa, qual))
            owner, _, last = qual.rpartition(".")
            if last == "__call__" and owner:
                defs.setdefault(owner.rpartition(".")[2], []).append((fa, qual))
    #: (path, line) of a loader -> the last names of the collate functions it may use: read
    #: off the ``DataLoader`` call, and off the scan's ``collate_fn`` edges (a loader class
    #: chosen at run time, ``loader = DataLoader if w else InfiniteDataLoader``)
    loaders: dict[tuple[str, int], list[str]] = {}
    for f in result.api_findings:
        if f.api != "torch.utils.data.DataLoader" or f.args is None or ancillary.why(f.path):
            continue
        collate = next((text for name, text in f.args.keywords if name == "collate_fn"), "")
        loaders.setdefault((f.path, f.span.line), []).extend(_collate_names(collate))
    for fa, _ in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for call in fa.calls:
            if call.role == "collate_fn":
                names = loaders.setdefault((fa.path, call.line), [])
                names.append(call.callee.rpartition(".")[2])
    found: set[tuple[str, str]] = set()
    for names in loaders.values():
        for last in sorted(dict.fromkeys(n for n in names if n)):
            hits: set[tuple[str, str]] = set()
            for fa, qual in defs.get(last, []):
                todo = [(fa, qual)] + [
                    target
                    for call in fa.calls
                    if call.role == "call"
                    and (call.caller == qual or call.caller.startswith(qual + "."))
                    for target in defs.get(call.callee.rpartition(".")[2], [])
                ]
                hits.update((t.path, q) for t, q in todo if (t.path, q) in padding)
            if hits:
                # the alternatives of one loader's collate are one pipeline, whichever runs
                found.update(hits)
                break
    return tuple(sorted(found))


#: A loader built with rectangular batches (``create_dataloader(..., rect=True)`` in the
#: YOLOv5 family): each batch is shaped by the aspect ratios of its images.
_RECTANGULAR = re.compile(r"\brect\s*=\s*True\b")
#: ... built by a loader (``create_dataloader``), not a dataset read for statistics
#: (``kmean_anchors``' ``LoadImagesAndLabels(..., rect=True)``).
_LOADER = re.compile(r"loader", re.IGNORECASE)


def rectangular_batches(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> tuple[tuple[str, str], ...]:
    """(path, what) of each call in a ported file that builds a loader with rectangular
    batches (``rect=True`` written at the call: yolov9's validation loader in ``train.py``).
    Every batch then has a shape read from the data, as with multi-scale training: an input
    pipeline to bucket or pad. Told apart from a multi-scale finding in the same function
    by its line. The same loader builder called with ``rect=True`` from several scripts
    (the training's validation loader and the evaluation script's) is one pipeline, named
    at its first place with the others."""
    found: dict[str, list[tuple[str, str, int]]] = {}  # builder -> (path, function, line)
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.models is None:
            continue
        callers = {c.line: c.caller for c in fa.calls if c.role == "call"}
        callees = {c.line: c.callee for c in fa.calls if c.role == "call"}
        for e in facts.models.exprs:
            written = e.node.full().partition("(")[0]
            if (
                e.kind == "call"
                and "rect" in e.keywords
                and _LOADER.search(written)
                and _RECTANGULAR.search(e.node.full())
            ):
                function = callers.get(e.line) or "<module>"
                builder = callees.get(e.line) or f"{fa.path}:{written}"
                found.setdefault(builder, []).append((fa.path, function, e.line))
    out = []
    for places in found.values():
        # a training file's place first (the evaluation script's call after it)
        (path, function, line), *more = sorted(
            places, key=lambda p: (p[0] not in ancillary.keep, p)
        )
        also = "; ".join(f"also {p}:{f} line {n}" for p, f, n in more)
        out.append((path, f"{function} (rect=True, line {line}{'; ' + also if also else ''})"))
    return tuple(sorted(out))


#: A bucketing iterator (torchtext's ``BucketIterator``, ``BucketIterator.splits``): it
#: batches examples of similar length and pads each batch to its longest, so every batch has
#: its own sequence length.
_BUCKETING = re.compile(
    r"^torchtext\.(?:legacy\.)?data\.(?:iterator\.)?BucketIterator(?:\.splits)?$"
)


def bucketing_iterators(result: ScanResult, ancillary: Ancillary) -> tuple[tuple[str, str], ...]:
    """(path, what) of each ported file that builds a bucketing iterator
    (attention-is-all-you-need's ``BucketIterator(train, batch_size=...)``): an input
    pipeline with data-dependent shapes like a collate padding to the batch's largest item.
    Counted once per file: the training and validation iterators, or two loading functions
    building them alike, are one pipeline to port."""
    lines: dict[tuple[str, str], list[int]] = {}
    for f in result.api_findings:
        if f.usage == "call" and _BUCKETING.match(f.api) and not ancillary.why(f.path):
            lines.setdefault((f.path, f.api.rpartition("data.")[2]), []).append(f.span.line)
    return tuple(
        sorted(
            (path, f"{name} (line{'s' if len(at) > 1 else ''} {', '.join(map(str, sorted(at)))})")
            for (path, name), at in lines.items()
        )
    )


#: A library's collator that pads each batch to its longest example by default
#: (transformers' ``DataCollatorForSeq2Seq(tokenizer, padding=True)``), the batch's
#: sequence length then the data's.
_PADDING_COLLATOR = re.compile(
    r"^transformers\.(?:\w+\.)*DataCollator(?:ForSeq2Seq|WithPadding|ForTokenClassification"
    r"|ForLanguageModeling|ForWholeWordMask)$"
)


def padding_collators(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> tuple[tuple[str, str], ...]:
    """(path, what) of each ported file that builds a library collator padding each batch
    to its longest example (``DataCollatorForSeq2Seq(tokenizer, pad_to_multiple_of=8,
    padding=True)``): an input pipeline with data-dependent shapes like a collate padding to
    the batch's largest item (a multiple of 8 still leaves one shape per length bucket).
    ``padding="max_length"`` or ``padding=False`` pads to a fixed size or not at all: none.
    Counted once per file."""
    from apiscan.review.oplibs import absolute_call_values

    lines: dict[tuple[str, str], list[int]] = {}
    for fa in analyses:
        if fa.syntax is None or ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        for name, call in absolute_call_values(fa.syntax):
            if not _PADDING_COLLATOR.match(name):
                continue
            padding = next((k.target for k in call.expr.keywords if k.name == "padding"), None)
            if padding is not None and padding.literal and padding.value in ("max_length", False):
                continue
            key = (fa.path, name.rpartition(".")[2])
            lines.setdefault(key, []).append(call.expr.line)
    return tuple(
        sorted(
            (path, f"{name} (line{'s' if len(at) > 1 else ''} {', '.join(map(str, sorted(at)))})")
            for (path, name), at in lines.items()
        )
    )


def _attribute_names(cls: str) -> set[str]:
    """What a Module instance of ``cls`` is usually stored as: ``matcher`` and
    ``box_matcher`` for ``BoxMatcher``."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", cls)
    return {words[-1].lower(), "_".join(w.lower() for w in words)} if words else set()


def _with_callers(
    item: WorkItem, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> WorkItem:
    """A round trip in ``Cls.forward`` with the places that call the module through the
    attribute it is usually stored in (``self.matcher(...)``), saying which run in a loop:
    each call is one more trip per step."""
    qual = item.what.partition(":")[0]
    cls, _, method = qual.rpartition(".")
    if method not in ("forward", "__call__") or not cls:
        return item
    names = _attribute_names(cls.rpartition(".")[2])
    calls: list[tuple[Where, bool]] = []
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for attr, line, looped in facts.self_calls:
            if attr in names:
                calls.append((place(fa, line), looped))
    if not calls:
        return item
    listed = ", ".join(f"{w}{' (in a loop)' if loop else ''}" for w, loop in calls)
    loops = sum(1 for _, loop in calls if loop)
    more = f"; {loops} of them in a loop, one more trip per iteration" if loops else ""
    return WorkItem(
        kind=item.kind,
        what=item.what,
        where=item.where + tuple(w for w, _ in calls),
        why=item.why + f"; the module is called at {listed}{more}",
        uses=item.uses,
    )


#: A string literal's source text (an f-string's too): a released model's name.
_LITERAL = re.compile(r"""[fFrRbBuU]{0,2}['"]""")
#: Where a third-party model library's MindSpore counterparts are (MindCV for the rest:
#: torchvision's and timm's architectures); open_clip's models have none: a port.
_ZOO_COUNTERPARTS = {
    "transformers": "MindNLP or a port",
    "sentence_transformers": "MindNLP or a port",
    "diffusers": "mindone.diffusers or a port",
    "open_clip": "a port of open_clip's model",
}


#: The model libraries whose ``from_pretrained`` MindNLP mirrors, by the hub name.
_HUB_LOADERS = frozenset({"transformers", "sentence_transformers"})


#: Model-zoo modules whose constructors take ``pretrained`` as their first positional
#: argument (torchvision's ``resnet50(pretrained)`` before 0.13, still accepted after).
_POSITIONAL_PRETRAINED = "torchvision.models."


def _backbones(
    fa: FileAnalysis,
    facts: SyntaxFacts,
    names: NameValues | None = None,
    vendored: Sequence[str] = (),
) -> Iterable[WorkItem]:
    """The model-zoo constructors the worker found (:class:`~apiscan.extract.syntax.ZooCall`).
    Pretrained weights are asked for by keyword or, for torchvision, by the first positional
    argument (``getattr(models, backbone)(pretrained)``: pytorch-segmentation's six
    backbones), unless the value is a harmless literal or a name the repository only ever
    sets to one (``names``). A local hub load from a vendored copy (:func:`vendored_dirs`)
    is none: the backbone's code is in the repository and ported with the network."""

    def passed(value: str) -> bool:
        return value not in NEUTRAL_VALUES and (names is None or names.neutral(value) is None)

    for call in facts.zoo_calls:
        name = call.callee
        if name == "torch.hub.load" and _local_hub_dir(call.args, dict(call.keywords), vendored):
            continue
        keywords = dict(call.keywords)
        pretrained = [
            f"{k}={shorten(v, 40)}"
            for k, v in keywords.items()
            if k in PRETRAINED_KEYWORDS and passed(v)
        ]
        if (
            name.startswith(_POSITIONAL_PRETRAINED)
            and call.args
            and not PRETRAINED_KEYWORDS & keywords.keys()
            # a wrapper's ``*args`` handed on is no flag: what the wrapper's callers pass
            # is (``weights=None`` by keyword, often), not a positional ``pretrained``
            and not call.args[0].startswith("*")
            and passed(call.args[0])
        ):
            pretrained.append(f"pretrained={shorten(call.args[0], 40)}")
        explicit = keywords.get("pretrained")
        hub_default = name == "torch.hub.load" and explicit is None and not pretrained
        if name.endswith(".from_pretrained") or (
            name == "torch.hub.load" and explicit is not None and explicit not in NEUTRAL_VALUES
        ):
            pretrained.insert(0, "pretrained weights")  # what these calls load
        norm = keywords.get("norm_layer")
        details = pretrained + ([f"norm_layer={shorten(norm, 40)}"] if norm is not None else [])
        if name == "torch.hub.load" and call.args:  # which hub repository and model
            details = [shorten(a, 40) for a in call.args[:2]] + details
        elif name in _NAMED_ZOO and call.args:  # which architecture (DPT's five ViTs)
            details = [shorten(call.args[0], 40), *details]
        elif name.endswith(".from_pretrained") and call.args[:1] and _LITERAL.match(call.args[0]):
            # which released model, when the code names it (DiT's ``"stabilityai/sd-vae-..."``)
            details = [shorten(call.args[0], 40), *details]
        # a language model's weights come from transformers: MindNLP is its counterpart, and
        # a repository that copies them into its own model (minGPT's GPT.from_pretrained)
        # ports that model anyway
        zoo = _ZOO_COUNTERPARTS.get(name.partition(".")[0], "MindCV or a port")
        why = f"needs a MindSpore counterpart of the architecture ({zoo})"
        if pretrained and name.partition(".")[0] in _HUB_LOADERS:
            # a transformer's released weights hold no BatchNorm statistics: MindNLP loads
            # the same hub name, or the names are mapped once
            why += _HUB_WEIGHTS_WHY
        elif pretrained:
            why += (
                " and its pretrained weights converted to a MindSpore checkpoint (parameter "
                "names and BatchNorm statistics mapped), checked against PyTorch's outputs"
            )
        elif hub_default:
            # the hub entry point decides (xcit's and torchvision's default to no weights)
            why += (
                "; whether it loads pretrained weights is the hub entry point's default: "
                "if it does, convert them to a MindSpore checkpoint too"
            )
        if norm is not None:
            why += "; the custom normalisation layer it is built with must be ported too"
        owner = _loader_method(facts, call.line)
        if pretrained and owner:
            # minGPT's ``GPT.from_pretrained``: GPT-2's weights from transformers copied into
            # the repository's own GPT, whose architecture is ported with the network
            yield WorkItem(
                kind="checkpoint",
                what=f"{name}({', '.join(details)}) copied into {owner}",
                where=(place(fa, call.line),),
                why=(
                    f"{owner} builds the repository's own architecture and fills it with the "
                    f"released weights {name.partition('.')[0]} loads: a weight conversion, "
                    "not a port of the library's model; convert those weights once to a "
                    "MindSpore checkpoint of the ported model (parameter names, layouts the "
                    "copy transposes) and check its outputs against PyTorch's"
                ),
            )
            continue
        yield WorkItem(
            kind="pretrained-backbone",
            what=name + (f"({', '.join(details)})" if details else ""),
            where=(place(fa, call.line),),
            why=why,
        )


def _binds_method(value: Expr) -> bool:
    """Whether ``value`` binds a function as a method of the object it is assigned to
    (``model.state_dict = (lambda self: ...).__get__(model, type(model))``,
    ``types.MethodType(f, model)``): a method overridden, no layer replaced."""
    func = value.func
    return func.name in ("__get__", "MethodType") and func.kind in ("Attribute", "Name")


#: At most this many replaced layers are named in a backbone's item.
_SHOWN_REPLACEMENTS = 4


def _replaced_layers(
    item: WorkItem,
    fa: FileAnalysis,
    facts: SyntaxFacts,
    by_module: Mapping[str, tuple[FileAnalysis, FileValues]],
    kept: Callable[[str, int], bool] = lambda path, line: True,
) -> WorkItem:
    """A zoo backbone whose layers the code replaces after building it: ``self.base_model.
    avgpool = nn.AdaptiveAvgPool2d(1)`` beside the construction, ``setattr(self.base_model,
    'fc', ...)``, or a repository function handed the built model that assigns its
    attributes (``make_temporal_shift(self.base_model)``: ``net.layer1 = ...``). The port
    builds the MindSpore counterpart and replaces the same layers, so that counterpart must
    name them as the zoo does (MindCV's ResNet calls its head ``classifier``, not ``fc``):
    said in the item, with the places. Only the replacements the run makes count (``kept``:
    not in a file counted apart, nor in a branch the run's values skip)."""
    values = facts.values
    line = item.where[0].line
    if values is None:
        return item
    stored = next(
        (c.stored for c in values.calls if c.expr.line == line and c.stored is not None), None
    )
    if stored is None or stored.kind not in ("Name", "Attribute"):
        return item
    held = stored.text
    found: list[tuple[str, Where]] = []
    every = [*values.assigns, *(a for d in values.defs for a in d.assigns)]
    for a in every:
        target = a.target
        if (
            target.kind == "Attribute"
            and target.target.text == held
            and a.value.kind == "Call"
            and not _binds_method(a.value)
            and a.line != line
            and kept(fa.path, a.line)
        ):
            found.append((f"{held}.{target.name}", place(fa, a.line)))
    imports = dict(facts.imports)
    for call in values.calls:
        args = call.expr.args
        if call.expr.func.kind == "Name" and call.expr.func.name == "setattr" and len(args) == 3:
            if args[0].text == held and args[2].kind == "Call" and kept(fa.path, call.expr.line):
                found.append((f"setattr({held}, ...)", place(fa, call.expr.line)))
            continue
        handed = [i for i, arg in enumerate(args) if arg.text == held]
        if not handed or call.expr.func.kind != "Name" or not kept(fa.path, call.expr.line):
            continue
        dotted = imports.get(call.expr.func.name, "")
        module, _, name = dotted.rpartition(".")
        other = by_module.get(module)
        if other is None:
            continue
        callee_fa, callee = other
        if not kept(callee_fa.path, 0):
            continue
        for d in callee.defs:
            if d.is_class or d.qual != name or len(d.params) <= handed[0]:
                continue
            param = d.params[handed[0]][0]
            replaced = sorted(
                {
                    a.target.name
                    for a in d.assigns
                    if a.target.kind == "Attribute"
                    and a.target.target.kind == "Name"
                    and a.target.target.name == param
                }
            )
            if replaced:
                shown = ", ".join(f"{param}.{r}" for r in replaced[:_SHOWN_REPLACEMENTS])
                found.append((f"{shown} by {name}", place(callee_fa, d.line)))
    if not found:
        return item
    # a helper's replacements first (a whole stage rebuilt), then the layers set beside
    # the construction, each name once
    found.sort(key=lambda f: " by " not in f[0])
    named = list(dict.fromkeys(what for what, _ in found))
    shown = named[:_SHOWN_REPLACEMENTS]
    more = f" and {len(named) - len(shown)} more" if len(named) > len(shown) else ""
    why = (
        f"{item.why}; its layers are replaced after it is built ({'; '.join(shown)}{more}): "
        "the MindSpore counterpart must name those layers as the zoo's model does (or the "
        "replacements are rewritten for its names)"
    )
    where = tuple(dict.fromkeys((*item.where, *(w for _, w in found))))
    return replace(item, why=why, where=where)


#: At most this many architectures are named for a factory's argument; more is a choice
#: the configuration makes, said as such.
_SHOWN_ARCHITECTURES = 3


def _shown_architecture(
    item: WorkItem, names: NameValues | None, defaults: Mapping[str, Iterable[object]]
) -> WorkItem:
    """A model factory's item (``timm.create_model(...)``) naming the architecture it
    builds rather than the expression that picks it: the argparse option's default
    (``args.model``), else the string literals the repository gives that attribute where
    its config is built (Depth Pro's ``config.timm_preset``: ``"vit_large_patch14_dinov2"``
    in its table of ``ViTConfig``s), else "a backbone chosen by config". A literal argument
    is already the name."""
    if not item.what.startswith(_NAMED_ZOO):
        return item
    head, _, rest = item.what.partition("(")
    arg = rest.partition(",")[0].removesuffix(")").strip()
    if not arg or _LITERAL.match(arg):
        return item
    option = _OPTION.match(arg)
    values = sorted(defaults.get(option.group(1), ()) if option else (), key=str)
    found = [repr(v) for v in values] if all(isinstance(v, str) for v in values) else []
    if not found:
        # an attribute of a config object is given where the config is built
        key = arg.rpartition(".")[2] if re.fullmatch(r"[A-Za-z_][\w.]*", arg) else ""
        given = names.candidates(key) if names is not None and key else ()
        found = [v for v in given if v != "None"]
        if not all(_LITERAL.match(v) for v in found):
            found = []
    if found and len(found) <= _SHOWN_ARCHITECTURES:
        shown = " | ".join(found) + f" (as {arg})"
    else:
        shown = f"a {head.partition('.')[0]} backbone chosen by config: {arg}"
    return replace(item, what=f"{head}({shown}{rest[len(arg) :]}")


def _loader_method(facts: SyntaxFacts, line: int) -> str:
    """``Class.method`` when the innermost def around ``line`` is a method of the file's
    class named for loading pretrained weights (:data:`_PRETRAINED_METHOD`: minGPT's
    ``GPT.from_pretrained``), else "": a model-zoo load there fills the class's own
    architecture with the library's released weights."""
    defs = facts.values.defs if facts.values is not None else ()
    around = [d for d in defs if not d.is_class and d.line <= line <= d.end_line]
    if not around:
        return ""
    d = max(around, key=lambda d: d.line)
    owner = defs[d.owner] if d.owner >= 0 else None
    if owner is None or not owner.is_class or not _PRETRAINED_METHOD.search(d.name):
        return ""
    return d.qual


#: Packages whose model classes a repository may extend (``class VisionTransformerMoCo(
#: timm.models.vision_transformer.VisionTransformer)``), with their layer modules left out
#: (``timm.models.layers.PatchEmbed`` is a layer the subclass's port writes with the rest).
_ZOO_CLASSES = ("timm.models.", "torchvision.models.")
_ZOO_LAYERS = (
    "timm.models.layers.",
    "timm.layers.",
    # wrappers that pick a model's intermediate outputs: plumbing around an architecture
    "timm.models._features",
    "torchvision.models._utils.",
    "torchvision.models.feature_extraction.",
)


def _zoo_model(base: str, local: set[str]) -> bool:
    """Whether the dotted ``base`` is a model class of a zoo package (:data:`_ZOO_CLASSES`,
    not one of its layer modules nor a ``*Weights`` enum) outside the repository's own
    top-level packages ``local``."""
    tail = base.rpartition(".")[2]
    return (
        base.startswith(_ZOO_CLASSES)
        and base.partition(".")[0] not in local
        and not base.startswith(_ZOO_LAYERS)
        and tail[:1].isupper()
        and not tail.endswith("Weights")
    )


def _zoo_constructions(fa: FileAnalysis, local: set[str]) -> Iterable[WorkItem]:
    """The model classes of a zoo package that a file both extends and builds as they are
    (DeiT's ``models.py``: ``DistilledVisionTransformer(VisionTransformer)`` beside the
    registered ``deit_small_patch16_224`` returning ``VisionTransformer(patch_size=16, ...)``),
    one item per construction: where the run builds the zoo's class itself, its architecture
    is the model to port whether or not the subclass is built. (A class only built, not
    extended, is a zoo layer: :func:`zoo_layers`.)"""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None:
        return
    # a class of the file's own named as the base (MAE's ``VisionTransformer(timm's
    # VisionTransformer)``) is what a call of that name builds
    own = {cls.qualname for cls in fa.classes}
    bases = {
        base.rpartition(".")[2]: base
        for cls in fa.classes
        for base in cls.bases
        if base.rpartition(".")[2] not in own and _zoo_model(base, local)
    }
    for call in values.calls:
        base = bases.get(call.expr.callee())
        if base is None:
            continue
        package = base.partition(".")[0]
        yield WorkItem(
            kind="pretrained-backbone",
            what=base,
            where=(place(fa, call.expr.line),),
            why=(
                f"the model is {package}'s architecture, built as it is: the port needs a "
                "MindSpore counterpart of it (MindCV or a port of its code)"
            ),
        )


def _zoo_subclasses(fa: FileAnalysis, local: set[str]) -> Iterable[WorkItem]:
    """The model classes of a zoo package the repository's own classes extend: the
    architecture itself lives in that package (moco-v3's ViT is timm's VisionTransformer
    with its position embedding and initialisation changed), so the port needs a MindSpore
    counterpart of it for the subclass to build on. Never the zoo package's own classes
    extending each other (timm itself reviewed: ``local`` holds its top-level packages)."""
    for cls in fa.classes:
        for base in cls.bases:
            if _zoo_model(base, local):
                package = base.partition(".")[0]
                yield WorkItem(
                    kind="pretrained-backbone",
                    what=f"{base} (extended by {cls.qualname})",
                    where=(place(fa, cls.line),),
                    why=(
                        f"the architecture is {package}'s: the repository's class extends it, "
                        "so the port needs a MindSpore counterpart of that architecture "
                        "(MindCV or a port of its code) for the subclass to build on"
                    ),
                )


def _package_names_called(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> Iterator[tuple[FileAnalysis, str, str, int]]:
    """Each name a ported file imports from another package (not the repository's own) and
    calls in that file: (the file, the dotted name, its last part, the line of the file's
    first call of that last part). The one reading of "a library's class or function the
    port builds" that the zoo-layer and tensor-parallel items share."""
    local = _local_packages(analyses)
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.values is None:
            continue
        lines = {
            c.expr.callee().rpartition(".")[2]: c.expr.line for c in reversed(facts.values.calls)
        }
        for top, names in facts.package_uses:
            if top in local:
                continue
            for name in names:
                tail = name.rpartition(".")[2]
                if tail in lines:
                    yield fa, name, tail, lines[tail]


#: Model libraries whose layer classes a repository builds as parts of its own model (DiT's
#: ``PatchEmbed``, ``Attention`` and ``Mlp`` from ``timm.models.vision_transformer``): their
#: code is outside the scan, so no API table counts it, yet the port needs it.
_LAYER_LIBRARIES = ("timm.layers.", "timm.models.")
#: Below those: a model's feature wrappers and helpers, never a layer built into the model.
_NOT_LAYERS = re.compile(r"\._|Weights$|Cfg$|Config$")


def zoo_layers(analyses: Sequence[FileAnalysis], ancillary: Ancillary) -> list[WorkItem]:
    """The layer classes of a model library (:data:`_LAYER_LIBRARIES`) that ported files
    import and build (a call of the imported name in the same file), one item per class
    with every place: each is a small port (a MindSpore Cell of the same few layers, or
    MindCV's counterpart) that nothing else counts. A class the repository extends is the
    architecture the subclass builds on (:func:`_zoo_subclasses`), and the library's own
    files (timm reviewed itself) are its own code, not a dependency."""
    found: dict[str, list[Where]] = {}
    extended: dict[str, set[str]] = {}
    for fa, name, tail, line in _package_names_called(analyses, ancillary):
        if fa.path not in extended:
            extended[fa.path] = {b for c in fa.classes for b in c.bases}
        if (
            name.startswith(_LAYER_LIBRARIES)
            and tail[:1].isupper()
            and name not in extended[fa.path]
            and not _NOT_LAYERS.search(name)
        ):
            found.setdefault(name, []).append(place(fa, line))
    return [
        WorkItem(
            kind="zoo-layer",
            what=name,
            where=tuple(where),
            why=(
                f"a layer of {name.partition('.')[0]} built into the model: its code is not in "
                "the repository, so the port writes it as a MindSpore Cell (or takes MindCV's "
                "counterpart) and checks it against PyTorch's outputs"
            ),
            uses=len(where),
        )
        for name, where in sorted(found.items())
    ]


def model_parallel_layers(analyses: Sequence[FileAnalysis], ancillary: Ancillary) -> list[WorkItem]:
    """One item per tensor-parallel library (:data:`MODEL_PARALLEL_LIBRARIES`) whose layer
    classes the ported files build, or whose set-up (``initialize_model_parallel``) they
    call: the network's own layers come from it, so no API table counts them, and MindSpore
    has no such layer classes. One porting job: plain ``nn.Dense``/``nn.Embedding`` on one
    device (the checkpoint's per-rank shards merged), or MindSpore's semi-auto parallel with
    shard strategies on the layers' MatMul and Gather."""
    found: dict[str, dict[str, Where]] = {}
    for fa, name, tail, line in _package_names_called(analyses, ancillary):
        library = model_parallel_library(name)
        if library and (tail[:1].isupper() or tail.startswith("init")):
            found.setdefault(library, {}).setdefault(tail, place(fa, line))
    return [
        WorkItem(
            kind="model-parallel",
            what=f"{library} ({', '.join(sorted(names))})",
            where=tuple(names[n] for n in sorted(names)),
            why=(
                f"the network's layers are the tensor-parallel classes of {library}, outside the "
                "repository and with no MindSpore class of the same kind: on one device they "
                "are plain mindspore.nn.Dense and nn.Embedding (the checkpoint's per-rank "
                "shards merged along each layer's split axis); across devices MindSpore's "
                "semi-auto parallel with shard strategies on their MatMul and Gather"
            ),
            uses=len(names),
        )
        for library, names in sorted(found.items())
    ]


def training_machinery(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    defaults: Mapping[str, Iterable[object]] | None = None,
    dead: Mapping[tuple[str, str], tuple[int, int]] | None = None,
) -> list[WorkItem]:
    """The pieces of a training library (:data:`~apiscan.review.oplibs.TRAINING_PIECES`) the
    ported files build or call (a call of the imported name in the same file), one item per
    name with every place: T2T-ViT's, deit's and ConvNeXt's training from timm's train.py,
    apex's LARC optimizer wrapper. A call
    under an ``if`` the argparse ``defaults`` never take (``JsdCrossEntropy`` under ``if
    args.jsd:``, ``ModelEma`` under ``if args.model_ema:`` when ``--model_ema`` defaults to
    False) is not training with the defaults: no item, nor is one in a function nothing
    calls (``dead``: :func:`uncalled_functions`, (path, name) → its lines). The library's
    own files (timm reviewed itself) are its own code, not a dependency."""
    spans = _spans_by_path(dead)
    opts = {k: list(v) for k, v in (defaults or {}).items()}
    local = _local_packages(analyses)
    # one item per piece of training (timm's Mixup and FastCollateMixup are one mixup)
    found: dict[int, tuple[set[str], list[Where]]] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.values is None:
            continue
        calls: dict[str, list[object]] = {}
        for c in facts.values.calls:
            calls.setdefault(c.expr.callee(), []).append(c)
        resolved: dict[str, list[object]] = {}
        for full, c in absolute_call_values(facts):
            resolved.setdefault(full, []).append(c)
        bare = sorted({c.expr.func.name for c in facts.values.calls if c.expr.func.kind == "Name"})
        # a local assigned once from the options (T2T-ViT's ``mixup_active = args.mixup > 0
        # or ...``) decides the ``elif`` chain it gates: LabelSmoothingCrossEntropy is not
        # built when mixup is active
        gates = _local_gates(facts.values, opts)
        for top, names in facts.package_uses:
            # an accelerator library imported optionally (timm's ``try: from apex import
            # amp``) beside the PyTorch path it speeds up: the port keeps that path
            if top in local or (top in facts.optional_packages and top in NETWORK_OP_LIBRARIES):
                continue
            for name in names:
                if name.endswith(".*"):
                    # ``from timm.utils import *`` (T2T-ViT's ModelEma): the bare names called
                    used = [(f"{name[:-2]}.{callee}", callee) for callee in bare]
                else:
                    used = [(name, name.rpartition(".")[2])]
                for dotted, callee in used:
                    hit = training_piece(dotted)
                    # the calls of that very name (``apex.amp.state_dict()``), or of the bare
                    # name the import binds: never a method of the same last name on another
                    # object (``model.state_dict()``)
                    named = resolved.get(dotted) or [
                        c for c in calls.get(callee, ()) if c.expr.func.kind == "Name"
                    ]
                    run = _run_calls(named, opts, gates, spans.get(fa.path, ()))
                    if hit is None or not run:
                        continue
                    entry = found.setdefault(hit, (set(), []))
                    entry[0].add(dotted)
                    entry[1].extend(place(fa, c.expr.line) for c in run)  # type: ignore[attr-defined]
        # a class of the file deriving from a piece (``class Lite(LightningLite)`` whose
        # ``run`` trains through ``self.setup`` and ``self.backward``): the library runs the
        # training though no call names it; the class and where it is built are the places
        for cls in fa.classes:
            for base in cls.bases:
                hit = training_piece(base)
                if hit is None or base.partition(".")[0] in local:
                    continue
                built = [c for c in calls.get(cls.qualname, ()) if c.expr.func.kind == "Name"]
                run = _run_calls(built, opts, gates, spans.get(fa.path, ()))
                if built and not run:
                    continue
                entry = found.setdefault(hit, (set(), []))
                entry[0].add(base)
                entry[1].append(place(fa, cls.line))
                entry[1].extend(place(fa, c.expr.line) for c in run)  # type: ignore[attr-defined]
    items = []
    for n, (names, where) in sorted(found.items()):
        _, what, port = TRAINING_PIECES[n]
        library = min(names).partition(".")[0]
        items.append(
            WorkItem(
                kind="training-library",
                what=", ".join(sorted(names)),
                where=tuple(sorted(set(where), key=lambda w: (w.path, w.line))),
                why=(
                    f"{what}, built by {library}: its code is not in the repository and "
                    f"MindSpore has no {library}; the port uses {port}, set to the recipe's "
                    "values"
                ),
                uses=len(set(where)),
            )
        )
    return items


def _run_calls(
    calls: Sequence[object],
    opts: Mapping[str, list[object]],
    gates: Mapping[int, Mapping[str, list[object]]],
    dead: Sequence[tuple[int, int]],
) -> list[object]:
    """The calls that run with the options' defaults: none under an ``if`` the defaults
    never take (:func:`_switched_off_call`) nor in a function nothing calls (``dead``
    spans of lines)."""
    return [
        c
        for c in calls
        if not _switched_off_call(c, opts, gates)  # type: ignore[arg-type]
        and not any(a <= c.expr.line <= b for a, b in dead)  # type: ignore[attr-defined]
    ]


def _local_gates(
    values: object, opts: Mapping[str, list[object]]
) -> dict[int, dict[str, list[object]]]:
    """def index -> the plain names the def assigns once from values the options' defaults
    tell (``mixup_active = args.mixup > 0``: True), each with the values it may hold: what
    :func:`_switched_off_call` evaluates a test on beside the options."""
    out: dict[int, dict[str, list[object]]] = {}
    for i, d in enumerate(values.defs):  # type: ignore[attr-defined]
        if d.is_class:
            continue
        for name, value in _once_assigned(d.assigns, d.loop_names, d.updates).items():
            found = _fixed(values_of(value, _option_key, opts))
            if found is not None:
                out.setdefault(i, {})[name] = found
    return out


#: Words of a URL argument that name the model's own checkpoint (``args.resume``).
_CHECKPOINT_WORDS = re.compile(r"resume|checkpoint|ckpt|args|opt", re.IGNORECASE)
#: A URL argument that picks a backbone's released weights: a table of URLs by architecture
#: (``model_urls['resnet50']``, ``settings['url']``), or a literal naming an ImageNet
#: architecture. A plain name (YOLOX's ``weights_url`` of a whole detector) is a checkpoint.
_BACKBONE_URL = re.compile(
    r"""^\w*url\w*\[|\[['"]url['"]\]$|^['"].*(resnet|resnext|mobilenet|vgg|efficientnet|"""
    r"""xception|densenet|hrnet|imagenet)""",
    re.IGNORECASE,
)


#: The loader of a TorchScript archive: a checkpoint whose weights PyTorch takes out.
TORCHSCRIPT_LOAD = "torch.jit.load"
#: A call's text that hands over a URL (``model_urls['resnet50']``, ``'https://...'``).
_URL_TEXT = re.compile(r"url|https?:", re.IGNORECASE)
#: A URL passed as a plain name (``load_url(url)``, ``load_url(model_url)``).
_PLAIN_NAME = re.compile(r"^\w+$")


#: A method that loads an architecture's released weights (``_load_pretrained_model``,
#: ``load_pretrained_ckpt``, ``init_from_imagenet``).
_PRETRAINED_METHOD = re.compile(r"pretrain|imagenet", re.IGNORECASE)


def unreached_loaders(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> set[tuple[str, str]]:
    """(path, qualified name) of the methods named for loading pretrained weights
    (:data:`_PRETRAINED_METHOD`: ``load_pretrained_model``, ``from_pretrained``) that no
    ported file calls by name: only a notebook probing the model or a test does (minGPT's
    ``GPT.from_pretrained``, run by ``generate.ipynb`` and a test comparing it with
    transformers' GPT-2), or nothing at all (YOLOX's ``YOLOFPN.load_pretrained_model``,
    MODNet's ``MobileNetV2._load_pretrained_model``). The port's run never loads those
    weights: neither a backbone item nor a checkpoint item comes from them. A demo or an
    export script that calls one runs the released weights (:func:`_released_checkpoint`):
    its call counts."""

    def runs(path: str) -> bool:
        why = ancillary.why(path)
        return not is_test_path(path) and (
            not why or (why not in ("tests", "evaluation") and not _experiment(why))
        )

    called = {
        c.callee.rpartition(".")[2]
        for fa in analyses
        if runs(fa.path)
        for c in fa.calls
        if c.role == "call"
    }
    return {
        (fa.path, fn.qualname)
        for fa in analyses
        for fn in fa.functions
        if fn.cls
        and _PRETRAINED_METHOD.search(name := fn.qualname.rpartition(".")[2])
        and name not in called
    }


def _pretrained_file(f: ApiFinding, methods: frozenset[tuple[str, str]]) -> bool:
    """``torch.load`` in a method named for loading pretrained weights (MODNet's
    ``MobileNetV2._load_pretrained_model``): the backbone initialising itself from a released
    file, not the model's checkpoint."""
    return (
        f.api == "torch.load"
        and (f.path, f.function) in methods
        and bool(_PRETRAINED_METHOD.search(f.function.rpartition(".")[2]))
    )


def _pretrained_download(f: ApiFinding, methods: frozenset[tuple[str, str]] = frozenset()) -> bool:
    """A download of a backbone's released weights when the model is built
    (``load_url(model_urls[arch])``), or of any URL by name inside a method of a class
    (``methods``: (path, qualified name)): the architecture initialising itself from released
    weights (CenterNet's ``PoseResNet.init_weights``: ``load_url(url)``). A URL the user
    passes to resume from (``load_state_dict_from_url(args.resume)``) or a whole model's
    released weights by name in a builder function (YOLOX's ``create_yolox_model``) are the
    model's checkpoint."""
    if _pretrained_file(f, methods):
        return True
    if f.api not in URL_WEIGHTS or f.args is None:
        return False
    url = f.args.positional[0] if f.args.positional else (f.args.keyword("url") or "")
    if _CHECKPOINT_WORDS.search(url):
        return False
    in_method = (f.path, f.function) in methods and bool(_PLAIN_NAME.match(url))
    return bool(_BACKBONE_URL.search(url)) or in_method


#: A function or file that loads weights (``load_darknet_weights``, ``c2_model_loading.py``,
#: ``load_weights_from_keras``).
_WEIGHT_LOADER = re.compile(
    r"load\w*(?:weight|pretrain|ckpt|checkpoint|model)|(?:weight|ckpt|checkpoint|model)\w*load",
    re.IGNORECASE,
)
#: Torch APIs that make a tensor of a host array (a weights file read with numpy).
_FROM_ARRAY = frozenset({"torch.from_numpy"})


def _array_loaders(
    findings: Sequence[ApiFinding], called: set[str], fallbacks: frozenset[str] = frozenset()
) -> Iterable[WorkItem]:
    """Weights read from a file in another format and copied into the parameters as arrays
    (PyTorch-YOLOv3's ``load_darknet_weights``: ``numpy.fromfile`` then ``torch.from_numpy``
    into each conv and BatchNorm; FCOS's Caffe2 pickles in ``c2_model_loading.py``): the
    loader fills PyTorch parameters, so the port rewrites it for MindSpore's (or converts the
    file once). A loader nothing calls (nerf-pytorch's ``load_weights_from_keras``) loads
    nothing; nor does one of ``fallbacks`` (:func:`_fallback_loaders`), whose every call is
    an ``except`` handler's after a PyTorch load the reference run's weights satisfy."""
    found = sorted(
        (
            f
            for f in findings
            if f.api in _FROM_ARRAY
            and f.usage == "call"
            and f.scope != "data"
            and f.function
            and (name := f.function.rpartition(".")[2]) in called
            and name not in fallbacks
            and (_WEIGHT_LOADER.search(name) or _WEIGHT_LOADER.search(PurePosixPath(f.path).stem))
        ),
        key=lambda f: f.sort_key(),
    )
    if not found:
        return
    functions = list(dict.fromkeys(f"{f.path}:{f.function}" for f in found))
    yield WorkItem(
        kind="checkpoint",
        what="weights read as arrays into the parameters: "
        + ", ".join(dict.fromkeys(f.function for f in found)),
        where=tuple(dict.fromkeys(Where(f.path, f.span.line, f.cell) for f in found)),
        why=(
            "a weights file in another format (Darknet, Caffe2, Keras...) is read with numpy "
            "and copied into PyTorch's parameters by "
            + ", ".join(functions)
            + ": rewrite the loader to fill MindSpore's Parameters (set_data; BatchNorm "
            "gamma/beta/moving_mean/moving_variance), or convert the file once to a MindSpore "
            "checkpoint"
        ),
        uses=len(found),
    )


#: The names of a model's own loader of weights in another format (BiT's ``load_from``,
#: ``load_weights``, ``from_tf``).
_ARCHIVE_LOADER = re.compile(r"^(?:load\w*|\w*_load|from_\w+)$", re.IGNORECASE)


def _numpy_archives(analyses: Sequence[FileAnalysis], ancillary: Ancillary) -> Iterable[WorkItem]:
    """Released weights read from a NumPy archive and handed to the model's own loader in
    ported code (BiT's ``model.load_from(np.load(f"{args.model}.npz"))``, whose
    ``load_from`` copies each array into a parameter, transposing TensorFlow's kernels):
    the weights are another framework's, named and laid out its way; the port reads the
    same archive into MindSpore's Parameters (set_data), or converts it once. A loader whose
    arrays are converted with ``torch.from_numpy`` inside it is :func:`_array_loaders`'."""
    places: list[Where] = []
    shown: list[str] = []
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or is_test_path(fa.path) or facts.values is None:
            continue
        archives = {
            (c.expr.line, c.expr.col)
            for name, c in absolute_call_values(facts)
            if name in ("numpy.load", "numpy.lib.npyio.load")
        }
        if not archives:
            continue
        for call in facts.values.calls:
            func = call.expr.func
            name = func.name if func.kind in ("Name", "Attribute") else ""
            if not _ARCHIVE_LOADER.match(name) or name in ("load", "loads"):
                continue
            if any((a.line, a.col) in archives for a in call.expr.args):
                places.append(place(fa, call.expr.line))
                shown.append(shorten(call.expr.text, 80))
    if not places:
        return
    yield WorkItem(
        kind="checkpoint",
        what="weights read from a NumPy archive by the model's own loader: "
        + ", ".join(dict.fromkeys(shown)),
        where=tuple(dict.fromkeys(places)),
        why=(
            "released weights kept as named arrays (another framework's: TensorFlow or JAX "
            "kernels, laid out HWIO) are copied into PyTorch's parameters by the model's own "
            "loader: rewrite it to fill MindSpore's Parameters (set_data, the same name "
            "mapping and transposes), or convert the archive once to a MindSpore checkpoint, "
            "and check the outputs against PyTorch's"
        ),
        uses=len(places),
    )


def _fallback_loaders(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, root: Path | None
) -> frozenset[str]:
    """The last names of the functions every call of which in the ported files is in an
    ``except`` handler (``try: ckpt = torch.load(w) ... except: load_darknet_weights(model,
    w)``: the loader of another format, run only when the PyTorch load failed), when the
    reference run (the first documented training command) starts from no weights file or
    from a PyTorch one: the fallback never runs in it, and its format is an alternative,
    not the run's checkpoint. None without such a command."""
    from apiscan.review.commands import launch_commands

    if root is None or not root.is_dir():
        return frozenset()
    reference = next(
        (w for _, _, w, _ in launch_commands(root) if any(_TRAINING_SCRIPT.search(x) for x in w)),
        None,
    )
    if reference is None:
        return frozenset()
    options = {w for w in reference if w.startswith("-") and _WEIGHTS_OPTION.search(w)}
    if _reference_weights(reference, options) is None:
        return frozenset()
    every: dict[str, bool] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or is_test_path(fa.path) or facts.values is None:
            continue
        for call in facts.values.calls:
            name = call.expr.callee().rpartition(".")[2]
            if name:
                every[name] = every.get(name, True) and call.fallback
    return frozenset(name for name, only in every.items() if only)


def _experiment(why: str) -> bool:
    """Whether a file counted apart for ``why`` is an experiment beside the model whose
    checkpoint loading is no port's (a notebook probing features, a metric network only tools
    use), unlike a demo or an export script that runs the released weights. Another task's
    training (its own model, llm.c's ``train_llama3.py``) loads no weights of the ported
    model either."""
    return why == ANCILLARY_FILES["*.ipynb"] or why.startswith((TOOLS_ONLY, OTHER_TASK))


#: The argument of a load that resumes a run from its own checkpoint (``args.resume``).
_RESUME = re.compile(r"resume", re.IGNORECASE)


def _resumed(f: ApiFinding) -> bool:
    """Whether ``f`` loads the checkpoint a run resumes from (``torch.load(args.resume)`` in an
    example's training script): the run's own file, which the port saves and resumes as a
    MindSpore checkpoint, not released weights to convert."""
    args = f.args
    first = (args.positional[:1] or (args.keyword("f") or "",))[0] if args else ""
    return bool(_RESUME.search(first))


def _subscript_key(expr: Expr, name: str) -> str | None:
    """The string key of ``name['key']``, else None."""
    if expr.kind != "Subscript" or len(expr.parts) < 2:
        return None
    head, key = expr.parts[0], expr.parts[1]
    if head.kind != "Name" or head.name != name or key.kind != "Constant":
        return None
    return key.value if isinstance(key.value, str) else None


def _saved_keys(analyses: Sequence[FileAnalysis], ancillary: Ancillary) -> frozenset[str]:
    """The keys of the dicts the ported code's ``torch.save`` writes (``torch.save({'epoch':
    e, 'settings': opt, 'model': sd}, path)``, or a name bound to such a dict in the same
    function before the call)."""
    keys: set[str] = set()
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        imports = dict(facts.imports)
        for call in values.calls:
            if imported_name(call.expr, imports) != "torch.save" or not call.expr.args:
                continue
            saved = call.expr.args[0]
            if saved.kind == "Name" and call.function >= 0:
                bound = [
                    a.value
                    for a in values.defs[call.function].assigns
                    if a.target.kind == "Name"
                    and a.target.name == saved.name
                    and a.line <= call.expr.line
                ]
                saved = bound[-1] if len(bound) == 1 else saved
            if saved.kind == "Dict":
                keys.update(k for k in saved.keys if isinstance(k, str))
    return frozenset(keys)


def _reads_own_checkpoint(
    f: ApiFinding, analyses: Sequence[FileAnalysis], saved: frozenset[str]
) -> bool:
    """Whether the load ``f`` reads back the dict the training writes: the function binds
    its result to a name (``checkpoint = torch.load(opt.model)``) and reads only keys the
    training's ``torch.save`` dicts hold (``checkpoint['settings']``,
    ``checkpoint['model']``): the port's own checkpoint, which it writes with
    mindspore.save_checkpoint and reads back, no released weights to convert."""
    if not saved or not f.function:
        return False
    for fa, facts in with_facts(analyses):
        if fa.path != f.path or facts.values is None:
            continue
        line = f.span.line
        around = [d for d in facts.values.defs if not d.is_class and d.line <= line <= d.end_line]
        if not around:
            return False
        d = max(around, key=lambda d: d.line)
        names = {
            a.target.name
            for a in d.assigns
            if a.line == line and a.target.kind == "Name" and a.value.kind == "Call"
        }
        if len(names) != 1:
            return False
        (name,) = names
        exprs = [c.expr for c in facts.values.calls if d.line <= c.expr.line <= d.end_line]
        exprs += [a.value for a in d.assigns]
        read = {key for e in exprs for part in e.walk() if (key := _subscript_key(part, name))}
        return bool(read) and read <= saved
    return False


def _released_checkpoint(
    findings: Sequence[ApiFinding],
    ancillary: Ancillary,
    analyses: Sequence[FileAnalysis] = (),
    root: Path | None = None,
) -> Iterable[WorkItem]:
    """The checkpoint loaded only where the effort does not count (MODNet's demos and export
    scripts load its released matting checkpoint, the training code none): the model is
    still used through that checkpoint, so converting it is work; tests never count, nor
    evaluation code, nor a TorchScript archive (a network with its own code: stylegan2's
    metrics and projector load Inception and VGG16 feature networks, not its weights), nor
    a tool reading back the dict the training saves (:func:`_reads_own_checkpoint`) where
    the repository releases no weights: no URL loader in its code, no weights link in its
    README (released weights often hold the training's own dict: ``checkpoint['model']``)."""
    from apiscan.review.commands import documents_weights

    released = documents_weights(root) or any(
        f.api in CHECKPOINT_APIS and f.api not in ("torch.load", "torch.jit.load") for f in findings
    )
    saved = frozenset() if released else _saved_keys(analyses, ancillary)
    found = sorted(
        (
            f
            for f in findings
            if f.api in CHECKPOINT_APIS
            and f.api != "torch.jit.load"
            and f.usage == "call"
            and f.scope != "data"
            and ancillary.why(f.path) not in ("", "tests", "evaluation")
            and not _experiment(ancillary.why(f.path))
            and not _resumed(f)
            and not _reads_own_checkpoint(f, analyses, saved)
        ),
        key=lambda f: f.sort_key(),
    )
    if not found:
        return
    apart = sorted({ancillary.why(f.path) for f in found})
    yield WorkItem(
        kind="checkpoint",
        what=", ".join(sorted({f.api for f in found})),
        where=_places(found),
        why=(
            f"the released checkpoint is loaded only in files counted apart ({', '.join(apart)})"
            ", but the ported model is used through it: PyTorch checkpoints (pickled state "
            "dicts) do not load into MindSpore, so convert it once (parameter names, BatchNorm "
            "gamma/beta/moving statistics) with mindspore.save_checkpoint and load it with "
            "mindspore.load_checkpoint + load_param_into_net"
        ),
        uses=len(found),
    )


#: The files counted apart whose checkpoint loads are the released weights a user runs (a
#: demo, a tool beside the training script), not an export's or another framework's.
_RELEASED_USERS = frozenset({"tools", "demo"})


def _with_released(item: WorkItem, released: Sequence[Where]) -> WorkItem:
    """The plain checkpoint item (loads the training runs: a resume, a frozen start) told
    of the released checkpoint the files counted apart load (a documented ``run_test.py
    --weight_path weights/model.pth`` demo): one format, one conversion, whose places are
    both; the released file is what a port is first checked with."""
    if item.kind != "checkpoint" or not released:
        return item
    extra = tuple(w for w in released if w not in item.where)
    if not extra:
        return item
    shown = ", ".join(str(w) for w in extra)
    return replace(
        item,
        where=(*item.where, *extra),
        why=item.why
        + f"; the released checkpoint is loaded at {shown} (in files counted apart): the "
        "ported model is checked and used through it, the same conversion",
    )


#: The pickle modules a checkpoint of whole networks is written or read with.
_PICKLERS = ("pickle", "dill", "cloudpickle", "_pickle")
#: Their calls that read an object back (a subclass of ``Unpickler`` is one too).
_UNPICKLE = frozenset({"load", "loads", "Unpickler"})
#: ... and that write one.
_PICKLE = frozenset({"dump", "dumps", "Pickler"})
#: What a function checks or keeps to show that the pickled objects are networks.
_MODULE_CLASS = "torch.nn.Module"


def _unpicklers(analyses: Sequence[FileAnalysis]) -> set[str]:
    """The last names of the repository's ``pickle.Unpickler`` subclasses (stylegan3's
    ``_LegacyUnpickler``, mapping old class paths to new ones): calling one reads a
    pickle."""
    return {
        c.qualname.rpartition(".")[2]
        for fa in analyses
        for c in fa.classes
        if any(b.partition(".")[0] in _PICKLERS and b.endswith(".Unpickler") for b in c.bases)
    }


def _pickled_modules(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> Iterable[WorkItem]:
    """Checkpoints that are pickled networks, not state dicts (stylegan3's snapshots: a dict
    of ``G``, ``D``, ``G_ema`` modules written with ``pickle.dump`` and read back by an
    ``Unpickler`` subclass, each checked ``isinstance(..., torch.nn.Module)``): a function of
    the ported code that pickles or unpickles and refers to ``torch.nn.Module`` there (the
    check, or the test that picks the modules out). The objects are PyTorch modules with
    their classes' code, so no MindSpore loader reads them: the released files are
    unpickled once under PyTorch with the repository's code and each network's state_dict
    converted, and the port saves and resumes MindSpore checkpoints instead. The places: the
    pickle calls, and where the ported code calls a function that unpickles (the resume in
    the training loop). A pickle of data (a dataset's annotations) refers to no module."""
    module_refs = {
        (f.path, f.function)
        for f in findings
        if f.api == _MODULE_CLASS and f.usage == "reference" and f.function
    }
    if not module_refs:
        return
    unpicklers = _unpicklers(analyses)
    places: list[Where] = []
    readers: set[str] = set()
    how: set[str] = set()
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or is_test_path(fa.path) or facts.values is None:
            continue
        defs = facts.values.defs
        for name, call in absolute_call_values(facts):
            head, _, tail = name.rpartition(".")
            read = (head in _PICKLERS and tail in _UNPICKLE) or tail in unpicklers
            written = head in _PICKLERS and tail in _PICKLE
            if not (read or written) or call.function < 0:
                continue
            qual = defs[call.function].qual
            if (fa.path, qual) not in module_refs:
                continue
            places.append(place(fa, call.expr.line))
            how.add("read" if read else "written")
            if read:
                readers.update(f"{m}.{qual}" for m in fa.modules)
    if not places:
        return
    for fa in analyses:
        if ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        places.extend(
            place(fa, c.line) for c in fa.calls if c.role == "call" and c.callee in readers
        )
    shown = " and ".join(sorted(how, reverse=True))
    yield WorkItem(
        kind="checkpoint",
        what=f"pickled networks ({shown} with pickle, not state dicts)",
        where=tuple(sorted(set(places), key=lambda w: (w.path, w.line))),
        why=(
            "the checkpoints are whole PyTorch modules pickled with their classes (not state "
            "dicts): no MindSpore loader reads them. Unpickle each released file once under "
            "PyTorch with the repository's code, convert every network's state_dict "
            "(parameter names, buffers) to a MindSpore checkpoint with "
            "mindspore.save_checkpoint, and make the port save and resume MindSpore "
            "checkpoints (load_checkpoint + load_param_into_net per network) instead of "
            "pickles"
        ),
        uses=len(places),
    )


#: A command-line option word (``--load_model``, ``-c``), not a negative number.
_OPTION_WORD = re.compile(r"--?[A-Za-z][\w.-]*")
#: A script that trains (``train.py``, ``tools/train_net.py``).
_TRAINING_SCRIPT = re.compile(r"train\w*\.py$")
#: An option that names the weights a run starts from (``--weights``, ``--resume``).
_WEIGHTS_OPTION = re.compile(r"weight|ckpt|checkpoint|pretrain|resume|load_model", re.IGNORECASE)
#: An option that names the data a run reads (``-data_pkl m30k.pkl``, ``--vocab
#: vocab.bin``, ``--ann_file train.pkl``): its file is a dataset, vocabulary or annotation
#: pickle, no weights, whatever its suffix.
_DATA_OPTION = re.compile(r"data|vocab|corpus|anno|label|split|token|cache", re.IGNORECASE)
#: Suffixes of weights files alone (``.pkl`` and ``.bin`` pickle data as often): a file of
#: them is a run's weights whatever option passes it, one of the others only through an
#: option named for weights.
_WEIGHTS_ONLY_FILE = re.compile(r"\.(?:pth|pt|ckpt|pth\.tar|safetensors)$", re.IGNORECASE)
#: What a command passes for no weights file (``--weights ''``).
_NO_FILE = frozenset({"", "none", "None", "''", '""'})


#: Weight files of formats other than torch's pickled state dict, by suffix: what a run's
#: config naming one loads, and what converting it takes.
FOREIGN_WEIGHTS: dict[str, str] = {
    ".pkl": "a pickled dict of numpy arrays by parameter name (another framework's export, "
    "read with pickle, not torch.load)",
    ".pickle": "a pickled dict of numpy arrays by parameter name (read with pickle, not "
    "torch.load)",
    ".npz": "numpy arrays by name",
    ".npy": "a numpy array file",
    ".h5": "Keras/HDF5 weights",
    ".hdf5": "Keras/HDF5 weights",
    ".caffemodel": "Caffe weights",
    ".weights": "Darknet weights",
    ".t7": "Lua Torch weights",
    ".mat": "MATLAB arrays",
}
#: The config keys that name weights to load (``MODEL.WEIGHTS``, ``pretrained``,
#: ``resume_from``, ``init_checkpoint``), by their last part.
_WEIGHT_KEY = re.compile(r"(?i)weight|pretrain|checkpoint|ckpt|resume|init_from|load_from")


def configured_weights(
    settings: Mapping[str, Sequence[tuple[str, str, int]]],
) -> list[WorkItem]:
    """The weight files the run's config names (``settings``: dotted key -> (value, path,
    line) of each value the run gives it) in a format other than torch's: a pickled dict
    of numpy arrays (``MODEL.WEIGHTS: .../R-50.pkl``, converted by the checkpointer's own
    name-mapping code), Keras, Caffe or Darknet weights. Each is a conversion the port
    writes once: read the file, map its names and layouts onto the MindSpore network's
    parameters, save a MindSpore checkpoint, checked against the PyTorch model's outputs."""
    out: list[WorkItem] = []
    for key, found in sorted(settings.items()):
        if not _WEIGHT_KEY.search(key.rpartition(".")[2]):
            continue
        for value, path, line in found:
            name = value.strip("'\"").split("?")[0]
            suffix = next((s for s in FOREIGN_WEIGHTS if name.lower().endswith(s)), None)
            if suffix is None:
                continue
            out.append(
                WorkItem(
                    kind="checkpoint",
                    what=f"{key} = {name}",
                    where=(Where(path, line),),
                    why=(
                        f"the run loads {suffix} weights: {FOREIGN_WEIGHTS[suffix]}; "
                        "neither torch's state dict nor a MindSpore checkpoint: convert "
                        "the file once (parameter names and layouts mapped onto the "
                        "MindSpore network, BatchNorm statistics included) with "
                        "mindspore.save_checkpoint, checked against the PyTorch model's "
                        "outputs, and port the loader's name mapping or drop it"
                    ),
                    uses=1,
                )
            )
    return out


#: The class methods a model inherits from a hub mixin to load its released weights.
_INHERITED_LOADERS = frozenset({"from_pretrained"})


def _inherited_loads(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[tuple[Where, str]]:
    """(where, the third-party base it comes from) of each call, in a ported file, of a
    loader the repository's model class inherits from a third-party base and defines
    nowhere in its own hierarchy (Depth-Anything's ``DepthAnything.from_pretrained(
    'LiheYoung/depth_anything_vitl14')``, from ``huggingface_hub.PyTorchModelHubMixin``):
    the released weights the model runs with, downloaded and loaded by that library, a
    checkpoint to convert like a ``torch.load``'s."""
    classes: dict[str, ClassFact] = {}
    for fa in analyses:
        for c in fa.classes:
            for module in fa.modules:
                classes[f"{module}.{c.qualname}"] = c

    def library_base(name: str, seen: set[str]) -> str | None:
        """The third-party base ``name`` takes the loader from; None when a class of the
        repository defines it, or no base outside torch and the repository gives it."""
        cls = classes.get(name)
        if cls is None or name in seen:
            return None
        seen.add(name)
        if _INHERITED_LOADERS & set(cls.methods):
            return None
        found = None
        for base in cls.bases:
            if not base or base.startswith(("torch.", "builtins.")) or base == "object":
                continue
            if base in classes:  # a base of the repository's (the scan's qualified name)
                if _INHERITED_LOADERS & set(classes[base].methods):
                    return None
                found = found or library_base(base, seen)
            elif "." in base:  # a library's class (``huggingface_hub.PyTorchModelHubMixin``)
                found = found or base
        return found

    out: list[tuple[Where, str]] = []
    for fa in analyses:
        if fa.errors or ancillary.why(fa.path):
            continue
        for call in fa.calls:
            owner, _, method = call.callee.rpartition(".")
            if call.role != "call" or method not in _INHERITED_LOADERS or owner not in classes:
                continue
            base = library_base(owner, set())
            if base is not None:
                out.append((place(fa, call.line), f"{base}.{method}"))
    return out


#: the norm layers whose checkpoint entries a conversion maps to other names (torch's weight,
#: bias, running mean and variance: MindSpore's gamma, beta and moving statistics)
_NORM_WITH_STATISTICS = re.compile(r"batch_?norm|instance_?norm", re.IGNORECASE)
#: a model zoo's network (torchvision's ResNet, a timm model): BatchNorm inside, unseen
_ZOO_MODELS = re.compile(r"^(torchvision\.models|timm|pretrainedmodels|efficientnet_pytorch)\b")


def _has_batch_statistics(
    result: ScanResult, analyses: Sequence[FileAnalysis], items: Sequence[WorkItem]
) -> bool:
    """Whether the network may hold BatchNorm-like statistics a checkpoint conversion maps:
    a torch norm layer with running statistics, a model zoo's network (its BatchNorm
    inside the library), a pretrained or zoo backbone item, or a repository class named for
    BatchNorm (a frozen ``FixedBatchNorm`` with its own running-mean buffers)."""
    if any(i.kind in ("pretrained-backbone", "zoo-layer") for i in items):
        return True
    for f in result.api_findings:
        if _NORM_WITH_STATISTICS.search(f.api) or _ZOO_MODELS.search(f.api):
            return True
    return any(
        re.search(r"batch_?norm|(^|_|[a-z])BN(\d*d)?($|_)|running_mean", c.qualname, re.I)
        for fa in analyses
        for c in fa.classes
    )


#: what a checkpoint's conversion says it maps for those layers
_BN_TERMS = ", BatchNorm gamma/beta/moving statistics"


#: Third-party functions that read a PyTorch checkpoint file (a package's ``torch.load``
#: wrapper, OpenMMLab's and timm's ``load_checkpoint(model, path)``), by their last name.
_LIBRARY_LOADERS = frozenset({"torch_load", "load_checkpoint", "torch_safe_load"})
#: How the checkpoint item says a library loader's weights are loaded.
_LIBRARY_LOADED = "read by a third-party package's PyTorch checkpoint loader"


def _library_loads(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[tuple[Where, str]]:
    """(where, the loader's dotted name) of each call, in a ported file, of a third-party
    function that reads a PyTorch checkpoint (YOLOv5's ``ultralytics.utils.patches.
    torch_load(weights, map_location="cpu")`` of the pretrained ``yolov5s.pt``; mmcv's
    ``load_checkpoint(model, args.checkpoint)``): the scan sees no ``torch.load`` there, the
    weights are PyTorch's all the same. A name the repository defines is its own, whose
    ``torch.load`` the scan finds."""
    out: list[tuple[Where, str]] = []
    own = own_packages(analyses)
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or fa.errors or ancillary.why(fa.path):
            continue
        imports = dict(facts.imports)
        for call in values.calls:
            dotted = imported_name(call.expr, imports)
            if dotted is None or call.expr.callee() not in _LIBRARY_LOADERS:
                continue
            top = dotted.partition(".")[0]
            if top in ("torch", *own) or dotted.startswith(("torch.", "torchvision.")):
                continue
            out.append((place(fa, call.expr.line), dotted))
    return out


def _with_inherited_loads(
    checkpoints: list[WorkItem],
    loads: Sequence[tuple[Where, str]],
    how: str = "inherited from a third-party base",
) -> list[WorkItem]:
    """The checkpoint items with the released weights an inherited loader reads
    (:func:`_inherited_loads`), or a library's loader (:func:`_library_loads`, ``how``
    says so): added to the plain checkpoint item, one format to convert with the rest, or an
    item of their own where the repository loads nothing else."""
    if not loads:
        return checkpoints
    where = tuple(dict.fromkeys(w for w, _ in loads))
    apis = sorted({api for _, api in loads})
    why = (
        f"the model's released weights are loaded by {', '.join(apis)}, {how}: PyTorch "
        "weights (a state dict, a pickled checkpoint or a safetensors file) "
        "that do not load into MindSpore: convert the released checkpoint once (parameter "
        "names, BatchNorm gamma/beta/moving statistics) with mindspore.save_checkpoint and "
        "load it with mindspore.load_checkpoint + load_param_into_net"
    )
    plain = next((i for i in checkpoints if i.kind == "checkpoint"), None)
    if plain is None:
        return [
            *checkpoints,
            WorkItem(
                kind="checkpoint", what=", ".join(apis), where=where, why=why, uses=len(where)
            ),
        ]
    merged = replace(
        plain,
        what=", ".join([plain.what, *apis]),
        where=tuple(dict.fromkeys([*where, *plain.where])),
        why=plain.why + f"; the released weights {', '.join(apis)} loads are converted alike",
        uses=plain.uses + len(where),
    )
    return [merged if i is plain else i for i in checkpoints]


def _launched_weights(root: Path | None, checkpoints: list[WorkItem]) -> list[WorkItem]:
    """The checkpoint items, the plain one told of the weights file the documented
    training commands start from (``python train.py mot --load_model
    '../models/ctdet_coco_dla_2x.pth'`` in every launch script): an initialisation the port
    converts once and checks, not only a resume. The option, its file and the first
    command's place are named; the commands' places are added to the item's."""
    from apiscan.review.commands import launch_commands

    plain = next((i for i in checkpoints if i.kind == "checkpoint"), None)
    if plain is None or root is None or not root.is_dir():
        return checkpoints
    passed: dict[tuple[str, str], list[Where]] = {}
    reference: list[str] | None = None  # the first training command's words
    for path, line, words, _ in launch_commands(root):
        if not any(_TRAINING_SCRIPT.search(w) for w in words):
            continue
        if reference is None:
            reference = words
        for option, value in itertools.pairwise(words):
            # a long option or a short one (ByteTrack-style ``-c pretrained/yolox_x.pth``)
            if _OPTION_WORD.fullmatch(option) and _passes_weights(option, value):
                passed.setdefault((option, value), []).append(Where(path, line))
    if not passed:
        return checkpoints
    (option, value), where = max(passed.items(), key=lambda kv: len(kv[1]))
    given = _reference_weights(reference or [], {o for o, _ in passed})
    if given == "":
        return checkpoints  # the reference run starts from scratch: a later run's file is not
    if given is not None:
        option, value = given
        where = passed[given]
    places = sorted({w for ws in passed.values() for w in ws}, key=lambda w: (w.path, w.line))
    commands = len(places)
    why = (
        f"{plain.why}. The documented training starts from a weights file: {option} "
        f"{value} ({where[0]}"
        + (f", {commands} commands in all" if commands > 1 else "")
        + "): a PyTorch file to convert once (or to make again with the ported code) and "
        "check against PyTorch's outputs before the MindSpore training starts from it"
    )
    told = replace(plain, why=why, where=tuple(dict.fromkeys([*plain.where, *places])))
    return [told if i is plain else i for i in checkpoints]


def _passes_weights(option: str, value: str) -> bool:
    """Whether a command's ``option value`` pair passes a weights file: a weights suffix
    through an option named for weights (``--resume last.pkl``), or a suffix only weights
    files have (``.pth``, ``.ckpt``) through any option not named for data; a pickle an
    option named for data passes (``-data_pkl m30k_deen_shr.pkl``: the vocabulary and
    examples the preprocessing wrote) is none."""
    if not WEIGHTS_FILE.search(value):
        return False
    name = option.lstrip("-")
    if _WEIGHTS_OPTION.search(name):
        return True
    return not _DATA_OPTION.search(name) and bool(_WEIGHTS_ONLY_FILE.search(value))


def _reference_weights(words: Sequence[str], options: set[str]) -> tuple[str, str] | str | None:
    """What the first documented training command (the reference run) passes for one of the
    weights ``options`` the commands use: (option, file) for a weights file, "" for no file
    (YOLO-style ``--weights ''``: the run trains from scratch, and a fine-tuning command
    further down that starts from ``epoch_424.pt`` is another run), None when it does not
    pass any of them, or passes a file of another format (then the file most commands pass
    is told)."""
    found: tuple[str, str] | str | None = None
    for option, value in itertools.pairwise(words):
        if option in options:
            if WEIGHTS_FILE.search(value):
                found = (option, value)
            elif value in _NO_FILE:
                found = ""
            else:  # a file of another format (``yolov3.weights``): not told here
                found = None
    return found


#: What a loader of a whole pickled network is called with: ``torch.load``.
_TORCH_LOAD = "torch.load"


def _loaded_modules(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> Iterable[WorkItem]:
    """Whole networks read with ``torch.load`` into a module's attributes (a released
    encoder and decoder: ``self.enc = load_model(download(URL))``, ``load_model`` returning
    ``torch.load(f)``, then ``self.dec(z)`` run in a method): the file holds pickled
    ``nn.Module`` objects, not a state dict, the same checkpoint format as
    :func:`_pickled_modules`'s. A ``torch.load`` counts when a method of an ``nn.Module``
    subclass assigns its result (directly, or through one of the repository's functions that
    returns it) to a ``self`` attribute that the class then calls; a state dict handed to
    ``load_state_dict`` is never called."""
    loads = [f for f in findings if f.api == _TORCH_LOAD and f.usage == "call"]
    if not loads:
        return
    #: the repository's functions returning what ``torch.load`` read, by last name
    returning: dict[str, ApiFinding] = {}
    files = {fa.path: (fa, facts) for fa, facts in with_facts(analyses)}
    for f in loads:
        _, facts = files.get(f.path, (None, None))
        if facts is None or facts.values is None or not f.function:
            continue
        for d in facts.values.defs:
            if (
                d.qual == f.function
                and not d.is_class
                and any(r.line <= f.span.line <= r.end_line for r in d.returns)
            ):
                returning.setdefault(d.name, f)
    places: list[Where] = []
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or is_test_path(fa.path) or facts.values is None:
            continue
        modules = {c.qualname for c in fa.classes if any(b.endswith("Module") for b in c.bases)}
        called = {attr for attr, _, _ in facts.self_calls}
        defs = facts.values.defs
        for call in facts.values.calls:
            if call.function < 0 or defs[call.function].owner < 0:
                continue
            if defs[defs[call.function].owner].qual not in modules:
                continue
            line = call.expr.line
            name = call.expr.callee()
            direct = name == "load" and call.expr.text.startswith(("torch.load(", "load("))
            found = (
                next((f for f in loads if f.path == fa.path and f.span.line == line), None)
                if direct
                else returning.get(name)
            )
            if found is None:
                continue
            held = [
                attr
                for attr, first, last, _ in facts.self_assigns
                if first <= line <= last and attr in called
            ]
            if held:
                places.append(place(fa, line))
                places.append(Where(found.path, found.span.line, found.cell))
    if not places:
        return
    yield WorkItem(
        kind="checkpoint",
        what="pickled networks (whole modules read with torch.load, not state dicts)",
        where=tuple(sorted(set(places), key=lambda w: (w.path, w.line))),
        why=(
            "the files are whole PyTorch modules pickled with their classes (not state "
            "dicts): a module holds what torch.load returns and calls it, so no state-dict "
            "conversion applies until the pickled networks' architecture is written in "
            "MindSpore; unpickle each released file once under PyTorch, write its "
            "classes as Cells, convert its state_dict (parameter names, buffers) with "
            "mindspore.save_checkpoint and load it with load_param_into_net"
        ),
        uses=len(set(places)),
    )


def _url_loaders(
    analyses: Sequence[FileAnalysis],
) -> dict[tuple[str, str], list[tuple[Where, str]]]:
    """(path, name) of each module-level function of the repository that callers hand a
    released backbone's URL (semantic-segmentation's own ``load_url(url, model_dir)``,
    downloading the file and returning ``torch.load(cached_file)``, called as
    ``load_url(model_urls['resnet50'], model_dir=root)``) -> each call's place and text
    (the text "" for a call handing it anything else, a path to resume from): the
    ``torch.load`` inside loads those weights, a checkpoint only for the other calls."""
    defs: dict[str, tuple[str, str]] = {}
    for fa in analyses:
        for fn in fa.functions:
            if not fn.cls and "." not in fn.qualname:
                for module in fa.modules:
                    defs.setdefault(f"{module}.{fn.qualname}", (fa.path, fn.qualname))
    out: dict[tuple[str, str], list[tuple[Where, str]]] = {}
    for fa, facts in with_facts(analyses):
        if facts.values is None:
            continue
        resolved = calls_by_line(fa)
        for call in facts.values.calls:
            expr = call.expr
            last = expr.callee().rpartition(".")[2]
            target = defs.get(resolved.get((expr.line, last), ""))
            if target is None or not expr.args:
                continue
            url = expr.args[0].text
            released = _BACKBONE_URL.search(url) and not _CHECKPOINT_WORDS.search(url)
            # another call (a path the user gives) loads a checkpoint: shown as ""
            shown = f"{last}({shorten(url, 40)})" if released else ""
            out.setdefault(target, []).append((Where(fa.path, expr.line), shown))
    return {k: sites for k, sites in out.items() if any(shown for _, shown in sites)}


def _checkpoints(
    findings: Sequence[ApiFinding],
    methods: frozenset[tuple[str, str]] = frozenset(),
    unselected: Callable[[Where], str] = lambda where: "",
    others: dict[str, list[str]] | None = None,
    loaders: Mapping[tuple[str, str], Sequence[tuple[Where, str]]] | None = None,
) -> Iterable[WorkItem]:
    """One item for the weights downloaded by URL at construction (``model_zoo.load_url(
    model_urls['resnet50'])`` into the repository's own ResNet: the ImageNet initialisation
    of a backbone it defines itself), and one for all the other checkpoint loading: one format
    to convert, however many calls. A download where ``unselected`` says why it does not run
    (a model or builder the configuration does not select) is collected in ``others``.
    ``loaders``: the repository's own download functions (:func:`_url_loaders`): the
    ``torch.load`` in one is such a download, placed at the calls handing it the URL."""
    # the dataset classes of each file: what their methods load is data, their set-up's
    # too (a label cache a dataset's __init__ reads back with torch.load)
    datasets = {
        (f.path, f.function) for f in findings if f.usage == "base_class" and f.api in DATASETS
    }
    calls = sorted(
        (
            f
            for f in findings
            # a dataset reading tensors saved to files (Pytorch-UNet's load_image of a
            # ``.pt`` mask) loads data, not weights: it stays in the input pipeline
            if f.api in CHECKPOINT_APIS
            and f.usage == "call"
            and f.scope != "data"
            and (f.path, (f.function or "").rpartition(".")[0]) not in datasets
        ),
        key=lambda f: f.sort_key(),
    )
    downloads = []
    inside: list[ApiFinding] = []  # the loads in a repository download function
    loaded: list[ApiFinding] = []  # ... that load no checkpoint (every call hands a URL)
    handed: list[tuple[Where, str]] = []  # the calls handing those a URL, where they run
    for f in calls:
        sites = (loaders or {}).get((f.path, f.function))
        if sites and f.api == "torch.load":
            inside.append(f)
            if all(shown for _, shown in sites):  # else a checkpoint loader as well
                loaded.append(f)
            for where, shown in sites:
                if not shown:
                    continue
                if off := unselected(where):
                    if others is not None:
                        others.setdefault(f"weights downloaded at {where}", []).append(off)
                else:
                    handed.append((where, shown))
            continue
        if not _pretrained_download(f, methods):
            continue
        where = Where(f.path, f.span.line, f.cell)
        if off := unselected(where):
            if others is not None:
                others.setdefault(f"weights downloaded at {where}", []).append(off)
            continue
        downloads.append(f)
    if handed:
        where = tuple(dict.fromkeys([*(w for w, _ in handed), *_places(inside)]))
        # a URL handed over (``load_url(model_urls['resnet50'])``) is downloaded; an
        # architecture's name (P2PNet's ``_vgg('vgg16', ...)`` reading
        # ``torch.load(model_paths[arch])``) picks a released file kept on disk
        by_url = downloads or any(_URL_TEXT.search(s) for _, s in handed)
        how = "downloaded by URL" if by_url else "loaded by architecture name"
        fetched = (
            "downloaded by its own function" if by_url else "read from a file by its own function"
        )
        yield WorkItem(
            kind="pretrained-backbone",
            what=(
                f"pretrained weights {how}: "
                + ", ".join(dict.fromkeys([s for _, s in handed] + [f.api for f in downloads]))
            ),
            where=tuple(dict.fromkeys([*where, *_places(downloads)])),
            why=(
                "weights released for PyTorch (ImageNet backbones) are loaded into the "
                f"repository's own architecture when it is built ({fetched}, then "
                "torch.load): convert them once to a MindSpore checkpoint "
                "(parameter names, BatchNorm gamma/beta/moving statistics) and load them "
                "with load_param_into_net; check the converted network's outputs against "
                "PyTorch's"
            ),
            uses=len(handed) + len(downloads),
        )
        downloads = []
    # the other branch of the loader that downloads (EfficientNet-PyTorch's
    # ``load_pretrained_weights``: ``torch.load(weights_path)`` if a path is given, else
    # ``model_zoo.load_url(url)``): the same released weights read from a local copy, one
    # conversion with the download, not a second checkpoint to convert
    loaders_of = {(f.path, f.function) for f in downloads if f.function}
    local_copies = [
        f
        for f in calls
        if f.api == "torch.load"
        and (f.path, f.function) in loaders_of
        and f not in loaded
        and not _pretrained_download(f, methods)
    ]
    if downloads and local_copies:
        downloads = sorted([*downloads, *local_copies], key=lambda f: f.sort_key())
    if downloads:
        args = downloads[0].args
        first = (args.positional[:1] or (args.keyword("url") or "",))[0] if args else ""
        shown = f"{downloads[0].api}({shorten(first, 40)})" if first else downloads[0].api
        more = sorted({f.api for f in downloads} - {downloads[0].api})
        files = sum(1 for f in downloads if f.api not in URL_WEIGHTS)
        how = (
            "downloaded by URL"
            if not files
            else "loaded from a file"
            if files == len(downloads)
            else "downloaded by URL or loaded from a file"
        )
        yield WorkItem(
            kind="pretrained-backbone",
            what=f"pretrained weights {how}: " + ", ".join([shown, *more]),
            where=_places(downloads),
            why=(
                "weights released for PyTorch (ImageNet backbones) are loaded into the "
                "repository's own architecture when it is built: convert them once to a "
                "MindSpore checkpoint (parameter names, BatchNorm gamma/beta/moving statistics) "
                "and load them with load_param_into_net; check the converted network's "
                "outputs against PyTorch's"
            ),
            uses=len(downloads),
        )
    saved = _saved_paths(findings)
    found = [
        f
        for f in calls
        if not _pretrained_download(f, methods)
        and f not in loaded
        and f not in downloads
        and not (
            f.api == "torch.load"
            and (
                _first_argument(f) in saved
                or (f.path, _first_argument(f)) in saved
                or (f.path, f.function, _first_argument(f)) in saved
            )
        )
    ]
    if not found:
        return
    why = (
        "PyTorch checkpoints (pickled state dicts) do not load into MindSpore: convert "
        "each released checkpoint once (parameter names, BatchNorm gamma/beta/moving "
        "statistics) with mindspore.save_checkpoint and load it with "
        "mindspore.load_checkpoint + load_param_into_net"
    )
    if any(f.api == TORCHSCRIPT_LOAD for f in found):
        # CLIP's released files are TorchScript archives its loader reads the weights from
        why += (
            "; a TorchScript archive (torch.jit.load) is opened with PyTorch for the "
            "conversion (its state_dict()), and the traced graph itself has no MindSpore "
            "counterpart: the port runs the repository's own architecture"
        )
    yield WorkItem(
        kind="checkpoint",
        what=", ".join(sorted({f.api for f in found})),
        where=_places(found),
        why=why,
        uses=len(found),
    )


def _first_argument(f: ApiFinding) -> str | None:
    """The text of the first positional argument ``f``'s call passes (None: none)."""
    return f.args.positional[0] if f.args is not None and f.args.positional else None


def _saved_paths(findings: Sequence[ApiFinding]) -> frozenset[str | tuple[str, ...]]:
    """The file names written as string literals that the repository's ``torch.save`` calls
    write to (pytorch-cifar's ``torch.save(state, './checkpoint/ckpt.pth')``): a
    ``torch.load`` of the same literal reads back the training's own checkpoint to resume
    it, which the port writes and reads in its own format (the checkpoints idiom), no
    released checkpoint to convert. Likewise (path, text) of a path a file's ``torch.save``
    writes through an expression holding a literal file name (``os.path.join(args.dump_path,
    "checkpoint.pth.tar")``), and (path, function, name) of one written through a local
    name (SwAV's ``torch.save({"queue": queue}, queue_path)``): a ``torch.load`` of the same
    text in that file (that function) reads it back. A path held in an option alone
    (``torch.load(args.resume)``) may name a released file: not one of these."""
    out: set[str | tuple[str, ...]] = set()
    for f in findings:
        if f.api != "torch.save" or f.usage != "call" or f.args is None:
            continue
        target = f.args.positional[1] if len(f.args.positional) > 1 else f.args.keyword("f")
        if target and target[:1] in ("'", '"'):
            out.add(target)
        elif target and target.isidentifier():
            out.add((f.path, f.function, target))
        elif target and ("'" in target or '"' in target):
            out.add((f.path, target))
    return frozenset(out)


def _passed(f: ApiFinding, param: str, positional: bool = False) -> str | None:
    """The text ``f``'s call passes for ``param`` (None when it does not pass it by name;
    with ``positional``, by position too, the API's signature naming the position)."""
    if f.args is None:
        return None
    found = next((text for name, text in f.args.keywords if name == param), None)
    if found is not None or not positional or not f.args.positional:
        return found
    params = load_torch_api().params(f.canonical or f.api) or ()
    for i, (name, kind, _) in enumerate(params):
        if i >= len(f.args.positional) or kind in ("var_pos", "kw_only", "var_kw"):
            break
        if name == param:
            return f.args.positional[i]
    return None


#: A value a parameter behaves alike with on both sides (:func:`apiscan.mapping.match.
#: _value_splits`' note: "False is the same").
_SAME_VALUE = re.compile(r"; (\S+) is the same$")


#: The deprecated reduction switches of torch's losses and what a value other than their
#: default selects (``size_average=False`` sums; ``reduce=False`` keeps every element).
#: MindSpore's losses take only ``reduction``: the tables call them general parameters to
#: drop, but dropping one that is set changes the loss (a sum becomes a mean).
LEGACY_REDUCTION: dict[str, tuple[str, str]] = {
    "size_average": ("True", "reduction='sum'"),
    "reduce": ("True", "reduction='none'"),
}


def _legacy_reduction(f: ApiFinding, kind: str, param: str, names: NameValues | None) -> str:
    """The note of a deprecated reduction switch the call sets to a value that changes the
    result (``size_average=False``), "" otherwise: a default, None, or a name the repository
    only ever sets so."""
    if kind != "general" or param not in LEGACY_REDUCTION:
        return ""
    value = _passed(f, param)
    default, replacement = LEGACY_REDUCTION[param]
    if value is None or value in (default, "None"):
        return ""
    literal = names.literal(value) if names is not None else None
    if literal in (default, "None"):
        return ""
    return (
        f"{param}= is deprecated and MindSpore's loss has no such parameter: dropping it "
        f"changes the loss ({param}={value} is {replacement}); pass {replacement} instead"
    )


def _parameters(
    findings: Sequence[ApiFinding], names: NameValues | None = None
) -> Iterable[WorkItem]:
    """One item per API, parameter and note that a call really sets to a value MindSpore
    cannot take: a value passed by name (``antialias=self.interpolate_antialias``) counts
    only when the repository gives that name something other than a harmless literal
    everywhere (Depth-Anything-V2's DINOv2 sets it to False in every builder: nothing to do).
    A parameter whose only effect is in place or in memory (:func:`memory_only`:
    ``LeakyReLU(inplace=True)``) changes no value: one low-effort note per parameter, every
    API that passes it listed, so the parameter stays visible without being a port."""
    groups: dict[tuple[str, str, str], list[ApiFinding]] = {}
    memory: dict[str, list[ApiFinding]] = {}
    for f in findings:
        if f.api.startswith(PLUMBING) or f.disposition in ("idiom", "delete"):
            continue
        for change in f.param_changes:
            reduction = _legacy_reduction(f, change.kind, change.param, names)
            if reduction:
                groups.setdefault((f.api, change.param, reduction), []).append(f)
                continue
            if change.kind != "unsupported" or change.param in PLACEMENT:
                continue
            if SPELLING in change.note:
                continue  # the keyword is spelled otherwise or passed by position: a rewrite
            same = _SAME_VALUE.search(change.note)
            # (a parameter alike for one value only may be passed by position: its value
            # says whether the call selects the other)
            value = _passed(f, change.param, positional=same is not None)
            if value is None or value in NEUTRAL_VALUES:
                continue  # passed positionally or left at a harmless value: nothing to miss
            if same is not None and (
                value == same.group(1)
                or (names is not None and set(names.candidates(value) or ("",)) == {same.group(1)})
            ):
                continue  # the value alike on both sides, or a name only ever given it
            if names is not None and names.neutral(value) is not None:
                continue  # a name the repository only ever sets to a harmless literal
            if memory_only(change):
                memory.setdefault(change.param, []).append(f)
                continue
            groups.setdefault((f.api, change.param, change.note), []).append(f)
    for param, found in sorted(memory.items()):
        found.sort(key=lambda f: f.sort_key())
        values = sorted({_passed(f, param) or "" for f in found})
        apis = sorted({f.api for f in found})
        notes = sorted(
            {c.note.strip() for f in found for c in f.param_changes if c.param == param} - {""}
        )
        words = f" (the mapping: {' / '.join(notes[:2])})" if notes else ""
        yield WorkItem(
            kind="memory-param",
            what=f"{param}={' | '.join(values)}: {', '.join(apis)}",
            where=_places(found),
            why=(
                f"MindSpore has no {param} parameter; it only selects in-place or memory "
                f"behaviour{words}: MindSpore computes out of place with the same values, so "
                "drop it at each call (check that no code reads the input back expecting it "
                "overwritten)"
            ),
            uses=len(found),
        )
    for (api, param, note), found in sorted(groups.items()):
        found.sort(key=lambda f: f.sort_key())
        positional = _SAME_VALUE.search(note) is not None
        values = sorted({_passed(f, param, positional) or "" for f in found})
        if positional and names is not None:
            # a name passed on (``self.aligned``): the literals the repository gives it
            values = [
                f"{v} ({' | '.join(given)})" if (given := names.candidates(v)) else v
                for v in values
            ]
        yield WorkItem(
            kind="unsupported-param",
            what=f"{api}({param}={' | '.join(values)})",
            where=_places(found),
            why=(note or "MindSpore has no such parameter")
            + f" (scope: {', '.join(sorted({f.scope for f in found}))}): the behaviour it "
            "selects must be reproduced, or the difference measured",
            uses=len(found),
        )


#: Ops of compiled extensions with a MindSpore counterpart or a composition, by the op's
#: name (the binding's, ``roi_align_forward``, or the class a submodule provides, ``DCN``);
#: "" where MindSpore has none and the op is written as a custom op. The first match wins.
COMPILED_OPS: tuple[tuple[re.Pattern[str], str], ...] = (
    # rotated boxes (detectron2's nms_rotated, roi_align_rotated, box_iou_rotated): no
    # MindSpore op takes an angle
    (re.compile(r"rotated", re.IGNORECASE), ""),
    (re.compile(r"psroi", re.IGNORECASE), ""),
    (
        re.compile(r"ml_?nms|batched_?nms", re.IGNORECASE),
        "NMS per class: mindspore.ops.NMSWithMask on the boxes offset by class "
        "(boxes + labels[:, None] * (boxes.max() + 1)), then select with its mask",
    ),
    (re.compile(r"soft_?nms", re.IGNORECASE), ""),
    (
        re.compile(r"nms", re.IGNORECASE),
        "mindspore.ops.NMSWithMask, then select with its mask",
    ),
    (
        re.compile(r"roi_?align", re.IGNORECASE),
        "mindspore.ops.ROIAlign (check sampling_ratio and the half-pixel offset)",
    ),
    (re.compile(r"roi_?pool", re.IGNORECASE), ""),
    (
        # Lua Torch's BilinearSamplerBHWD (spatial transformer crops, RoICrop): the grid
        # comes from affine_grid, the sampling is grid_sample's
        re.compile(r"bilinear_?sampler|grid_?sampl|roi_?crop", re.IGNORECASE),
        "mindspore.ops.grid_sample (bilinear, align_corners as the kernel samples; the "
        "BHWD layout permuted to NCHW)",
    ),
    (
        # StyleGAN2's fused_bias_act / fused_leaky_relu
        re.compile(r"fused_?(?:bias_?)?act|fused_?leaky", re.IGNORECASE),
        "a composition: leaky_relu(x + bias broadcast over the channel axis, "
        "negative_slope) * scale, its gradient autograd's",
    ),
    (
        # StyleGAN2's upfirdn2d: upsample by zero insertion, pad, FIR filter, downsample
        re.compile(r"upfirdn", re.IGNORECASE),
        "a composition: zero-insertion upsampling (reshape + pad), pad/crop, a depthwise "
        "conv2d with the flipped FIR kernel, then a strided slice to downsample",
    ),
    (
        re.compile(r"sigmoid_?focal", re.IGNORECASE),
        "a composition: p = sigmoid(x); -(alpha * (1 - p) ** gamma * log(p) on positives "
        "+ (1 - alpha) * p ** gamma * log(1 - p) on negatives)",
    ),
    (
        # CornerNet's corner pooling: each position takes the maximum of everything on
        # one side of it along a row or a column (top pool: the pixels below it)
        re.compile(r"^(?:top|bottom|left|right)_?pool", re.IGNORECASE),
        "a composition: a running maximum along the height (top, bottom) or the width "
        "(left, right): mindspore.ops.cummax along that axis, the input flipped before and "
        "the result flipped back for the top and left pools; its gradient autograd's",
    ),
    # deformable RoI pooling: no MindSpore op pools with learnt offsets
    (re.compile(r"deform\w*_pool", re.IGNORECASE), ""),
    (
        re.compile(r"deform|dcn", re.IGNORECASE),
        "mindspore.ops.deformable_conv2d (the offsets with the modulation mask; "
        "a mask of ones for DCN v1)",
    ),
)
#: The suffixes of one op's bindings (``roi_align_forward``, ``deform_conv_backward_input``):
#: forward and backward of one op are one port.
#: Lua Torch's names (``BilinearSamplerBHWD_updateOutput``, ``..._updateGradInput_cuda``) are
#: the same pair.
_BINDING_SUFFIX = re.compile(
    r"_(?:forward|backward|updateOutput|updateGradInput|accGradParameters)(?:_\w+)?$"
    r"|_(?:cuda|cpu)$"
)
#: A module's own attributes (``__file__``, ``__name__``, ``__version__``): read from an
#: extension module (``warnings.warn(... ext.__file__)``), they are no op of it.
_MODULE_ATTRIBUTE = re.compile(r"^__\w+__$")
#: The device suffix of one op's builds (``deform_conv_cpu`` and ``deform_conv_cuda``, built
#: one after the other from the same file): the CPU and CUDA builds of one op are one port.
_BUILD_DEVICE = re.compile(r"_(?:cpu|cuda|gpu)$")
#: Where the ops the repository registers with torch are called from.
TORCH_OPS = "torch.ops."
_OWN_EXTENSION = "the repository's CUDA/C++ extension"
_CFFI_EXTENSION = "the repository's cffi-built CUDA/C extension"
#: What builds a cffi extension from C/CUDA sources in PyTorch before 1.0.
CFFI_BUILD = "torch.utils.ffi.create_extension"
#: Bindings that score predictions (detectron2's ``COCOevalAccumulate``), and the files of
#: evaluation code: an evaluator's C++ is no op of the network.
_EVALUATION = re.compile(r"coco|eval", re.IGNORECASE)
#: Binding names that say nothing of the op (the extension module's name does).
_GENERIC_BINDINGS = frozenset({"forward", "backward", "fwd", "bwd", "apply", "run", "call"})
#: ``path = ...`` and ``url = ...`` lines of a ``.gitmodules`` file.
_SUBMODULE_FIELD = re.compile(r"^\s*(path|url)\s*=\s*(\S+)\s*$", re.MULTILINE)


def _counterpart(op: str) -> str | None:
    """The MindSpore counterpart of a compiled op ("" when it needs a custom op), None when
    the name says nothing (a submodule's class that is no known op)."""
    return next((how for pattern, how in COMPILED_OPS if pattern.search(op)), None)


#: (path components, url) of each git submodule not checked out (:func:`missing_submodules`).
Submodules = list[tuple[tuple[str, ...], str]]


def missing_submodules(root: Path | None) -> Submodules:
    """(path components, url) of the git submodules not checked out under ``root`` (their
    folder missing or empty): code the repository imports but does not hold. The one reader
    of ``.gitmodules``: the compiled ops and the submodule code items both take its list."""
    if root is None or not root.is_dir():
        return []
    try:
        text = (root / ".gitmodules").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found = []
    path = ""
    for field, value in _SUBMODULE_FIELD.findall(text):
        if field == "path":
            path = value.strip("/")
        elif path:
            folder = root / path
            if not folder.is_dir() or not any(folder.iterdir()):
                found.append((tuple(PurePosixPath(path).parts), value))
            path = ""
    return found


def _defined(analyses: Sequence[FileAnalysis]) -> set[str]:
    """Qualified names the repository's Python files define or bind at module level."""
    names: set[str] = set()
    for fa in analyses:
        for module in fa.modules:
            names.update(f"{module}.{c.qualname.partition('.')[0]}" for c in fa.classes)
            names.update(f"{module}.{f.qualname.partition('.')[0]}" for f in fa.functions)
            names.update(f"{module}.{name}" for name, _ in fa.exports)
    return names


def _jit_extensions(
    result: ScanResult, analyses: Sequence[FileAnalysis]
) -> dict[str, frozenset[str]]:
    """Modules that build an extension at import (semseg's ``lib/psa/src/__init__.py``:
    ``cpu = load('psamask_cpu', [...cpp])``), with the module-level names they bind: the
    extensions are those names."""
    from apiscan.review.gaps import CPP_EXTENSION  # no cycle: gaps is leaf

    files = {
        f.path
        for f in result.api_findings
        if f.api.startswith(CPP_EXTENSION + ".load") and f.usage == "call" and not f.function
    }
    out = {}
    for fa in analyses:
        facts = fa.syntax.models if fa.syntax is not None else None
        if fa.path in files and facts is not None:
            names = frozenset(facts.globals) - {f.qualname for f in fa.functions}
            for module in fa.modules:
                out[module] = names - {c.qualname for c in fa.classes}
    return out


#: setuptools' and torch's extension declarations (``CppExtension("top_pool", [...])``).
_EXTENSION_DECLARATIONS = frozenset({"CppExtension", "CUDAExtension", "Extension"})


def _declared_extensions(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """The module names the repository's setup scripts declare extensions under (the
    first argument or ``name=`` of ``CppExtension``/``CUDAExtension``/``Extension``, a
    string constant: ``"top_pool"``, ``"maskrcnn_benchmark._C"``), whatever file declares
    them (a packaging script counted apart builds what the network imports)."""
    out: set[str] = set()
    for _, facts in with_facts(analyses):
        for call in facts.values.calls if facts.values is not None else ():
            if call.expr.callee() not in _EXTENSION_DECLARATIONS:
                continue
            named = [k.target for k in call.expr.keywords if k.name == "name"]
            first = named[0] if named else (call.expr.args[0] if call.expr.args else None)
            if first is not None and first.kind == "Constant" and isinstance(first.value, str):
                out.add(first.value)
    return frozenset(out)


def _helper_extensions(
    result: ScanResult, analyses: Sequence[FileAnalysis]
) -> dict[str, frozenset[str]]:
    """Module-level names bound to an extension the repository builds through its own
    helper, by module: a function that calls ``cpp_extension.load`` and returns its module,
    directly or through one more helper (stylegan-style ``custom_ops.get_plugin(...)``), called
    at module level or in a function that rebinds the module's global (``_plugin = None``
    then ``global _plugin; _plugin = custom_ops.get_plugin(...)`` inside ``_init()``). The
    attribute calls of those names are the extension's ops. A helper that loads nothing
    binds no extension."""
    from apiscan.review.gaps import CPP_EXTENSION  # no cycle: gaps is leaf

    modules = {fa.path: fa.modules for fa in analyses}
    builders = {
        f"{module}.{f.function}"
        for f in result.api_findings
        if f.api.startswith(CPP_EXTENSION + ".load") and f.usage == "call" and f.function
        for module in modules.get(f.path, ())
    }
    # one more helper deep: a function that calls a builder builds too
    builders |= {
        f"{module}.{c.caller}"
        for fa in analyses
        for c in fa.calls
        if c.caller and c.callee in builders
        for module in fa.modules
    }
    out: dict[str, frozenset[str]] = {}
    for fa in analyses:
        facts = fa.syntax.models if fa.syntax is not None else None
        lines = {c.line for c in fa.calls if c.callee in builders and c.role == "call"}
        if facts is None or not lines:
            continue
        names = frozenset(
            a.names[0]
            for a in facts.assigns
            if a.single
            and a.names[0] in facts.globals
            and any(a.line <= line <= a.end_line for line in lines)
        )
        for module in fa.modules if names else ():
            out[module] = out.get(module, frozenset()) | names
    return out


def _fold_stages(
    ops: dict[tuple[str, str], tuple[set[str], list[Where], str]],
    helper: Mapping[str, frozenset[str]],
    files: Mapping[str, FileAnalysis],
) -> None:
    """Fold into an op of a helper-built extension the bindings named after it
    (``filtered_lrelu_act_`` beside ``filtered_lrelu``) when the op has a PyTorch reference
    twin: a stage of the op's kernel path that the twin computes whole, not an op of its
    own. Without a twin (``nms`` beside ``nms_rotated``) each binding stays an op."""
    for module, op in sorted(ops, key=lambda k: -len(k[1])):
        if module not in helper or (module, op) not in ops:
            continue
        base = next(
            (
                other
                for (m, other) in ops
                if m == module and other != op and op.startswith(other + "_")
            ),
            None,
        )
        if base is None:
            continue
        bindings, where, _ = ops[(module, base)]
        twin = _native_twin(base, [files[w.path] for w in where if w.path in files])
        if not twin:
            continue
        stage_bindings, stage_where, _ = ops.pop((module, op))
        bindings |= stage_bindings
        where.extend(w for w in stage_where if w not in where)


def _helper_built_calls(fa: FileAnalysis, names: frozenset[str]) -> Iterator[tuple[str, str, int]]:
    """(extension name, binding, line) of each call ``fa`` makes of an attribute of one of
    the extension ``names`` it binds (``_plugin.bias_act(...)``)."""
    facts = fa.syntax.models if fa.syntax is not None else None
    if facts is None:
        return
    for index, _ in facts.calls:
        call = facts.exprs[index]
        callee = facts.exprs[call.refs[0]] if call.refs and call.refs[0] >= 0 else None
        if callee is None or callee.kind != "attr" or not callee.refs or callee.refs[0] < 0:
            continue
        owner = facts.exprs[callee.refs[0]]
        if owner.kind == "name" and owner.value in names and callee.value:
            yield owner.value, callee.value, call.line


#: The names every cffi out-of-line module exports: the compiled functions (``lib``) and the
#: type/conversion helper (``ffi``).
_CFFI_EXPORTS = ("lib", "ffi")


def _cffi_extensions(
    result: ScanResult, analyses: Sequence[FileAnalysis], defined: set[str]
) -> dict[str, str]:
    """Modules that are, or stand in for, a cffi extension (``torch.utils.ffi.create_extension``
    builds ``_ext/nms/_nms``; ``_ext/nms/__init__.py`` does ``from ._nms import lib, ffi`` and
    injects ``lib``'s functions into its own namespace with ``_import_symbols(locals())``), by
    name -> the compiled module's name. A compiled module is one no Python file defines whose
    ``lib`` and ``ffi`` a file imports; the module of that file is its wrapper, whose names no
    Python file defines either: they are the C functions. Where the wrapper is generated by
    the build and not committed (no ``_ext`` folder), every module under the build script's
    package that no Python file defines is the extension (``from ._ext import nms``), keyed
    ``<package>.`` (see :func:`_cffi_binding`)."""
    out: dict[str, str] = {}
    packages = {fa.path: fa.modules for fa in analyses}
    for f in result.api_findings:
        if f.api == CFFI_BUILD and f.usage == "call":
            for module in packages.get(f.path, ()):
                package = module.rpartition(".")[0]
                if package:
                    out[package + "."] = package
    for fa in analyses:
        imported: dict[str, set[str]] = {}
        for ref in fa.local_refs:
            module, _, name = ref.rpartition(".")
            if name in _CFFI_EXPORTS and module and module not in defined:
                imported.setdefault(module, set()).add(name)
        for compiled, names in imported.items():
            if names != set(_CFFI_EXPORTS):
                continue
            out[compiled] = compiled
            for module in fa.modules:
                if compiled.startswith(module + "."):
                    out[module] = compiled
    return out


def _cffi_generated(parts: list[str], cffi: dict[str, str], defined: set[str]) -> bool:
    """Whether ``parts`` names a module a cffi build generates (``pkg._ext.nms`` under the
    package of a ``create_extension`` build script, no Python file defining ``pkg._ext``)."""
    for k in range(1, len(parts)):
        package = ".".join(parts[:k])
        if package + "." in cffi and f"{package}.{parts[k]}" not in defined:
            return True
    return False


def _cffi_binding(
    parts: list[str], cffi: dict[str, str], defined: set[str]
) -> tuple[str, str] | None:
    """(extension module, binding) of a reference to a C function of a cffi extension: a name
    its wrapper does not define (``nms.nms_cuda``), or one of its ``lib``
    (``_nms.lib.nms_cuda``)."""
    if len(parts) < 2:
        return None
    module, binding = ".".join(parts[:-1]), parts[-1]
    # the function of a module under the generated folder (``pkg._ext.nms.nms_cuda``)
    if _cffi_generated(parts[:-2], cffi, defined):
        cffi = {**cffi, module: module}
    if module.endswith(".lib") and module[: -len(".lib")] in cffi:
        module = module[: -len(".lib")]
    if module not in cffi or binding in _CFFI_EXPORTS or f"{module}.{binding}" in defined:
        return None
    if binding.startswith("_"):  # the wrapper's own helpers (``_import_symbols``, ``_lib``)
        return None
    return module, binding


def _jit_binding(
    parts: list[str], jit: dict[str, frozenset[str]]
) -> tuple[tuple[str, str] | None, str]:
    """((the building module, the op's binding), how it is written) of a reference to a
    function of an extension built at import (``lib.psa.src.cpu.psamask_forward``): the CPU
    and CUDA builds of one op are one item."""
    for k in range(len(parts) - 2, 0, -1):
        module = ".".join(parts[:k])
        if module in jit and parts[k] in jit[module] and len(parts) == k + 2:
            return (module, parts[k + 1]), f"{parts[k]}.{parts[k + 1]}"
    return None, ""


def compiled_ops(
    root: Path | None,
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    submodules: Submodules | None = None,
) -> list[WorkItem]:
    """The ops of compiled extensions that the ported code calls, one item per op (its
    forward and backward bindings together): functions of an extension module the
    repository builds from its CUDA/C++ sources (``from fcos_core import _C``;
    ``_C.roi_align_forward``: no Python file defines ``fcos_core._C``), and the classes it
    imports from a git submodule that is not checked out (CenterTrack's ``DCNv2.dcn_v2.DCN``).
    Each is custom-op work: MindSpore's counterpart wired in and checked, forward and
    gradient, or a custom op written where there is none. ``submodules``: the review's
    :func:`missing_submodules`, read here when not given."""
    if root is None or not root.is_dir():
        return []
    from apiscan.review.gaps import CPP_EXTENSION, native_sources  # no cycle: gaps is leaf

    native = bool(native_sources(root)) or any(
        f.api.startswith(CPP_EXTENSION) for f in result.api_findings
    )
    if submodules is None:
        submodules = missing_submodules(root)
    modules = {m for fa in analyses for m in fa.modules}
    defined = _defined(analyses) | modules
    cffi = _cffi_extensions(result, analyses, defined)
    native = native or bool(cffi)
    #: (module, op) -> (bindings, places, where the code comes from)
    # a package that is a submodule not checked out is that submodule's item below: one op
    # counted once
    ops: dict[tuple[str, str], tuple[set[str], list[Where], str]] = {
        key: entry
        for key, entry in _third_party_ops(root, result, analyses, ancillary).items()
        if not any(parts and parts[-1] == key[0] for parts, _ in submodules)
    }
    # an extension a setup script declares by a top-level name is the repository's own,
    # not a third-party package's (CornerNet's ``import top_pool``): its ops are read below
    # (a dotted name inside one of its packages, ``pkg._C``, is read with the other refs)
    declared = (
        frozenset(n for n in _declared_extensions(analyses) if "." not in n) - defined
        if native
        else frozenset()
    )
    for key in [k for k in ops if k[0] in declared]:
        del ops[key]
    if not native and not submodules:
        _fold_gradients(ops)
        return _compiled_items(ops, analyses)
    packages = {m.rsplit(".", i)[0] for m in modules for i in range(1, m.count(".") + 1)}
    jit = _jit_extensions(result, analyses)
    sources = _native_stems(root) if native else {}
    for fa in analyses:
        if fa.errors or ancillary.why(fa.path):
            continue
        # a call's result (``ext.op()``) names the op the call already names: one reference
        for ref in _refs_and_submodule_calls(fa, submodules):
            parts = ref.split(".")
            hit = _cffi_binding(parts, cffi, defined)
            cffi_built = hit is not None
            if hit is None and _cffi_generated(parts, cffi, defined):
                continue  # the import of a generated extension module: its calls are the ops
            if hit is None and native:
                hit = _extension_binding(parts, packages, modules, defined)
            shown = ""
            built = (
                sources.get((str(PurePosixPath(fa.path).parent), parts[-2]), "")
                if len(parts) > 1
                else ""
            )
            if hit is None and built and ".".join(parts[:-1]) not in defined:
                # vits's ``from .monotonic_align.core import maximum_path_c`` beside
                # ``monotonic_align/core.pyx``: the module is built from that source
                hit = (".".join(parts[:-1]), parts[-1])
            if hit is None and jit:
                hit, shown = _jit_binding(parts, jit)
            source = f"the repository's {built} extension" if built else _OWN_EXTENSION
            if cffi_built:
                source = _CFFI_EXTENSION
            if hit is None:
                hit, source = _submodule_binding(parts, submodules)
            if hit is None:
                continue
            module, binding = hit
            if _MODULE_ATTRIBUTE.match(binding):
                continue  # ``ext.__file__`` read for a log line: the module, never an op
            if _EVALUATION.search(binding) or evaluation_file(fa.path):
                continue  # detectron2's C++ COCO evaluation: scores, never the network
            op = _BINDING_SUFFIX.sub("", binding)
            if "Cython" in source:  # host code: one build per module, whatever it exports
                op, binding = module.rpartition(".")[2], binding.rstrip("()")
            if op in _GENERIC_BINDINGS:  # ``ngram_repeat_block_cuda.forward``
                op = module.rpartition(".")[2]
            if not source.startswith("the repository's") and _counterpart(op) is None:
                continue  # a submodule's name that is no known op: nothing to claim
            entry = ops.setdefault((module, op), (set(), [], source))
            entry[0].add(shown or binding)
            where = _binding_place(fa, ref)
            if where not in entry[1]:
                entry[1].append(where)
    # ops of an extension a setup script declares by a top-level name (CornerNet's
    # ``CppExtension("top_pool", [...])``, then ``import top_pool``; ``top_pool.forward``)
    for fa, facts in with_facts(analyses) if declared else ():
        if fa.errors or ancillary.why(fa.path) or facts.values is None:
            continue
        imports = dict(facts.imports)
        for call in facts.values.calls:
            # an attribute of the extension module (``top_pool.forward``), not a bare name
            name = imported_name(call.expr, imports) if call.expr.func.kind == "Attribute" else None
            if name is None:
                continue
            module, _, binding = name.rpartition(".")
            if module not in declared:
                continue
            op = _BINDING_SUFFIX.sub("", binding)
            if op in _GENERIC_BINDINGS:  # ``top_pool.forward``: the module is the op
                op = module.rpartition(".")[2]
            entry = ops.setdefault((module, op), (set(), [], _OWN_EXTENSION))
            entry[0].add(f"{module.rpartition('.')[2]}.{binding}")
            where = place(fa, call.expr.line)
            if where not in entry[1]:
                entry[1].append(where)
    # ops of an extension built through the repository's own helper (``_plugin.bias_act``)
    helper = _helper_extensions(result, analyses) if native else {}
    for fa in analyses:
        if fa.errors or ancillary.why(fa.path):
            continue
        for module in fa.modules[:1]:
            for name, binding, line in _helper_built_calls(fa, helper.get(module, frozenset())):
                op = _BINDING_SUFFIX.sub("", binding)
                entry = ops.setdefault((module, op), (set(), [], _OWN_EXTENSION))
                entry[0].add(f"{name}.{binding}")
                where = place(fa, line)
                if where not in entry[1]:
                    entry[1].append(where)
    _fold_stages(ops, helper, {fa.path: fa for fa in analyses})
    # ops the extension registers with torch (``torch.ops.detectron2.nms_rotated``), named
    # after one of the repository's own packages
    local = _local_packages(analyses)
    for f in result.api_findings if native else ():
        namespace, _, binding = f.api.removeprefix(TORCH_OPS).partition(".")
        if not f.api.startswith(TORCH_OPS) or namespace not in local or ancillary.why(f.path):
            continue
        op = _BINDING_SUFFIX.sub("", binding)
        entry = ops.setdefault((TORCH_OPS + namespace, op), (set(), [], _OWN_EXTENSION))
        entry[0].add(binding)
        entry[1].append(Where(f.path, f.span.line, f.cell))
    _fold_gradients(ops)
    return _compiled_items(ops, analyses)


#: A binding that is another binding's gradient (``gather_points_grad`` beside
#: ``gather_points``), named with a suffix the forward does not carry.
_GRADIENT_SUFFIX = re.compile(r"_(?:grad|gradient|bwd)$")


def _fold_gradients(ops: dict[tuple[str, str], tuple[set[str], list[Where], str]]) -> None:
    """The gradient kernels of an extension's ops (pointnet2's ``gather_points_grad``,
    ``group_points_grad``, ``three_interpolate_grad``, called in the ``backward`` of the
    ``autograd.Function`` whose ``forward`` calls ``gather_points``) folded into the op they
    differentiate: one custom op, written with its backward, not two. A suffixed binding
    whose op has no forward of that name in the same module stays an op of its own."""
    for module, op in sorted(ops):
        forward = _GRADIENT_SUFFIX.sub("", op)
        if forward == op or (module, forward) not in ops:
            continue
        bindings, places, _ = ops.pop((module, op))
        entry = ops[(module, forward)]
        entry[0].update(bindings)
        entry[1].extend(w for w in places if w not in entry[1])


#: The kind of a compiled op only alternatives use: listed, counted apart.
ALTERNATIVE_OP = "alternative-op"


def alternative_ops(items: Sequence[WorkItem], apart: Callable[[Where], str]) -> list[WorkItem]:
    """The compiled-op items with only their places on the configured run: a place ``apart``
    names (a backbone the config does not select, a branch the defaults do not take) is
    listed beside the item, not counted; an op every place of
    which is such is an :data:`ALTERNATIVE_OP` item, counted apart (a deformable convolution
    built only by the non-default backbones, or by a detector the defaults do not pick)."""
    out: list[WorkItem] = []
    for item in items:
        off = [(w, why) for w in item.where if (why := apart(w))]
        if item.kind not in ("compiled-op", "compiled-custom-op") or not off:
            out.append(item)
            continue
        listed = "; ".join(f"{w} ({why})" for w, why in off)
        kept = tuple(w for w in item.where if not apart(w))
        if kept:
            out.append(
                replace(
                    item,
                    where=kept,
                    uses=len(kept),
                    why=item.why + f"; places in alternatives beside it (not counted, "
                    f"the configured run does not build them: {listed})",
                )
            )
        else:
            out.append(
                replace(
                    item,
                    kind=ALTERNATIVE_OP,
                    why=item.why + f"; only alternatives the configured run does not build "
                    f"use it (counted apart: {listed})",
                )
            )
    return out


def _compiled_items(
    ops: Mapping[tuple[str, str], tuple[set[str], list[Where], str]],
    analyses: Sequence[FileAnalysis],
) -> list[WorkItem]:
    """One compiled-op item per (module, op) of :func:`compiled_ops`: MindSpore's
    counterpart where :data:`COMPILED_OPS` knows one, else a custom op to write."""
    items = []
    by_path = {fa.path: fa for fa in analyses}
    for (module, op), (bindings, where, source) in sorted(ops.items()):
        how = _counterpart(op)
        if how is None and (source == _CFFI_EXTENSION or source.startswith(_THIRD_PARTY_BUILT)):
            # named by its extension (``roi_crop``) or its package (``dcn_v2``)
            how = _counterpart(module.rpartition(".")[2])
        listed = ", ".join(sorted(bindings))
        what = f"{module}.{op}" + (f" ({listed})" if bindings != {op} else "")
        twin = _native_twin(op, [by_path[w.path] for w in where if w.path in by_path])
        if twin and "Cython" not in source:
            how = (
                f"a composition: the repository's own PyTorch path {twin} computes the same op "
                "with tensor ops; port it with MindSpore ops"
                + (f" ({how.removeprefix('a composition: ')})" if how else "")
            )
        if "Cython" in source:  # host code on numpy arrays: no kernel, no gradient
            how = how or "none needed"
            why = (
                f"an op of {source} that the ported code calls: host code on numpy arrays, "
                "it needs no MindSpore counterpart: build it in the MindSpore environment and "
                "check its output against PyTorch's (the host round trip around it is its own "
                "item), or write it with MindSpore ops to keep it in the graph"
            )
        elif how:
            why = (
                f"an op of {source} that the ported code calls: MindSpore's counterpart is "
                f"{how}; wire it in and check its output (and gradient, where it has one) "
                "against PyTorch's"
            )
        else:
            why = (
                f"an op of {source} that the ported code calls, with no MindSpore "
                "counterpart: write it as a custom op (mindspore.ops.Custom around the "
                "kernel, or a composition of existing ops) with its backward, checked "
                "against PyTorch's"
            )
        items.append(
            WorkItem(
                kind="compiled-op" if how else "compiled-custom-op",
                what=what,
                where=tuple(sorted(set(where), key=lambda w: (w.path, w.cell or 0, w.line))),
                why=why,
                uses=len(set(where)),
            )
        )
    return items


#: How :func:`_third_party_ops` names where a third-party compiled op comes from.
_THIRD_PARTY_BUILT = "the third-party package"


def _third_party_ops(
    root: Path,
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
) -> dict[tuple[str, str], tuple[set[str], list[Where], str]]:
    """(package, op) -> (bindings, places, source) of the compiled ops the network takes from
    a third-party package installed beside the repository (FairMOT's ``from dcn_v2 import
    DCN``, built in every upsampling node of its default network; the README clones DCNv2
    and runs its ``make.sh``). Without it the package is a plain row of the third-party list,
    as a pure-Python library is, and the deformable convolution is priced nothing. A package
    counts when it is no library the review knows (:func:`_third_party_package`), is not
    imported optionally, a network function of a ported file calls it, and either the
    documentation clones and builds it (:func:`~apiscan.review.commands.built_packages`) or
    its name says it is a compiled op (:data:`COMPILED_OPS`: ``dcn``, ``deform``, ``nms``,
    ``roi_align``...). A package a data transform or a host helper calls is left alone."""
    from apiscan.review.commands import built_packages, package_key

    built = built_packages(root)
    local = _local_packages(analyses)
    computing = {(f.path, f.function) for f in result.api_findings if f.scope == "network"}
    paths = {fa.path for fa in analyses}
    ops: dict[tuple[str, str], tuple[set[str], list[Where], str]] = {}
    for fa, facts in with_facts(analyses):
        if fa.errors or ancillary.why(fa.path) or is_test_path(fa.path) or facts.values is None:
            continue
        defs = facts.values.defs
        # (a module beside the file, imported by its bare name, is the repository's own)
        imported = {
            top
            for top, _ in facts.package_uses
            if top not in facts.optional_packages
            and _third_party_package(top, local)
            and not sibling_module(fa.path, top, paths)
        }
        for name, call in absolute_call_values(facts):
            top, _, rest = name.partition(".")
            if not rest or top not in imported:
                continue
            docs = built.get(package_key(top), "")
            if not docs and _counterpart(top) is None:
                continue
            qual = defs[call.function].qual if 0 <= call.function < len(defs) else ""
            if not _computes_in(computing, fa.path, qual):
                continue
            tail = rest.rpartition(".")[2]
            source = f"{_THIRD_PARTY_BUILT} {top}" + (
                f" (built as documented at {docs})" if docs else ""
            )
            entry = ops.setdefault((top, tail), (set(), [], source))
            entry[0].add(rest)
            where = place(fa, call.expr.line)
            if where not in entry[1]:
                entry[1].append(where)
    return ops


#: Names of a pure-PyTorch implementation kept beside a compiled op (``upfirdn2d_native``,
#: ``nms_naive``, ``roi_align_torch``): the CPU fallback or the reference.
_NATIVE_TWIN = re.compile(r"native|naive|reference|_ref$|_ref_|_torch$|pytorch", re.IGNORECASE)


def triton_kernels(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    findings: Sequence[ApiFinding] = (),
) -> list[WorkItem]:
    """The Triton kernels of the ported code (``@triton.jit`` functions, launched as
    ``_kernel[grid](...)``), one item per module: the kernels of one file are one op's
    passes (mamba's ``ssd_chunk_scan.py``: the chunked scan's forward and its backward
    kernels). MindSpore runs no Triton: each module is rewritten as a composition of
    MindSpore ops or a custom op with its backward, a compiled op to port like a CUDA
    extension's. A PyTorch reference of the op in the same module (``chunk_scan_ref``,
    ``layer_norm_ref``) is that composition, written already. Kernels nothing the run
    reaches launches are left to the reachability (:func:`reached_work`). A module of
    kernels the network never runs (whisper's DTW and median filter for word timestamps,
    launched by host-side alignment code with a CPU fallback) accelerates host code: no op of
    the port."""
    from apiscan.review.gaps import TRITON  # no cycle: gaps is leaf

    in_network = {f.path for f in findings if f.scope == "network"}
    # ... or whose functions a Module's method calls (a decoding ``step`` the generation
    # loop runs, outside the training graph)
    is_module = module_classes(analyses)
    own = {
        f"{m}.{fn.qualname}": fa.path for fa in analyses for m in fa.modules for fn in fa.functions
    }
    for fa in analyses:
        for call in fa.calls:
            owner, _, _ = call.caller.rpartition(".")
            target = own.get(call.callee)
            if target is not None and owner and any(is_module(f"{m}.{owner}") for m in fa.modules):
                in_network.add(target)
    jitted = {
        fa.path: [
            (qual, line)
            for qual, line, decorators in facts.decorators
            if any(d.startswith(TRITON) for d in decorators)
        ]
        for fa, facts in with_facts(analyses)
    }
    # (the calling file, the callee) of each call a jitted function makes, in any module
    kernel_calls = {
        (fa.path, call.callee)
        for fa in analyses
        if jitted.get(fa.path)
        for call in fa.calls
        if any(call.caller == q for q, _ in jitted[fa.path])
    }
    items: list[WorkItem] = []
    for fa, _ in with_facts(analyses):
        if fa.errors or ancillary.why(fa.path) or (findings and fa.path not in in_network):
            continue
        # a jitted function another jitted function calls is a device helper inlined in
        # that kernel (``softplus``, ``tanh_approx``): part of the kernels that call it, by
        # its module's name from any module, by its bare name from its own
        names = {q for q, _ in jitted[fa.path]}
        qualified = {f"{m}.{q}": q for m in fa.modules for q in names}
        helpers = {qualified[callee] for _, callee in kernel_calls if callee in qualified}
        helpers |= {callee for path, callee in kernel_calls if path == fa.path and callee in names}
        kernels = [(q, line) for q, line in jitted[fa.path] if q not in helpers]
        if not kernels:
            continue
        module = fa.modules[0] if fa.modules else fa.path
        names = ", ".join(q for q, _ in kernels[:4]) + (
            f" and {len(kernels) - 4} more" if len(kernels) > 4 else ""
        )
        twin = next(
            (
                f"{fn.qualname} ({place(fa, fn.line)})"
                for fn in fa.functions
                if "." not in fn.qualname and _NATIVE_TWIN.search(fn.qualname)
            ),
            "",
        )
        if twin:
            how = (
                f"the module's own PyTorch reference {twin} computes the same op with tensor "
                "ops: port it with MindSpore ops (mindspore.ops / mint) and check it against "
                "the kernels' output and gradient"
            )
        else:
            how = ""
        why = (
            f"{len(kernels)} Triton kernel{'s' if len(kernels) > 1 else ''} the ported code "
            "launches (CUDA only, and MindSpore runs no Triton): "
            + (
                how
                if how
                else "write the op they compute as a composition of MindSpore ops or a custom "
                "op (mindspore.ops.Custom around a CUDA or AKG kernel) with its backward, "
                "checked against PyTorch's"
            )
        )
        items.append(
            WorkItem(
                kind="compiled-op" if how else "compiled-custom-op",
                what=f"{module} (Triton: {names})",
                where=tuple(place(fa, line) for _, line in kernels),
                why=why,
                uses=len(kernels),
            )
        )
    return items


def _native_twin(op: str, files: Sequence[FileAnalysis]) -> str:
    """``name (path:line)`` of a function, in the files that call the compiled op ``op``,
    that names the op and says it is its PyTorch implementation (``upfirdn2d_native`` beside
    ``upfirdn2d_ext.upfirdn2d``); "" when there is none."""
    key = op.lower().replace("_", "")
    for fa in sorted(set(files), key=lambda f: f.path):
        for fn in fa.functions:
            name = fn.qualname.rpartition(".")[2]
            if key and key in name.lower().replace("_", "") and _NATIVE_TWIN.search(name):
                return f"{fn.qualname} ({place(fa, fn.line)})"
    return ""


def _fallback_paths(fa: FileAnalysis) -> list[str]:
    """The functions of ``fa`` that choose between an autograd Function's ``apply`` (the
    compiled kernel) and a PyTorch path in the two sides of one ``if`` (``fused_leaky_relu``:
    ``if input.device.type == "cpu": return F.leaky_relu(input + bias, 0.2) * scale`` /
    ``else: return FusedLeakyReLUFunction.apply(...)``), named by that path: the file's own
    function it calls there (``upfirdn2d_native``), else the dispatcher itself. Such a path
    computes the op with tensor ops: it is the composition to port, no custom op."""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None:
        return []
    own = {d.qual for d in values.defs}
    by_def: dict[int, list[tuple[str, int, dict[tuple[int, int], bool]]]] = {}
    for call in values.calls:
        func = call.expr.func if call.expr.kind == "Call" and call.expr.parts else None
        if call.function < 0 or func is None:
            continue
        line = call.expr.line
        sides = {(i.line, i.col): line <= i.body_end for i in call.ifs if i.body_end}
        by_def.setdefault(call.function, []).append((func.full(), line, sides))
    found: list[str] = []
    for index, calls in sorted(by_def.items()):
        kernels = [(line, sides) for name, line, sides in calls if name.endswith(".apply")]
        # an ``if`` whose body returns before the kernel runs after it (an early return):
        # its body is the other side
        returns = [r.line for r in values.defs[index].returns]
        early = {
            (i.line, i.col)
            for call in values.calls
            if call.function == index
            for i in call.ifs
            if i.body_end
            and any(i.line < r <= i.body_end for r in returns)
            and any(k > i.end_line for k, _ in kernels)
        }
        for name, _, sides in calls:
            if name.endswith(".apply") or not any(
                (at in k and k[at] != side) or (side and at in early)
                for _, k in kernels
                for at, side in sides.items()
            ):
                continue
            fallback = name if name in own else values.defs[index].qual
            if fallback not in found:
                found.append(fallback)
    return found


def _import_built_ops(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    items: Sequence[WorkItem],
) -> list[WorkItem]:
    """The extensions a ported module builds when imported and calls itself (stylegan2's
    ``op/fused_act.py``: ``fused = load("fused", sources=[...cpp, ...cu])``, called inside
    its ``autograd.Function``s, which run in every layer of the model): one compiled-op
    item per building module, where :func:`compiled_ops` found no op of that module (its
    ops are called from another file). The CPU and CUDA builds of one op in one file
    (``load(name="deform_conv_cpu")`` then ``load(name="deform_conv_cuda")``) are one op,
    named by the ``name`` the build gives less its device suffix; MindSpore's counterpart,
    where :data:`COMPILED_OPS` knows one, is the port. A build whose wrappers only module
    classes nothing builds use is counted apart (:func:`unbuilt_extensions`). A PyTorch path in
    the same file (``upfirdn2d_native``, ``fused_leaky_relu``'s CPU branch through
    ``F.leaky_relu``) is named: the composition to port, or the reference to check a
    custom op against."""
    from apiscan.review.gaps import AUTOGRAD_FUNCTION, CPP_EXTENSION  # no cycle: gaps is leaf

    files = {fa.path: fa for fa in analyses if not fa.errors}
    covered = {i.what.partition(" (")[0].rpartition(".")[0] for i in items}
    builds: dict[str, list[ApiFinding]] = {}
    for f in sorted(result.api_findings, key=lambda f: f.sort_key()):
        if (
            f.api == CPP_EXTENSION + ".load"
            and f.usage == "call"
            and not f.function
            and f.path in files
            and not ancillary.why(f.path)
        ):
            builds.setdefault(f.path, []).append(f)
    found: list[WorkItem] = []
    for path, loads in builds.items():
        fa = files[path]
        module = fa.modules[0] if fa.modules else path
        if any(m in covered for m in fa.modules):
            continue
        names: list[str] = []
        for f in loads:
            given = f.args.keyword("name") if f.args is not None else None
            if not given and f.args is not None and f.args.positional:
                given = f.args.positional[0]
            name = _BUILD_DEVICE.sub("", (given or "").strip("\"'")) or PurePosixPath(path).stem
            if name not in names:
                names.append(name)
        wrappers = [
            g
            for g in result.api_findings
            if g.path == path and g.api == AUTOGRAD_FUNCTION and g.usage != "call"
        ]
        native = sorted(
            {
                g.function
                for g in result.api_findings
                if g.path == path
                and g.function
                and "." not in g.function
                and (g.api.startswith("torch.nn.functional.") or "native" in g.function)
            }
        )
        note = (
            f"; the file's PyTorch path ({', '.join(native)}) is the composition to port "
            "instead, or the reference to check the custom op against"
            if native
            else ""
        )
        how = next((h for h in (_counterpart(n) for n in names) if h), "")
        fallbacks = _fallback_paths(fa)
        if not how and fallbacks:
            # the kernel is a speed-up of what the file computes with tensor ops itself
            how = (
                f"a composition: the file's own PyTorch path ({', '.join(fallbacks)}), which "
                "it runs instead of the kernel (on CPU), computes the same op with tensor "
                "ops: port it with MindSpore ops (gradients, second-order ones included, "
                "come from autodiff), no custom op"
            )
            note = ""
        builds_of = "builds" if len(loads) == 1 else f"builds ({len(loads)} builds, one per device)"
        if how:
            why = (
                f"a CUDA/C++ extension the ported model {builds_of} when imported and calls "
                f"in its autograd Functions (forward and backward) on every pass: MindSpore's "
                f"counterpart is {how}; wire it in and check its output and gradient against "
                "PyTorch's" + note
            )
        else:
            why = (
                f"a CUDA/C++ extension the ported model {builds_of} when imported and calls "
                "in its autograd Functions (forward and backward) on every pass: write it as "
                "a custom op (mindspore.ops.Custom around the kernel, or a composition of "
                "existing ops) with its backward, checked against PyTorch's" + note
            )
        found.append(
            WorkItem(
                kind="compiled-op" if how else "compiled-custom-op",
                what=f"{module}.{'/'.join(names)} (built at import by {CPP_EXTENSION}.load)",
                where=_places([*loads, *wrappers]),
                why=why,
                uses=len(loads) + len(wrappers),
            )
        )
    return found


def unbuilt_extensions(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    words: Collection[str],
) -> dict[str, str]:
    """The files of extensions built at import (``cpp_extension.load`` at module level)
    whose wrappers (the file's ``autograd.Function`` classes and the names bound to them,
    ``deform_roi_pooling = DeformRoIPoolingFunction.apply``) only methods of module classes
    that nothing builds call, with those classes' files when they hold nothing else, by
    path -> why: a deformable RoI pooling layer shipped beside the deformable convolution
    a backbone builds is code the port never runs, neither an op to write nor gaps to
    price. A class is built when a ported file other than its own refers to it or imports
    it (a package's ``__init__.py`` re-exporting it aside) or a config file names it
    (``words``: :func:`~apiscan.review.config_files.config_words`). A
    wrapper called at module level, from a function, or by nothing found keeps its build."""
    from apiscan.review.gaps import CPP_EXTENSION  # no cycle: gaps is leaf

    building = {
        f.path
        for f in result.api_findings
        if f.api == CPP_EXTENSION + ".load" and f.usage == "call" and not f.function
    }
    files = [fa for fa in analyses if not fa.errors and not ancillary.why(fa.path)]
    ported = [fa for fa in files if PurePosixPath(fa.path).name != "__init__.py"]
    found: dict[str, str] = {}
    for fa in files:
        if fa.path not in building:
            continue
        owners = _wrapper_owners(fa, ported)
        named = {c for cs in owners.values() for c in cs}
        if not owners or config_names(words, named):
            continue
        if any(_class_built(ported, owners, c) for c in named):
            continue
        classes = ", ".join(sorted(named))
        why = (
            f"an extension built at import that only {classes} call, which nothing builds: "
            "the port never runs it"
        )
        found[fa.path] = why
        for other in ported:
            own = {c.qualname for c in other.classes if "." not in c.qualname}
            top = {f.qualname for f in other.functions if "." not in f.qualname}
            if other.path in owners and own <= owners[other.path] and not top - own:
                found[other.path] = why
    return found


def _absolute_import(fa: FileAnalysis, name: str) -> str:
    """An import's name as :attr:`~apiscan.extract.syntax.SyntaxFacts.import_lines` writes
    it, made absolute: a relative one (``.ops.fused``) from the package of the file."""
    if not name.startswith("."):
        return name
    level = len(name) - len(name.lstrip("."))
    if not fa.modules:
        return ""
    parts = fa.modules[0].split(".")
    if PurePosixPath(fa.path).name != "__init__.py":
        parts = parts[:-1]
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    rest = name.lstrip(".")
    return ".".join([*parts, rest] if rest else parts)


def optional_kernels(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary, root: Path | None
) -> dict[str, str]:
    """The wrappers of a compiled op (a module defining a ``torch.autograd.Function``
    subclass beside C++/CUDA sources in its folder) that every ported file importing it
    imports in a ``try:`` falling back to a stand-in when it is missing (Swin's fused window
    shift, ``WindowProcess = None`` in ``except``, used only under a flag): an acceleration
    the code runs without, so the port keeps the PyTorch path and neither writes the kernel
    nor its backward. The wrapper and its folder's native sources, by path -> why."""
    from apiscan.review.gaps import native_sources  # no cycle: gaps is leaf

    if root is None or not root.is_dir():
        return {}
    native: dict[PurePosixPath, list[str]] = {}
    for _, where in native_sources(root):
        native.setdefault(PurePosixPath(where.path).parent, []).append(where.path)
    if not native:
        return {}
    by_module = {m: fa.path for fa in analyses if not fa.errors for m in fa.modules}
    wrappers = {
        fa.path
        for fa in analyses
        if not fa.errors
        and not ancillary.why(fa.path)
        and PurePosixPath(fa.path).parent in native
        and any("torch.autograd.Function" in c.bases for c in fa.classes)
    }
    if not wrappers:
        return {}
    packages = {str(PurePosixPath(w).parent / "__init__.py") for w in wrappers}
    importers: dict[str, set[str]] = {}
    for path, target in _local_references(analyses):
        if (target in wrappers or target in packages) and not ancillary.apart(path):
            importers.setdefault(target, set()).add(path)
    by_path = {fa.path: fa for fa in analyses}
    found: dict[str, str] = {}
    for wrapper in sorted(wrappers):
        # the wrapper's package re-exporting it (``from .dynamicconv_layer import
        # DynamicconvLayer`` in its ``__init__.py``) is no user: its importers import it
        package = str(PurePosixPath(wrapper).parent / "__init__.py")
        users = importers.get(wrapper, set()) - wrappers - {package}
        if package in importers.get(wrapper, set()):
            users |= importers.get(package, set()) - wrappers - {package}
        if not users:
            continue
        places: list[str] = []
        for user in sorted(users):
            fa = by_path[user]
            if fa.syntax is None:
                break
            optional = {
                _module_file(_absolute_import(fa, n), by_module): line
                for n, line in fa.syntax.optional_modules
            }
            named = {
                _module_file(_absolute_import(fa, n), by_module) for n, _ in fa.syntax.import_lines
            }
            hit = next((t for t in (wrapper, package) if t in optional and t in named), None)
            if hit is None:
                break
            places.append(f"{user}:{optional[hit]}")
        else:
            why = (
                f"{OPTIONAL_KERNEL}: imported with a fallback at {', '.join(places)}, "
                "the code runs without it"
            )
            found[wrapper] = why
            for source in native[PurePosixPath(wrapper).parent]:
                found.setdefault(source, why)
    return found


def _wrapper_owners(fa: FileAnalysis, ported: Sequence[FileAnalysis]) -> dict[str, set[str]]:
    """path -> the module-level classes of that file whose methods call a wrapper of the
    extension ``fa`` builds at import; {} when a module-level statement or a function
    calls one (it runs whatever the classes do)."""
    facts = fa.syntax.models if fa.syntax is not None else None
    wrappers = {c.qualname for c in fa.classes if "." not in c.qualname}
    wrappers |= set(facts.globals) if facts is not None else set()
    owners: dict[str, set[str]] = {}
    for other in ported:
        if other.path == fa.path:
            continue
        classes = {c.qualname for c in other.classes if "." not in c.qualname}
        for c in other.calls:
            if c.role != "call" or c.callee.rpartition(".")[2] not in wrappers:
                continue
            owner = c.caller.partition(".")[0]
            if owner not in classes:
                return {}
            owners.setdefault(other.path, set()).add(owner)
    return owners


def _class_built(ported: Sequence[FileAnalysis], owners: Mapping[str, set[str]], cls: str) -> bool:
    """Whether a ported file other than ``cls``'s own refers to the class, calls it or
    imports it: an import the resolver could not follow (a relative import above the
    module's first spelling, inside a function) names the class all the same."""
    for other in ported:
        if cls in owners.get(other.path, set()):
            continue
        refs = {r.removesuffix("()").rpartition(".")[2] for r in other.local_refs}
        refs |= {c.callee.rpartition(".")[2] for c in other.calls}
        if other.syntax is not None:
            refs |= {name.rpartition(".")[2] for name, _ in other.syntax.import_lines}
        if cls in refs:
            return True
    return False


#: Distributed-training frameworks of torch whose APIs are one porting job, not one gap
#: each: API prefix → (the framework, what MindSpore does instead). Wrapping, sharding
#: strategies, mixed precision, state-dict types and the sharded gradient scaler of FSDP
#: are one decision: train with MindSpore's parallel context and optimizer sharding.
#: DTensor is not listed: a library's ``isinstance(G, DTensor)`` check (timm's Muon)
#: is no training to port.
SHARDED_TRAINING: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        ("torch.distributed.fsdp.", "torch.distributed._composable.fsdp."),
        (
            "FSDP",
            "train data-parallel with optimizer sharding (mindspore.set_auto_parallel_context("
            "parallel_mode=ParallelMode.DATA_PARALLEL or SEMI_AUTO_PARALLEL, "
            "enable_parallel_optimizer=True)), the model built unwrapped, its checkpoints "
            "saved whole (mindspore.save_checkpoint, integrated_save) and the loss scaled by "
            "MindSpore's loss-scale manager",
        ),
    ),
}


def sharded_training(findings: Sequence[ApiFinding]) -> list[WorkItem]:
    """One work item per distributed-training framework of :data:`SHARDED_TRAINING` whose
    APIs the ported code uses with no MindSpore counterpart (a gap or custom-op
    disposition): moving to MindSpore's parallel training and optimizer sharding is one job
    (DINOv2's FSDP wrapper, sharding strategies, state-dict types and ShardedGradScaler),
    priced once, not per API name. ``uses`` counts the APIs; the effort no longer prices
    them as gaps (:func:`sharded_api`)."""
    found: dict[str, dict[str, Where]] = {}
    for f in findings:
        if f.disposition not in ("gap", "custom-op") or not f.is_call_site:
            continue
        family = sharded_api(f.api)
        if family:
            found.setdefault(family, {}).setdefault(f.api, Where(f.path, f.span.line, f.cell))
    items = []
    for family, apis in sorted(found.items()):
        how = next(h for name, h in SHARDED_TRAINING.values() if name == family)
        items.append(
            WorkItem(
                kind="sharded-training",
                what=f"{family} ({', '.join(sorted(apis))})",
                where=tuple(apis[a] for a in sorted(apis)),
                why=(
                    f"{family} with {len(apis)} API{'s' if len(apis) != 1 else ''} MindSpore "
                    f"lacks: one porting job, not one gap each: {how}; checked by the loss "
                    "curve of a few steps on several devices against the PyTorch run"
                ),
                uses=len(apis),
            )
        )
    return items


def sharded_api(api: str) -> str:
    """The framework of :data:`SHARDED_TRAINING` an API belongs to ("" for none)."""
    return next((SHARDED_TRAINING[p][0] for p in SHARDED_TRAINING if api.startswith(p)), "")


def _library_ops(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[WorkItem]:
    """The third-party compiled libraries (:mod:`apiscan.review.oplibs`: MinkowskiEngine,
    torch_scatter, mmcv.ops...) the network's files use: one porting job per library, its op
    kinds listed (``uses``) with where each is first used. A library is reached through a few
    layer types, and the first op kind sets the approach the others follow, so the effort
    prices its op kinds on a steep learning curve, not as as many custom ops."""
    from apiscan.review.oplibs import library_what, network_library_uses

    items = []
    for use in network_library_uses(result, analyses, ancillary.why):
        names = [name for name, _ in use.ops]
        kinds = f"{len(names)} op kind{'s' if len(names) != 1 else ''}"
        if use.sparse:
            how = (
                "replace its sparse tensors with dense tensors and a mask (a sparse "
                "convolution on the active sites is a dense convolution whose input and "
                "output are masked; pointwise layers, linear, activation and normalisation, "
                "run on the dense features and are masked after), or wrap its kernels as a "
                "package of custom ops (mindspore.ops.Custom) with their backwards; "
                "mindspore.COOTensor/CSRTensor cover little"
            )
        else:
            how = (
                "write its ops as a package of custom ops (mindspore.ops.Custom around the "
                "kernels) with their backwards, or as compositions of existing MindSpore ops "
                "where they exist"
            )
        items.append(
            WorkItem(
                kind="op-library",
                what=library_what(use.library, names),
                where=tuple(where for _, where in use.ops),
                why=(
                    f"the network uses {kinds} of the third-party library {use.library} "
                    "(compiled CUDA/C++ kernels, no MindSpore counterpart) through a few layer "
                    f"types: one porting job, not one custom op each: {how}; the first op kind "
                    "sets the approach and the others follow it; check each against the "
                    "library's outputs on the same inputs"
                ),
                uses=len(names),
            )
        )
        if use.sparse and use.inputs:
            items.append(_library_foundation(use.library, use.inputs))
    return items


def helper_libraries(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[WorkItem]:
    """The pure-Python libraries the network's files call with no MindSpore backend
    (:data:`~apiscan.review.oplibs.NETWORK_HELPER_LIBRARIES`: einops' ``rearrange``,
    ``reduce`` and ``Rearrange`` layers in a diffusion U-Net), one item per library with
    the first place of each pattern: the port rewrites each distinct pattern once in
    MindSpore ops (``uses``: the distinct patterns, a pattern repeated in copied files
    written once); and the evaluation metrics with networks of their own
    (:data:`~apiscan.review.oplibs.EVALUATION_LIBRARIES`: FID's Inception-v3) the ported
    files call, one ``evaluation-library`` item each, counted apart from the effort. A
    library only imported, or used only by files counted apart, is no item; nor is the
    repository's own package of that name (pytorch-fid's ``src/pytorch_fid``: its code is
    the port itself, not a library it calls)."""
    from apiscan.review.oplibs import EVALUATION_LIBRARIES, NETWORK_HELPER_LIBRARIES

    own = _local_packages(analyses)
    network = {f.path for f in result.api_findings if f.scope == "network"}
    patterns: dict[str, dict[tuple[str, str], Where]] = {}
    calls: dict[str, int] = {}
    metrics: dict[str, dict[str, Where]] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        for name, call in absolute_call_values(facts):
            top = name.partition(".")[0]
            if top in EVALUATION_LIBRARIES and top not in own:
                metrics.setdefault(top, {}).setdefault(name, place(fa, call.expr.line))
            if top not in NETWORK_HELPER_LIBRARIES or fa.path not in network:
                continue
            pattern = next(
                (
                    a.value
                    for a in call.expr.args
                    if a.kind == "Constant" and isinstance(a.value, str)
                ),
                "",
            )
            key = (name.rpartition(".")[2], " ".join(str(pattern).split()))
            patterns.setdefault(top, {}).setdefault(key, place(fa, call.expr.line))
            calls[top] = calls.get(top, 0) + 1
    items = []
    for top, found in sorted(patterns.items()):
        what, port = NETWORK_HELPER_LIBRARIES[top]
        functions = sorted({f for f, _ in found})
        where = tuple(sorted(set(found.values()), key=lambda w: (w.path, w.line)))
        items.append(
            WorkItem(
                kind="network-library",
                what=f"{top} ({', '.join(functions)}): {_count_of(len(found), 'distinct pattern')}"
                f" in {_count_of(calls[top], 'call')}",
                where=where,
                why=(
                    f"the network's code uses {top} for {what}; MindSpore has no {top}, so "
                    f"the port writes {port}; a pattern repeated in copied files is written "
                    "once, and each is checked on the same input shapes"
                ),
                uses=len(found),
            )
        )
    for top, names in sorted(metrics.items()):
        what, port = EVALUATION_LIBRARIES[top]
        where = tuple(sorted(set(names.values()), key=lambda w: (w.path, w.line)))
        items.append(
            WorkItem(
                kind="evaluation-library",
                what=f"{top} ({', '.join(sorted(names))})",
                where=where,
                why=(
                    f"evaluation only, counted apart from the effort: {top} computes {what}; "
                    f"MindSpore has no {top}: {port}"
                ),
                uses=len(where),
            )
        )
    return items


def _library_foundation(library: str, inputs: Sequence[tuple[str, Where]]) -> WorkItem:
    """The network built on a sparse library: the training step hands the model the
    library's own tensor (FCGF's trainer building ``ME.SparseTensor`` batches for a ResUNet
    of Minkowski layers), so no layer sees a dense tensor and a dense masked replacement
    would not fit in memory (a scene's voxel grid). Before its op kinds can be ported, the
    library's core must exist in MindSpore: one item, priced as such a port, on top of the
    op kinds."""
    names = ", ".join(dict.fromkeys(name for name, _ in inputs))
    return WorkItem(
        kind="library-foundation",
        what=f"{library}: the network's input is its {names}",
        where=tuple(where for _, where in inputs),
        why=(
            f"the training step builds the network's input as {names}: every layer of the "
            f"network runs on {library}'s sparse tensors, so the port first builds the "
            "library's core in MindSpore (the coordinate sets and their kernel maps per "
            "stride, sparse convolution and its transpose with their backwards, the "
            "normalisation, pooling and joins on coordinate sets), as custom ops around its "
            "kernels or gathers, matmuls and scatter-adds over kernel maps, and checks it "
            "against the library before any layer is ported; a dense masked rewrite does not "
            "fit a scene's voxel grid in memory"
        ),
        uses=1,
    )


#: A dotted name in a work item's ``what`` (``diffusers.models.AutoencoderKL``).
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+)+")
#: Packages whose calls the API tables or another item already price: torch's own and
#: the model zoos (their backbones, layers and training pieces have items of their own).
_PRICED_PACKAGES = frozenset({"torch", "torchvision", "timm"})


def _third_party_package(top: str, local: set[str]) -> bool:
    """Whether a top-level package is a third-party one no other item or table prices: not
    the repository's, the standard library's, an array or host utility package's
    (:data:`~apiscan.resolve.values.NON_TORCH_PACKAGES`), nor one of the libraries
    :mod:`apiscan.review.oplibs` lists, a model zoo or a framework an adapter targets."""
    from apiscan.resolve.values import ARRAY_PACKAGES, NON_TORCH_PACKAGES
    from apiscan.review.oplibs import EVALUATION_LIBRARIES, NETWORK_HELPER_LIBRARIES

    return not (
        top in local
        or top in sys.stdlib_module_names
        or top in NON_TORCH_PACKAGES
        or top in ARRAY_PACKAGES
        or top in _PRICED_PACKAGES
        or top in NETWORK_OP_LIBRARIES
        or top in NETWORK_HELPER_LIBRARIES
        or top in EVALUATION_LIBRARIES
        or top in FOREIGN_FRAMEWORKS
        or top in TORCH_FRAMEWORKS
    )


def _priced_elsewhere(name: str) -> bool:
    """Whether a third-party dotted name has an item of its own (a training piece, a
    tensor-parallel layer) or is a framework's logging (``tensorboardX.SummaryWriter``)."""
    return (
        training_piece(name) is not None
        or bool(model_parallel_library(name))
        or any(_LOGGING_PART.match(p) for p in name.split("."))
    )


def _use_of(
    name: str,
    call: CallValues,
    network_file: bool,
    network_def: bool,
    held: bool,
    loaded: bool = False,
) -> str:
    """What a call of a third-party name is used for (a kind of
    :data:`~apiscan.review.oplibs.THIRD_PARTY_USES`, "" for none): a loader whose result the
    network holds or that is handed a device or weights is a pretrained model, and so is a
    class whose object gets a checkpoint's weights (``loaded``: ``model = TAPIR(...)`` then
    ``model.load_state_dict(torch.load(...))``, a teacher making pseudo-labels); a class built
    in a network function that computes with torch is a layer; a dataset, field, iterator or
    tokenizer is the data pipeline's, wherever the ported code builds it."""
    from apiscan.review.oplibs import MODEL_KEYWORDS, MODEL_LOADER, data_object

    tail = name.rpartition(".")[2]
    if data_object(name):
        return "third-party-data"
    if not network_file:
        return ""
    keywords = {k.name for k in call.expr.keywords}
    if (MODEL_LOADER.match(tail) and (held or keywords & MODEL_KEYWORDS)) or (
        loaded and tail[:1].isupper()
    ):
        return "third-party-model"
    if tail[:1].isupper() and network_def:
        return "third-party-layer"
    return ""


def _spans_by_path(
    dead: Mapping[tuple[str, str], tuple[int, int]] | None,
) -> dict[str, list[tuple[int, int]]]:
    """path -> the (first, last) lines of the functions nothing calls there (``dead``:
    :func:`uncalled_functions`), for the tests of whether a call lies in one."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for (path, _), span in (dead or {}).items():
        spans.setdefault(path, []).append(span)
    return spans


def _computes_in(computing: Collection[tuple[str, str]], path: str, qual: str) -> bool:
    """Whether the def ``qual`` of ``path``, its class or the def around it is one of the
    functions that compute with torch in the network (``computing``: (path, function) of
    the network's API findings)."""
    return any(
        (path, q) in computing for q in (qual, qual.partition(".")[0], qual.rpartition(".")[0]) if q
    )


def _on_device(call: CallValues) -> bool:
    """Whether a call hands its callee a torch device (``device=origins.device``, a
    ``device`` argument): the package computes with tensors, as pytorch3d's cameras do,
    where a phonemizer or a spaCy document never sees one."""
    return any(
        (a.kind == "keyword" and a.name == "device")
        or (a.kind == "Name" and a.name == "device")
        or (a.kind == "Attribute" and a.name == "device")
        for a in call.expr.parts[1:]
    )


def third_party_parts(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    dead: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    items: Sequence[WorkItem] = (),
    steps: Collection[tuple[str, str]] = (),
) -> list[WorkItem]:
    """The third-party packages whose objects the ported path really uses, known by what it
    uses them for (:data:`~apiscan.review.oplibs.THIRD_PARTY_USES`), one item per package:
    shap-e's ``clip.load`` held by a Module (a pretrained model: its weights converted),
    its renderer's pytorch3d ``MeshRasterizer`` (layers the network runs: ported), a
    translation model's torchtext ``Field`` and ``BucketIterator`` (the data pipeline:
    mindspore.dataset or the host). Without it such a package is only a row of the
    third-party list and nothing is priced. A package no other item prices only
    (:func:`_third_party_package`); not one imported optionally (the code runs without it),
    nor calls in files counted apart, in tests or in functions nothing calls (``dead``:
    :func:`uncalled_functions`); a host utility (a file reader, a logger) is none of the
    three uses and makes no item, and a package another of the ``items`` already names (a
    diffusers VAE's ``from_pretrained``: a pretrained backbone) has its item. Layers only of
    a package some call hands a torch device (:func:`_on_device`): the classes of a text
    processor built beside the network (fairseq's phonemizers in its hub interfaces)
    compute nothing with tensors; a class a network class holds as an attribute
    (``self.image_pos_emb = AxialPositionalEmbedding(dim, ...)`` in a constructor that
    computes with torch) is a layer of the network all the same. A pretrained model the
    training step runs (``steps``: :func:`step_functions`) beside the network it trains is
    a teacher (recognize-anything's ``clip.load("ViT-B/16")`` handed to the training function, whose
    ``model_clip.encode_image(image)`` gives the features a loss distils): its item says so
    and lists those uses (:func:`_teacher_uses`)."""
    from apiscan.review.oplibs import THIRD_PARTY_USES

    order = list(THIRD_PARTY_USES)
    local = _local_packages(analyses)
    tails = _module_tails(analyses)
    network = {f.path for f in result.api_findings if f.scope == "network"}
    computing = {(f.path, f.function) for f in result.api_findings if f.scope == "network"}
    spans = _spans_by_path(dead)
    named = {w.partition(".")[0] for i in items for w in _DOTTED.findall(i.what)}
    found: dict[str, dict[str, dict[str, Where]]] = {}  # package → kind → name → where
    devices: set[str] = set()  # the packages some call hands a device
    held_layers: set[str] = set()  # ... or whose layer a network class holds as an attribute
    taught: dict[str, list[Where]] = {}  # package → its model's uses in the training step
    loaded_at: dict[str, list[Where]] = {}  # package → every place its model is loaded
    files = {fa.path: (fa, facts) for fa, facts in with_facts(analyses)}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.values is None:
            continue
        used = {
            top
            for top, _ in facts.package_uses
            if top not in facts.optional_packages
            and top not in named
            and _third_party_package(top, local)
        }
        if not used:
            continue
        defs = facts.values.defs
        # (function, name) of the locals some call loads weights into (``model.
        # load_state_dict(...)``): what was built into them is a pretrained model
        loads = {
            (c.function, chain[0])
            for c in facts.values.calls
            if c.expr.callee() == "load_state_dict"
            and (chain := c.expr.func.chain()) is not None
            and len(chain) == 2
        }
        for name, call in absolute_call_values(facts):
            top = name.partition(".")[0]
            line = call.expr.line
            if top not in used or "." not in name or _priced_elsewhere(name):
                continue
            if _repository_tail(name, tails):
                continue  # the repository's own module by a stale import path
            if any(a <= line <= z for a, z in spans.get(fa.path, ())):
                continue
            qual = defs[call.function].qual if 0 <= call.function < len(defs) else ""
            in_def = _computes_in(computing, fa.path, qual)
            held = any(a <= line <= z for _, a, z, _ in facts.self_assigns)
            if _on_device(call):
                devices.add(top)
            loaded = any((call.function, n) in loads for n in call.assigned)
            kind = _use_of(name, call, fa.path in network, in_def, held, loaded)
            if kind == "third-party-layer" and held:
                held_layers.add(top)
            # a model loaded in a training script with no network code of its own and run
            # by the training step (a teacher) is a pretrained model all the same
            model = kind == "third-party-model" or (not kind and _model_loader(name, call))
            if model and steps and call.function >= 0:
                names = _holding_names(defs[call.function], call)
                run = _teacher_uses(files, fa.path, call.function, names, steps)
                if run:
                    kind = "third-party-model"
                    taught.setdefault(top, []).extend(run)
                    loaded_at.setdefault(top, []).append(place(fa, line))
            if kind:
                uses = found.setdefault(top, {}).setdefault(kind, {})
                uses.setdefault(name, place(fa, line))
    items = []
    for top, kinds in sorted(found.items()):
        if top not in devices | held_layers:
            # a text processor's objects (a phonemizer built in a function) are no layers
            kinds.pop("third-party-layer", None)
        if not kinds:
            continue
        kind = min(kinds, key=order.index)
        names = kinds[kind]
        what, port = THIRD_PARTY_USES[kind]
        where = tuple(sorted(set(names.values()), key=lambda w: (w.path, w.line)))
        shown = f"{top} ({', '.join(sorted(names))})"
        why = (
            f"{what}: its code is not in the repository, no API table counts it and "
            f"MindSpore has no {top}; the port needs {port}"
        )
        if kind == "third-party-model" and taught.get(top):
            uses = sorted(set(taught[top]), key=lambda w: (w.path, w.line))
            # where the model is loaded first (the recipe's teacher row stands there), then
            # where the step runs it
            loaded = sorted({*where, *loaded_at[top]}, key=lambda w: (w.path, w.line))
            where = tuple(dict.fromkeys([*loaded, *uses]))
            shown += f", {TEACHER_WHAT}"
            why += (
                f". The training step runs it beside the network it trains "
                f"({', '.join(str(w) for w in uses[:4])}): a teacher whose outputs are the "
                "training's targets (distillation), so either it is ported with its weights "
                "converted and run frozen (stop_gradient, no optimizer) in the MindSpore "
                "training, or its outputs are computed once beforehand and read as data"
            )
        items.append(WorkItem(kind=kind, what=shown, where=where, why=why, uses=len(names)))
    return items


def _holding_names(d: DefValues, call: CallValues) -> set[str]:
    """The local names a call's result is bound to in def ``d``: ``x = call()``, and each
    name of an unpacking (``model_clip, _ = clip.load(...)``, the model and its transform)."""
    names = set(call.assigned)
    for a in d.assigns:
        if a.line == call.expr.line and a.value.line == call.expr.line:
            targets = a.target.parts if a.target.kind in ("Tuple", "List") else (a.target,)
            names.update(t.name for t in targets if t.kind == "Name")
    return names - {"_"}


def _model_loader(name: str, call: CallValues) -> bool:
    """Whether a third-party call loads a pretrained model by its name and keywords
    (``clip.load("ViT-B/16", device=device)``: a loader handed a device or weights)."""
    from apiscan.review.oplibs import MODEL_KEYWORDS, MODEL_LOADER

    keywords = {k.name for k in call.expr.keywords}
    return bool(MODEL_LOADER.match(name.rpartition(".")[2]) and keywords & MODEL_KEYWORDS)


#: What a third-party model item adds when the training step runs the model (a teacher).
TEACHER_WHAT = "teacher in the training step"
#: How many calls deep :func:`_teacher_uses` follows the model handed on.
_TEACHER_DEPTH = 3


def _teacher_uses(
    files: Mapping[str, tuple[FileAnalysis, SyntaxFacts]],
    path: str,
    function: int,
    names: set[str],
    steps: Collection[tuple[str, str]],
    depth: int = 0,
) -> list[Where]:
    """Where the training step uses a model held by ``names`` in def ``function`` of
    ``path``: a call on it (``model_clip.encode_image(image)``) in a function of ``steps``,
    followed through the repository functions it is handed to by position
    (``train_ram_plus(model, ..., model_clip)`` → its parameter ``model_clip`` →
    ``build_text_embed(model_clip, caption)``), a few calls deep."""
    fa, facts = files[path]
    values = facts.values
    if values is None or not names:
        return []
    qual = values.defs[function].qual
    out: list[Where] = []
    by_line: dict[tuple[int, str], str] | None = None  # built at the first call handed on
    for call in values.calls:
        if call.function != function:
            continue
        func = call.expr.func
        chain = func.chain() if func.kind == "Attribute" else None
        if chain and chain[0] in names and (path, qual) in steps:
            out.append(place(fa, call.expr.line))
            continue
        handed = [n for n, a in enumerate(call.expr.args) if a.kind == "Name" and a.name in names]
        if not handed or depth >= _TEACHER_DEPTH:
            continue
        # the call fact of this call, not another call on its line (``model(x) + f(t)``)
        last = call.expr.callee().rpartition(".")[2]
        by_line = by_line if by_line is not None else calls_by_line(fa)
        target = _repository_def(files, by_line.get((call.expr.line, last), ""))
        if target is None:
            continue
        tpath, index = target
        held_by = files[tpath][1].values
        params = held_by.defs[index].positional if held_by is not None else ()
        held = {params[n] for n in handed if n < len(params)}
        found = _teacher_uses(files, tpath, index, held, steps, depth + 1)
        if found and (path, qual) in steps:
            out.append(place(fa, call.expr.line))
        out.extend(found)
    return out


def calls_by_line(fa: FileAnalysis) -> dict[tuple[int, str], str]:
    """(line, last name written) -> the resolved callee of each call fact of ``fa``: how a
    call of the values records (its line and the name it is written with) finds its
    resolved target, never another call on the same line (``model(x) + f(t)``)."""
    return {(c.line, c.callee.rpartition(".")[2]): c.callee for c in fa.calls if c.role == "call"}


def _repository_def(
    files: Mapping[str, tuple[FileAnalysis, SyntaxFacts]], callee: str
) -> tuple[str, int] | None:
    """(path, index in its file's defs) of the repository function a call fact names."""
    if not callee:
        return None
    for path, (fa, facts) in files.items():
        for module in fa.modules:
            if not callee.startswith(module + "."):
                continue
            qual = callee[len(module) + 1 :]
            defs = facts.values.defs if facts.values is not None else ()
            for n, d in enumerate(defs):
                if d.qual == qual and not d.is_class:
                    return path, n
    return None


#: A torch data-parallel wrapper a repository class extends (``nn.DataParallel``).
_PARALLEL_WRAPPER = re.compile(
    r"^torch\.nn\.(?:parallel\.(?:\w+\.)*)?(?:DataParallel|DistributedDataParallel)$"
)
#: A torch BatchNorm a repository class extends (``torch.nn.modules.batchnorm._BatchNorm``).
_BATCH_NORM_BASE = re.compile(r"^torch\.nn\.(?:modules\.(?:\w+\.)*)?_?BatchNorm\w*$")
#: What a file imports to move tensors across devices itself.
_CROSS_DEVICE = ("torch.nn.parallel", "torch.distributed", "torch.cuda.comm")

#: The two pieces of multi-device training a repository may carry its own copy of, with
#: what MindSpore has built in for each.
VENDORED_PARALLEL: dict[str, tuple[str, str, str]] = {
    "sync-bn": (
        "synchronized BatchNorm",
        "synchronized BatchNorm (the batch statistics reduced across devices by the "
        "repository's own code)",
        "mindspore.nn.SyncBatchNorm in its place (statistics reduced over the data-parallel "
        "group); the copy's own machinery (its master/worker pipes, its replication "
        "callbacks) is not ported",
    ),
    "data-parallel": (
        "data-parallel wrapper",
        "data-parallel wrapper (the batch scattered to devices, outputs gathered)",
        "MindSpore's data-parallel mode (set_auto_parallel_context with "
        "ParallelMode.DATA_PARALLEL, the gradients reduced in the train step, each device "
        "reading its shard of the dataset) in place of the wrapper and its scatter/gather",
    ),
    "gradient-sync": (
        "gradient all-reduce",
        "gradient averaging across devices (the gradients all-reduced by hand in the "
        "training code, the parameters broadcast from the first device)",
        "MindSpore's data-parallel mode (set_auto_parallel_context with "
        "ParallelMode.DATA_PARALLEL, or nn.DistributedGradReducer in a train step written "
        "by hand) reduces the gradients and starts every device from the same weights; "
        "what the copy does beside the average (gradients cleaned with nan_to_num, scaled "
        "by a factor of its own) moves into the train step between the gradients and the "
        "optimizer",
    ),
    "mpi": (
        "MPI set-up",
        "multi-process set-up through MPI (mpi4py: each process's rank and the world size "
        "read from the MPI communicator, values or a checkpoint's bytes broadcast from the "
        "first rank, the run started with mpiexec)",
        "mindspore.communication.init() with get_rank()/get_group_size() in place of the "
        "communicator's (msrun or mpirun starts the processes), the checkpoint loaded on "
        "every rank (or a Broadcast op) in place of the MPI broadcast; the torch.distributed "
        "group the repository initialises from MPI's rank goes with it",
    ),
}


def _built_at(
    fa: FileAnalysis,
    alias: str,
    qual: str,
    classes: Mapping[str, tuple[FileAnalysis, tuple[str, ...]]],
) -> Where:
    """Where a file importing a class of the repository builds it (``alias(...)``), else
    where the class is defined: a class bound to another name first (semseg's
    ``BatchNorm2d = SynchronizedBatchNorm2d``) is shown where its copy lives."""
    values = fa.syntax.values if fa.syntax is not None else None
    for c in values.calls if values is not None else ():
        if c.expr.callee() == alias and c.expr.func.kind == "Name":
            return place(fa, c.expr.line)
    home = classes[qual][0]
    tail = qual.rpartition(".")[2]
    line = next((c.line for c in home.classes if c.qualname.rpartition(".")[2] == tail), 1)
    return place(home, line)


#: Qualified class name → (the file defining it, its bases' qualified names).
ClassTable = dict[str, tuple[FileAnalysis, tuple[str, ...]]]


def _class_table(analyses: Sequence[FileAnalysis]) -> ClassTable:
    """Every class of the repository by its qualified name under each of its file's modules."""
    classes: ClassTable = {}
    for fa in analyses:
        if fa.errors:
            continue
        for c in fa.classes:
            for m in fa.modules:
                classes[f"{m}.{c.qualname}"] = (fa, c.bases)
    return classes


def _parallel_piece(qual: str, classes: ClassTable) -> str:
    """The key of :data:`VENDORED_PARALLEL` a repository class is a copy of, through its own
    bases ("" for none): ``data-parallel`` for an ``nn.DataParallel`` subclass, ``sync-bn``
    for a BatchNorm subclass whose files (its own or its bases') move tensors across
    devices themselves."""
    seen: set[str] = set()
    todo = [qual]
    cross = False
    kind = ""
    while todo:
        q = todo.pop()
        if q in seen or q not in classes:
            continue
        seen.add(q)
        fa, bases = classes[q]
        syntax = fa.syntax
        imports = dict(syntax.imports).values() if syntax is not None else ()
        cross = cross or any(i.startswith(_CROSS_DEVICE) for i in imports)
        for b in bases:
            if _PARALLEL_WRAPPER.match(b):
                return "data-parallel"
            if _BATCH_NORM_BASE.match(b):
                kind = "sync-bn"
            todo.append(b)
    return kind if cross else ""


#: The names of a synchronized BatchNorm or a data-parallel wrapper a repository copies in
#: (``SynchronizedBatchNorm2d``, ``DataParallelWithCallback``), by :data:`VENDORED_PARALLEL`
#: key: read only where the copy itself is absent and its bases cannot be followed.
_PARALLEL_NAMES = (
    ("sync-bn", re.compile(r"^(?:Synchronized|Sync)\w*BatchNorm\w*$")),
    ("data-parallel", re.compile(r"^\w*DataParallel\w*$")),
)


def absent_parallel_copies(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> dict[str, dict[str, tuple[str, Where]]]:
    """The synchronized BatchNorm or data-parallel wrapper the ported files import from a
    module of the repository's own packages that no file of the repository is (SPADE-style
    ``from models.networks.sync_batchnorm import SynchronizedBatchNorm2d``, the copy its
    README clones in): :data:`VENDORED_PARALLEL` key -> the name -> (the module, where it is
    built or imported). Told by the name alone (:data:`_PARALLEL_NAMES`): the copy's bases are
    not there to follow."""
    local = _local_packages(analyses)
    modules = {m for fa in analyses for m in fa.modules}
    classes = {
        c.qualname.rpartition(".")[2] for fa in analyses if not fa.errors for c in fa.classes
    }
    found: dict[str, dict[str, tuple[str, Where]]] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for alias, target in facts.imports:
            module, _, tail = target.rpartition(".")
            if not module or module.partition(".")[0] not in local or tail in classes:
                continue
            if module in modules or target in modules or f"{module}.{tail}" in modules:
                continue
            # the module, or a package above it, held by no file: the copy is absent
            if any(m == module or m.startswith(f"{module}.") for m in modules):
                continue
            for kind, pattern in _PARALLEL_NAMES:
                if pattern.match(tail):
                    values = fa.syntax.values if fa.syntax is not None else None
                    line = next(
                        (
                            c.expr.line
                            for c in (values.calls if values is not None else ())
                            if c.expr.callee() == alias and c.expr.func.kind == "Name"
                        ),
                        1,
                    )
                    found.setdefault(kind, {}).setdefault(tail, (module, place(fa, line)))
                    break
    return found


def vendored_copies(analyses: Sequence[FileAnalysis]) -> dict[str, str]:
    """The files of the repository's own copies of synchronized BatchNorm or of a
    data-parallel wrapper (:func:`vendored_parallel`), with why, counted apart from the
    effort: the port swaps in MindSpore's built-in rather than porting the copy. A file is
    one when its every class is such a copy or a base of one and no other file refers to
    its functions (semseg's ``lib/nn/modules/batchnorm.py``); a file only those files refer
    to (the copy's master/worker pipes) goes with them. A file whose functions other code
    uses (a collate function beside the wrapper) stays ported."""
    classes = _class_table(analyses)
    pieces = {q: kind for q in classes if (kind := _parallel_piece(q, classes))}
    if not pieces:
        return {}
    related: dict[str, str] = {}
    for q, kind in pieces.items():
        todo = [q]
        while todo:
            c = todo.pop()
            if c in classes and c not in related:
                related[c] = kind
                todo.extend(classes[c][1])
    by_path: dict[str, set[str]] = {}
    for q, kind in related.items():
        by_path.setdefault(classes[q][0].path, set()).add(kind)
    files = {fa.path: fa for fa in analyses if not fa.errors}
    copies: dict[str, str] = {}
    for path, kinds in by_path.items():
        fa = files[path]
        own = {f"{m}.{c.qualname}" for m in fa.modules for c in fa.classes if "." not in c.qualname}
        if own <= related.keys():
            copies[path] = ", ".join(sorted(VENDORED_PARALLEL[k][0] for k in kinds))
    # the files only the copies refer to, and the copies' functions nothing else uses
    graph = _reference_graph(analyses, _import_graph(analyses))
    referrers: dict[str, set[str]] = {}
    for source, targets in graph.items():
        for target in targets:
            referrers.setdefault(target, set()).add(source)
    changed = True
    while changed:
        changed = False
        for path in sorted(files):
            if path in copies or PurePosixPath(path).name == "__init__.py":
                continue
            by = referrers.get(path, set()) - {path}
            inits = {b for b in by if PurePosixPath(b).name == "__init__.py"}
            if by and by - inits <= copies.keys() and (by - inits):
                why = sorted({copies[b] for b in by - inits})
                copies[path] = ", ".join(why)
                changed = True
    used = {
        ref.rpartition(".")[2]
        for fa in analyses
        if fa.path not in copies and not fa.errors
        for ref in fa.local_refs
    }
    return {
        path: f"{OWN_COPY} ({what})"
        for path, what in copies.items()
        if not any(
            not fn.cls and "." not in fn.qualname and fn.qualname in used
            for fn in files[path].functions
        )
    }


#: Why a file of the repository's own copy of a MindSpore built-in is counted apart.
OWN_COPY = "own copy of a MindSpore built-in"


def vendored_parallel(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    defaults: dict[str, set[object]] | None = None,
    findings: Sequence[ApiFinding] = (),
) -> list[WorkItem]:
    """The repository's own copies of multi-device machinery that MindSpore has built in
    (:data:`VENDORED_PARALLEL`): the gradients all-reduced by hand in the ported
    ``findings`` (:func:`~apiscan.review.roles.gradient_syncs`: stylegan3's flattened
    gradients, waveglow's parameter hooks), a class extending a torch BatchNorm in a file that moves
    tensors across devices itself (semseg's vendored ``SynchronizedBatchNorm2d``, built by
    every backbone), and a class extending ``nn.DataParallel`` (its
    ``UserScatteredDataParallel``), each through the repository's own bases. One item per
    piece, naming the classes the ported files import from another module (the copy's own
    files re-export them relatively); the port swaps in MindSpore's counterpart rather than
    porting the copy. A copy built only under a test the run's values fail (``defaults``:
    pytorch-segmentation's ``if config["use_synch_bn"]:`` with ``use_synch_bn: false``)
    is none: the run uses torch's own."""
    classes = _class_table(analyses)

    def piece(qual: str) -> str:
        return _parallel_piece(qual, classes)

    by_tail: dict[str, list[str]] = {}
    for q in classes:
        by_tail.setdefault(q.rpartition(".")[2], []).append(q)
    local = _local_packages(analyses)
    found: dict[str, dict[str, Where]] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for alias, target in facts.imports:
            if target.partition(".")[0] not in local:
                continue
            tail = target.rpartition(".")[2]
            for q in by_tail.get(tail, ()):
                if classes[q][0].path == fa.path:
                    continue
                kind = piece(q)
                if kind:
                    at = _built_at(fa, alias, q, classes)
                    off = (
                        defaults
                        and at.path == fa.path
                        and switched_off_branch(fa, at.line, defaults, every=True)
                    )
                    if not off:
                        found.setdefault(kind, {}).setdefault(tail, at)
                    break
    items = []
    for kind, names in sorted(absent_parallel_copies(analyses, ancillary).items()):
        short, what, port = VENDORED_PARALLEL[kind]
        modules = sorted({module for module, _ in names.values()})
        items.append(
            WorkItem(
                kind="vendored-parallel",
                what=f"{', '.join(sorted(names))} (the {short} of {', '.join(modules)}, absent)",
                where=tuple(sorted({w for _, w in names.values()}, key=lambda w: (w.path, w.line))),
                why=(
                    f"imported from {', '.join(modules)}, which is not in the repository (a "
                    f"copy the setup instructions bring in, or a submodule): a {what}; "
                    f"MindSpore has it built in: {port}"
                ),
                uses=len(names),
            )
        )
    for kind, names in sorted(found.items()):
        short, what, port = VENDORED_PARALLEL[kind]
        items.append(
            WorkItem(
                kind="vendored-parallel",
                what=f"{', '.join(sorted(names))} (the repository's own {short})",
                where=tuple(sorted(set(names.values()), key=lambda w: (w.path, w.line))),
                why=(f"the repository carries its own {what}; MindSpore has it built in: {port}"),
                uses=len(names),
            )
        )
    # the processes set up through MPI (improved-diffusion-style ``dist_util``: the rank
    # from ``MPI.COMM_WORLD.Get_rank()``, the state dict's bytes broadcast with ``bcast``)
    mpi: dict[str, Where] = {}
    for fa, name, tail, line in _package_names_called(analyses, ancillary):
        if name.partition(".")[0] == "mpi4py":
            mpi.setdefault(tail, place(fa, line))
    if mpi:
        short, what, port = VENDORED_PARALLEL["mpi"]
        items.append(
            WorkItem(
                kind="vendored-parallel",
                what=f"mpi4py ({', '.join(sorted(mpi))}) (the repository's own {short})",
                where=tuple(sorted(set(mpi.values()), key=lambda w: (w.path, w.line))),
                why=f"the repository carries its own {what}; MindSpore has it built in: {port}",
                uses=len(mpi),
            )
        )
    edges = list(call_edge_lines(analyses))
    syncs = gradient_syncs(
        (f for f in findings if not ancillary.why(f.path)), ((a, b) for a, b, _ in edges)
    )
    if syncs:
        short, what, port = VENDORED_PARALLEL["gradient-sync"]
        # where a function averaging through a helper calls it (the helper's collective is
        # listed too)
        helped = {(key, (f.path, f.function)) for key, fs in syncs.items() for f in fs}
        calls = [
            Where(caller[0], line)
            for caller, callee, line in edges
            if caller != callee and (caller, callee) in helped
        ]
        shown = [
            f"{fn}: {', '.join(sorted({f.api.rpartition('.')[2] for f in fs}))}"
            for (_, fn), fs in syncs.items()
        ]
        items.append(
            WorkItem(
                kind="vendored-parallel",
                what=f"{shorten('; '.join(sorted(shown)), 160)} (the repository's own {short})",
                where=tuple(
                    sorted(
                        {*_places(f for fs in syncs.values() for f in fs), *calls},
                        key=lambda w: (w.path, w.cell, w.line),
                    )
                ),
                why=f"the repository carries its own {what}; MindSpore has it built in: {port}",
                uses=len(syncs),
            )
        )
    return items


def _second_order_grads(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[WorkItem]:
    """Gradients of gradients taken in the ported code (``autograd.grad(...,
    create_graph=True)``: a WGAN-GP gradient penalty, stylegan2's R1 and path-length
    penalties): the gradient with respect to the inputs is part of a loss that is
    differentiated again, which MindSpore writes as ``mindspore.grad`` inside the function
    the outer ``value_and_grad`` wraps. ``create_graph=True`` has no other use than a
    second differentiation, so the call says it all; where the ported code also defines
    its own ``autograd.Function``s, every custom backward on that path must itself be
    differentiable (a backward of the backward), the main risk of the port."""
    from apiscan.review.gaps import AUTOGRAD_FUNCTION  # no cycle: gaps is leaf

    grads = sorted(
        (
            f
            for f in result.api_findings
            if f.api == "torch.autograd.grad"
            and f.usage == "call"
            and f.args is not None
            and dict(f.args.keywords).get("create_graph") == "True"
            and not ancillary.why(f.path)
        ),
        key=lambda f: f.sort_key(),
    )
    if not grads:
        return []
    functions = sorted(
        {
            c.qualname
            for fa in analyses
            if not fa.errors and not ancillary.why(fa.path)
            for c in fa.classes
            if AUTOGRAD_FUNCTION in c.bases
        }
    )
    # a grad taken inside an autograd Function's own methods (gradient checkpointing's
    # backward recomputing its forward, differentiable for a double backward) is how that
    # Function computes its gradient, ported with it: no loss differentiated twice
    grads = [f for f in grads if (f.function or "").rpartition(".")[0] not in functions]
    if not grads:
        return []
    where = ", ".join(sorted({f.function or "module code" for f in grads}))
    if not functions:
        return [
            WorkItem(
                kind=SECOND_ORDER,
                what=f"torch.autograd.grad(create_graph=True) in {shorten(where, 120)}",
                where=_places(grads),
                why=(
                    "a gradient with respect to the inputs (a gradient penalty) is part of a "
                    "loss that is differentiated again: use mindspore.grad(D, grad_position=0) "
                    "inside the loss function the outer mindspore.value_and_grad wraps, and "
                    "check second-order support of the layers on the path on the target "
                    "backend"
                ),
                uses=len(grads),
            )
        ]
    return [
        WorkItem(
            kind=SECOND_ORDER,
            what=THROUGH_CUSTOM + shorten(", ".join(functions), 120),
            where=_places(grads),
            why=(
                "the training step differentiates gradients (a gradient penalty) through the "
                "repository's own autograd Functions: each custom backward must itself be "
                "differentiable in MindSpore (a bprop whose ops have gradients, or a "
                "composition of existing ops), checked with second-order gradients against "
                "PyTorch's"
            ),
            uses=len(grads),
        )
    ]


#: Tensor methods that copy data to the host.
_TO_HOST = frozenset({"torch.Tensor.cpu", "torch.Tensor.numpy", "torch.Tensor.tolist"})
#: A loss function or class by name (``MultiHeadLoss._forward_impl``, ``compute_loss``).
_LOSS_PATH = re.compile(r"(?i)loss")


def _host_calls_in_loss(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    items: Sequence[WorkItem],
) -> list[WorkItem]:
    """A loss that sends tensor data to the host into the repository's own code and uses
    what comes back on every step (YOLOP's ``MultiHeadLoss``: ``metric.addBatch(pred.cpu(),
    gt.cpu())`` into a NumPy ``SegmentationMetric`` whose IoU is added to the loss): a
    device synchronisation and a graph break in the loss path, one item per function, where
    no round trip item names it already."""
    files = {fa.path: fa for fa in analyses if not fa.errors}
    modules = {m for fa in files.values() for m in fa.modules}
    known = {(w.path, w.line) for i in items if i.kind == "host-round-trip" for w in i.where}
    # a round trip item names its function first (``cluster_memory: csr_matrix(...)``, the
    # scipy call in the helper it hands the data to): that trip is this one
    named = {
        (w.path, i.what.partition(": ")[0])
        for i in items
        if i.kind == "host-round-trip"
        for w in i.where
    }
    found: dict[tuple[str, str], tuple[list[ApiFinding], set[str]]] = {}
    for f in result.api_findings:
        fa = files.get(f.path)
        if (
            fa is None
            or f.api not in _TO_HOST
            or f.usage != "call"
            or f.scope != "network"
            or not _LOSS_PATH.search(f.function)
            or ancillary.why(f.path)
            or (f.path, f.span.line) in known
            or (f.path, f.function) in named
        ):
            continue
        callees = {
            c.callee
            for c in fa.calls
            if c.role == "call"
            and c.line == f.span.line
            and c.caller == f.function
            and any(c.callee.startswith(m + ".") for m in modules)
        }
        if callees:
            entry = found.setdefault((f.path, f.function), ([], set()))
            entry[0].append(f)
            entry[1].update(callees)
    out = []
    for (_, function), (sent, callees) in sorted(found.items()):
        names = ", ".join(sorted(".".join(c.split(".")[-2:]) for c in callees))
        copies = ", ".join(sorted({f.api.rpartition(".")[2] + "()" for f in sent}))
        out.append(
            WorkItem(
                kind="host-round-trip",
                what=f"{function}: tensor data to the host into {names}",
                where=_places(sent),
                why=(
                    f"the loss ({function}) copies tensors to the host ({copies}) into the "
                    f"repository's {names} and uses what comes back on every step: a device "
                    "synchronisation and a graph break in the loss path; compute it with "
                    "MindSpore ops on the device, or keep it out of the loss (a host value "
                    "carries no gradient)"
                ),
                uses=len(sent),
            )
        )
    return out


#: Torch calls that take a NumPy array and only that (``torch.from_numpy(arr)``).
_FROM_NUMPY = frozenset({"torch.from_numpy", "torch.Tensor.from_numpy"})
#: Tensor methods that copy a tensor's data to the host as NumPy or Python values.
_HOST_COPY = frozenset({"torch.Tensor.numpy", "torch.Tensor.tolist"})
#: How a per-step host copy's item names it (:func:`data_pipeline_sites` reads it).
HOST_COPY_WHAT = "tensor copied to the host"


def _host_copies_in_forward(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], items: Sequence[WorkItem]
) -> list[WorkItem]:
    """A forward that copies a tensor to the host (tacotron2's ``Encoder.forward``:
    ``input_lengths.cpu().numpy()`` for ``pack_padded_sequence``), one item per function:
    a device-to-host copy and synchronisation on every step, a graph break under
    GRAPH_MODE, even though nothing comes back as a tensor (no DS121). The ``.cpu()`` the
    copy is chained on is part of it (not a placement call to delete): the item lists it,
    and :func:`data_pipeline_sites` keeps it out of the deletions. Where a round trip item
    names the function already, that item says it."""
    trips = [i for i in items if i.kind == "host-round-trip"]
    known = {(w.path, w.line) for i in trips for w in i.where}
    named = {(w.path, i.what.partition(": ")[0]) for i in trips for w in i.where}
    copies: dict[tuple[str, str], list[ApiFinding]] = {}
    for f in findings:
        if (
            f.api in _HOST_COPY
            and f.usage == "call"
            and f.scope == "network"
            and _FORWARD.match(f.function.rpartition(".")[2])
            and (f.path, f.span.line) not in known
            and (f.path, f.function) not in named
        ):
            copies.setdefault((f.path, f.function), []).append(f)
    if not copies:
        return []
    built = construction_only(analyses)
    moved = _chained_cpu(findings, [f for uses in copies.values() for f in uses])
    out = []
    for (path, function), uses in sorted(copies.items()):
        if (path, function) in built:
            continue
        chained = [f for f in moved if f.path == path and f.function == function]
        calls = ", ".join(sorted({f.api.rpartition(".")[2] + "()" for f in [*chained, *uses]}))
        out.append(
            WorkItem(
                kind="host-round-trip",
                what=f"{function}: {HOST_COPY_WHAT} ({calls})",
                where=_places(sorted([*chained, *uses], key=lambda f: f.sort_key())),
                why=(
                    f"{function} copies a tensor to the host ({calls}) every time the network "
                    "runs: a device synchronisation per step and a graph break under "
                    "GRAPH_MODE (the .cpu() is part of the copy, not a placement call to "
                    "delete); keep the value a tensor (MindSpore's RNNs take seq_length as a "
                    "tensor), or compute it outside the compiled cell and pass it in"
                ),
                uses=len(uses),
            )
        )
    return out


#: The keyword a tokenizer or a processor is called with to return tensors (Hugging Face's
#: ``tokenizer(texts, padding=..., return_tensors="pt")``): what sets its call apart.
_RETURN_TENSORS = "return_tensors"
#: The ``padding`` values that pad a batch to its own longest text, not to a fixed length.
_LONGEST = frozenset({"longest", True})
TOKENIZED_WHAT = "text tokenized in forward"


def _tokenized_in_forward(
    items: Sequence[WorkItem], findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis]
) -> list[WorkItem]:
    """A network's forward that tokenizes text (recognize-anything's ``RAM.forward``:
    ``self.tokenizer(caption, padding='longest', truncation=True, max_length=40,
    return_tensors="pt").to(image.device)``): a host step on every call, strings in and
    token ids copied back to the device, and with ``padding='longest'`` (or ``True``) a
    sequence length that changes with each batch. The call is known by its
    ``return_tensors`` keyword, in a ``forward`` the scan puts in the network. One host
    round trip per function: where the forward's copy to the host already has an item
    (the tags read off the device and joined into the strings it tokenizes), that item
    says both; ``items`` is returned with them."""
    computing = {(f.path, f.function) for f in findings if f.scope == "network"}
    found: dict[tuple[str, str], list[tuple[Where, object]]] = {}
    for fa, facts in with_facts(analyses):
        if facts.values is None:
            continue
        defs = facts.values.defs
        for call in facts.values.calls:
            if call.function < 0:
                continue
            qual = defs[call.function].qual
            if not _FORWARD.match(qual.rpartition(".")[2]) or (fa.path, qual) not in computing:
                continue
            keywords = {k.name: k.target for k in call.expr.keywords}
            if _RETURN_TENSORS not in keywords:
                continue
            padding = keywords.get("padding")
            found.setdefault((fa.path, qual), []).append(
                (place(fa, call.expr.line), padding.value if padding is not None else None)
            )
    if not found:
        return list(items)
    out = list(items)
    for (path, function), calls in sorted(found.items()):
        longest = [w for w, padding in calls if padding in _LONGEST]
        places = [w for w, _ in calls]
        where_text = ", ".join(f"{w.path}:{w.line}" for w in places)
        why = (
            "a host step inside the network, strings in and token ids copied back to the "
            "device, a graph break under GRAPH_MODE; move the tokenizer into the data "
            "pipeline (mindspore.dataset with the tokenizer, or token ids computed "
            "beforehand) and pass the ids and the attention mask to the network as tensors"
        )
        if longest:
            why += (
                f"; padding='longest' ({', '.join(f'{w.path}:{w.line}' for w in longest)}) "
                "gives a sequence length that changes with each batch, a graph compiled per "
                "length: pad to max_length, a fixed length"
            )
        at = next(
            (
                n
                for n, i in enumerate(out)
                if i.kind == "host-round-trip"
                and i.what.partition(": ")[0] == function
                and any(w.path == path for w in i.where)
            ),
            None,
        )
        if at is None:
            out.append(
                WorkItem(
                    kind="host-round-trip",
                    what=f"{function}: {TOKENIZED_WHAT}",
                    where=tuple(places),
                    why=f"{function} tokenizes text every time the network runs "
                    f"({where_text}): {why}",
                    uses=len(places),
                )
            )
            continue
        item = out[at]
        where = tuple(sorted({*item.where, *places}, key=lambda w: (w.path, w.cell, w.line)))
        out[at] = replace(
            item,
            what=f"{item.what}, {TOKENIZED_WHAT}",
            where=where,
            why=f"{function} {_host_step(item)} and tokenizes text into token ids "
            f"({where_text}) every time the network runs: {why}",
            uses=item.uses + len(places),
        )
    return out


def _host_step(item: WorkItem) -> str:
    """What a round trip item's function does on the host, as a clause: ``copies a tensor to
    the host (cpu(), numpy() at ram.py:254)`` for a copy, else ``reads values on the host
    (...)`` with the item's own words."""
    done = item.what.partition(": ")[2]
    at = ", ".join(str(w) for w in item.where)
    if done.startswith(HOST_COPY_WHAT):
        calls = done[len(HOST_COPY_WHAT) :].strip().removeprefix("(").removesuffix(")")
        return f"copies a tensor to the host ({calls} at {at})"
    return f"reads values on the host ({done} at {at})"


def _chained_cpu(findings: Sequence[ApiFinding], copies: Iterable[ApiFinding]) -> list[ApiFinding]:
    """The ``.cpu()`` each host copy in ``copies`` is chained on (``x.cpu().numpy()``): part
    of the copy, not a placement call to delete. A method's span is its name and arguments,
    so the copy's name starts one dot after the ``cpu()`` ends."""
    starts = {(f.path, f.span.line, f.span.column) for f in copies}
    return [
        f
        for f in findings
        if f.api == "torch.Tensor.cpu"
        and (f.path, f.span.end_line, f.span.end_column + 1) in starts
    ]


def _host_arrays_in_network(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], items: Sequence[WorkItem]
) -> list[WorkItem]:
    """A NumPy array made a tensor in the network or loss path, one item per function
    (improved-diffusion's ``_extract_into_tensor``: ``th.from_numpy(arr).to(device)[t]`` of
    the noise schedules kept as NumPy arrays, on every training step): host data copied to
    the device each call, which MindSpore's GRAPH_MODE does not convert inside the compiled
    cell; where no round trip item names the place or the function already (scipy's
    result brought back in a forward is that trip's). ``torch.from_numpy`` takes
    nothing but a NumPy array, so the scan's finding in the network graph says it all, but
    for the network's construction (DiT's ``initialize_weights`` copying a NumPy position
    embedding into its parameter once): that runs on the host."""
    trips = [i for i in items if i.kind == "host-round-trip"]
    known = {w for i in trips for w in i.where}
    # a round trip item names its function first (``Smooth.forward: scipy...``)
    named = {(w.path, i.what.partition(": ")[0]) for i in trips for w in i.where}
    # a converter that also hands tensors back as NumPy (detectron2's ``BoxMode.convert``:
    # ``torch.from_numpy(np.asarray(box))`` ... ``arr.numpy()``) takes whichever its caller
    # holds: the network's callers hold tensors
    skip = named | {(f.path, f.function) for f in findings if f.api == "torch.Tensor.numpy"}
    # a memoised function (PixelSNAIL's ``@lru_cache def causal_mask(size)``: a triangle
    # built with NumPy from a size) runs once per argument, not on every call: its tensor
    # is a constant of the shape, kept by the cache, never a copy made per step
    skip |= memoised(analyses)
    found: dict[tuple[str, str], list[ApiFinding]] = {}
    built: set[tuple[str, str]] | None = None
    for f in findings:
        if (
            f.api in _FROM_NUMPY
            and f.usage == "call"
            and f.scope == "network"
            and Where(f.path, f.span.line, f.cell) not in known
            and (f.path, f.function) not in skip
        ):
            if built is None:
                built = construction_only(analyses)
            if (f.path, f.function) not in built:
                found.setdefault((f.path, f.function), []).append(f)
    out = []
    # functions named for converting an input (``views_to_tensor``, ``cast_camera``) make
    # each sample's images or camera parameters tensors before the network: preprocessing
    # on the host, done once per input wherever it is written, one item for them all
    inputs = {
        key: uses
        for key, uses in found.items()
        if _INPUT_CONVERTER.search(key[1].rpartition(".")[2])
    }
    if inputs:
        names = sorted({function.rpartition(".")[2] for _, function in inputs})
        uses = sorted((f for u in inputs.values() for f in u), key=lambda f: f.sort_key())
        out.append(
            WorkItem(
                kind="host-round-trip",
                what=f"input conversion on the host: {shorten(', '.join(names), 120)}",
                where=_places(uses),
                why=(
                    "these functions convert each input (images, camera parameters, points "
                    "held as NumPy arrays or PIL images) to tensors before the network "
                    "runs: preprocessing, not a table copied per step; in the port they "
                    "convert in the data pipeline or before the compiled cell and hand it "
                    "Tensors, one rewrite for all of them"
                ),
                uses=len(uses),
            )
        )
    files = {fa.path: fa for fa in analyses}
    for (_, function), uses in sorted(found.items()):
        if (_, function) in inputs:
            continue
        name = function or "module code"
        cache = _cached_in(files.get(uses[0].path), uses)
        when = (
            f"once per key, kept in the dict {cache} it fills by hand (a table built on the "
            "host, then reused)"
            if cache
            else "every time it runs in the network or loss path (a schedule or table kept "
            "on the host, copied to the device per call)"
        )
        out.append(
            WorkItem(
                kind="host-round-trip",
                what=f"{name}: NumPy array to a tensor ({uses[0].api})",
                where=_places(uses),
                why=(
                    f"{name} makes a NumPy array a tensor {when}: GRAPH_MODE does not "
                    "convert NumPy inside the compiled cell; "
                    "build the tensor once in __init__ (a Parameter with requires_grad=False "
                    "or a constant Tensor) and index it on the device"
                ),
                uses=len(uses),
            )
        )
    return out


def _cached_in(fa: FileAnalysis | None, uses: Sequence[ApiFinding]) -> str:
    """The dict every one of ``uses`` fills under an ``if key not in cache:`` test (VITS's
    ``if fmax_dtype_device not in mel_basis: ... mel_basis[fmax_dtype_device] =
    torch.from_numpy(mel)...``): a cache written by hand, the conversion made once per key;
    "" when any use runs unguarded."""
    values = fa.syntax.values if fa is not None and fa.syntax is not None else None
    if values is None:
        return ""
    caches: set[str] = set()
    for f in uses:
        calls = [
            c
            for c in values.calls
            if c.expr.line == f.span.line and c.expr.callee().rpartition(".")[2] == "from_numpy"
        ]
        tests = [i.test.text for c in calls[:1] for i in c.ifs if i.test.kind == "Compare"]
        found = [m.group(1) for t in tests if (m := re.fullmatch(r"\S+ not in ([\w.]+)", t))]
        if not found:
            return ""
        caches.add(found[0])
    return caches.pop() if len(caches) == 1 else ""


#: Torch functions that make a tensor from sizes or data: without ``device=`` it is made on
#: the CPU.
_TENSOR_FACTORY = re.compile(
    r"^torch\.(?:full|zeros|ones|empty|rand\w*|arange|linspace|logspace|eye|tensor|"
    r"as_tensor|from_numpy|\w*Tensor)$"
)
#: Tensor methods that copy a tensor to the device.
_TO_DEVICE = frozenset({"torch.Tensor.to", "torch.Tensor.cuda"})


def _host_buffers_in_network(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> list[WorkItem]:
    """A plain tensor attribute of a Module read in the network or loss path and copied to
    the device there, one item per function and attribute (latent-diffusion's
    ``self.logvar[t].to(self.device)``, ``self.logvar = torch.full(...)`` in ``__init__``):
    neither a registered buffer nor a Parameter, the tensor stays on the CPU when the
    module moves to the device, so every step indexes it on the host (the device's index
    copied there) and copies the result back. Read from the scan's findings (the ``.to()``
    or ``.cuda()`` in the network graph, the factory in ``__init__``) and the worker's value
    records (the receiver ``self.x`` or ``self.x[...]``, the assignments of the class and
    of its bases in the same file). An attribute made on the device (``device=``), or
    registered or wrapped in a Parameter unconditionally, is none; one wrapped only under
    an ``if`` (``if self.learn_logvar:``) stays a plain tensor otherwise, and the item
    says when."""
    moves: dict[str, list[ApiFinding]] = {}
    for f in findings:
        if f.api in _TO_DEVICE and f.usage == "call" and f.scope == "network":
            moves.setdefault(f.path, []).append(f)
    if not moves:
        return []
    built = construction_only(analyses)
    factories = {
        (f.path, f.span.line, f.api.rpartition(".")[2])
        for f in findings
        if _TENSOR_FACTORY.match(f.api) and f.confidence == "certain"
    }
    out: list[WorkItem] = []
    for fa, facts in with_facts(analyses):
        values = facts.values
        if fa.path not in moves or values is None or ancillary.why(fa.path):
            continue
        ends = {(c.expr.end_line, c.end_char): c for c in values.calls}
        found: dict[tuple[str, str], list[tuple[ApiFinding, CallValues]]] = {}
        for f in moves[fa.path]:
            call = ends.get((f.span.end_line, f.span.end_column))
            if call is None or call.function < 0 or (fa.path, f.function) in built:
                continue
            recv = call.expr.func.target if call.expr.func.kind == "Attribute" else None
            indexed = recv is not None and recv.kind == "Subscript"
            if indexed:
                recv = recv.target  # type: ignore[union-attr]
            chain = recv.chain() if recv is not None else None
            if not chain or len(chain) != 2 or chain[0] != "self":
                continue
            found.setdefault((f.function, chain[1]), []).append((f, call))
        for (function, attr), uses in sorted(found.items()):
            owner = _owner_class(values, function)
            made = _plain_tensor_attr(fa, values, owner, attr, factories)
            if made is None:
                continue
            where_made, how, when = made
            text = uses[0][1].expr.shown(80)
            indexed = any(c.expr.func.target.kind == "Subscript" for _, c in uses)
            note = f" (a Parameter only when {when})" if when else ""
            note = f"neither a registered buffer nor a Parameter{note}"
            # a copy under a test of the function's own (an option): it runs when that holds
            tests = {c.when_text for _, c in uses if c.ifs and c.when_function == c.function}
            if tests and all(c.ifs and c.when_function == c.function for _, c in uses):
                note += f"; the copy runs only when {' or '.join(sorted(tests))}"
            out.append(
                WorkItem(
                    kind="host-buffer",
                    what=f"{function}: self.{attr} kept on the host, copied to the device "
                    f"every step ({text})",
                    where=tuple(
                        dict.fromkeys([*_places(f for f, _ in uses), place(fa, where_made)])
                    ),
                    why=(
                        f"self.{attr} is a plain tensor attribute ({how}, no device), {note}: "
                        "moving the module to the device leaves it on the CPU, so each step "
                        + (
                            "indexes it on the host (the device's index copied there, a "
                            "synchronisation) and copies the result back"
                            if indexed
                            else "copies it to the device"
                        )
                        + "; register it as a buffer (a MindSpore Parameter with "
                        "requires_grad=False, or a constant Tensor of the cell) so it lives "
                        "on the device, and drop the .to()"
                    ),
                    uses=len(uses),
                )
            )
    return out


def _owner_class(values: FileValues, function: str) -> int:
    """The index (in the value records' defs) of the class ``function`` is a method of,
    -1 for a plain function."""
    for d in values.defs:
        if d.qual == function and not d.is_class:
            return d.owner
    return -1


def _plain_tensor_attr(
    fa: FileAnalysis,
    values: FileValues,
    owner: int,
    attr: str,
    factories: set[tuple[str, int, str]],
) -> tuple[int, str, str] | None:
    """(line, what makes it, the test a Parameter wrap is under) of ``self.attr`` made by a
    torch factory without ``device=`` in a method of the class ``owner`` or of one of its
    bases in the file, when no unconditional ``register_buffer``/``Parameter`` of it
    follows; None otherwise (a buffer, a Parameter, one moved once by ``self.x =
    self.x.to(device)``, an attribute of unknown making)."""
    if owner < 0:
        return None
    by_name = {d.qual: i for i, d in enumerate(values.defs) if d.is_class}
    facts = {c.qualname: c for c in fa.classes}
    classes, todo = [], [owner]
    while todo and len(classes) < 8:
        i = todo.pop()
        if i in classes:
            continue
        classes.append(i)
        fact = facts.get(values.defs[i].qual)
        for base in fact.bases if fact is not None else ():
            local = next((m for m in fa.modules if base.startswith(m + ".")), None)
            if local is not None and base[len(local) + 1 :] in by_name:
                todo.append(by_name[base[len(local) + 1 :]])
    made: tuple[int, str] | None = None
    when = ""
    for cls in classes:
        registered, _ = _tensor_state(values, cls)
        methods = [d for d in values.defs if d.owner == cls and not d.is_class]
        for d in methods:
            for a in d.assigns:
                if a.target.chain() != ["self", attr]:
                    continue
                if a.value.kind == "Call" and a.value.callee() in ("to", "cuda"):
                    return None  # ``self.x = self.x.to(device)``: moved once, when built
                if _makes(a.value, "Parameter"):
                    if a.top:
                        return None
                    when = a.ifs[0].test.text if a.ifs else "a branch runs"
                elif (
                    a.value.kind == "Call"
                    and (fa.path, a.value.line, a.value.callee()) in factories
                    and not any(k.name == "device" for k in a.value.keywords)
                    and made is None
                ):
                    made = (a.line, a.value.func.shown(40))
        if attr in registered and not when:
            return None  # registered as a buffer (or a Parameter made elsewhere)
    if made is None:
        return None
    return made[0], made[1], when


#: The name of a function that converts an input to tensors (``views_to_tensor``,
#: ``to_tensor``, ``cast_camera``), not one that indexes a table (``_extract_into_tensor``).
_INPUT_CONVERTER = re.compile(r"(?:^|_)to_tensors?$|^cast_")

#: Decorators that keep a function's results by its arguments (it runs once per argument).
_MEMOISERS = frozenset({"functools.lru_cache", "functools.cache"})


#: Torch-based frameworks a repository may be built on rather than adapted to: OpenMMLab's
#: (SegFormer's ``mmseg`` package is written with ``mmcv.cnn`` layers and trained by
#: ``tools/train.py`` through mmcv's runner) and detectron2 (a project trained by its
#: ``DefaultTrainer``). They are the repository's own framework only where every training
#: file imports them: a side folder adapting the model to one (a ``d2/`` wrapper beside a
#: ``main.py`` that trains without it) stays an adapter.
BUILT_ON_FRAMEWORKS = frozenset(
    {"mmcv", "mmengine", "mmdet", "mmseg", "mmpose", "mmcls", "mmpretrain", "mmocr",
     "mmrotate", "mmdet3d", "detectron2"}
)  # fmt: skip


def _training_frameworks(analyses: Sequence[FileAnalysis], keep: Iterable[str]) -> set[str]:
    """The torch training frameworks (:data:`TORCH_FRAMEWORKS`, and those a repository is
    built on: :data:`BUILT_ON_FRAMEWORKS`) that every training file outside tests imports:
    the framework the repository trains its model with."""
    imports = {
        fa.path: {n.partition(".")[0] for _, n in facts.imports}
        for fa, facts in with_facts(analyses)
    }
    training = [imports[p] for p in keep if p in imports and not is_test_path(p)]
    if not training:
        return set()
    return set((TORCH_FRAMEWORKS | BUILT_ON_FRAMEWORKS).intersection(*training))


def memoised(analyses: Sequence[FileAnalysis]) -> set[tuple[str, str]]:
    """(path, function) of every function decorated with ``functools.lru_cache`` or
    ``functools.cache``, as the worker recorded its decorators through the imports."""
    return {
        (fa.path, name)
        for fa, facts in with_facts(analyses)
        for name, _, decorators in facts.decorators
        if _MEMOISERS & set(decorators)
    }


def call_edges(
    analyses: Sequence[FileAnalysis], calls_only: bool = True
) -> Iterator[tuple[tuple[str, str], tuple[str, str]]]:
    """(caller, callee) as (path, module-relative function) of each call fact whose callee
    is one of the repository's functions, by every module name of its file (``calls_only``:
    calls, not a function handed on or passed to the data machinery): the one reading of
    the scan's call facts as edges between the repository's functions."""
    for caller, callee, _ in call_edge_lines(analyses, calls_only):
        yield caller, callee


def call_edge_lines(
    analyses: Sequence[FileAnalysis], calls_only: bool = True
) -> Iterator[tuple[tuple[str, str], tuple[str, str], int]]:
    """:func:`call_edges` with the line of each call."""
    named = {
        f"{module}.{fn.qualname}": (fa.path, fn.qualname)
        for fa in analyses
        for module in fa.modules
        for fn in fa.functions
    }
    bases = {
        f"{module}.{c.qualname}": c.bases
        for fa in analyses
        for module in fa.modules
        for c in fa.classes
    }
    for fa in analyses:
        for call in fa.calls:
            target = named.get(call.callee) or _inherited_method(call.callee, named, bases)
            if target is None and call.callee.endswith(".forward"):
                # an object called (``compute_loss(pred, targets)``) whose class is no
                # nn.Module: what runs is its ``__call__``, as the scope's call graph reads it
                target = named.get(call.callee.removesuffix("forward") + "__call__")
            if target is not None and (call.role == "call" or not calls_only):
                yield (fa.path, call.caller), target, call.line


def _inherited_method(
    callee: str,
    named: Mapping[str, tuple[str, str]],
    bases: Mapping[str, tuple[str, ...]],
) -> tuple[str, str] | None:
    """The repository method a call of ``Class.method`` runs when ``Class`` does not define
    it and one of its repository bases does, searched through the bases in order
    (BasicSR's ``self.reduce_loss_dict(...)`` in ``SRModel.optimize_parameters``, defined
    by ``BaseModel``); None when no base of the repository's has it."""
    cls, _, method = callee.rpartition(".")
    if cls not in bases:
        return None
    seen: set[str] = set()
    todo = list(reversed(bases[cls]))
    while todo:
        base = todo.pop()
        if base in seen:
            continue
        seen.add(base)
        found = named.get(f"{base}.{method}")
        if found is not None:
            return found
        todo.extend(reversed(bases.get(base, ())))
    return None


def _step_runs(findings: Sequence[ApiFinding], ancillary: Ancillary) -> list[ApiFinding]:
    """The calls that run the training step itself (:data:`STEP_RUN`), outside tests and
    the files counted apart."""
    return [
        f
        for f in findings
        if STEP_RUN.match(f.api)
        and f.usage == "call"
        and not is_test_path(f.path)
        and not ancillary.why(f.path)
    ]


def step_loops(
    findings: Sequence[ApiFinding], analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, function) → the innermost loop around its backward pass or optimizer step, of
    each training function that loops over its batches (:func:`_step_loops`)."""
    return _step_loops(_step_runs(findings, ancillary), analyses)


def _step_loops(
    runs: Sequence[ApiFinding], analyses: Sequence[FileAnalysis]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, function) → (first line, last line) of the innermost loop of its own around
    its first backward pass or optimizer step: the loop over batches of a training function
    that also loops over epochs (what runs once an epoch, an evaluation, a checkpoint, a
    logger of the epoch's results, lies outside it)."""
    spans = _loop_spans(analyses)
    lines: dict[tuple[str, str], list[int]] = {}
    # the loop that calls a helper running the step (a loss scaler's ``__call__``): the
    # call is where that loop runs its step
    for caller, line in _helper_step_calls(runs, analyses, spans):
        lines.setdefault(caller, []).append(line)
    # the optimizer's steps: with gradient accumulation the backward pass runs in a loop
    # over micro-batches inside the loop over steps, which the optimizer's step closes
    stepped: dict[tuple[str, str], list[int]] = {}
    # the backward pass where the function runs one (a ``zero_grad`` may run once before
    # its loops)
    backward = {(f.path, f.function) for f in runs if f.api in BACKWARD_APIS}
    for f in runs:
        if f.api.endswith(".step"):
            stepped.setdefault((f.path, f.function), []).append(f.span.line)
        if (f.path, f.function) in backward and f.api not in BACKWARD_APIS:
            continue
        lines.setdefault((f.path, f.function), []).append(f.span.line)
    out = {}
    for key, found in lines.items():
        loops = spans.get(key, ())

        def looped(line: int, loops: Sequence[tuple[int, int]] = loops) -> bool:
            return any(a <= line <= z for a, z in loops)

        # the first one in a loop: a backward pass run once before the loop (a debug
        # state's gradients written at start-up) is no step of it
        first = next((line for line in sorted(found) if looped(line)), None)
        if first is None:
            continue
        # ... and the first optimizer step after it in a loop, in the same loop
        need = [first, *[s for s in sorted(stepped.get(key, ())) if s > first and looped(s)][:1]]
        around = [s for s in loops if all(s[0] <= x <= s[1] for x in need)]
        around = around or [s for s in loops if s[0] <= first <= s[1]]
        out[key] = min(around, key=lambda s: s[1] - s[0])
    return out


def _loop_spans(analyses: Sequence[FileAnalysis]) -> dict[tuple[str, str], tuple]:
    """(path, function) → the (first line, last line) of its own loops; ``""`` for a
    script's module code, which loops over its batches too (llm.c's ``train_gpt2.py``)."""
    spans: dict[tuple[str, str], tuple] = {
        (fa.path, d.qual): d.loop_spans
        for fa, facts in with_facts(analyses)
        if facts.values is not None
        for d in facts.values.defs
        if d.loop_spans
    }
    spans.update(
        ((fa.path, ""), facts.values.loop_spans)
        for fa, facts in with_facts(analyses)
        if facts.values is not None and facts.values.loop_spans
    )
    return spans


def _helper_step_calls(
    runs: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    spans: Mapping[tuple[str, str], Sequence[tuple[int, int]]],
) -> list[tuple[tuple[str, str], int]]:
    """(caller, line) of each call, inside a loop of the caller, of a function that runs
    the backward pass or the optimizer's step outside any loop of its own: Swin's
    ``loss_scaler(loss, optimizer, clip_grad=...)`` in ``train_one_epoch``'s loop over its
    batches, the scaler's ``__call__`` doing ``scale(loss).backward()`` and
    ``step(optimizer)``. The caller's loop is the training loop, and the caller a step
    function: what it reads in that loop it reads every step."""
    helpers = {
        (f.path, f.function)
        for f in runs
        if not any(a <= f.span.line <= z for a, z in spans.get((f.path, f.function), ()))
    }
    if not helpers:
        return []
    return [
        (caller, line)
        for caller, callee, line in call_edge_lines(analyses)
        if callee in helpers
        and caller not in helpers
        and any(a <= line <= z for a, z in spans.get(caller, ()))
    ]


def step_functions(
    findings: Sequence[ApiFinding],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    names: NameValues | None = None,
) -> set[tuple[str, str]]:
    """(path, function) of the code that runs on every training step: each function that
    runs the backward pass or the optimizer's step (:data:`STEP_RUN`), the function a
    nested one that does is defined and called in (timm's ``train_one_epoch`` looping over
    its ``_backward``), and every repository function those that train call (a backward
    pass, an optimizer's step on a known optimizer), transitively, as the scan's call facts
    name them (RAFT's ``sequence_loss``, a metric logger's ``update``).
    Not through evaluation, which runs every N steps at most: a function decorated
    ``@torch.no_grad()`` outside the network (a label assignment in the loss stays), a file
    of evaluation code; nor tests or files counted apart."""
    runs = _step_runs(findings, ancillary)
    kept = {(f.path, f.function) for f in runs}
    # what is followed into its callees: a function that runs the backward pass, or an
    # optimizer's step on a receiver known to be one (a beam search's ``self.search.step``
    # is named like an optimizer's step and trains nothing)
    trains = {
        (f.path, f.function) for f in runs if f.api in BACKWARD_APIS or f.confidence == "certain"
    }
    # the loop that calls a helper running the step (a loss scaler's ``__call__``) trains
    helped = {caller for caller, _ in _helper_step_calls(runs, analyses, _loop_spans(analyses))}
    kept |= helped
    trains |= helped
    # a function that loops over its batches runs per step only what that loop runs: an
    # evaluation it calls once an epoch (and the loggers that evaluation calls) is no step
    loops = _step_loops(runs, analyses)
    # ... and what it calls under ``if i % N == 0`` (a sample decoded every 100 steps) runs
    # every N steps, not every step
    periodic = _periodic_spans(analyses, names)
    callees: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for caller, callee, line in call_edge_lines(analyses):
        loop = loops.get(caller)
        if any(a <= line <= z for a, z in periodic.get(caller[0], ())):
            continue
        if loop is None or loop[0] <= line <= loop[1]:
            callees.setdefault(caller, set()).add(callee)
    functions = {(fa.path, fn.qualname): fn for fa in analyses for fn in fa.functions}
    for path, function in list(kept):
        parent = function.rpartition(".")[0]
        if (
            parent
            and (path, parent) in functions
            and (path, function) in callees.get((path, parent), ())
        ):
            kept.add((path, parent))
            if (path, function) in trains:
                trains.add((path, parent))
    hooks = _framework_steps(analyses, ancillary)
    kept |= hooks
    trains |= hooks
    network = {(f.path, f.function) for f in findings if f.scope == "network"}
    todo = sorted(kept & trains)
    while todo:
        for callee in callees.get(todo.pop(), ()):
            fn = functions.get(callee)
            if (
                callee in kept
                or fn is None
                or (fn.no_grad and callee not in network)
                or evaluation_file(callee[0])
                or is_test_path(callee[0])
                or ancillary.why(callee[0])
            ):
                continue
            kept.add(callee)
            todo.append(callee)
    return kept


#: The hook a training framework's trainer calls on every batch (Lightning's).
_FRAMEWORK_STEP = frozenset({"training_step", "training_step_end"})


def _framework_steps(
    analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> set[tuple[str, str]]:
    """(path, method) of the ``training_step`` of each class of a file that imports a
    training framework (:data:`~apiscan.review.roles.TORCH_FRAMEWORKS`) or that names one
    among its bases: the framework's trainer runs it on every batch and does the backward
    pass and the optimizer's step itself (latent-diffusion's ``DDPM.training_step``), so no
    call of the repository's code shows it trains."""
    out: set[tuple[str, str]] = set()
    for fa in analyses:
        if is_test_path(fa.path) or ancillary.why(fa.path):
            continue
        imported = fa.syntax is not None and any(
            name.partition(".")[0] in TORCH_FRAMEWORKS for _, name in fa.syntax.imports
        )
        for c in fa.classes:
            based = any(b.partition(".")[0] in TORCH_FRAMEWORKS for b in c.bases)
            if not (imported or based):
                continue
            for method in c.methods:
                if method in _FRAMEWORK_STEP:
                    out.add((fa.path, f"{c.qualname}.{method}"))
    return out


def step_syncs(
    findings: Sequence[ApiFinding],
    steps: set[tuple[str, str]],
    shapes: Sequence[ShapeFinding] = (),
    masked: Mapping[tuple[str, str], str] | None = None,
    loops: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    analyses: Sequence[FileAnalysis] = (),
    names: NameValues | None = None,
    entry: str = "",
) -> list[WorkItem]:
    """The values the training step reads on the host every step (``loss.item()`` for a log
    or a running mean, a metric taken off the device with ``.cpu().numpy()``, a tensor
    formatted into a progress line, ``'%10.4g' % (*mloss,)``, as the scan's records of
    ``analyses`` say, in the code :func:`step_functions` finds, and the metrics a loss
    returns read from a masked selection: RAFT's ``sequence_loss``, ``epe[valid]`` read as
    ``.mean().item()``): one minor item for the repository, however many the step reads. In
    a function that loops over its batches only the reads inside that loop (``loops``:
    :func:`step_loops`) run every step; an epoch's summary after it does not. The
    ``.cpu()`` a copy is chained on is part of the read (listed with it, no placement call
    to delete). A read under ``if i % N == 0`` (``if i % 10 == 0: print(loss.item())``)
    runs every N steps, and so do the functions only such a block calls
    (:func:`step_functions` does not follow it): a log line already kept out of most steps,
    no per-step synchronisation.
    Each read waits for the device (a synchronisation per step); the port keeps them out of
    the compiled step, or reads them every N steps. Not a round trip: nothing goes back into
    the graph. A read in a function rewritten for static shapes as a whole is that
    rewrite's; a masked selection that only feeds the reads (a metric, ``masked`` says
    which) is no shape rewrite but part of this item."""
    masked = masked or {}
    loops = loops or {}
    metrics = {key for key, kind in masked.items() if kind == METRICS}
    spans = _periodic_spans(analyses, names)
    # the training scripts beside the one the documented command runs (detectron2's
    # ``plain_train_net.py`` beside ``train_net.py``): their own loops are not the run's step
    others = _other_entries(analyses, entry)
    steps = {key for key in steps if key[0] not in others}

    def every_step(path: str, line: int) -> bool:
        """Whether a read at ``line`` runs every step of the loop around it: not under an
        ``if i % N == 0`` (a log line every 10 steps, a sample decoded every 100)."""
        return not any(a <= line <= z for a, z in spans.get(path, ()))

    rewritten = {
        (f.path, f.function)
        for f in shapes
        if f.scope == "network" and (f.path, f.function) not in masked
    }
    reads = [
        f
        for f in findings
        if f.api in HOST_READS
        and f.usage == "call"
        and ((f.path, f.function) in steps or (f.path, f.function) in metrics)
        and (f.path, f.function) not in rewritten
        and _in_loop(loops.get((f.path, f.function)), f.span.line)
        and every_step(f.path, f.span.line)
    ]
    # a copy taken off the device: ``.numpy()`` on ``.cpu()`` (a bare ``.numpy()`` works
    # only on a tensor already on the host, the batch a loader gave: nothing to wait for)
    moved = _chained_cpu(findings, (f for f in reads if f.api == "torch.Tensor.numpy"))
    ends = {(f.path, f.span.end_line, f.span.end_column + 1) for f in moved}
    reads = [
        f
        for f in reads
        if f.api != "torch.Tensor.numpy" or (f.path, f.span.line, f.span.column) in ends
    ]
    formats = [
        (fa.path, function, place(fa, line))
        for fa in analyses
        for function, line in fa.formatted
        if (fa.path, function) in steps
        and (fa.path, function) not in rewritten
        and _in_loop(loops.get((fa.path, function)), line)
        and every_step(fa.path, line)
    ]
    selections = [f for f in shapes if f.scope == "network" and (f.path, f.function) in metrics]
    # an ``if`` on tensor values in the training script's own step code (co-tracker's
    # ``if torch.isnan(queries).any() or queries.abs().max() > 1500:`` skipping a bad
    # sample): Python branches on the host, so the step waits for the device there
    modules = {
        (f.path, f.function or "")
        for f in findings
        if f.usage == "base_class" and f.api.startswith("torch.nn.")
    }
    tests = [
        f
        for f in shapes
        if f.rule == CONDITION_RULE
        and f.message.startswith(_CONDITION)
        and (f.path, f.function) in steps
        and _script_step(f.path, f.function, modules)
        and _in_loop(loops.get((f.path, f.function)), f.span.line)
        and every_step(f.path, f.span.line)
    ]
    if not reads and not selections and not formats and not tests:
        return []
    functions = sorted(
        {f"{f.path}:{f.function or 'module code'}" for f in [*reads, *tests]}
        | {f"{path}:{function or 'module code'}" for path, function, _ in formats}
    )
    hows = []
    if any(f.api != "torch.Tensor.numpy" for f in reads) or not (reads or formats or tests):
        hows.append("loss.item() for logging")
    if any(f.api == "torch.Tensor.numpy" for f in reads):
        hows.append("metrics copied with .cpu().numpy()")
    if formats:
        hows.append("tensors formatted into a progress line, each element a Python number")
    if tests:
        hows.append("tensor values tested by an if of the step's own code")
    how = ", ".join(hows)
    why = (
        f"the training step reads values on the host every step ({how}): each read "
        "waits for the device, a synchronisation per step; keep "
        "them outside the compiled train step (the step returns the loss as a tensor), "
        "or read them every N steps"
    )
    if selections:
        why += (
            f"; {_count_of(len(selections), 'boolean-mask selection')} "
            f"({', '.join(sorted({f'{f.path}:{f.span.line}' for f in selections}))}) "
            f"{'feeds' if len(selections) == 1 else 'feed'} only these metrics: computed "
            "outside the compiled step, or on the device with masked reductions "
            "((v * mask).sum() / mask.sum()), not a dynamic-shape "
            "rewrite of the network"
        )
    return [
        WorkItem(
            kind="step-sync",
            what=(
                f"{_count_of(len(reads) + len(formats) + len(tests), 'host read')} in the "
                f"training step ({', '.join(functions)})"
            ),
            where=tuple(
                sorted(
                    {
                        *_places([*reads, *moved, *selections, *tests]),
                        *(w for _, _, w in formats),
                    },
                    key=lambda w: (w.path, w.cell, w.line),
                )
            ),
            why=why,
            uses=len(reads) + len(formats) + len(tests),
        )
    ]


def _other_entries(analyses: Sequence[FileAnalysis], entry: str) -> frozenset[str]:
    """The scripts run as programs (a ``__main__`` block) that no file imports, other than
    ``entry``, the one the documented training command runs; none when it is not known."""
    if not entry:
        return frozenset()
    imported = {target for _, target in _local_references(analyses)}
    return frozenset(
        fa.path
        for fa in analyses
        if fa.path != entry
        and fa.path not in imported
        and fa.syntax is not None
        and fa.syntax.main_guard
    )


#: The rule of non-maximum suppression (``nms``, ``batched_nms``, a repository's wrapper of
#: one): as many boxes as survive.
SUPPRESSION_RULE = "DS108"


def suppressions(shapes: Sequence[ShapeFinding], ancillary: Ancillary) -> list[WorkItem]:
    """Non-maximum suppression in the network (the scan's NMS findings: torchvision's
    ``nms``/``batched_nms`` and the repository's wrappers of them), one item with every place:
    how many boxes survive depends on the scores, so everything after the call has a
    data-dependent length (the proposals a two-stage detector trains its second stage on,
    the detections it returns). MindSpore's ``NMSWithMask`` keeps every box and returns a
    mask: a fixed count (the top-k the code already caps the survivors at, padded) is kept
    and the mask carried to what follows. The work is the rewrite of the functions around the
    calls, which the dynamic-shape rewrites price; the item lists them with why."""
    found = [
        f
        for f in shapes
        if f.rule == SUPPRESSION_RULE and f.scope == "network" and not ancillary.why(f.path)
    ]
    if not found:
        return []
    # (the places say where: those the training does not reach are dropped from them later)
    ops = sorted({f.api.rpartition(".")[2] for f in found} - {""})
    return [
        WorkItem(
            kind="suppression",
            what=f"non-maximum suppression in the network ({', '.join(ops) or 'nms'})",
            where=_places(found),
            why=(
                "how many boxes survive suppression depends on the scores: the output count "
                "is data, and so is every tensor built from it after the call (proposals, "
                "detections), which graph mode cannot compile as it is; MindSpore's "
                "mindspore.ops.NMSWithMask keeps every box and returns a keep mask: keep a "
                "fixed number (the top-k the code caps the survivors at, padded) and carry "
                "the mask to what follows; priced with the dynamic-shape rewrites of these "
                "functions"
            ),
            uses=len(found),
        )
    ]


#: The rule of an ``if``/``while`` on tensor values, and its message for a condition (not a
#: loop whose trip count is data).
CONDITION_RULE = "DS116"
_CONDITION = "the condition reads tensor values"


def _script_step(path: str, function: str, modules: Collection[tuple[str, str]]) -> bool:
    """Whether ``function`` is the training script's own step code, no part of a network: not
    a method of a class extending a torch.nn class (``modules``: (path, class) of the
    scan's base-class findings), nor a method named ``forward``, nor a loss by its name (a
    module-level ``forward_batch`` of the training script is step code)."""
    cls, _, name = function.rpartition(".")
    return not (
        (path, cls) in modules
        or (cls and _FORWARD.match(name))
        or _LOSS_PATH.search(name)
        or _LOSS_PATH.search(cls)
    )


#: An ``if`` test that holds once every N steps (``i % 10 == 0``, ``(step + 1) %
#: args.log_every == 0``, ``i % (num_batches // 10) == 0``, ``not it % 100``): what it
#: guards runs periodically, not every step.
_PERIODIC = re.compile(
    r"%\s*(?:\((?:[\w.\[\] +*/-]|\([\w.\[\] ,]*\))+\)|[\w.()\[\]]+)\)?\s*==\s*0\b"
    r"|^not\s+\(?[\w.()+ -]+%"
)


def _periodic_spans(
    analyses: Sequence[FileAnalysis], names: NameValues | None = None
) -> dict[str, list[tuple[int, int]]]:
    """path -> the (first, last) lines of the bodies of the ``if`` statements whose test
    holds once every N steps (:data:`_PERIODIC`), read from the ``if``s around each call
    (module code included: a training script's loop at the top level). A period the
    repository only ever gives 1 (``(iter + 1) % self.gather_metric_period == 0``, the
    trainer's ``gather_metric_period=1`` left at its default: ``names`` tells) holds every
    step: no such span."""
    out: dict[str, list[tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        if facts.values is None:
            continue
        seen: set[tuple[int, int]] = set()
        for call in facts.values.calls:
            for branch in call.ifs:
                test = _named_test(facts.values, branch)
                if not _PERIODIC.search(test) or _every_step_period(test, names):
                    continue
                span = (branch.line, branch.body_end or branch.end_line)
                if span not in seen:
                    seen.add(span)
                    out.setdefault(fa.path, []).append(span)
    return out


def _named_test(values: FileValues, branch: IfValues) -> str:
    """The text of an ``if``'s test, or, for a test that is a bare local name, of the
    last value its function gives that name before the ``if`` (DLRM-like ``should_test =
    ... and ((j + 1) % args.test_freq == 0)``, then ``if should_test:``)."""
    test = branch.test
    if test.kind != "Name" or not 0 <= branch.function < len(values.defs):
        return test.text
    given = [
        a
        for a in values.defs[branch.function].assigns
        if a.target.kind == "Name" and a.target.name == test.name and a.line < branch.line
    ]
    return max(given, key=lambda a: a.line).value.full() if given else test.text


#: The period of a periodic test (``N`` of ``i % N == 0``).
_PERIOD = re.compile(r"%\s*\(?([\w.]+)\)?")


def _every_step_period(test: str, names: NameValues | None) -> bool:
    """Whether the period of a periodic ``if`` test is 1: written so, or a name the
    repository only ever gives the literal 1 (a trainer's ``gather_metric_period=1``)."""
    found = _PERIOD.search(test)
    if found is None:
        return False
    period = found.group(1)
    if period == "1":
        return True
    return names is not None and not period[:1].isdigit() and names.literal(period) == "1"


def _in_loop(loop: tuple[int, int] | None, line: int) -> bool:
    """Whether ``line`` runs every step of a function whose batch loop is ``loop`` (None: a
    function that does not loop over its batches runs whole per step)."""
    return loop is None or loop[0] <= line <= loop[1]


def _count_of(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def tree_classes(
    tops: Iterable[TopModel], modules: Iterable[ModuleNode], analyses: Sequence[FileAnalysis]
) -> dict[str, bool]:
    """The fully qualified module classes of the top models' trees (True): each top model
    that runs a forward, the parts its builder hands it, and what they build in
    ``__init__``, transitively; and (False) the classes another module builds in
    ``__init__`` outside those trees (tacotron2's STFT, built by the data side's
    ``TacotronSTFT``, a module with no forward that only calls its ``transform``)."""
    nodes = {m.cls: m for m in modules}
    by_name: dict[str, set[str]] = {}
    for cls in nodes:
        by_name.setdefault(cls.rpartition(".")[2], set()).add(cls)
    # a class runs a forward when it or a base defines one; a base outside the repository
    # other than torch.nn.Module (a library's model) is taken to define it
    classes = {f"{m}.{c.qualname}": c for fa in analyses for m in fa.modules for c in fa.classes}

    def forwards(cls: str, depth: int = 0) -> bool:
        fact = classes.get(cls)
        if fact is None or depth > 8:
            return cls != "torch.nn.Module"
        if any(_FORWARD.match(m) for m in fact.methods):
            return True
        return any(forwards(b, depth + 1) for b in fact.bases if b and b != "torch.nn.Module")

    running = [t for t in tops if forwards(t.cls)]
    todo = [t.cls for t in running]
    todo += [c for t in running for n in _part_classes(t) for c in by_name.get(n, ())]
    seen: set[str] = set()
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.add(cls)
            node = nodes.get(cls)
            todo.extend(node.children if node is not None else ())
    parts = {c for m in nodes.values() for c in m.children}
    return {**dict.fromkeys(parts - seen, False), **dict.fromkeys(seen, True)}


def _unreached_trips(
    items: list[WorkItem],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    tree: Mapping[str, bool],
) -> list[WorkItem]:
    """The work items less the host round trips in functions that neither the training
    step nor a top model's forward reaches (tacotron2's ``STFT.inverse``, called only by
    ``STFT.forward``, a module no model calls, and by ``griffin_lim``, which only an
    inference notebook calls): a round trip counts only on a path each step runs. The
    forward of a module in a top model's tree is reached; another function is unreached
    when every caller the call facts name is: the ``forward`` nothing calls of a part
    another module builds outside the trees (a loss or a criterion a function builds may
    be called where the records do not show: it stays), a file counted apart, a
    module-level function nothing runs (:func:`uncalled_functions`). A function with no
    known caller stays, and so does every item where no top model was found."""
    if not any(tree.values()):
        return items
    trips = [i for i in items if i.kind == "host-round-trip"]
    if not trips:
        return items
    callers: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for caller, target in call_edges(analyses):
        callers.setdefault(target, set()).add(caller)
    paths = {fa.path: fa.modules for fa in analyses}
    dead = set(uncalled_functions(analyses))

    def unreached(key: tuple[str, str], seen: frozenset[tuple[str, str]]) -> bool:
        path, function = key
        if ancillary.why(path) or key in dead:
            return True
        if not function or key in seen:
            return key in seen  # module code runs at import; a cycle reaches nothing new
        who = callers.get(key, set()) - {key}
        owner, _, last = function.rpartition(".")
        if owner and _FORWARD.match(last):
            # a module's forward runs when the module is in a top model's tree (called
            # through a container or a wrapper the call facts may not resolve), and where
            # something calls it
            where = [tree.get(f"{m}.{owner}") for m in paths.get(path, ())]
            if True in where:
                return False
            if not who:
                return False in where
        return bool(who) and all(unreached(c, seen | {key}) for c in who)

    drop = set()
    for item in trips:
        function = item.what.partition(": ")[0]
        if unreached((item.where[0].path, function), frozenset()):
            drop.add(id(item))
    return [i for i in items if id(i) not in drop]


def construction_only(
    analyses: Sequence[FileAnalysis], loaders: Iterable[tuple[str, str]] = ()
) -> set[tuple[str, str]]:
    """(path, function) of every ``__init__`` and of every function only they (or functions
    only they call) call or hand on (``self.apply(self._init_weights)``), as the scan's call
    facts name them: code that runs once, when the network is built. ``loaders``: functions
    that load a checkpoint, run once too (what only they and ``__init__`` call is loading
    work, not a step's). A function with no known caller is not among them."""
    callers: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for caller, target in call_edges(analyses, calls_only=False):
        if target != caller:
            callers.setdefault(target, set()).add(caller)
    built = {
        (fa.path, fn.qualname)
        for fa in analyses
        for fn in fa.functions
        if fn.qualname.rpartition(".")[2] == "__init__"
    }
    built |= set(loaders)
    grown = True
    while grown:
        grown = False
        for target, who in callers.items():
            if target not in built and who <= built:
                built.add(target)
                grown = True
    return built


#: The work item kind of a second-order gradient (a gradient penalty).
SECOND_ORDER = "second-order-grad"
#: How such an item's ``what`` starts when the path runs through the repository's own
#: autograd Functions (each backward made differentiable): priced above a plain penalty.
THROUGH_CUSTOM = "torch.autograd.grad(create_graph=True) through "
#: The price of a second-order item with no custom backward on its path.
GRADIENT_PENALTY = "gradient-penalty"


def priced_kind(item: WorkItem) -> str:
    """The rate a work item is priced at: its kind's, but a second-order gradient through
    no custom backward (a WGAN-GP penalty written with mindspore.grad) is a
    :data:`GRADIENT_PENALTY`, lighter than one whose custom backwards must be made
    differentiable."""
    if item.kind == SECOND_ORDER and not item.what.startswith(THROUGH_CUSTOM):
        return GRADIENT_PENALTY
    return item.kind


def _binding_place(fa: FileAnalysis, ref: str) -> Where:
    """Where ``fa`` uses the extension's binding ``ref``: the call of it (``ref()``, what the
    call returns, is looked up by the same call), else the import statement bringing it in
    (a module-level alias ``nms = _C.nms``, an import inside a function whose name is only
    passed on), else the file's first line."""
    callee = ref.removesuffix(RETURNS)
    line = next((c.line for c in fa.calls if c.callee == callee), 0)
    if line:
        return place(fa, line)
    return import_place(fa, fa.syntax, callee) or place(fa, 1)


#: Module names of a compiled extension (``_C``, ``_ext``, ``nms_cuda``, ``dcn_v2_ext``).
_EXTENSION_MODULE = re.compile(r"^_?(?:C|ext|\w*_(?:cuda|ext|cpp|C)|\w*backend)$")


#: The native sources an extension module is built from, by suffix: which kind of extension.
_BUILT_FROM = {".pyx": "Cython", ".cpp": "C++", ".cc": "C++", ".cxx": "C++", ".cu": "CUDA"}


def _native_stems(root: Path) -> dict[tuple[str, str], str]:
    """(folder, stem) -> kind of every native source a module can be built from (``.pyx``,
    ``.cpp``, ``.cu``; headers are not): an import of ``<folder>.<stem>`` that no Python
    file defines is that compiled module, whatever its name (vits's ``core.pyx``)."""
    from apiscan.review.gaps import native_sources  # no cycle: gaps is leaf

    out: dict[tuple[str, str], str] = {}
    for _, where in native_sources(root):
        path = PurePosixPath(where.path)
        if path.suffix.lower() in _BUILT_FROM:
            out.setdefault((str(path.parent), path.stem), _BUILT_FROM[path.suffix.lower()])
    return out


def _extension_binding(
    parts: list[str], packages: set[str], modules: set[str], defined: set[str]
) -> tuple[str, str] | None:
    """(extension module, binding) when ``parts`` names a function of a module no Python
    file defines, directly inside a package of the repository (``fcos_core._C.nms``). A name
    under a plain module (``config._C.MODEL``: a value bound there) is never one."""
    for i in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in packages:
            rest = parts[i:]
            if len(rest) != 2 or f"{prefix}.{rest[0]}" in defined:
                return None
            if not _EXTENSION_MODULE.match(rest[0]):
                return None
            return f"{prefix}.{rest[0]}", rest[1]
        if prefix in modules:
            return None
    return None


def _refs_and_submodule_calls(fa: FileAnalysis, submodules: Submodules) -> list[str]:
    """The repository names ``fa`` looks up, then the names it calls from a submodule not
    checked out that it imports as a top-level package (``from DCNv2.dcn_v2 import DCN``:
    no file of the repository defines ``DCNv2``, so the lookup is no repository name)."""
    refs = sorted({r.removesuffix("()") for r in fa.local_refs})
    if submodules and fa.syntax is not None:
        seen = set(refs)
        for name, _ in absolute_call_values(fa.syntax):
            if name not in seen and _submodule_binding(name.split("."), submodules)[0]:
                seen.add(name)
                refs.append(name)
    return refs


def framework_bases(
    modules: Sequence[ModuleNode],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    alternatives: Collection[str] = frozenset(),
    left: Collection[tuple[str, str]] = frozenset(),
) -> list[WorkItem]:
    """One item per framework the repository is built on (:attr:`Ancillary.built_on`:
    detectron2, OpenMMLab) whose network classes the repository's own module classes extend
    (unbiased-teacher's ``TwoStagePseudoLabGeneralizedRCNN(GeneralizedRCNN)``,
    ``PseudoLabRPN(RPN)``, ``StandardROIHeadsPseudoLab(StandardROIHeads)``): the detector
    those bases build from the config (backbone, proposal generator, heads, RoI pooling) is
    the framework's code, not the repository's, so no API table prices it, and MindSpore has
    no such framework. The classes of files counted apart, the ``alternatives`` (dotted) and
    those ``left`` out of the run ((path, name): unpicked, switched off, not reached) are left
    out; so are a framework's plain module base classes (``BaseModule``) and a framework the
    repository holds itself (SegFormer's own ``mmseg`` package: its code is scanned)."""
    # (a training framework's module base, lightning's ``LightningModule``, is an
    # ``nn.Module`` with hooks: its training machinery is an item of its own)
    frameworks = (ancillary.built_on & BUILT_ON_FRAMEWORKS) - _local_packages(analyses)
    if not frameworks:
        return []
    shown = {m.cls for m in modules} - set(alternatives)
    found: dict[str, tuple[set[str], list[Where]]] = {}
    for fa in analyses:
        if ancillary.why(fa.path) or is_test_path(fa.path):
            continue
        for c in fa.classes:
            if (fa.path, c.qualname) in left or not any(
                f"{m}.{c.qualname}" in shown for m in fa.modules
            ):
                continue
            for base in c.bases:
                top = base.partition(".")[0]
                if top not in frameworks or _PLAIN_BASE.search(base.rpartition(".")[2]):
                    continue
                entry = found.setdefault(top, (set(), []))
                entry[0].add(base)
                entry[1].append(Where(fa.path, c.line))
    out = []
    for framework, (bases, where) in sorted(found.items()):
        out.append(
            WorkItem(
                kind="framework-network",
                what=f"{framework} network classes extended: {', '.join(sorted(bases))}",
                where=tuple(sorted(set(where), key=lambda w: (w.path, w.line))),
                why=(
                    f"the repository's network classes extend {framework}'s, whose code (and "
                    "what they build from the config: backbone, heads, anchors, RoI pooling) "
                    f"is not in the repository; MindSpore has no {framework}: the port writes "
                    "those bases as MindSpore Cells, or starts from a MindSpore implementation "
                    "of the same architecture, checked against PyTorch's outputs"
                ),
                uses=len(bases),
            )
        )
    return out


#: A framework's plain module base class (OpenMMLab's ``BaseModule``, ``Sequential``
#: wrappers): an ``nn.Module`` with init helpers, nothing of a network to port.
_PLAIN_BASE = re.compile(r"^(Base)?(Module|ModuleList|ModuleDict|Sequential)$")

#: A model library's base class that brings its machinery with it (transformers'
#: ``PreTrainedModel``: loading released weights by name, resizing embeddings, generation by
#: beam search or sampling; diffusers' ``ModelMixin``), by its last name.
_LIBRARY_MODEL_BASE = re.compile(r"^(PreTrainedModel|GenerationMixin|ModelMixin)$")
#: The model libraries whose bases :data:`_LIBRARY_MODEL_BASE` names.
_MODEL_LIBRARIES = frozenset({"transformers", "diffusers"})
#: Methods such a base gives its subclasses that a training or an inference calls.
_LIBRARY_MACHINERY = frozenset(
    {"from_pretrained", "save_pretrained", "generate", "resize_token_embeddings",
     "get_extended_attention_mask", "tie_weights", "init_weights", "post_init",
     "gradient_checkpointing_enable", "get_input_embeddings", "set_input_embeddings"}
)  # fmt: skip


def library_model_bases(
    modules: Sequence[ModuleNode],
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    alternatives: Collection[str] = frozenset(),
    left: Collection[tuple[str, str]] = frozenset(),
) -> list[WorkItem]:
    """One item per model library (:data:`_MODEL_LIBRARIES`) whose pretrained-model base
    the repository's own module classes extend (BLIP's ``BertModel`` and ``BertLMHeadModel``
    in ``med.py`` on transformers' ``PreTrainedModel``): the base's machinery the code calls
    (``from_pretrained('bert-base-uncased')``, ``resize_token_embeddings``, ``generate`` with
    beam search or nucleus sampling for captions) is the library's code, not the
    repository's, so no API table prices it. Those the repository's classes define
    themselves are theirs, not the base's. Classes of files counted apart, the
    ``alternatives`` (dotted) and those ``left`` out of the run ((path, name)) are left out."""
    shown = {m.cls for m in modules} - set(alternatives)
    found: dict[str, tuple[set[str], list[Where]]] = {}
    defined: set[str] = set()  # the methods the subclasses write themselves
    ported = [fa for fa in analyses if not ancillary.why(fa.path) and not is_test_path(fa.path)]
    for fa in ported:
        for c in fa.classes:
            if (fa.path, c.qualname) in left or not any(
                f"{m}.{c.qualname}" in shown for m in fa.modules
            ):
                continue
            for base in c.bases:
                top, tail = base.partition(".")[0], base.rpartition(".")[2]
                if top not in _MODEL_LIBRARIES or not _LIBRARY_MODEL_BASE.match(tail):
                    continue
                entry = found.setdefault(top, (set(), []))
                entry[0].add(base)
                entry[1].append(Where(fa.path, c.line))
    if not found:
        return []
    # the subclasses, through the repository's own bases (``BertModel(BertPreTrainedModel)``
    # over ``BertPreTrainedModel(PreTrainedModel)``), by their names
    subclasses: set[str] = set()
    while True:
        more = {
            c.qualname
            for fa in ported
            for c in fa.classes
            if c.qualname not in subclasses
            and any(
                b.partition(".")[0] in found or b.rpartition(".")[2] in subclasses for b in c.bases
            )
        }
        if not more:
            break
        subclasses |= more
    for fa, facts in with_facts(analyses):
        if facts.values is None or fa.path not in {p.path for p in ported}:
            continue
        for d in facts.values.defs:
            owner, _, name = d.qual.rpartition(".")
            if owner.rpartition(".")[2] in subclasses:
                defined.add(name)
    called: dict[str, Where] = {}
    for fa, facts in with_facts(ported):
        if facts.values is None:
            continue
        for call in facts.values.calls:
            name = call.expr.callee()
            if name in _LIBRARY_MACHINERY and name not in defined:
                called.setdefault(name, place(fa, call.expr.line))
    out = []
    for library, (bases, where) in sorted(found.items()):
        names = ", ".join(sorted(called))
        what = f"{library} model base classes extended: {', '.join(sorted(bases))}"
        what += f"; their methods the code calls: {names}" if names else ""
        places = sorted(set(where), key=lambda w: (w.path, w.line))
        places += [w for _, w in sorted(called.items()) if w not in places]
        out.append(
            WorkItem(
                kind="framework-network",
                what=what,
                where=tuple(places),
                why=(
                    f"the repository's model classes extend the {library} library's "
                    "pretrained-model base, whose code (loading released weights by name, "
                    "resizing the embeddings, generation by beam search or sampling, the "
                    "attention-mask helpers) is not in the repository; the port writes "
                    "that machinery for MindSpore Cells or takes MindNLP's counterpart of "
                    f"the {library} base, "
                    "checked against PyTorch's outputs (generated sequences included)"
                ),
                uses=len(bases),
            )
        )
    return out


def submodule_code(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    submodules: Submodules,
    dead: Mapping[tuple[str, str], tuple[int, int]] | None = None,
    items: Sequence[WorkItem] = (),
) -> list[WorkItem]:
    """The classes and functions the ported code takes from a git submodule that is not
    checked out (waveglow's ``tacotron2.layers.TacotronSTFT``, the mel features of its data
    pipeline): code the repository depends on but does not hold, so no line of it was
    scanned and the API tables price none of it. One item per submodule, a third-party
    layer where a network function calls it and the data pipeline's otherwise; the ops a
    compiled-op item already names (CenterTrack's ``DCNv2``) are left to it. ``submodules``:
    the repository's :func:`missing_submodules`."""
    if not submodules:
        return []
    named = {w for i in items for w in _DOTTED.findall(i.what)}
    computing = {(f.path, f.function) for f in result.api_findings if f.scope == "network"}
    spans = _spans_by_path(dead)
    #: submodule path -> (url, name -> where, whether a network function uses it)
    found: dict[str, tuple[str, dict[str, Where], list[bool]]] = {}
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path) or facts.values is None or is_test_path(fa.path):
            continue
        defs = facts.values.defs
        for name, call in absolute_call_values(facts):
            parts = name.split(".")
            hit, _ = _submodule_binding(parts, submodules)
            line = call.expr.line
            if hit is None or name in named or _counterpart(parts[-1]) is not None:
                continue  # a known op is a compiled-op item (:func:`compiled_ops`)
            if any(a <= line <= z for a, z in spans.get(fa.path, ())):
                continue
            folder = next("/".join(p) for p, _ in submodules if p[-1] in parts[:-1])
            url = next(u for p, u in submodules if "/".join(p) == folder)
            qual = defs[call.function].qual if 0 <= call.function < len(defs) else ""
            network = _computes_in(computing, fa.path, qual)
            entry = found.setdefault(folder, (url, {}, [False]))
            entry[1].setdefault(name, place(fa, line))
            entry[2][0] = entry[2][0] or network
    out = []
    for folder, (url, names, network) in sorted(found.items()):
        kind = "third-party-layer" if network[0] else "third-party-data"
        where = tuple(sorted(set(names.values()), key=lambda w: (w.path, w.line)))
        used = "the network runs" if network[0] else "the data pipeline runs"
        out.append(
            WorkItem(
                kind=kind,
                what=f"git submodule {folder} ({', '.join(sorted(names))})",
                where=where,
                why=(
                    f"code {used} from the git submodule {folder} ({url}), not checked out "
                    "here: none of it was scanned, no API table counts it, and it is ported "
                    "with the repository (check it out and scan it for its torch APIs)"
                ),
                uses=len(names),
            )
        )
    return out


def _submodule_binding(
    parts: list[str], submodules: Submodules
) -> tuple[tuple[str, str] | None, str]:
    """(module, name) when ``parts`` reaches into a submodule not checked out, with where
    its code comes from."""
    for path, url in submodules:
        last = path[-1]
        for j, part in enumerate(parts[:-1]):
            if part == last and j < len(path) and tuple(parts[:j]) == path[len(path) - 1 - j : -1]:
                module = ".".join(parts[:-1])
                return (module, parts[-1]), (
                    f"the git submodule {'/'.join(path)} ({url}, not checked out here)"
                )
    return None, ""


#: Why a file the configured model never reaches is counted apart (see :func:`unreached`).
UNREACHED = "not reached by the shipped configs"
#: Configuration files read for the values they set (text only: keys and scalar values).
_CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".cfg", ".py")
#: ``KEY: True`` (YAML) or ``KEY = True`` (Python): a flag a config switches on.
_TRUTHY = re.compile(r"(?m)^\s*(?:\w+\.)*([A-Za-z_]\w*)\s*[:=]\s*(?:True|true|1)\s*(?:#.*)?$")
#: ``KEY: False`` (YAML) or ``KEY = False`` (Python): a flag a config switches off.
_FALSY = re.compile(r"(?m)^\s*(?:\w+\.)*([A-Za-z_]\w*)\s*[:=]\s*(?:False|false|0)\s*(?:#.*)?$")
#: ``KEY:`` (YAML) or ``KEY =`` (Python): a key a config file sets, by its last part.
_SET_KEY = re.compile(r"(?m)^\s*(?:\w+\.)*([A-Za-z_]\w*)\s*[:=]")
#: The part of a branch class's name that its flag repeats (``RetinaNetModule`` ->
#: ``RETINANET`` for ``MODEL.RETINANET_ON``).
_BRANCH_SUFFIX = re.compile(r"(Module|Head|Block|Model|Net)$")


def shipped_configs(root: Path | None) -> tuple[str, list[str]]:
    """(where, the text of each file) of the configuration files the repository ships for
    its model: the ``configs/`` folder, or its sub-folder named after the repository when
    there is one (FCOS's ``configs/fcos/`` beside the Mask R-CNN configs it inherited).
    ("", []) when the repository has no ``configs/`` folder: nothing is then known about
    what is selected."""
    if root is None or not (root / "configs").is_dir():
        return "", []
    folder = root / "configs"
    own = [d for d in folder.iterdir() if d.is_dir() and d.name.lower() == root.name.lower()]
    if own:
        folder = own[0]
    texts = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix.lower() in _CONFIG_SUFFIXES:
            try:
                texts.append(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    return folder.relative_to(root).as_posix(), texts


def unreached(
    root: Path | None,
    analyses: Sequence[FileAnalysis],
    tops: Iterable[TopModel],
    modules: Iterable[ModuleNode],
    kept: Iterable[str],
    not_built: Mapping[str, tuple[str, str]] | None = None,
    built: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, str]:
    """The ported files only the branches no shipped config selects reach, with why.

    Two kinds of branch, both told from what the configs set, never from guessing:

    - a registry entry (``@registry.BACKBONES.register("FBNet")``) whose name no config in
      the model's own folder (``configs/<repository>/``) and no default names, in a registry
      those configs do select from;
    - a part of the model tree (a builder's alternative: ``FCOSModule or RetinaNetModule or
      RPNModule``; a head it also builds: ``ROIMaskHead``) whose flag the code declares off
      by default (``MODEL.RETINANET_ON``, ``MODEL.MASK_ON``) and no shipped config turns on.

    A part the model tree found built only under a config test the chosen config fails
    (``not_built``: ``ROIBoxHead`` under ``if not cfg.MODEL.RPN_ONLY`` with ``RPN_ONLY: True``,
    evaluated by the tree) is told by that test; the flags recognised by name (``RPN_ONLY``
    for the ``rpn`` part) decide only the parts no evaluated test does (a head built under
    a test of something else: ``if roi_heads:``), and never a part the tree found built
    under tests the chosen config passes (``built``). A flag the name rule reads counts as
    on only when every shipped config of the model sets it on: one that leaves it out runs
    with its default.

    The files defining such an entry are counted apart, and then every file that only they
    import. ``kept`` (the training step and its entry points) is never counted apart.
    Conservative: no ``configs/`` folder, a registry the configs name nothing of, or a part
    without a flag of its own leaves everything ported."""
    folder, texts = shipped_configs(root)
    text = "\n".join(texts)
    if not text:
        return {}
    # a registry is a library's extension point (detectron2's RRPN, named by no config but
    # built by its projects and users): its entries are counted apart only against the
    # model's own configs (FCOS's configs/fcos/, beside those inherited with the library):
    # the text read above when it came from that sub-folder
    own = text if PurePosixPath(folder) != PurePosixPath("configs") else ""
    files = {fa.path: fa for fa in analyses if not fa.errors and not is_test_path(fa.path)}
    defaults: dict[str, str] = {}  # a config key's last part -> its default (Python)
    tables: dict[str, dict[str, str]] = {}  # registry -> name -> file registering it
    for fa in files.values():
        facts = fa.syntax.models if fa.syntax is not None else None
        if facts is None:
            continue
        for suffix, value, _ in facts.config:
            defaults.setdefault(suffix.rpartition(".")[2], value or "")
        for _, _, decorators in facts.decorated:
            for _, chain, key in decorators:
                if chain:
                    tables.setdefault(".".join(chain), {})[key] = fa.path
    named = set(defaults.values())
    seeds: dict[str, str] = {}
    for registry, entries in sorted(tables.items() if own else ()):
        if "" in entries or len(entries) < 2:
            continue  # unnamed entries (the class's own name): not told apart here
        picked = {k for k in entries if _names(text, k)}
        if not picked:
            continue  # the configs do not select from this registry
        for key in sorted(set(entries) - picked - named):
            if not any(entries[k] == entries[key] for k in picked | (named & set(entries))):
                seeds.setdefault(
                    entries[key], f"{UNREACHED} ({registry} {key!r} named in no {folder}/ file)"
                )
    on = set(_TRUTHY.findall(text))
    off = set(_FALSY.findall(text))
    # a flag is on for every run only when each shipped config of the model sets it on: a
    # config that leaves it out runs with its default (maskrcnn-benchmark's Mask R-CNN
    # YAMLs leave ``RPN_ONLY = False`` beside the rpn_*.yaml setting it on)
    always = _on_in_every(texts, defaults)
    paths = {m.cls.rpartition(".")[2]: m.where.path for m in modules}
    # the selected alternative's file stays ported even when only a file counted apart
    # imports it (FCOS's rpn/fcos/fcos.py, imported by rpn/rpn.py beside the RPNModule
    # fallback, whose build_rpn dispatches to it in three lines)
    selected: set[str] = set()
    # the tree evaluated the chosen config; a test counts here only when no shipped config
    # writes a flag it reads both ways (on in some and off in none, or off by default and
    # on in none)
    evaluated = {
        cls.rpartition(".")[2]: f"built only if {test}, but {why}"
        for cls, (test, why) in (not_built or {}).items()
        if all(_settled(flag, on, off, defaults) for flag in _flags_read(test))
    }
    # the parts the tree found built under tests the chosen config passes: no flag a name
    # resembles counts them apart
    told = evaluated.keys() | {cls.rpartition(".")[2] for cls in built or {}}
    for top in tops:
        for name in sorted(_part_classes(top) & evaluated.keys() & paths.keys()):
            seeds.setdefault(paths[name], f"{UNREACHED} ({name}: {evaluated[name]})")
        for why, name in _switched_off(top, always, off, defaults, paths, told):
            if not why:
                selected.add(paths[name])
            else:
                seeds.setdefault(paths[name], f"{UNREACHED} ({name}: {why} in {folder}/)")
        for _, part in top.parts:
            # what a builder builds (``build_backbone(...) → ResNet, FPN``, up to a ``;``) is
            # built: the config picked it, whatever flag its name resembles (USE_FPN)
            part = re.sub(r"→[^;]*", "", part)
            for name in sorted(set(re.findall(r"\b[A-Z]\w*", part)) & paths.keys()):
                flag = _flag(name, defaults)
                if flag and flag not in on and defaults[flag].strip() in _OFF:
                    seeds.setdefault(
                        paths[name],
                        f"{UNREACHED} ({name}: {flag} is off by default and set in no "
                        f"{folder}/ file)",
                    )
    keep = set(kept) | {t.where.path for t in tops} | selected
    apart = {p: w for p, w in seeds.items() if p in files and p not in keep}
    # then the files only those import (RetinaNet's loss and inference beside its module)
    importers: dict[str, set[str]] = {}
    for path, target in _local_references(analyses):
        if path in files and target in files:  # test files neither count nor are counted
            importers.setdefault(target, set()).add(path)
    changed = True
    while changed:
        changed = False
        for path in sorted(files):
            users = importers.get(path, set())
            if path in apart or path in keep or not users or not users <= apart.keys():
                continue
            via = sorted(users)[0]
            apart[path] = f"{UNREACHED} (imported only from {via})"
            changed = True
    return apart


#: Parts of a top model that an ``X_ONLY`` flag keeps (the backbone, the builder's call).
_ALWAYS_BUILT = frozenset({"backbone", "selected by"})


def _on_in_every(texts: Sequence[str], defaults: Mapping[str, str]) -> set[str]:
    """The flags every shipped config of the model sets on: those of the files that set a
    key the code declares a default for (a file setting none configures something else),
    each setting the flag on itself. Empty when no file is such a config."""
    found: set[str] | None = None
    for text in texts:
        if not any(key in defaults for key in _SET_KEY.findall(text)):
            continue
        flags = set(_TRUTHY.findall(text))
        found = flags if found is None else found & flags
    return found or set()


def _switched_off(
    top: TopModel,
    on: set[str],
    off: set[str],
    defaults: dict[str, str],
    paths: dict[str, str],
    evaluated: set[str] = frozenset(),  # type: ignore[assignment]
) -> Iterable[tuple[str, str]]:
    """(why, class) of the parts of ``top`` the shipped configs switch off by flags named
    after the parts, beyond a flag of the part's own that is off by default (why "" for an
    alternative they select: ported, whoever imports it). ``on``: the flags every shipped
    config sets on (:func:`_on_in_every`); ``evaluated``: the classes the model tree told
    by evaluating the tests they are built under, built or not, never decided again here:

    - a builder's alternatives (``FCOSModule or RetinaNetModule or RPNModule``): once one
      of them has a flag every shipped config sets on (``FCOS_ON: True``), an
      alternative with no flag of its own is the fallback, never built (``RPNModule``);
    - ``<PART>_ONLY`` (``MODEL.RPN_ONLY``) off by default, set on by every config: the
      model is its backbone and that part; the other heads (``roi_heads`` and what its
      builder also builds: ``ROIBoxHead`` under ``if not cfg.MODEL.RPN_ONLY``) are not. The
      fallback for the classes ``evaluated`` leaves out: those the model tree told by
      evaluating the test they are built under (:func:`unreached`)."""
    for _, part in top.parts:
        alternatives = re.findall(r"\b[A-Z]\w*", part.partition(" (")[0])
        if " or " not in part or len(alternatives) < 2:
            continue
        flags = {name: _flag(name, defaults) for name in alternatives}
        chosen = sorted(f for f in flags.values() if f and f in on and f not in off)
        if chosen:
            for name, flag in flags.items():
                if flag in chosen and name in paths:
                    yield "", name  # the alternative selected
                elif not flag and name in paths and name not in evaluated:
                    yield f"{chosen[0]} is set on by every config", name
    parameters = {p for p, _ in top.parts}
    for flag in sorted(on):
        word, _, only = flag.rpartition("_")
        if only != "ONLY" or word.lower() not in parameters or flag in off:
            continue
        if flag not in defaults or defaults[flag].strip() not in _OFF:
            continue
        for parameter, part in top.parts:
            if parameter in _ALWAYS_BUILT or parameter == word.lower():
                continue
            for name in sorted(set(re.findall(r"\b[A-Z]\w*", part)) & paths.keys() - evaluated):
                yield f"{flag} is set on by every config, only the {word.lower()} is built", name


def _flags_read(test: str) -> list[str]:
    """The config keys a test reads, by their last part (``MODEL.RPN_ONLY`` of ``not
    cfg.MODEL.RPN_ONLY``); [""] when it reads something that is no config key."""
    chains = re.findall(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", test)
    last = [c.rpartition(".")[2] for c in chains]
    return [k if k.isupper() else "" for k in last] or [""]


def _settled(flag: str, on: set[str], off: set[str], defaults: dict[str, str]) -> bool:
    """A boolean flag no shipped config writes both ways: set on by some and off by none,
    or off (on) by default and set on (off) by none. Read with the model tree's evaluation
    of the chosen config (:func:`unreached`): the part that config skips is counted apart
    unless another config writes the flag the other way."""
    default = defaults.get(flag)
    if default is None:
        return False
    if flag in on:
        return flag not in off
    return default.strip() in _OFF or (flag not in off and default.strip() in _ON)


def _part_classes(top: TopModel) -> set[str]:
    """The class names a top model's parts name (what a builder builds included)."""
    return {n for _, part in top.parts for n in re.findall(r"\b[A-Z]\w*", part)}


def _names(text: str, key: str) -> bool:
    """Whether a config text names ``key`` as a whole value (``R-50-FPN`` is not named by
    ``R-50-FPN-RETINANET``)."""
    return bool(key) and re.search(rf"(?<![\w.-]){re.escape(key)}(?![\w-])", text) is not None


def _flag(name: str, defaults: dict[str, str]) -> str:
    """The configuration flag the code declares for the class ``name`` (``FCOS_ON`` for
    ``FCOSModule``, ``MASK_ON`` for ``ROIMaskHead``): one of ``WORD_ON``/``USE_WORD`` for its
    name or a word of it; "" when none or several are declared (not told apart)."""
    words = [w.upper() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z][a-z0-9]*", name)]
    stem = _BRANCH_SUFFIX.sub("", name).upper()
    found = {
        flag
        for word in {stem, *words} - _NOT_FLAG_WORDS
        for flag in (f"{word}_ON", f"USE_{word}")
        if flag in defaults
    }
    return found.pop() if len(found) == 1 else ""


#: Words of a class name that name its kind, not a switchable part.
_NOT_FLAG_WORDS = frozenset({"MODULE", "HEAD", "HEADS", "BLOCK", "MODEL", "NET", "LAYER", ""})
#: Defaults that leave a flag off.
_OFF = frozenset({"False", "false", "0", "None", ""})
#: Defaults that leave a flag on.
_ON = frozenset({"True", "true", "1"})


def _module_file(ref: str, by_module: dict[str, str]) -> str:
    """The file of the longest module prefix of a dotted name, "" outside the repository."""
    parts = ref.split(".")
    for n in range(len(parts), 0, -1):
        found = by_module.get(".".join(parts[:n]))
        if found:
            return found
    return ""


#: The sections of an option file whose classes an installed framework builds and a port
#: has to bring along when they are the framework's: the networks and the losses (the
#: optimizer and the schedule are torch's, mapped as any other API).
_FRAMEWORK_PARTS = ("backbone", "loss")


def framework_item(found: OptionFiles | None, analyses: Sequence[FileAnalysis]) -> WorkItem | None:
    """The training an installed framework runs (:func:`~apiscan.review.config_files.
    framework_training`: basicsr's ``train_pipeline`` given the option file): its training
    loop (the GAN step, EMA, the schedule driven by iterations) and the networks and losses
    the option files name that the repository does not define (``network_g: RRDBNet``,
    ``perceptual_opt: PerceptualLoss``) are code of the package, never scanned, that a port
    to MindSpore writes all the same. One item; ``uses`` counts the loop and each class,
    which the effort prices one by one."""
    if found is None or found.framework is None:
        return None
    own = {c.qualname.rpartition(".")[2] for fa in analyses for c in fa.classes}
    parts: dict[str, str] = {}  # class -> the section naming it
    for category in _FRAMEWORK_PARTS:
        for name, section in found.types(category).items():
            if name not in own:
                parts.setdefault(name, section)
    package, entry = found.framework.package, found.framework.entry
    places: list[Where] = [found.framework.where]
    for section in parts.values():
        picked = found.value(f"{section}.type")
        if picked is not None:
            places.append(Where(picked[1].path, picked[1].line))
    # a part named as a torch layer or loss (basicsr's ``L1Loss``, ``MSELoss``) is that
    # layer's counterpart in MindSpore, a rename: no part of its own to port
    api = load_torch_api()
    layers = {name for name in parts if api.kind(f"torch.nn.{name}") == "class"}
    classes = ", ".join(
        f"{name} ({section}; as torch.nn.{name})" if name in layers else f"{name} ({section})"
        for name, section in parts.items()
    )
    what = f"training loop, models and losses in {package}: port what the option file uses"
    what += f" ({classes})" if classes else ""
    bases, called = _framework_code_used(found, analyses, package)
    for key in dict.fromkeys([k for _, k in bases.values()] + [f"{k}.type" for k in called]):
        picked = found.value(key) or found.value(key.removesuffix(".type"))
        if picked is not None and Where(picked[1].path, picked[1].line) not in places:
            places.append(Where(picked[1].path, picked[1].line))
    if bases:
        what += (
            "; the base classes the repository's picked classes extend ("
            + ", ".join(f"{base} ← {sub} ({section})" for base, (sub, section) in bases.items())
            + ")"
        )
    for section, (path, names) in called.items():
        shown = ", ".join(names[:_FRAMEWORK_NAMES_SHOWN])
        more = len(names) - _FRAMEWORK_NAMES_SHOWN
        shown += f" … and {more} more" if more > 0 else ""
        what += f"; what {path} ({section}) calls of it: {shown}"
    why = (
        f"the training entry point hands control to {entry}, which builds the networks and "
        f"losses the option file names and runs the loop: none of it is in this repository, "
        f"so the scan counts none of its APIs; the {package} code the option file uses "
        "is ported (or replaced by a MindSpore counterpart) and checked against it"
    )
    if bases or called:
        why += (
            f", and so are the {package} classes the repository's own picked classes extend "
            "and the functions and layers they call (their tensor code runs in the training "
            "step or the data pipeline)"
        )
    # each base class is a part of the loop; each model or network file's calls into the
    # package one more piece of its code (the data pipeline's helpers, host-side numpy
    # steps copied along with it, are named, not priced)
    priced = [k for k in called if not _DATA_SECTION.match(k)]
    uses = 1 + len(parts) - len(layers) + len(bases) + len(priced)
    return WorkItem("framework-training", what, tuple(places), why, uses=uses)


def framework_zoo_items(
    found: OptionFiles | None, analyses: Sequence[FileAnalysis]
) -> list[WorkItem]:
    """The model-zoo networks the framework's parts build from the option file's values
    (basicsr's ``perceptual_opt: {type: PerceptualLoss, vgg_type: vgg19}``: the loss
    compares features of torchvision's pretrained VGG19): one pretrained-backbone item each,
    at the value's line. A value names one when it is a constructor of torchvision's model
    zoo (``torchvision.models.vgg19``); the repository's own classes build their parts in
    code the scan reads."""
    if found is None or found.framework is None:
        return []
    api = load_torch_api()
    own = {c.qualname.rpartition(".")[2] for fa in analyses for c in fa.classes}
    out: dict[str, WorkItem] = {}
    for category in _FRAMEWORK_PARTS:
        for name, section in found.types(category).items():
            if name in own:
                continue
            for flat in found.files().values():
                for key, setting in flat.items():
                    if not key.startswith(f"{section}.") or key.endswith(f".{found.type_key}"):
                        continue
                    value = setting.text.strip("'\"")
                    zoo = f"torchvision.models.{value}"
                    if not _ZOO_NAME.match(value) or api.kind(zoo) != "function":
                        continue
                    # a loss comparing a zoo network's features uses its trained weights
                    # (a perceptual loss); a network section's weights are the framework's
                    # default, said as such
                    weights = " pretrained" if category == "loss" else ""
                    said = f"{section}: {name}, {key.rpartition('.')[2]} {value}"
                    out.setdefault(
                        zoo,
                        WorkItem(
                            kind="pretrained-backbone",
                            what=f"{zoo}{weights} ({said})",
                            where=(Where(setting.path, setting.line),),
                            why=(
                                f"the framework's {name} builds torchvision's {value}"
                                + (
                                    " with its pretrained weights (its features are what "
                                    "the loss compares)"
                                    if weights
                                    else ", its weights as the framework loads them"
                                )
                                + ": MindSpore has no torchvision; take MindCV's counterpart "
                                "or write it as a MindSpore Cell, its trained weights "
                                "converted to a MindSpore checkpoint (parameter names and "
                                "layouts mapped), checked against PyTorch's outputs"
                            ),
                        ),
                    )
    return list(out.values())


#: A value that may name a model-zoo constructor (``vgg19``, ``resnet50``).
_ZOO_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
#: An option file's data section (``datasets.train``): its classes feed the loop.
_DATA_SECTION = re.compile(r"^(datasets?|data)(\.|$)")
#: How many of a file's calls into a training framework the item names.
_FRAMEWORK_NAMES_SHOWN = 8
#: A training framework's registry (``basicsr.utils.registry.MODEL_REGISTRY.register``):
#: how classes are found by name, no code a port brings along.
_REGISTRY_NAME = re.compile(r"(?i)(^|\.)\w*registry(\.|$)")


def _framework_code_used(
    found: OptionFiles, analyses: Sequence[FileAnalysis], package: str
) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, list[str]]]]:
    """What the repository's own classes that the option file picks by name
    (``model_type: RealESRGANModel``, ``network_d.type``, ``datasets.train.type``) take from
    the training framework ``package``: (base -> (the class extending it, the key naming
    it)) of the framework classes they extend (``basicsr``'s ``SRGANModel``, whose
    optimizers, EMA and validation the subclass inherits), and (key -> (file, names)) of the
    framework's functions and classes each such file uses (the on-device degradations:
    ``DiffJPEG``, ``filter2D``, ``random_add_gaussian_noise_pt``), registries left out."""
    picked: dict[str, str] = {}  # class name -> the key naming it
    for flat in found.files().values():
        for key, setting in flat.items():
            if key.rpartition(".")[2].endswith("type"):
                picked.setdefault(setting.text.strip("'\""), key)
    bases: dict[str, tuple[str, str]] = {}
    called: dict[str, tuple[str, list[str]]] = {}
    prefix = f"{package}."
    for fa, facts in with_facts(analyses):
        if is_test_path(fa.path):
            continue
        own = [
            (c, picked[c.qualname])
            for c in fa.classes
            if "." not in c.qualname and c.qualname in picked
        ]
        if not own:
            continue
        extended: set[str] = set()
        for cls, key in own:
            for base in cls.bases:
                if base.startswith(prefix) and not _REGISTRY_NAME.search(base):
                    bases.setdefault(base.rpartition(".")[2], (cls.qualname, key))
                    extended.add(base)
        names = sorted(
            {
                name.rpartition(".")[2]
                for top, used in facts.package_uses
                if top == package
                for name in used
                if name not in extended and not _REGISTRY_NAME.search(name)
            }
        )
        if names:
            called.setdefault(own[0][1].removesuffix(".type"), (fa.path, names))
    return bases, called


def unpicked_imports(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    taken: Callable[[str, int], bool | None],
) -> dict[str, str]:
    """The ported files reached only through imports in ``if`` branches the run's values
    skip, with why: a library picking one of two implementations by a constructor's
    argument (``if self.detect_network == 'craft': from .detection import get_detector`` /
    ``elif ... in ['dbnet18']: from .detection_db import get_detector``, the argument
    defaulting to ``'craft'`` where every call leaves it out) runs the one its values pick;
    the other, and what only it imports, is an alternative, counted apart. ``taken`` tells
    whether the run's values take the branches a line sits in (the recipe's reading); an
    import no value decides keeps its file. A file imported anywhere else (another file, or
    outside such a branch) stays."""
    from apiscan.review.registry import model_files  # no cycle: registry is a leaf here

    by_module = {m: fa.path for fa in analyses if not fa.errors for m in fa.modules}
    skipped: dict[tuple[str, str], Where] = {}  # (file, the file it imports) -> the import
    kept: set[tuple[str, str]] = set()
    for file in model_files(analyses):
        if ancillary.why(file.path) or is_test_path(file.path):
            continue
        branch_lines: dict[str, set[int]] = {}
        for found in file.facts.branch_imports:
            module = file.from_module(found.level, found.module) if found.level else found.module
            target = _module_file(f"{module}.{found.name}", by_module)
            if not target or target == file.path:
                continue
            branch_lines.setdefault(target, set()).add(found.line)
            if taken(file.path, found.line) is False:
                skipped.setdefault((file.path, target), place(file.fa, found.line))
            else:
                kept.add((file.path, target))
        # an import of the same file outside such a branch (one statement more than the
        # branches hold) keeps it
        statements: dict[str, int] = {}
        for level, module, _ in file.facts.relative_imports:
            target = _module_file(file.from_module(level, module), by_module)
            statements[target] = statements.get(target, 0) + 1
        for target, lines in branch_lines.items():
            if statements.get(target, 0) > len(lines):
                kept.add((file.path, target))
        absolute = dict(file.fa.syntax.imports) if file.fa.syntax is not None else {}
        locals_ = {found.local for found in file.facts.branch_imports}
        for bound, dotted in absolute.items():
            if bound not in locals_ and (target := _module_file(dotted, by_module)):
                kept.add((file.path, target))
    dropped = {edge: at for edge, at in skipped.items() if edge not in kept}
    if not dropped:
        return {}
    # every import and reference but the dropped ones: a file the training imports by an
    # absolute name (and the packages above it, which that import runs) is no alternative's
    graph = {
        source: {target for target in targets if (source, target) not in dropped}
        for source, targets in _reference_graph(analyses, _import_graph(analyses)).items()
    }
    files = {fa.path for fa in analyses if not fa.errors}
    apart = {path for path in files if ancillary.why(path) or is_test_path(path)}
    # the skipped imports as one importer counted apart, so that the files they import are
    # the start of what only they reach
    skipping = "<skipped imports>"
    graph[skipping] = {target for _, target in dropped}
    only = _reached_only_from(
        {skipping}, set(), apart | {skipping}, graph, files, set(ancillary.keep)
    )
    # the rest of an alternative's own package (modules it loads by name, which no import
    # names): those no file outside the package imports, in a folder none of the files
    # making the skipped imports lies in
    importers: dict[str, set[str]] = {}
    for source, targets in graph.items():
        for target in targets:
            importers.setdefault(target, set()).add(source)
    sources = {source for source, _ in dropped}
    for folder in sorted({PurePosixPath(path).parent for path in only}):
        if any(folder in PurePosixPath(source).parents for source in sources):
            continue
        inside = {path for path in files if folder in PurePosixPath(path).parents}
        only |= {
            path
            for path in inside - apart
            if importers.get(path, set()) <= inside | only | apart | {skipping}
        }
    out: dict[str, str] = {}
    for path in sorted(only):
        at = _skipping_import(path, dropped, graph)
        out[path] = (
            "an alternative the run's values do not pick (imported only in a branch they "
            f"skip, at {at})"
        )
    return out
