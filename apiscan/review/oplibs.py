"""Third-party libraries of network ops with no MindSpore counterpart.

A model built on MinkowskiEngine's sparse convolutions, torch_scatter's segment reductions
or mmcv's compiled ops calls compiled CUDA/C++ kernels that are neither PyTorch's nor the
repository's own: the scan's API tables (torch only) never see them, so without this table a
review lists such a library among the third-party packages and prices nothing. Each library
used in the network's files is one porting job (a work item listing the op kinds used), not one
custom op per name: the network reaches a library through a few layer types, and the first op
kind sets the approach the others follow (a sparse-convolution library replaced by dense
convolutions on masked inputs, or its kernels wrapped as a package of ``mindspore.ops.Custom``
ops with their backwards), so the job grows sub-linearly with the op kinds (the effort's
steep learning curve per library). MindTorch runs PyTorch code, not these libraries'
kernels, so its route does not cover them either. A package of this table used only by host
or data code (a data set's ``torch_geometric.data`` loader) is left to the third-party
package list, as are packages not in it.

:data:`NETWORK_OP_LIBRARIES` is the one home of the list: top-level module → (the library,
whether it works on sparse tensors). Libraries that install several top-level modules
(MinkowskiEngine's ``MinkowskiOps``) name each one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from apiscan.extract.records import FileAnalysis
from apiscan.extract.syntax import SyntaxFacts
from apiscan.extract.values import CallValues
from apiscan.model import ScanResult
from apiscan.review.model import Where
from apiscan.review.roles import STEP_COMPUTATION
from apiscan.review.sources import place, with_facts

#: Top-level module → (library, works on sparse tensors). Only libraries of compiled
#: network ops MindSpore has no counterpart for; a pure-Python helper package is not one.
NETWORK_OP_LIBRARIES: dict[str, tuple[str, bool]] = {
    # sparse convolutions on coordinate lists (compiled CUDA/C++)
    "MinkowskiEngine": ("MinkowskiEngine", True),
    "MinkowskiOps": ("MinkowskiEngine", True),
    "MinkowskiFunctional": ("MinkowskiEngine", True),
    "spconv": ("spconv", True),
    "torchsparse": ("torchsparse", True),
    # scatter/segment reductions, sparse matrices and graph sampling (PyG's compiled kernels)
    "torch_scatter": ("torch_scatter", False),
    "torch_sparse": ("torch_sparse", True),
    "torch_cluster": ("torch_cluster", False),
    "torch_spline_conv": ("torch_spline_conv", False),
    "torch_geometric": ("torch_geometric", False),
    # detection and segmentation ops (deformable convolution, RoI align, NMS...)
    "mmcv": ("mmcv", False),
    # fused kernels: layers, attention, quantised matmuls, point-cloud sampling
    "apex": ("apex", False),
    "xformers": ("xformers", False),
    "flash_attn": ("flash_attn", False),
    "bitsandbytes": ("bitsandbytes", False),
    "pointnet2_ops": ("pointnet2_ops", False),
    "pointnet2": ("pointnet2", False),
    "knn_cuda": ("knn_cuda", False),
    "chamfer_dist": ("chamfer_dist", False),
}

#: The modules of a library of :data:`NETWORK_OP_LIBRARIES` that hold its compiled ops, where
#: the rest of it is Python (mmcv's ``mmcv.ops`` kernels, RoIAlign, deformable convolution,
#: beside ``mmcv.cnn``'s ConvModule and ``build_norm_layer``, ``mmcv.runner``, ``mmcv.imread``:
#: layers and helpers written in PyTorch, ported as the repository's own code is).
_OP_MODULES: dict[str, tuple[str, ...]] = {"mmcv": ("mmcv.ops.",)}

#: A training library's machinery by the dotted name a file imports (the library's own
#: module paths and the re-exports of its packages): the part of training it is and what a
#: MindSpore port does with it. MindSpore has no timm: each piece a training script builds
#: from it (the transform factory with RandAugment and RandomErasing, mixup/cutmix, the
#: soft-target loss, the optimizer and scheduler factories reading the command line, the
#: EMA of the weights, the loss scaler) is code outside the repository that the port
#: replaces, and that no API table counts. A library of compiled ops ships such pieces
#: too, written in Python or fused for speed, with a MindSpore counterpart (apex's LARC
#: optimizer wrapper: ``mindspore.nn.LARS``; its fused optimizers, mixed precision and
#: data-parallel wrapper): a piece of training, not a network op to write as a custom op.
#: First match wins.
TRAINING_PIECES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern), what, port)
    for pattern, what, port in (
        (
            r"timm\.data\.(\w+\.)?(create_transform|transforms_imagenet_train"
            r"|rand_augment_transform|auto_augment_transform|augment_and_mix_transform"
            r"|RandAugment|AutoAugment|AugMixAugment|RandomErasing|RandomResizedCropAndInterpolation)$",
            "the training transforms (random resized crop, flips, colour jitter, "
            "RandAugment/AutoAugment by its policy string, RandomErasing)",
            "mindspore.dataset.vision's RandomResizedCrop, RandAugment/AutoAugment and "
            "RandomErasing, or MindCV's create_transforms, with the same policy and "
            "probabilities",
        ),
        (
            r"timm\.data\.(\w+\.)?(create_loader|PrefetchLoader|MultiEpochsDataLoader)$",
            "the loader that builds the training transforms from its keywords and "
            "normalises on the GPU (prefetcher)",
            "a mindspore.dataset pipeline (MindCV's create_loader) with the transforms "
            "its keywords select; normalisation moves into the pipeline",
        ),
        (
            r"timm\.data\.(\w+\.)?(Mixup|FastCollateMixup)$",
            "mixup/cutmix of each batch with label smoothing of the mixed targets",
            "MindCV's Mixup, or mindspore.dataset.vision's MixUpBatch/CutMixBatch with the "
            "switch probability and the smoothed targets written by hand",
        ),
        (
            r"timm\.data\.(\w+\.)?AugMixDataset$",
            "AugMix splits of each image",
            "the splits written as a dataset map",
        ),
        (
            r"timm\.loss\.(\w+\.)?\w+$",
            "a loss of timm (soft-target or label-smoothing cross-entropy)",
            "mindspore.nn.CrossEntropyLoss(label_smoothing=...) or a few lines of "
            "log_softmax, checked against timm's",
        ),
        (
            r"timm\.optim\.(\w+\.)?(create_optimizer(_v2)?|optimizer_kwargs)$",
            "the optimizer built from the command line (its name, weight decay kept off "
            "norms and biases, the layer decay)",
            "MindCV's create_optimizer, or mindspore.nn's optimizer with the same parameter groups",
        ),
        (
            # MAE's ``optim_factory.add_weight_decay(model, args.weight_decay)`` handed to
            # torch.optim.AdamW: the groups, not the optimizer
            r"timm\.optim\.(\w+\.)?(add_weight_decay|param_groups_weight_decay"
            r"|param_groups_layer_decay)$",
            "the optimizer's parameter groups (weight decay kept off norms, biases and 1-D "
            "parameters, or a decay per layer)",
            "the same groups written over the Cell's trainable_params() by name and shape "
            "(mindspore.nn optimizers take a list of group dicts with weight_decay), or "
            "MindCV's param-group helper",
        ),
        (
            r"timm\.scheduler\.(\w+\.)?\w+$",
            "the LR schedule built from the command line (warm-up, cosine or step decay, "
            "stepped per epoch)",
            "MindCV's create_scheduler, or a per-step list of learning rates "
            "(mindspore.nn.cosine_decay_lr with its warm-up) handed to the optimizer",
        ),
        (
            r"timm\.utils\.(\w+\.)?ModelEma(V2|V3)?$",
            "an exponential moving average of the weights",
            "MindCV's EMA in its train step, or the average written over the parameters",
        ),
        (
            r"(ema_pytorch\.(\w+\.)?(EMA|PostHocEMA)|torch_ema\.(\w+\.)?ExponentialMovingAverage)$",
            "an exponential moving average of the weights (its decay, warm-up and update interval)",
            "a small hand port: a copy of the parameters averaged after each optimizer step "
            "(ops.assign) with the same decay, warm-up and interval, or MindCV's EMA",
        ),
        (
            r"accelerate\.(\w+\.)?Accelerator$",
            "the training loop's wrapper (device placement, mixed precision, gradient "
            "accumulation and data-parallel wrapping through prepare, backward and autocast)",
            "a MindSpore train step written out: mindspore.value_and_grad with the optimizer, "
            "amp.auto_mixed_precision with a loss scaler, gradient accumulation and data "
            "parallelism through mindspore.communication",
        ),
        (
            r"timm\.utils\.(\w+\.)?(NativeScaler|ApexScaler)$",
            "the loss scaler of mixed precision (with gradient clipping in its step)",
            "mindspore.amp's DynamicLossScaler in the train step",
        ),
        (
            r"(?:pytorch_lightning|lightning)\.(?:lite\.)?(?:\w+\.)*LightningLite$"
            r"|(?:lightning\.fabric|lightning_fabric|lightning)\.(?:\w+\.)*Fabric$",
            "the training loop's launcher (a LightningLite/Fabric subclass whose run trains: "
            "device placement, mixed precision by its precision argument, data-parallel "
            "wrapping and sharded loaders through setup, setup_dataloaders and backward)",
            "a MindSpore train step written out: mindspore.value_and_grad with the optimizer, "
            "amp.auto_mixed_precision at the launcher's precision, data parallelism and "
            "the dataset's shards through mindspore.communication",
        ),
        (
            r"(?:pytorch_lightning|lightning(?:\.pytorch|\.fabric)?|lightning_fabric)"
            r"\.(?:\w+\.)*(?:DDP|FSDP|DeepSpeed)\w*Strategy$",
            "data-parallel or sharded training through the launcher's strategy (gradients "
            "all-reduced across devices and nodes)",
            "MindSpore's data-parallel (or semi-auto parallel) mode set with "
            "set_auto_parallel_context, the gradients reduced in the train step",
        ),
        (
            # a base model loaded in 8 or 4 bits by bitsandbytes, prepared for adapter
            # training (``load_in_8bit=True`` then ``prepare_model_for_int8_training``)
            r"peft\.(\w+\.)?prepare_model_for_(int8|kbit)_training$",
            "the preparation of a base model loaded with 8-bit or 4-bit weights (bitsandbytes' "
            "quantised matmuls, norms cast to float32, input gradients and gradient "
            "checkpointing enabled) for adapter training",
            "the base model loaded in float16 or bfloat16 (MindSpore has no bitsandbytes "
            "quantised layers: about twice the weight memory of 8 bits), the norms kept in "
            "float32 and recomputation (Cell.recompute) set by hand",
        ),
        (
            # parameter-efficient fine-tuning: adapters injected into a pretrained model
            r"peft\.(\w+\.)?\w+$",
            "the adapters injected into the pretrained model's layers (LoRA's low-rank "
            "matrices on the target modules, with the rank, alpha, dropout and targets of "
            "its config), the base weights frozen, only the adapters' state saved and loaded",
            "MindNLP's peft (LoraConfig, get_peft_model) with the same settings, or the "
            "low-rank layers written as Cells wrapping the target Dense layers, the base "
            "parameters set requires_grad=False and the adapters' state saved apart",
        ),
        (
            r"transformers\.(?:\w+\.)*(?:Seq2Seq)?Trainer$",
            "the training loop of transformers' Trainer (AdamW with weight decay kept off "
            "biases and norms, the LR schedule and warm-up of its TrainingArguments, gradient "
            "accumulation, mixed precision, FSDP or DeepSpeed sharding, checkpoints)",
            "MindNLP's Trainer with the same arguments, or a MindSpore train step written out "
            "(mindspore.value_and_grad with AdamWeightDecay over the same parameter groups, "
            "the warm-up and decay as a per-step list, gradient accumulation)",
        ),
        (
            # OpenMMLab's runner (SegFormer's ``train_segmentor``: ``IterBasedRunner(model,
            # optimizer=build_optimizer(model, cfg.optimizer), ...)``, its hooks registered
            # from the config, ``runner.run``)
            r"mm(cv|engine)\.runner\.(\w+\.)?(build_runner|\w*BasedRunner|Runner"
            r"|build_optimizer\w*|\w*OptimizerHook|\w*OptimWrapper\w*)$",
            "the training loop of the config-driven runner (the optimizer built from the "
            "config with its per-parameter multipliers, the LR and optimizer hooks with "
            "warm-up and clipping, the epoch or iteration loop, checkpoints and logs)",
            "a MindSpore train step written out (mindspore.value_and_grad with the "
            "optimizer, the parameter groups built by hand from the multipliers, the LR "
            "schedule as a per-step list) and a loop over the dataset",
        ),
        (
            r"mmcv\.parallel\.(\w+\.)?(MMDataParallel|MMDistributedDataParallel|collate"
            r"|scatter\w*|DataContainer)$",
            "data-parallel wrapping and the collate of DataContainer batches (images "
            "stacked, per-image metas kept as lists)",
            "MindSpore's data-parallel mode (the gradients reduced in the train step) and "
            "a mindspore.dataset batch of fixed-size arrays with the metas kept aside",
        ),
        (
            r"apex\.parallel\.(LARC\.)?LARC$",
            "layer-wise adaptive rate control wrapped around the optimizer (LARC: each "
            "layer's step scaled by its trust ratio, clipped or not)",
            "mindspore.nn.LARS around the optimizer with the same trust coefficient, the "
            "clipping checked by hand",
        ),
        (
            r"apex\.optimizers\.(\w+\.)?Fused\w+$",
            "an optimizer whose update runs as fused multi-tensor kernels (a speed-up of "
            "the same update)",
            "mindspore.nn's optimizer of the same algorithm (Adam, AdamWeightDecay, Lamb, "
            "SGD) with the same hyper-parameters",
        ),
        (
            r"apex\.amp\.(\w+\.)?(initialize|scale_loss|state_dict|load_state_dict"
            r"|master_params)$",
            "mixed precision (casts by optimisation level, dynamic loss scaling)",
            "mindspore.amp's auto_mixed_precision at the matching level and its "
            "DynamicLossScaler in the train step",
        ),
        (
            r"apex\.parallel\.(\w+\.)?(DistributedDataParallel|SyncBatchNorm"
            r"|convert_syncbn_model|create_syncbn_process_group)$",
            "data-parallel training (the model wrapped for gradient all-reduce, "
            "BatchNorm synchronised across devices)",
            "MindSpore's data-parallel mode (the gradients reduced in the train step) and "
            "mindspore.nn.SyncBatchNorm",
        ),
    )
)


#: Pure-Python libraries the network's own code calls, with no MindSpore backend: no API
#: table lists them and no compiled op is involved, yet every call is rewritten in MindSpore
#: ops. Top-level module → (what the network uses it for, what the port writes instead).
NETWORK_HELPER_LIBRARIES: dict[str, tuple[str, str]] = {
    "einops": (
        "tensor rearrangements written as pattern strings (rearrange, reduce, repeat, "
        "pack/unpack, and its Rearrange/Reduce layers)",
        "each pattern as reshape and transpose (mindspore.ops.reshape, "
        "ops.transpose, ops.tile, mean/sum over the reduced axes) and each layer as a small "
        "Cell doing the same: einops has no MindSpore backend",
    ),
}

#: Evaluation metrics that run a network of their own with released weights (FID's
#: Inception-v3): the port needs them only to evaluate, so their work is counted apart from
#: the effort. Top-level module → (what it computes, the MindSpore route).
EVALUATION_LIBRARIES: dict[str, tuple[str, str]] = {
    "pytorch_fid": (
        "FID (Inception-v3 features of real and generated images, with the metric's "
        "released Inception weights)",
        "compute FID with the PyTorch package on saved samples, or port Inception-v3 (MindCV) "
        "and convert the FID weights, checked against pytorch_fid's statistics",
    ),
    "torch_fidelity": (
        "generative metrics (FID, KID, IS) on Inception-v3 features with released weights",
        "compute them with the PyTorch package on saved samples, or port Inception-v3 and "
        "convert its weights",
    ),
    "cleanfid": (
        "FID/KID on Inception-v3 features with released weights",
        "compute it with the PyTorch package on saved samples, or port Inception-v3 and "
        "convert its weights",
    ),
}


def training_piece(name: str) -> int | None:
    """The index in :data:`TRAINING_PIECES` of the piece of training a third-party dotted
    name is (``apex.parallel.LARC.LARC``: the LARC optimizer wrapper), None for another
    name."""
    return next((n for n, e in enumerate(TRAINING_PIECES) if e[0].match(name)), None)


#: Submodules of a listed package that hold no network op (host utilities, data loading,
#: configuration): a use of these alone is not work.
_HOST_PARTS = frozenset(
    {"data", "datasets", "io", "utils", "transforms", "loader", "fileio", "runner", "Config"}
)


#: A library's mixed-precision cast decorators (apex's ``amp.float_function(_C.nms)``,
#: ``@amp.half_function``): the wrapped op runs in float32 (or float16) under AMP. No kernel
#: of the library: the port deletes the wrapper and casts the op's inputs where MindSpore's
#: mixed precision would not (``x.astype(mindspore.float32)``), so it is no op to port.
CAST_DECORATORS = re.compile(
    r"^apex\.amp\.(?:\w+\.)?(?:register_)?(?:half|float|bfloat16|promote)_function$"
)


def _cast_decorator(name: str) -> bool:
    """Whether a dotted name is one of :data:`CAST_DECORATORS`."""
    return bool(CAST_DECORATORS.match(name))


@dataclass(frozen=True, slots=True)
class LibraryUse:
    """One library of :data:`NETWORK_OP_LIBRARIES` used in the network's files: the dotted
    names used from it and where each is first used. ``inputs``: where a training step
    builds the network's input as the library's own tensor (``ME.SparseTensor(...)`` in the
    function that runs the backward pass): the whole network then runs on the library."""

    library: str
    sparse: bool
    ops: tuple[tuple[str, Where], ...]
    inputs: tuple[tuple[str, Where], ...] = ()


#: The tensor type of a sparse library (``MinkowskiEngine.SparseTensor``,
#: ``spconv.pytorch.SparseConvTensor``, ``torchsparse.SparseTensor``, ``TensorField``).
_LIBRARY_TENSOR = re.compile(r"\.(?:Sparse\w*Tensor|TensorField)$")


def _network_op(name: str) -> bool:
    """Whether a dotted name used from a listed package is a network op, not one of its host
    submodules (``torch_geometric.data.Data``), a piece of training with a MindSpore
    counterpart (:data:`TRAINING_PIECES`: apex's LARC optimizer wrapper), a cast decorator
    (:data:`CAST_DECORATORS`) or the bare package."""
    parts = name.split(".")
    return (
        len(parts) > 1
        and not any(p in _HOST_PARTS for p in parts[1:])
        and training_piece(name) is None
        and not _cast_decorator(name)
    )


def _namespace(name: str, names: Iterable[str]) -> bool:
    """Whether a name used from a library is no op of its own: a submodule or a class whose
    members the file uses (``MinkowskiEngine.MinkowskiFunctional`` imported as ``MEF`` for
    ``MEF.relu``; ``ME.MinkowskiNetwork`` for its ``__init__``), or a constructor called
    through ``super().__init__``: the op kinds are the names used inside them."""
    return name.endswith(".__init__") or any(n.startswith(name + ".") for n in names)


def absolute_calls(facts: SyntaxFacts) -> Iterator[tuple[str, int, int]]:
    """(absolute dotted name, line, index of the enclosing def in ``facts.values.defs``) of
    each call of a file whose callee is a dotted name (``ME.SparseTensor(...)`` with ``import
    MinkowskiEngine as ME``: ``MinkowskiEngine.SparseTensor``), through the file's imports."""
    for full, call in absolute_call_values(facts):
        yield full, call.expr.line, call.function


def absolute_call_values(facts: SyntaxFacts) -> Iterator[tuple[str, CallValues]]:
    """(absolute dotted name, the call's value record) of each call :func:`absolute_calls`
    names: what its arguments are (an einops pattern string)."""
    imports = dict(facts.imports)
    for call in facts.values.calls if facts.values is not None else ():
        links: list[str] = []
        e = call.expr.parts[0] if call.expr.parts else None
        while e is not None and e.kind == "Attribute" and e.parts:
            links.append(e.name)
            e = e.parts[0]
        if e is None or e.kind != "Name" or not e.name:
            continue
        head, dot, rest = ".".join([e.name, *reversed(links)]).partition(".")
        yield imports.get(head, head) + dot + rest, call


def _call_lines(facts: SyntaxFacts) -> dict[str, int]:
    """The first line each absolute dotted name is called on in a file."""
    lines: dict[str, int] = {}
    for full, line, _ in absolute_calls(facts):
        if full not in lines or line < lines[full]:
            lines[full] = line
    return lines


def network_library_uses(
    result: ScanResult,
    analyses: Sequence[FileAnalysis],
    apart: Callable[[str], str] | None = None,
) -> tuple[LibraryUse, ...]:
    """The libraries of :data:`NETWORK_OP_LIBRARIES` the network's files use: a file with a
    torch call site in the network scope, not counted apart (``apart(path)`` empty), whose
    imports name one (ConvNeXt-V2's ``models/convnextv2_sparse.py``: ``MinkowskiEngine``'s
    ``MinkowskiConvolution``). Files of only data or host code are left out, and so is an
    optional import (in a ``try:`` whose handler catches ``ImportError``: timm's ``apex``
    fused norms, off unless the library is installed, beside the PyTorch path they speed
    up): the port keeps the fallback. The repository's own package of a library's name is
    no library (a clone that vendors ``pointnet2_ops/`` beside its models and builds its
    kernels with its own ``setup.py``): its Python layers are ported as the repository's
    code is, and its compiled kernels are the extension's custom ops, priced once there."""
    from apiscan.review.gaps import own_packages

    own = own_packages(analyses)
    network = {f.path for f in result.api_findings if f.scope == "network"}
    steps = {(f.path, f.function) for f in result.api_findings if STEP_COMPUTATION.match(f.api)}
    found: dict[str, dict[str, Where]] = {}
    inputs: dict[str, dict[str, Where]] = {}
    for fa, facts in with_facts(analyses):
        if apart is not None and apart(fa.path):
            continue
        # the training step that builds the input is usually a host file's (a trainer)
        for where, name in _step_inputs(fa, facts, steps):
            top = name.partition(".")[0]
            if top in NETWORK_OP_LIBRARIES and NETWORK_OP_LIBRARIES[top][1] and top not in own:
                inputs.setdefault(NETWORK_OP_LIBRARIES[top][0], {}).setdefault(name, where)
        if fa.path not in network:
            continue
        lines = _call_lines(facts)
        for top, names in facts.package_uses:
            if top not in NETWORK_OP_LIBRARIES or top in facts.optional_packages or top in own:
                continue
            library = NETWORK_OP_LIBRARIES[top][0]
            ops_under = _OP_MODULES.get(top)
            for name in sorted(names):
                if not _network_op(name) or _namespace(name, names):
                    continue
                if ops_under is not None and not name.startswith(ops_under):
                    continue  # mmcv.cnn.ConvModule: a layer written in Python, no kernel
                found.setdefault(library, {}).setdefault(name, place(fa, lines.get(name, 1)))
    sparse = {lib for lib, is_sparse in NETWORK_OP_LIBRARIES.values() if is_sparse}
    return tuple(
        LibraryUse(
            library=lib,
            sparse=lib in sparse,
            ops=tuple(sorted(ops.items())),
            inputs=tuple(sorted(inputs.get(lib, {}).items())),
        )
        for lib, ops in sorted(found.items())
    )


def _step_inputs(
    fa: FileAnalysis, facts: SyntaxFacts, steps: set[tuple[str, str]]
) -> Iterator[tuple[Where, str]]:
    """(where, name) of each sparse library's tensor a training step builds (a function that
    runs the backward pass or computes a loss): FCGF's trainer makes every batch a
    ``ME.SparseTensor`` before calling the model, so no layer of the network sees a dense
    tensor. One built inside a ``forward`` (a masked autoencoder's sparse encoder turning its
    dense input sparse) is a part of the network, not its input."""
    defs = facts.values.defs if facts.values is not None else ()
    for name, line, function in absolute_calls(facts):
        if not _LIBRARY_TENSOR.search(name) or not 0 <= function < len(defs):
            continue
        if (fa.path, defs[function].qual) in steps:
            yield place(fa, line), name


#: What a library's work item says after its name: the effort's MindTorch route reads it.
OF_LIBRARY = "third-party compiled ops: "


def library_what(library: str, ops: Sequence[str]) -> str:
    """The ``what`` of a library's work item: ``MinkowskiEngine (third-party compiled ops:
    MinkowskiEngine.MinkowskiConvolution, MinkowskiEngine.SparseTensor)``."""
    return f"{library} ({OF_LIBRARY}{', '.join(ops)})"


def library_label(what: str) -> str:
    """The library a work item's ``what`` names through :data:`OF_LIBRARY` ("" when none)."""
    return what.partition(" (")[0] if f" ({OF_LIBRARY}" in what else ""


def library_ops(what: str) -> tuple[str, ...]:
    """The op kinds a library's work item lists (none for another item)."""
    if not library_label(what):
        return ()
    return tuple(what.partition(f" ({OF_LIBRARY}")[2].rstrip(")").split(", "))


#: Tensor-parallel libraries whose layers a model is built from (LLaMA's fairscale
#: ``ColumnParallelLinear``, ``RowParallelLinear``, ``ParallelEmbedding`` and its
#: ``initialize_model_parallel``): namespace → the library's name.
MODEL_PARALLEL_LIBRARIES: dict[str, str] = {
    "fairscale.nn.model_parallel.": "fairscale model parallelism",
    "megatron.core.tensor_parallel.": "Megatron-LM tensor parallelism",
    "megatron.core.parallel_state.": "Megatron-LM tensor parallelism",
}


def model_parallel_library(name: str) -> str:
    """The library of :data:`MODEL_PARALLEL_LIBRARIES` a dotted name belongs to ("")."""
    return next((lib for p, lib in MODEL_PARALLEL_LIBRARIES.items() if name.startswith(p)), "")


#: What a third-party package's call is used for, read from the call itself: a package none
#: of the tables above knows is known by what the ported code does with it. A loader whose
#: result the network holds (shap-e's ``self.clip_model, self.preprocess = clip.load(...)``
#: in a Module's ``__init__``) or that is handed a device or weights (``device=``,
#: ``download_root=``, ``pretrained=``) is a pretrained model the network calls.
MODEL_LOADER = re.compile(
    r"^(?:load(?:_model|_pretrained|_from_checkpoint)?|from_pretrained|create_model\w*"
    r"|build_model|get_model)$"
)
#: Keywords that hand a loader a device or released weights: a model, not a file's contents.
MODEL_KEYWORDS = frozenset(
    {"device", "download_root", "pretrained", "weights", "cache_dir", "checkpoint", "jit"}
)
#: Objects of a data pipeline by their class names (torchtext's ``Field``,
#: ``BucketIterator``, ``TranslationDataset``; a tokenizer, a vocabulary, a sampler), or by
#: the package's module they come from (``<package>.data.X``, ``<package>.datasets.X``).
DATA_OBJECT = re.compile(
    r"(?:Dataset|DataLoader|Loader|Iterator|Field|Vocab\w*|Sampler|Tokeni[sz]er|Collat\w*)$"
)
DATA_MODULE = frozenset({"data", "datasets", "dataset", "loader", "loaders"})

#: What each use makes of a third-party package, strongest first: the item's kind, what it
#: is, and what a MindSpore port does with it.
THIRD_PARTY_USES: dict[str, tuple[str, str]] = {
    "third-party-model": (
        "a pretrained model of a third-party package the network calls",
        "a MindSpore port of that model (a counterpart in MindSpore's model suites where one "
        "exists) with its released weights converted and its outputs checked against the "
        "package's, or the model kept outside the compiled graph with its outputs fed in",
    ),
    "third-party-layer": (
        "layers or functions of a third-party package the network runs",
        "each class ported as a MindSpore Cell (its kernels as custom ops where it compiles "
        "some) and checked against the package's outputs: MindSpore has no such package",
    ),
    "third-party-data": (
        "the data pipeline's objects of a third-party package (datasets, fields, "
        "iterators, tokenizers)",
        "the same steps as a mindspore.dataset pipeline (a GeneratorDataset; tokenisation, "
        "vocabulary lookup and padding with mindspore.dataset.text ops; "
        "bucket_batch_by_length for length buckets), or the package kept on the host "
        "feeding NumPy batches",
    ),
}


def data_object(name: str) -> bool:
    """Whether a third-party dotted name is a data pipeline's object (:data:`DATA_OBJECT`,
    :data:`DATA_MODULE`): ``torchtext.data.Field``, ``torchtext.data.BucketIterator``, or
    a constructor of one (``AutoTokenizer.from_pretrained``: a tokenizer, not a model)."""
    parts = name.split(".")
    tail = parts[-1]
    if any(p[:1].isupper() and DATA_OBJECT.search(p) for p in parts[1:-1]):
        return True
    return tail[:1].isupper() and (
        bool(DATA_OBJECT.search(tail)) or any(p in DATA_MODULE for p in parts[1:-1])
    )
