"""Where each function runs: in the network graph, in data processing, or on the host.

MindSpore compiles the network (``nn.Module.forward``, losses and everything they call) for
fixed shapes; data processing can stay on NumPy and the host loop is plain Python. So the same
``nonzero`` is a blocker in a head's ``forward`` and harmless in a dataset's ``__getitem__``:
findings carry the scope of the function they are in, and a dynamic shape's severity follows.

Two multi-source searches over the call graph decide it: everything reachable from a network
root is ``network``; everything else reachable from a data root is ``data`` (a helper used by
both a ``forward`` and a dataset is compiled into the graph, so network wins); the rest, module
code included, is ``host``.

The network is what a migration engineer rewrites as ``nn.Cell``s: a Module's ``forward`` and
its losses (a loss by its name, or any function a training step calls between the model's
outputs and the backward pass: MindSpore differentiates the loss with the network, so a
data module's ``mel_spectrogram`` applied to a generator's output is network), and also its
*definition* — the ``__init__`` that builds its layers, with the builders it calls
(``get_activation()``, ``_make_layer()``, ``nn.Sequential`` contents) and the class body's
default layer classes (``norm_layer=nn.BatchNorm2d``): a class body takes the widest scope
of its methods. Methods read without a call (``{"labels": self.loss_labels}``,
``self.apply(self._init_weights)``) or named through ``getattr(self, "loss_" + name)`` are
edges too, so a loss reached through a dispatch dict is network.

Two rules by location, because the call graph alone cannot see them:

- **Test code is host.** Functions in test files (under a ``test``/``tests``/``testing``
  folder, ``test_*.py``, ``*_test.py``, ``conftest.py``) are never roots and are ``host``
  whatever they call: a test named ``test_focal_loss`` or an ``nn.Module`` written for a test
  is not part of the network being migrated, and a ``nonzero`` in an assertion is not a
  blocker.
- **Data code by location.** Functions and methods in a data package (a ``data``,
  ``dataset``, ``datasets`` or ``transforms`` folder) or in a transform/augmentation module
  (``transform(s)``/``augment...`` as a word of the file name: ``naflex_transforms.py``,
  ``data_augment.py``, not ``swin_transformer.py``) are data roots, because transforms reach
  the loader through lists built at run time (``Compose(primary + secondary)``,
  ``dataset.transform = ...``) that no call edge shows. An ``nn.Module`` defined there is a
  transform (torchvision's v2 transforms are Modules), not a network root; a helper there
  that a ``forward`` calls is still ``network``. Evaluation modules there (``coco_eval.py``,
  ``evaluator.py``) are not data: they run after the network, on the host.
- **Export is host; post-processing is what calls it.** Code in an export package or module
  (``export/``, ``deploy/``, ``export_onnx.py``) neither starts nor carries the network
  search: it wraps the network for export, and a ``nonzero`` there is not a graph blocker.
  Functions and classes named like post-processing (``postprocess``, ``post_process_segm``,
  ``class PostProcess(nn.Module)``) never start it (a ``PostProcess`` Module's ``forward`` is
  no root of its own), but the call graph decides: one a ``forward`` or a loss calls is
  compiled with it (a two-stage detector's proposal post-processor runs inside the training
  forward: its top-k and NMS are the graph's), one only evaluation or a host loop calls
  stays host.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from apiscan.extract.records import DATA_ROLES, DATASET_METHODS, FileAnalysis
from apiscan.model import SCOPES
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.scope.callgraph import LOSS, build_call_graph

# networkx loads where a graph is searched or built (see apiscan.scope.callgraph): the review's
# path and constant helpers here do not pay for it.
if TYPE_CHECKING:
    import networkx as nx

NETWORK, DATA, HOST = SCOPES
#: Widest first: a class body whose methods are network and data is network.
_WIDTH = {NETWORK: 0, DATA: 1, HOST: 2}

#: Losses that are not ``nn.Module`` subclasses still belong to the graph (MindSpore builds
#: the loss into the network it differentiates): YOLOv5's ``class ComputeLoss`` with a
#: ``__call__``, and functions such as ``focal_loss`` or ``compute_loss`` called from the loop.
_LOSS_FUNCTION = re.compile(r"(?:[a-z0-9]+_)*loss(?:_fn|_func)?", re.IGNORECASE)
_LOSS_CLASS = re.compile(r"\w*(?:Loss|Criterion)")
#: ``ComputeLossOTA``, ``ComputeLossAuxOTA``: a loss class whose name goes on after the word
#: (a variant's suffix). Counted only with a ``forward`` or ``__call__`` of its own: a
#: ``DynamicLossScaler`` or a ``LossMeter`` computes no loss.
_LOSS_VARIANT = re.compile(r"\w*(?:Loss|Criterion)[A-Z]\w*")

_TEST_DIRS = frozenset({"test", "tests", "testing"})
_DATA_DIRS = frozenset({"data", "dataset", "datasets", "transforms"})
#: ``transforms.py``, ``naflex_transforms.py``, ``data_augment.py``, ``augmentation_impl.py``;
#: not ``swin_transformer.py``.
_DATA_STEM = re.compile(r"(?:^|_)(?:transforms?|augment\w*)(?:_|$)", re.IGNORECASE)
#: torch's samplers: the loader iterates them (``__iter__``), like a dataset's fetch methods.
_SAMPLER = re.compile(r"torch\.utils\.data\.(?:\w+\.)*\w*Sampler")
#: ``coco_eval.py``, ``evaluation.py``, ``voc_evaluator.py``: evaluation beside the datasets.
_EVAL_STEM = re.compile(r"(?:^|_)eval(?:uat\w*)?(?:_|$)", re.IGNORECASE)
#: ``postprocess``, ``_postprocess``, ``post_process_segm``, ``PostProcessPanoptic``.
_POSTPROCESS = re.compile(r"post_?process", re.IGNORECASE)
#: Folders of export and deployment code, anywhere in a path: the scope keeps them out of the
#: network and the review counts them apart from the effort (one list for both).
EXPORT_DIRS = frozenset({"export", "exporter", "exporters", "deploy", "deployment", "onnx"})
#: ``export_onnx.py``, ``onnx_export.py``, ``export.py``, ``deploy_trt.py``.
_EXPORT_STEM = re.compile(r"(?:^|_)(?:export\w*|onnx|deploy\w*|tensorrt|trt)(?:_|$)", re.I)


@lru_cache(maxsize=8192)  # asked per call-graph node: many nodes share a file
def is_test_path(path: str) -> bool:
    """A file of the repository's tests (pytest and unittest conventions)."""
    p = PurePosixPath(path)
    return (
        not _TEST_DIRS.isdisjoint(p.parts[:-1])
        or p.name.startswith("test_")
        or p.name.endswith("_test.py")
        or p.name == "conftest.py"
    )


@lru_cache(maxsize=8192)  # asked per call-graph node: many nodes share a file
def is_data_path(path: str) -> bool:
    """A file of the data pipeline by its place: a data package or a transform module."""
    p = PurePosixPath(path)
    if _EVAL_STEM.search(p.stem):
        return False
    return not _DATA_DIRS.isdisjoint(p.parts[:-1]) or bool(_DATA_STEM.search(p.stem))


@lru_cache(maxsize=8192)  # asked per call-graph node: many nodes share a file
def is_export_path(path: str) -> bool:
    """A file of an export package or module (``export/``, ``export_onnx.py``)."""
    p = PurePosixPath(path)
    return not EXPORT_DIRS.isdisjoint(p.parts[:-1]) or bool(_EXPORT_STEM.search(p.stem))


def is_postprocess(qualname: str) -> bool:
    """A function, method or class (any part of its qualified name) named like evaluation
    post-processing."""
    return bool(_POSTPROCESS.search(qualname))


def constructors(roots: set[str]) -> set[str]:
    """The ``__init__`` methods among network ``roots``: where a Module builds its layers (the
    network's definition, but run once, on the host)."""
    return {r for r in roots if r.endswith(".__init__")}


def network_roots(graph: nx.DiGraph, hierarchy: Hierarchy) -> set[str]:
    """``forward`` (else ``__call__``) and ``__init__`` of every ``nn.Module`` subclass, of every
    loss class and of every class defining ``forward`` over a base from a package outside the
    scan (unless it is test or data code), with their ``forward_*`` methods; every function
    named like a loss and every ``losses`` method; every function a training step calls on
    its loss path (between a model's outputs and the backward pass: a ``mel_spectrogram``
    of the generated waveform, a diffusion's ``training_losses(model, x, t)``)."""
    roots = set()
    #: where each class's methods live (a class's own file, for a Module whose forward is
    #: inherited from a base in another file)
    cls_path = {d["cls"]: d["path"] for _, d in graph.nodes(data=True) if d["cls"]}
    for cls in hierarchy.repo_classes():
        name = cls.rpartition(".")[2]
        own_forward = hierarchy.method(cls, "forward") == f"{cls}.forward"
        if (
            hierarchy.is_module(cls)
            or _LOSS_CLASS.fullmatch(name)
            or (_LOSS_VARIANT.fullmatch(name) and _computes(hierarchy, cls))
            # ``forward`` on a class whose base the scan cannot see (a package outside it)
            or (own_forward and hierarchy.unknown_ancestor(cls))
        ):
            entry = hierarchy.method(cls, "forward") or hierarchy.method(cls, "__call__")
            # the constructor that builds its layers (and the builders it calls), also of a
            # Module whose forward is torch's own (``class ConvStem(nn.Sequential)``)
            init = hierarchy.method(cls, "__init__")
            if (entry is None or entry not in graph) and init is not None and init in graph:
                entry, init = init, None
            if entry is None or entry not in graph:
                continue
            paths = (graph.nodes[entry]["path"], cls_path.get(cls, ""))
            if not any(p and (is_test_path(p) or is_data_path(p)) for p in paths):
                roots.add(entry)
                if init is not None and init in graph:
                    roots.add(init)
                # ``forward_train``, ``forward_features``...: the Module's other entry points,
                # which training code outside the repository (or ``getattr``) calls
                methods = getattr(hierarchy.classes.facts.get(cls), "methods", ())
                roots.update(
                    f"{cls}.{m}"
                    for m in methods
                    if m.startswith("forward_") and f"{cls}.{m}" in graph
                )
                if _LOSS_CLASS.fullmatch(name) and not any(
                    hierarchy.method(cls, m) for m in ("forward", "__call__")
                ):
                    # a loss class computing through its own methods (``run_G``/``run_D``
                    # of a GAN loss whose ``accumulate_gradients`` runs the backward pass):
                    # each is the differentiated computation, but the one training itself
                    roots.update(
                        f"{cls}.{m}"
                        for m in methods
                        if f"{cls}.{m}" in graph and not graph.nodes[f"{cls}.{m}"].get("trains")
                    )
    for node, data in graph.nodes(data=True):
        name = node.rpartition(".")[2]
        if (
            (data["kind"] != "module" and _LOSS_FUNCTION.fullmatch(name))
            # a head's ``losses(predictions, proposals)``, called through a submodule
            # built by a factory the call graph cannot follow
            or (data["kind"] == "method" and name == "losses")
        ) and not (is_test_path(data["path"]) or data.get("no_grad")):
            # ``@torch.no_grad() def estimate_loss()`` evaluates; it differentiates nothing
            roots.add(node)
    for _caller, callee, on_path in graph.edges(data=LOSS):
        # not a training step given the model (``super().train_step(sample, model)``); a
        # ``@torch.no_grad()`` function is (targets the loss is computed against: SwAV's
        # Sinkhorn codes, a momentum encoder's gathered keys): MindSpore runs it in the
        # differentiated function, behind a stop_gradient
        data = graph.nodes[callee]
        if on_path and not data.get("trains"):
            roots.add(callee)
    return roots


def _computes(hierarchy: Hierarchy, cls: str) -> bool:
    """Does ``cls`` define its own ``forward`` or ``__call__`` (a loss it computes)?"""
    return any(hierarchy.method(cls, m) == f"{cls}.{m}" for m in ("forward", "__call__"))


def data_roots(graph: nx.DiGraph, hierarchy: Hierarchy) -> set[str]:
    """What the data loader calls: the fetch methods of Dataset / IterableDataset subclasses,
    and whatever is passed as ``collate_fn``, ``worker_init_fn``, a transform or a dataset
    (a class passed so contributes its ``__call__`` or fetch methods; see the call graph)."""
    roots = set()
    for cls in hierarchy.repo_classes():
        if hierarchy.is_dataset(cls) or _is_sampler(hierarchy, cls):
            for name in DATASET_METHODS:
                entry = hierarchy.method(cls, name)
                if entry is not None and entry in graph:
                    roots.add(entry)
    for _caller, callee, role in graph.edges(data="role"):
        if role in DATA_ROLES:
            roots.add(callee)
    for node, data in graph.nodes(data=True):
        # a data module's ``main()`` is a debugging script (it draws samples), not the loader
        if data["kind"] != "module" and data["qualname"] != "main" and is_data_path(data["path"]):
            roots.add(node)
    return {r for r in roots if not is_test_path(graph.nodes[r]["path"])}


def _is_sampler(hierarchy: Hierarchy, cls: str) -> bool:
    return any(_SAMPLER.fullmatch(t) for t in hierarchy.torch_ancestors(cls))


def _reachable(graph: nx.DiGraph, roots: Iterable[str]) -> set[str]:
    sources = list(roots)
    if not sources:
        return set()
    import networkx as nx

    return set(chain.from_iterable(nx.bfs_layers(graph, sources)))


def _induced(graph: nx.DiGraph, keep: set[str]) -> nx.DiGraph:
    """``graph.subgraph(keep)`` as a graph of its own (same nodes, edges and data), built in
    one pass over ``graph``: a subgraph view filters every node, edge and adjacency it is
    asked for, and the searches below ask for each many times (the 405k-line corpus: two
    thirds of the classification's CPU went to the filters of two nested views)."""
    import networkx as nx

    sub = nx.DiGraph()
    sub.add_nodes_from((n, d) for n, d in graph.nodes(data=True) if n in keep)
    sub.add_edges_from(
        (u, v, d)
        for u, nbrs in graph.adjacency()
        if u in keep
        for v, d in nbrs.items()
        if v in keep
    )
    return sub


def classify(
    graph: nx.DiGraph, analyses: Sequence[FileAnalysis], classes: ClassTable
) -> dict[str, str]:
    """Every node of ``graph`` → ``network`` | ``data`` | ``host``."""
    return _classify(graph, Hierarchy(analyses, classes))[0]


def _classify(graph: nx.DiGraph, hierarchy: Hierarchy) -> tuple[dict[str, str], set[str]]:
    """The scopes, and the network nodes only construction reaches (a Module's ``__init__``
    and the builders it calls, not anything a ``forward`` or a loss runs)."""
    # Test code neither starts nor carries a search: what only tests call stays host.
    product = _induced(graph, {n for n, p in graph.nodes(data="path") if not is_test_path(p)})
    # Export code neither starts nor carries the network search; post-processing by its
    # name does not start it, but carries it from a forward or a loss that calls it (the
    # training forward's proposal selection: top-k, NMS, small-box removal run in the graph)
    graph_part = _induced(
        product, {n for n, d in product.nodes(data=True) if not is_export_path(d["path"])}
    )
    roots = {
        r
        for r in network_roots(graph_part, hierarchy)
        if not is_postprocess(graph_part.nodes[r]["qualname"])
    }
    network = _reachable(graph_part, roots)
    built = network - _reachable(graph_part, roots - constructors(roots))
    data = _reachable(product, data_roots(product, hierarchy)) - network
    scopes = {n: NETWORK if n in network else DATA if n in data else HOST for n in graph}
    return scopes, built


class ScopeMap:
    """Scope by (file path, module-relative function name), the way findings name places.

    ``function`` is what the extractor records (``Head.forward``; ``""`` at module level). A
    name the graph does not hold (a lambda, a function nested in a comprehension) takes the
    scope of the nearest enclosing function it does hold; a class body (``Block`` for the
    default ``norm_layer=nn.BatchNorm2d`` of ``Block.__init__``) the widest scope of its
    methods (network, then data, then host).

    ``running=True`` asks where code *runs* rather than what it belongs to: the network's
    construction (``__init__`` and the builders only it calls) runs once on the host, so a
    dynamic shape there (``torch.unique`` of a width schedule) is no graph blocker: ``host``.
    """

    def __init__(
        self, graph: nx.DiGraph, scopes: Mapping[str, str], built: Iterable[str] = ()
    ) -> None:
        self._built = {
            (graph.nodes[n]["path"], graph.nodes[n]["qualname"]) for n in built if n in graph
        }
        self._scopes: dict[tuple[str, str], str] = {}
        bodies: dict[tuple[str, str], str] = {}
        for node, data in graph.nodes(data=True):
            if data["kind"] != "module":
                scope = scopes.get(node, HOST)
                self._scopes[(data["path"], data["qualname"])] = scope
            if data["kind"] == "method":
                body = (data["path"], data["qualname"].rpartition(".")[0])
                if _WIDTH[scope] < _WIDTH[bodies.get(body, HOST)]:
                    bodies[body] = scope
        for body, scope in bodies.items():
            self._scopes.setdefault(body, scope)
        #: (path, training step) -> (line, callee's last name) of the step's own calls on
        #: its loss path
        self._loss_calls: dict[tuple[str, str], set[tuple[int, str]]] = graph.graph.get(
            "loss_lines", {}
        )

    @classmethod
    def build(cls, analyses: Sequence[FileAnalysis], classes: ClassTable) -> ScopeMap:
        """Call graph and classification in one go (what the pipeline's join needs)."""
        graph = build_call_graph(analyses, classes)
        scopes, built = _classify(graph, Hierarchy(analyses, classes))
        return cls(graph, scopes, built)

    def scope_of(
        self, path: str, function: str, running: bool = False, line: int = 0, api: str = ""
    ) -> str:
        """The scope of code in ``function`` of ``path`` (where it runs, with ``running``).
        A call of ``api`` on ``line`` of a training step that lies on its loss path
        (stargan's ``d_loss_real = - torch.mean(out_src)`` in ``Solver.train``, between the
        model's outputs and ``backward()``) is the network's, as the loss functions the step
        calls are: MindSpore differentiates it with the network."""
        name = api.rpartition(".")[2]
        if (
            line
            and name
            and not _STEP_MACHINERY.search(api)
            and not is_test_path(path)  # a test's backward checks a gradient, trains nothing
            and (line, name) in self._loss_calls.get((path, function), ())
        ):
            return NETWORK
        while function:
            scope = self._scopes.get((path, function))
            if scope is not None:
                return HOST if running and (path, function) in self._built else scope
            function = function.rpartition(".")[0]
        return HOST


#: The training step's own machinery around the loss (a loss scaler's ``scale(loss)`` before
#: ``backward()``, the optimizer): on the loss path's line, yet the step's idiom, not the loss.
_STEP_MACHINERY = re.compile(r"GradScaler\.|^torch\.(?:cuda\.)?amp\.|^torch\.optim\.")


def use_scope(scope: str, api: str, usage: str, path: str) -> str:
    """The scope of a use of ``api`` (``call``, ``reference``...) in code of ``scope`` in
    ``path``, where the API itself says more than the function it is in:

    - a torch layer class built outside tests, export code and the data pipeline
      (``conv_bn()`` returning ``nn.Sequential(nn.Conv2d(...), ...)`` called from a training
      script, ``model.fc = nn.Linear(...)``) is the network's definition: ``network``; a
      class only named (``isinstance(m, nn.BatchNorm2d)`` in a host utility) is not;
    - ``torch.distributed`` outside the network (a sampler's ``get_rank()``, an evaluator's
      ``all_gather``) is host plumbing, not data processing: ``host``.
    """
    if (
        scope == HOST
        and usage == "call"
        and _LAYER.fullmatch(api)
        and not (is_test_path(path) or is_export_path(path))
    ):
        return NETWORK
    if scope == DATA and api.startswith("torch.distributed."):
        return HOST
    return scope


#: ``torch.nn.Conv2d``, ``torch.nn.modules.conv.Conv2d``: a layer class (not ``nn.Module``
#: itself, ``nn.Parameter`` or the data-parallel wrappers, which are host plumbing).
_LAYER = re.compile(
    r"torch\.nn\.(?:modules\.\w+\.)?"
    r"(?!Module$|Parameter$|DataParallel$|parallel\b|UninitializedParameter$)[A-Z]\w*"
)
