"""The known ways of porting an API the mapping tables give no counterpart: a dtype's tensor
constructor (``torch.FloatTensor(x)``: ``mindspore.Tensor(x, mindspore.float32)``), a module
cast, a functional image transform, an interpolation mode, a layer's parameter, a runtime
query, an exception class, a sampler's epoch hook, a picture for the logs
(``torchvision.utils.save_image``), the context of an autograd Function...

The scan's disposition reads them (:func:`apiscan.rewrite.dispose`): an API with a known way
is that way (a rewrite or a deletion), not a gap, so the scan's report and the review count
the same gap sites. One home: the review reads the dispositions, never this table again.
"""

from __future__ import annotations

import re

from apiscan.rewrite import is_setting

#: Gaps (no counterpart in the tables) the port handles in a known way: (disposition, how).
_TENSOR_TYPES = {
    "IntTensor": "int32",
    "LongTensor": "int64",
    "FloatTensor": "float32",
    "DoubleTensor": "float64",
    "HalfTensor": "float16",
    "BoolTensor": "bool_",
    "ByteTensor": "uint8",
}
GAP_REWRITES: dict[str, tuple[str, str]] = {
    **{
        f"{module}.{name}": ("rewrite", f"mindspore.Tensor(data, dtype=mindspore.{dtype})")
        for name, dtype in _TENSOR_TYPES.items()
        for module in ("torch", "torch.cuda")  # placement is global in MindSpore
    },
    # a pickled object sent through a collective (YOLOX's all_gather of arbitrary objects)
    **dict.fromkeys(
        ("torch.TypedStorage.from_buffer", "torch.ByteStorage.from_buffer"),
        ("rewrite", "mindspore.Tensor(numpy.frombuffer(buffer, dtype=numpy.uint8))"),
    ),
    # markers of tracing, profiling, cuDNN and device placement: nothing to port
    **dict.fromkeys(
        (
            "torch.jit.script_if_tracing",
            "torch.fx.proxy.TraceError",
            "torch.autograd.profiler.record_function",
            "torch.legacy_contiguous_format",
            "torch.nn.RNNBase.flatten_parameters",
            "torch.backends.cudnn.flags",
            "torch.cuda.device",
            "torch.cuda.device_of",
            "torch.cuda.current_device",
            "torch.Tensor.is_quantized",
        ),
        (
            "delete",
            "nothing to port: a tracing, profiling or cuDNN marker, or device placement "
            "(global in MindSpore), deleted with the branch or statement it guards",
        ),
    ),
    **dict.fromkeys(
        (
            "torch.backends.cudnn.allow_tf32",
            "torch.compiler.disable",
            "torch.jit.save",
            "torch.version.debug",
            "torch.cuda.get_device_name",
            "torch.cuda.get_device_capability",
            # gradient compression of DDP's all-reduce: an optimisation, not the algorithm
            "torch.distributed.algorithms.ddp_comm_hooks.default_hooks.fp16_compress_hook",
            "torch.nn.parallel.DistributedDataParallel.register_comm_hook",
        ),
        (
            "delete",
            "nothing to port: a backend setting, compiler or TorchScript switch, device "
            "report or communication optimisation of the PyTorch runtime",
        ),
    ),
    "torch.distributed.Backend.NCCL": (
        "rewrite",
        "mindspore.communication.init('nccl') on GPU, init('hccl') on Ascend",
    ),
    "torch.GradScaler.get_scale": (
        "rewrite",
        "the loss scale of mindspore.amp.DynamicLossScaler (its scale_value)",
    ),
    "torch.nn.ParameterList.append": (
        "rewrite",
        "collect the Parameters in a list first, then mindspore.ParameterTuple (immutable)",
    ),
    "torch.utils.data.Subset": (
        "rewrite",
        "mindspore.dataset.GeneratorDataset(source, sampler=mindspore.dataset.SubsetSampler("
        "indices)), or index the source's items with the indices before wrapping it",
    ),
    "torch.utils.data.IterableDataset": (
        "rewrite",
        "mindspore.dataset.GeneratorDataset over the iterable (its __iter__ as the source)",
    ),
    "torch.nn.Module.__init__": ("rewrite", "mindspore.nn.Cell.__init__(self)"),
    "torch.nn.Module.__call__": ("rewrite", "mindspore.nn.Cell.__call__ (construct runs)"),
    **dict.fromkeys(
        ("torch.nn.utils.spectral_norm", "torch.nn.utils.remove_weight_norm"),
        (
            "rewrite",
            "keep the raw weight as a parameter and normalise it in construct (spectral: "
            "one power iteration on a buffered vector); removing it folds the weight once",
        ),
    ),
    **dict.fromkeys(
        ("torch.onnx.operators.shape_as_tensor", "torch.onnx.operators.reshape_from_tensor_shape"),
        ("rewrite", "x.shape and x.reshape(shape): the ONNX-export spellings of the plain ops"),
    ),
    # a dtype in an annotation or an isinstance test: MindSpore's dtype class
    "torch.dtype": ("rewrite", "mindspore.Type (mindspore.float32 and friends are its values)"),
    "torch.distributed.group.WORLD": (
        "rewrite",
        "mindspore.communication.GlobalComm.WORLD_COMM_GROUP",
    ),
    **{
        f"torch.nn.Module.{cast}": ("rewrite", f"net.to_float(mindspore.{dtype})")
        for cast, dtype in (("float", "float32"), ("half", "float16"), ("double", "float64"))
    },
    "torch.jit.load": (
        "delete",
        "the released archive is converted once (Porting work: checkpoint loading) and "
        "loaded with mindspore.load_checkpoint",
    ),
    "torch.nn.utils.weight_norm": (
        "rewrite",
        "keep g and v as parameters and compute w = g * v / v.norm(dim=1, keepdim=True) in "
        "construct (DINO's head)",
    ),
    # a shape is a tuple in MindSpore: torch.Size(...) is the tuple itself (DPT's Unflatten)
    "torch.Size": ("rewrite", "a tuple of ints: MindSpore shapes are plain tuples"),
    # weights fetched by URL or through the hub: converted once, counted under Porting work
    **dict.fromkeys(
        (
            "torch.hub.load_state_dict_from_url",
            "torch.utils.model_zoo.load_url",
        ),
        (
            "delete",
            "the downloaded weights are converted once to a MindSpore checkpoint (counted "
            "under Porting work) and loaded with mindspore.load_checkpoint",
        ),
    ),
    "torch.hub.load": (
        "delete",
        "counted under Porting work (pretrained backbone): a MindSpore counterpart of the "
        "hub model and, with its weights, their conversion",
    ),
    **dict.fromkeys(
        (
            "torch.optim.lr_scheduler.ReduceLROnPlateau",
            "torch.optim.lr_scheduler.ReduceLROnPlateau.step",
        ),
        (
            "rewrite",
            "mindspore.experimental.optim.lr_scheduler.ReduceLROnPlateau(optimizer, ...) "
            "and its step(metric)",
        ),
    ),
}
# single-process DataParallel machinery (a repository's own DataParallel with chunk sizes,
# CenterNet's): MindSpore's data parallelism is set once and replaces the whole module
GAP_REWRITES.update(
    dict.fromkeys(
        (
            "torch.nn.parallel.replicate",
            "torch.nn.parallel.scatter",
            "torch.nn.parallel.gather",
            "torch.nn.parallel.parallel_apply",
            "torch.nn.parallel.scatter_gather.scatter",
            "torch.nn.parallel.scatter_gather.scatter_kwargs",
            "torch.nn.parallel.scatter_gather.gather",
        ),
        (
            "rewrite",
            "nothing to replicate by hand: mindspore.set_auto_parallel_context("
            "parallel_mode=ParallelMode.DATA_PARALLEL) replaces the DataParallel module it "
            "belongs to",
        ),
    )
)
# differentiable collectives (a contrastive loss gathering features from every rank):
# MindSpore's collective primitives carry their own bprop, so the gradient flows back
GAP_REWRITES["torch.distributed.nn.all_gather"] = (
    "rewrite",
    "mindspore.ops.AllGather()(x) (differentiable: its bprop reduce-scatters the gradient), "
    "split along axis 0 into the per-rank list torch returns",
)
GAP_REWRITES["torch.distributed.nn.functional.all_gather"] = GAP_REWRITES[
    "torch.distributed.nn.all_gather"
]
GAP_REWRITES["torch.distributed.nn.all_reduce"] = (
    "rewrite",
    "mindspore.ops.AllReduce()(x) (differentiable: its bprop all-reduces the gradient)",
)
GAP_REWRITES["torch.distributed.nn.functional.all_reduce"] = GAP_REWRITES[
    "torch.distributed.nn.all_reduce"
]
# the generator state saved with a checkpoint: MindSpore's global generator state
GAP_REWRITES["torch.cuda.get_rng_state"] = ("rewrite", "mindspore.get_rng_state()")
GAP_REWRITES["torch.cuda.set_rng_state"] = ("rewrite", "mindspore.set_rng_state(state)")
GAP_REWRITES["torch.GradScaler.get_backoff_factor"] = (
    "rewrite",
    "the scale_factor of mindspore.amp.DynamicLossScaler (it divides the scale by it)",
)
# host I/O helpers: plain Python on the host, no tensor computation
GAP_REWRITES["torch.hub.download_url_to_file"] = (
    "rewrite",
    "plain Python on the host: urllib.request.urlretrieve (and hashlib for the check)",
)
GAP_REWRITES["torchvision.utils.save_image"] = (
    "rewrite",
    "on the host: the array (a grid by numpy concatenation) saved with PIL.Image.fromarray",
)
# type tests of tensor kinds MindSpore spells as classes (an isinstance branch)
GAP_REWRITES["torch.Tensor.is_sparse"] = (
    "rewrite",
    "isinstance(x, (mindspore.COOTensor, mindspore.CSRTensor))",
)
GAP_REWRITES["torch.distributed.tensor.DTensor"] = (
    "rewrite",
    "no distributed tensor class: MindSpore's parallel modes shard implicitly, so the "
    "isinstance branch that tests for one is dropped",
)
GAP_REWRITES["torch.utils.data.random_split"] = (
    "rewrite",
    "dataset.split([n_train, n_val], randomize=True) of the mindspore.dataset pipeline",
)
# a numerical gradient check of a hand-written backward pass: a test, never ported
GAP_REWRITES["torch.autograd.gradcheck"] = (
    "delete",
    "a test of a hand-written backward pass: check the port's bprop against finite "
    "differences in a test, not in the model",
)
GAP_REWRITES["torch.utils.data.TensorDataset"] = (
    "rewrite",
    "mindspore.dataset.NumpySlicesDataset((x, y), column_names=[...]) over the arrays",
)
#: Quantization stubs of a float model: ``FloatFunctional().add(a, b)`` is ``a + b`` until
#: the model is quantized (DPT's residual units), so the port writes the plain op.
_FLOAT_FUNCTIONAL = ("torch.ao.nn.quantized.FloatFunctional", "torch.nn.quantized.FloatFunctional")
for _module in _FLOAT_FUNCTIONAL:
    GAP_REWRITES[_module] = (
        "rewrite",
        "nothing to build: a float model's FloatFunctional is the plain op (delete the module)",
    )
    for _op, _plain in (
        ("add", "a + b"),
        ("add_scalar", "a + s"),
        ("mul", "a * b"),
        ("mul_scalar", "a * s"),
        ("add_relu", "relu(a + b)"),
        ("cat", "mindspore.ops.cat"),
    ):
        GAP_REWRITES[f"{_module}.{_op}"] = ("rewrite", f"the plain op: {_plain}")
#: A ``Lambda`` transform is the Python function itself, which ``mindspore.dataset`` maps as
#: it is (ml-depth-pro's ``Lambda(lambda x: x.to(device))``).
for _lambda in ("torchvision.transforms.Lambda", "torchvision.transforms.v2.Lambda"):
    GAP_REWRITES[_lambda] = (
        "rewrite",
        "the function itself: mindspore.dataset's map(operations=[...]) takes Python callables",
    )
#: Prefixes of enumerations with a MindSpore twin.
_GAP_PREFIXES = (
    (
        "torchvision.models.",
        (
            "rewrite",
            "counted under Porting work (pretrained backbone): a MindSpore counterpart of the "
            "architecture and, with pretrained weights, their conversion",
        ),
    ),
    (
        "torchvision.transforms.functional.",
        (
            "rewrite",
            "the mindspore.dataset.vision transform of the same operation (AdjustBrightness, "
            "HorizontalFlip, Resize, Normalize, ToTensor...), or PIL/numpy in the data pipeline",
        ),
    ),
    (
        "torchvision.transforms.InterpolationMode.",
        ("rewrite", "mindspore.dataset.vision.Inter of the same name"),
    ),
    (
        # pickle allow-lists of torch.load: the checkpoint is converted once instead
        "torch.serialization.",
        (
            "delete",
            "the checkpoint is converted once (Porting work: checkpoint loading); "
            "mindspore.load_checkpoint reads no pickles",
        ),
    ),
    *(
        (
            prefix,
            ("delete", "nothing to port: profiling, ONNX export or environment reporting"),
        )
        for prefix in (
            "torch.profiler.",
            "torch.autograd.profiler.",
            "torch.cuda.profiler.",
            "torch.cuda.nvtx.",
            "torch.onnx.",
            "torch.utils.collect_env.",
        )
    ),
    (
        # the build directory lock of a compiled extension's just-in-time build
        # (stylegan2-ada's custom_ops.py: FileBaton, try_acquire, wait, release): it goes with
        # the build; the compiled ops are the work, counted with cpp_extension.load and listed
        # under Custom extensions
        "torch.utils.cpp_extension.FileBaton",
        (
            "delete",
            "nothing to port: a lock around the extension's build, which goes with it (the "
            "compiled ops themselves are counted with torch.utils.cpp_extension.load)",
        ),
    ),
    (
        # a warning class silenced around tracing (warnings.filterwarnings): no tracing to do
        "torch.jit.TracerWarning",
        ("delete", "nothing to port: a warning class filtered around TorchScript tracing"),
    ),
    *(
        (
            # an isinstance test against TorchScript's classes (a module summary asserting
            # ``not isinstance(module, torch.jit.ScriptModule)``): a port holds no scripted
            # module, so the test is always the same and goes
            name,
            (
                "delete",
                "nothing to port: an isinstance test against a TorchScript class, which a "
                "MindSpore port never holds; the test goes with it",
            ),
        )
        for name in (
            "torch.jit.ScriptModule",
            "torch.jit.RecursiveScriptModule",
            "torch.jit.ScriptFunction",
        )
    ),
    (
        # the helpers of a hand-written activation checkpointing (fairseq's
        # checkpoint_activations): MindSpore recomputes a cell's activations itself
        "torch.utils.checkpoint.",
        (
            "rewrite",
            "cell.recompute() on the checkpointed cell replaces the hand-written "
            "checkpointing function and its helpers",
        ),
    ),
    (
        "torch.distributed.ReduceOp.",
        ("rewrite", "mindspore.ops.ReduceOp of the same name (SUM, MAX, MIN, PROD)"),
    ),
    (
        # a logger of host scalars: no tensor computation
        "torch.utils.tensorboard.",
        (
            "rewrite",
            "mindspore.SummaryRecord (add_value + record), or tensorboardX on host scalars",
        ),
    ),
    (
        # download and checksum helpers of the data sets: plain Python, kept as they are
        "torchvision.datasets.utils.",
        ("rewrite", "plain Python on the host: keep torchvision's helper, or urllib/hashlib"),
    ),
    (
        "torchvision.datasets.",
        (
            "rewrite",
            "mindspore.dataset's loader of the same data set (ImageFolderDataset, "
            "Cifar10Dataset, CocoDataset...), or a GeneratorDataset over the torchvision one",
        ),
    ),
)


#: A layer's parameter read as an attribute (``conv.weight`` for an initialiser): the
#: MindSpore cell has the same Parameter (BatchNorm's are gamma/beta).
_PARAMETER = re.compile(r"^torch\.nn\.[A-Z]\w*\.(weight|bias)$")


#: Queries of the device and runtime (``torch.backends.mps.is_available()``,
#: ``torch.backends.cudnn.version()``) and the host's multiprocessing switches: they pick a
#: device, report the environment or configure worker processes; MindSpore sets the target
#: once (``mindspore.set_context(device_target=...)``) and runs its own dataset workers.
_RUNTIME_QUERY = re.compile(
    r"^torch\.(get_default_device|cuda\.get_device_\w+|cuda\.get_arch_list"
    r"|backends\.\w+\.(is_available|is_built|version)"
    # the build's version strings (torch.version.cuda, .hip, .git_version): what a log line
    # or a start-up check reads, nothing computed (mindspore.__version__ stands in)
    r"|version\.\w+"
    r"|multiprocessing\.(set|get)_\w+)$"
)
#: Host-side measurements of a device runtime (a timing event's ``.elapsed_time()``,
#: ``torch.cuda.synchronize()`` before reading a clock, ``max_memory_allocated()``,
#: ``memory_reserved()``, ``mem_get_info()``, ``torch.mps``'s gauges, cache flushes): they
#: feed a timing or memory log line, nothing the model computes. mindspore.runtime has most
#: under the same name (Event, synchronize, memory_allocated...); the rest is
#: ``time.perf_counter()`` or the log line dropped. An event's ``record``/``wait`` is not
#: among them: events also order work across streams, which a port must keep.
_DEVICE_GAUGE = re.compile(
    r"^torch\.(?:cuda|mps|xpu)\.(?:(?:streams\.|event\.)?Event\.elapsed_time|synchronize"
    r"|empty_cache|mem_get_info|utilization|(?:max_)?memory_\w+"
    r"|reset_(?:peak|max)_memory_\w+|\w+_allocated_memory)$"
)
#: A switch of a PyTorch backend's kernels (``torch.backends.cuda.enable_flash_sdp(True)``,
#: ``torch.backends.cuda.matmul.allow_tf32 = True``, ``sdp_kernel(...)``): which CUDA kernel
#: or precision torch picks, with no counterpart in MindSpore, which picks its own.
_BACKEND_SWITCH = re.compile(
    r"^torch\.backends\.\w+\.(?:\w+\.)?(?:enable_\w+|sdp_kernel|allow_\w+|preferred_\w+"
    r"|set_flags|\w+_sdp_enabled)$"
    # the kernels an attention context may pick from (``sdpa_kernel([SDPBackend.MATH])``,
    # ``SDPBackend.FLASH_ATTENTION``): the choices of a deleted switch
    r"|^torch\.nn\.attention\.SDPBackend(?:\.\w+)?$"
)
#: The parameters by which a model-zoo constructor is told its weights or its architecture
#: (``resnet50(weights=...)``, ``get_model(name, **config)``).
_ZOO_PARAMETERS = frozenset({"weights", "pretrained", "name", "arch", "kwargs", "config"})


#: A parameter giving a layer's channel count (``in_planes``, ``out_channels``): what a
#: layer helper takes, and a graph tool (``create_feature_extractor(model, ...)``) does not.
_CHANNELS = re.compile(r"^(?:in|out)_?(?:planes|channels|chs|features)$|^(?:inp|oup|planes)$")


def _weightless_helper(api: str) -> bool:
    """Whether a function of a model zoo is a layer helper (torchvision's ``conv1x1``,
    ``conv3x3``: ``(in_planes, out_planes, stride)``), by its signature in torch's API
    table: a channel count (:data:`_CHANNELS`) and none of :data:`_ZOO_PARAMETERS`, so no
    weights to load and no architecture to port. An unknown signature, a class or a
    function taking no channel count (a graph tool over a built model) decides nothing."""
    from apiscan.resolve.torch_api import load_torch_api  # no cycle: resolve reads no rewrite

    table = load_torch_api()
    params = table.params(api)
    if not params or table.kind(api) != "function":
        return False
    names = {p[0] for p in params}
    return not names & _ZOO_PARAMETERS and any(_CHANNELS.match(n) for n in names)


#: An exception class of torch (``torch.cuda.OutOfMemoryError`` in an ``except``): what is
#: caught changes, nothing is computed.
_EXCEPTION = re.compile(r"^torch\.([\w.]*\.)?\w*(Error|Exception)$")
#: The schedulers ``mindspore.experimental.optim.lr_scheduler`` has under the same name, with
#: ``step`` and ``get_last_lr`` (no ``state_dict``), as MindSpore 2.x ships them.
MS_LR_SCHEDULERS = frozenset(
    {
        "ConstantLR",
        "CosineAnnealingLR",
        "CosineAnnealingWarmRestarts",
        "CyclicLR",
        "ExponentialLR",
        "LRScheduler",
        "LambdaLR",
        "LinearLR",
        "MultiStepLR",
        "MultiplicativeLR",
        "PolynomialLR",
        "ReduceLROnPlateau",
        "SequentialLR",
        "StepLR",
    }
)
_LR_SCHEDULER = re.compile(r"^torch\.optim\.lr_scheduler\.(\w+)(?:\.(\w+))?$")
#: A scheduler's ``get_lr()`` called from outside (``scheduler.get_lr()[0]`` for a log): the
#: step's formula hook, read as the rate in use (torch warns to call ``get_last_lr``).
#: MindSpore's schedulers give that rate by ``get_last_lr()``: a rename, never a gap.
_LR_READ = "get_lr"
_LR_READ_NOTE = (
    "the rate the last step set, what a log reads (get_lr is the step's formula hook in both "
    "frameworks)"
)
#: A sampler's epoch hook (``DistributedSampler.set_epoch(epoch)``): it reseeds the shuffle.
_SET_EPOCH = re.compile(r"^torch\.utils\.data\.(?:distributed\.)?\w*Sampler\.set_epoch$")
#: torchvision's image-grid and drawing helpers: pictures for a logger or a file.
_VISUALISATION = (
    "torchvision.utils.make_grid",
    "torchvision.utils.save_image",
    "torchvision.utils.draw_",
    "torchvision.utils.flow_to_image",
)
#: A transform's random parameters drawn by its static ``get_params`` (``RandomCrop.
#: get_params(img, size)`` in a paired image/target transform): plain host randomness.
_GET_PARAMS = re.compile(r"^torchvision\.transforms\.(\w+\.)*\w+\.get_params$")
#: The context object of a hand-written backward pass (``ctx.save_for_backward``) and the
#: decorator of that backward (``@once_differentiable``): ported with the
#: ``torch.autograd.Function`` they belong to, which is the work counted.
_FUNCTION_PARTS = (
    "torch.autograd.function.FunctionCtx.",
    "torch.autograd.function.once_differentiable",
)


def gap_rewrite(api: str) -> tuple[str, str] | None:
    """How a gap API is handled when the port knows a way (a dtype's tensor constructor, a
    module cast, a model-zoo constructor counted as a backbone, a functional image transform,
    an interpolation mode, a layer's parameter, a runtime query, an exception class, the
    context of an autograd Function), else None."""
    if api in GAP_REWRITES:
        return GAP_REWRITES[api]
    if is_setting(api) and not api.startswith("torch.backends."):
        return (
            "delete",
            "a process setting or query, no tensor computed: delete it, or one context line "
            "(mindspore.set_context(deterministic='ON') for determinism; printing options "
            "have no counterpart)",
        )
    if api.startswith("torchvision.models.") and _weightless_helper(api):
        return (
            "rewrite",
            "a torchvision helper that builds plain layers, no architecture and no weights: "
            "the same layers with mindspore.nn (conv1x1/conv3x3: nn.Conv2d with that kernel "
            "size, the stride and padding, has_bias=False)",
        )
    if _BACKEND_SWITCH.match(api):
        return (
            "delete",
            "nothing to port: a switch of PyTorch's backend kernels (flash or memory-efficient "
            "attention, TF32 matmuls); MindSpore picks its own kernels",
        )
    if _RUNTIME_QUERY.match(api):
        return (
            "delete",
            "nothing to port: a device or runtime query, or a host multiprocessing switch "
            "(MindSpore sets the device target once and runs its own dataset workers)",
        )
    if _DEVICE_GAUGE.match(api):
        return (
            "delete",
            "nothing to port: a timing or memory measurement for a log line (drop it, or "
            "time.perf_counter() and mindspore.runtime's gauge of the same name where it has "
            "one: Event, synchronize, max_memory_allocated, memory_reserved)",
        )
    if _EXCEPTION.match(api):
        return (
            "rewrite",
            "catch what MindSpore raises instead (RuntimeError, MemoryError), or drop the handler",
        )
    scheduler = _LR_SCHEDULER.match(api)
    if scheduler is not None and scheduler.group(1) in MS_LR_SCHEDULERS:
        cls, method = scheduler.groups()
        target = f"mindspore.experimental.optim.lr_scheduler.{cls}"
        if method in (None, "step", "get_last_lr"):
            return ("rewrite", target + (f".{method}" if method else "(optimizer, ...)"))
        if method == _LR_READ:
            return ("rewrite", f"{target}.get_last_lr(): {_LR_READ_NOTE}")
        if method in ("state_dict", "load_state_dict"):
            return (
                "rewrite",
                f"{target} has no state_dict: save and restore its last_epoch (and the "
                "optimizer's learning rates) with the checkpoint by hand",
            )
    if (
        scheduler is not None
        and scheduler.group(1)[:1].isupper()
        and scheduler.group(2) in (None, "step", "get_last_lr", _LR_READ)
    ):
        # OneCycleLR and the others MindSpore lacks are a closed formula of the step
        return (
            "rewrite",
            "mindspore.experimental.optim.lr_scheduler.LambdaLR with the schedule's formula "
            f"({scheduler.group(1)}'s), or the per-step rates computed once as a list "
            "(mindspore.nn dynamic learning rate)",
        )
    if _SET_EPOCH.match(api):
        return (
            "delete",
            "nothing to port: mindspore.dataset's samplers reshuffle at every epoch themselves "
            "(DistributedSampler(num_shards, shard_id, shuffle=True))",
        )
    if api.startswith(_VISUALISATION):
        return (
            "rewrite",
            "a picture for the logs, not the model: tile the arrays with numpy "
            "(numpy.concatenate) or PIL on the host, or keep torchvision on a copy",
        )
    if _GET_PARAMS.match(api):
        return (
            "rewrite",
            "draw the same random parameters on the host (random.randint/uniform over the "
            "same ranges), then apply the mindspore.dataset.vision op or a numpy slice",
        )
    if api.startswith(_FUNCTION_PARTS):
        return (
            "rewrite",
            "part of the torch.autograd.Function's port (a Cell with a bprop keeps what "
            "construct needs as attributes or recomputes it): counted with that Function",
        )
    if _PARAMETER.match(api):
        return (
            "rewrite",
            "the MindSpore cell's Parameter of the same name (BatchNorm: gamma/beta)",
        )
    return next((how for prefix, how in _GAP_PREFIXES if api.startswith(prefix)), None)
