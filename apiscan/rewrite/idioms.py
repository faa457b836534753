"""Framework plumbing: the MindSpore idiom for each PyTorch pattern, with its official page.

These APIs are not tensor computations: train/eval mode, walking a module's children and
parameters, device placement, autograd and the optimizer step, mixed precision, distributed
training, checkpoints, seeds, buffers, data loading and compilation switches. A mapping table
row (or its absence) says little about them; the migration guide says what to do instead. So
each is a catalogue entry of its own kind, an :class:`Idiom`: a disposition (``delete``: no
counterpart is needed, ``idiom``: a pattern rewrite), the general template a person applies,
the page it comes from, and where the pattern maps call-for-call a
:class:`~apiscan.rewrite.template.Template` that renders the rewrite of the call itself
(``model.eval()`` → ``model.set_train(False)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apiscan.mapping.candidates import DTYPE_PAGE, SAME_DTYPES
from apiscan.rewrite.template import DROP, Arg, Template, convert_dtype

_GUIDE = "https://www.mindspore.cn/docs/en/r2.4.0/migration_guide"
CELL = f"{_GUIDE}/model_development/model_and_cell.html"
GRAD = f"{_GUIDE}/model_development/gradient.html"
TRAIN = f"{_GUIDE}/model_development/training_and_evaluation.html"
DATA = f"{_GUIDE}/model_development/dataset.html"
OPTIM = f"{_GUIDE}/model_development/learning_rate_and_optimizer.html"
SEED = f"{CELL}#random-number-strategy-comparison"
INIT = f"{CELL}#parameter-initialization"
AMP = "https://www.mindspore.cn/tutorials/en/r2.4.0/beginner/mixed_precision.html"
SAVE = "https://www.mindspore.cn/tutorials/en/r2.4.0/beginner/save_load.html"
JIT = "https://www.mindspore.cn/tutorials/en/r2.4.0/beginner/accelerate_with_static_graph.html"
DIST = "https://www.mindspore.cn/docs/en/r2.4.0/model_train/parallel/data_parallel.html"
DEVICE = "https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.set_device.html"

_ANY = ("*",)

#: Gradient checkpointing: the tables' counterpart of torch.utils.checkpoint.checkpoint
#: (r2.6.0 pytorch_api_mapping.md:518, pytorch_diff/checkpoint.md: "Use the concrete
#: cell.recompute() or primitive.recompute() to call recomputation").
RECOMPUTE_PAGE = (
    "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_diff/checkpoint.html"
)
RECOMPUTE_CALL = "block.recompute() (mindspore.nn.Cell.recompute) on the block it runs"
#: A ``torch.autograd.Function`` that is gradient checkpointing written by hand: the
#: ``forward`` runs the wrapped function without gradients, the ``backward`` runs it again
#: with gradients enabled and differentiates it (:func:`apiscan.rewrite.recomputing`).
RECOMPUTE_FUNCTION = (
    "gradient checkpointing written by hand (its backward runs the forward again with "
    f"gradients enabled and differentiates it): delete the Function and call {RECOMPUTE_CALL}"
)


#: A ``torch.autograd.Function`` of the repository's own (a forward and a backward written by
#: hand): MindSpore's counterpart is a Cell whose ``bprop`` method gives the gradients of
#: its inputs (MindSpore's page on customising a Cell's backward propagation).
CUSTOM_BPROP_PAGE = (
    "https://mindspore.cn/tutorials/experts/en/r1.9/network/custom_cell_reverse.html"
)
CUSTOM_BPROP = (
    "class Fn(mindspore.nn.Cell) with construct(self, *inputs) as the forward and "
    "bprop(self, *inputs, out, dout) returning one gradient per input as the backward "
    "(ctx.save_for_backward becomes the inputs and out bprop is given)"
)


def _drop(name: str, default: str = "None") -> Arg:
    return Arg(name, default, DROP, drop_exact=_ANY)


@dataclass(frozen=True)
class Idiom:
    """One plumbing pattern. ``template`` is what the person applies (shown in reports);
    ``render`` rewrites a single call when the pattern maps call-for-call (``""`` text for
    "delete the statement"); ``usages`` restricts the idiom to some uses (a decorator, a
    context manager) when others differ."""

    key: str
    apis: tuple[str, ...]
    disposition: str  # "delete" or "idiom"
    template: str
    source: str
    render: Template | None = None
    usages: tuple[str, ...] = ()
    note: str = ""


def _recv(api: str, fmt: str, *args: Arg, note: str = "") -> Template:
    return Template(api, "", args, method=True, format=fmt, note=note)


_DELETE_CALL = "delete the call: use the receiver as it is"
# The tables map torch.Tensor.cuda and torch.cuda.set_device to mindspore.set_context
# (r1.10 pytorch_api_mapping.md:170, :333); MindSpore 2.6 names the same setting set_device.
DEVICE_NOTE = (
    "placement is global in MindSpore: mindspore.set_context(device_target=...) once at "
    "start-up (mindspore.set_device from MindSpore 2.6); the call is deleted"
)
_TRAIN_STEP = (
    "grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters); "
    "loss, grads = grad_fn(*inputs); optimizer(grads) (or the whole step as "
    "mindspore.nn.TrainOneStepCell(net_with_loss, optimizer))"
)
#: The part of the AMP idiom that only a training step needs (a repository that trains
#: nothing casts the network and scales no loss).
AMP_LOSS_SCALER = (
    "; loss_scaler = "
    "mindspore.amp.DynamicLossScaler(2**16, 2, 1000): scale(loss) inside forward_fn, "
    "unscale(grads) and adjust(mindspore.amp.all_finite(grads)) after value_and_grad"
)
_AMP = "net = mindspore.amp.auto_mixed_precision(net, 'O1')" + AMP_LOSS_SCALER
_DDP = (
    "mindspore.communication.init(); mindspore.set_auto_parallel_context(parallel_mode="
    "mindspore.ParallelMode.DATA_PARALLEL, gradients_mean=True); use the network unwrapped"
)

IDIOMS: tuple[Idiom, ...] = (
    # ---------------------------------------------------------------- train/eval mode
    Idiom(
        "module-mode",
        # DistributedDataParallel overrides train(): the same mode switch
        ("torch.nn.Module.train", "torch.nn.parallel.DistributedDataParallel.train"),
        "idiom",
        "net.set_train(mode)",
        CELL,
        _recv("torch.nn.Module.train", "{recv}.set_train({mode})", Arg("mode", "True")),
    ),
    Idiom(
        "module-mode",
        ("torch.nn.Module.training",),
        "idiom",
        "keep self.training: mindspore.nn.Cell has the same attribute, set by set_train(mode)",
        CELL,
    ),
    Idiom(
        "module-mode",
        ("torch.nn.Module.eval",),
        "idiom",
        "net.set_train(False)",
        CELL,
        _recv("torch.nn.Module.eval", "{recv}.set_train(False)"),
    ),
    # ---------------------------------------------------------------- walking a network
    Idiom(
        "module-walk",
        ("torch.nn.Module.modules",),
        "idiom",
        "[cell for _, cell in net.cells_and_names()]",
        CELL,
        _recv("torch.nn.Module.modules", "[cell for _, cell in {recv}.cells_and_names()]"),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.named_modules",),
        "idiom",
        "net.cells_and_names()",
        CELL,
        _recv("torch.nn.Module.named_modules", "{recv}.cells_and_names()"),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.named_parameters",),
        "idiom",
        "net.parameters_and_names(name_prefix='', expand=True)",
        CELL,
        Template(
            "torch.nn.Module.named_parameters",
            "parameters_and_names",
            (
                Arg("prefix", "''", to="name_prefix"),
                Arg("recurse", "True", to="expand"),
                Arg("remove_duplicate", "True", DROP, drop_exact=("True",)),
            ),
            method=True,
        ),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.parameters",),
        "idiom",
        "net.get_parameters(expand=True)",
        CELL,
        Template(
            "torch.nn.Module.parameters",
            "get_parameters",
            (Arg("recurse", "True", to="expand"),),
            method=True,
        ),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.children",),
        "idiom",
        "net.cells()",
        CELL,
        _recv("torch.nn.Module.children", "{recv}.cells()"),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.named_children",),
        "idiom",
        "net.name_cells().items()",
        CELL,
        _recv("torch.nn.Module.named_children", "{recv}.name_cells().items()"),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.add_module", "torch.nn.Module.register_module"),
        "idiom",
        "net.insert_child_to_cell(name, cell)",
        CELL,
        _recv(
            "torch.nn.Module.add_module",
            "{recv}.insert_child_to_cell({name}, {module})",
            Arg("name"),
            Arg("module"),
        ),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.requires_grad_",),
        "idiom",
        "for p in net.get_parameters(): p.requires_grad = flag",
        CELL,
    ),
    Idiom(
        "module-base",
        ("torch.nn.Module",),
        "idiom",
        "class Net(mindspore.nn.Cell) with the forward method renamed construct",
        CELL,
        Template("torch.nn.Module", "", format="mindspore.nn.Cell"),
        usages=("base_class", "reference", "annotation"),
    ),
    Idiom(
        "custom-backward",
        ("torch.autograd.Function",),
        "idiom",
        CUSTOM_BPROP,
        CUSTOM_BPROP_PAGE,
        usages=("base_class",),
    ),
    Idiom(
        "module-call",
        ("torch.nn.Module.forward",),
        "idiom",
        "net(*inputs): a Cell is called, its construct is the forward (net.construct(*inputs) "
        "skips the hooks, as forward does)",
        CELL,
        usages=("call",),
    ),
    Idiom(
        "module-base",
        ("torch.nn.Module.forward",),
        "idiom",
        "def construct(self, ...): the Cell's forward computation",
        CELL,
    ),
    Idiom(
        "buffer",
        ("torch.nn.Module.register_buffer",),
        "idiom",
        "self.register_buffer(name, tensor) (MindSpore 2.x Cell), or self.name = "
        "mindspore.Parameter(tensor, requires_grad=False)",
        CELL,
        Template(
            "torch.nn.Module.register_buffer",
            "register_buffer",
            (
                Arg("name", positional=True),
                Arg("tensor", positional=True),
                Arg("persistent", "True"),
            ),
            method=True,
        ),
    ),
    Idiom(
        "buffer",
        ("torch.nn.Module.register_parameter",),
        "idiom",
        "setattr(self, name, mindspore.Parameter(tensor))",
        CELL,
        _recv(
            "torch.nn.Module.register_parameter",
            "setattr({recv}, {name}, {param})",
            Arg("name"),
            Arg("param"),
        ),
    ),
    # ---------------------------------------------------------------- devices
    Idiom(
        "device",
        (
            "torch.Tensor.cpu",
            "torch.Tensor.cuda",
            "torch.nn.Module.cpu",
            "torch.nn.Module.cuda",
            "torch.Tensor.pin_memory",
        ),
        "delete",
        DEVICE_NOTE,
        DEVICE,
        _recv(
            "torch.Tensor.cuda",
            "{recv}",
            _drop("device"),
            _drop("non_blocking", "False"),
            _drop("memory_format"),
        ),
    ),
    Idiom(
        "device",
        ("torch.device",),
        "delete",
        "delete torch.device(...) and its uses: mindspore.set_device(device_target) once",
        DEVICE,
    ),
    Idiom(
        "device",
        (
            "torch.cuda.empty_cache",
            "torch.cuda.synchronize",
            "torch.cuda.current_stream",
            "torch.cuda.Stream",
            "torch.cuda.stream",
            "torch.Tensor.record_stream",
            "torch.cuda.manual_seed",
            "torch.cuda.manual_seed_all",
            "torch.cuda.reset_peak_memory_stats",
            "torch.set_num_threads",
            "torch.backends.cudnn.benchmark",
            "torch.backends.cudnn.deterministic",
            "torch.backends.cudnn.enabled",
            "torch.channels_last",
            "torch.contiguous_format",
            "torch.preserve_format",
        ),
        "delete",
        "delete the statement: MindSpore manages device memory, streams and layouts itself "
        "(seeds: mindspore.set_seed covers every device)",
        DEVICE,
    ),
    Idiom(
        "device",
        ("torch.cuda.is_available",),
        "idiom",
        'mindspore.get_context("device_target") == "GPU"',
        DEVICE,
        Template(
            "torch.cuda.is_available", "", format='mindspore.get_context("device_target") == "GPU"'
        ),
    ),
    Idiom(
        "device",
        ("torch.cuda.set_device",),
        "idiom",
        'mindspore.set_context(device_target="GPU", device_id=device_id) '
        "(mindspore.set_device from MindSpore 2.6)",
        DEVICE,
        Template(
            "torch.cuda.set_device",
            "",
            (Arg("device"),),
            format='mindspore.set_context(device_target="GPU", device_id={device})',
        ),
    ),
    Idiom(
        "device",
        ("torch.cuda.device_count",),
        "idiom",
        # r1.10 pytorch_api_mapping.md:169: the number of devices the job runs on
        "mindspore.communication.get_group_size() after mindspore.communication.init()",
        DIST,
        Template("torch.cuda.device_count", "", format="mindspore.communication.get_group_size()"),
    ),
    Idiom(
        "device",
        ("torch.Tensor.is_cuda", "torch.Tensor.get_device", "torch.Tensor.device"),
        "idiom",
        'mindspore.get_context("device_target"): placement is global, not per tensor',
        DEVICE,
    ),
    Idiom(
        "device",
        (
            "torch.cuda.FloatTensor",
            "torch.cuda.HalfTensor",
            "torch.cuda.LongTensor",
            "torch.cuda.IntTensor",
            "torch.cuda.ByteTensor",
            "torch.cuda.BoolTensor",
        ),
        "idiom",
        "a dtype instead of a CUDA tensor type: x.astype(mindspore.float32)",
        DEVICE,
        usages=("reference",),
    ),
    # ---------------------------------------------------------------- autograd
    Idiom(
        "no-grad",
        ("torch.no_grad", "torch.inference_mode", "torch.enable_grad", "torch.set_grad_enabled"),
        "idiom",
        "delete `with torch.no_grad():` and dedent its body: MindSpore computes gradients only "
        "inside mindspore.value_and_grad/grad (mindspore.ops.stop_gradient inside a "
        "differentiated function)",
        GRAD,
    ),
    Idiom(
        "no-grad",
        ("torch.no_grad", "torch.inference_mode", "torch.enable_grad"),
        "delete",
        "delete the decorator: outside mindspore.value_and_grad nothing records gradients "
        "(mindspore.ops.stop_gradient inside a differentiated function)",
        GRAD,
        usages=("decorator",),
    ),
    Idiom(
        "train-step",
        (
            "torch.Tensor.backward",
            "torch.optim.Optimizer.step",
            "torch.optim.SGD.step",
            "torch.optim.Adam.step",
            "torch.optim.AdamW.step",
        ),
        "idiom",
        _TRAIN_STEP,
        TRAIN,
    ),
    Idiom(
        "train-step",
        ("torch.optim.Optimizer.zero_grad", "torch.nn.Module.zero_grad"),
        "delete",
        "delete: value_and_grad returns fresh gradients each step (" + _TRAIN_STEP + ")",
        TRAIN,
    ),
    Idiom(
        "train-step",
        ("torch.autograd.grad",),
        "idiom",
        # r1.10 pytorch_api_mapping.md:161
        "gradients of a function, not of recorded tensors: "
        "mindspore.ops.GradOperation(get_all=True)(fn)(*inputs), or mindspore.grad(fn)(*inputs)",
        GRAD,
    ),
    Idiom(
        "creation",
        ("torch.Tensor.new",),
        "idiom",
        "x.new_zeros(size) / x.new_empty(size), or mindspore.tensor(data, dtype=x.dtype)",
        CELL,
    ),
    Idiom(
        "stop-gradient",
        ("torch.Tensor.detach_",),
        "idiom",
        "x = mindspore.ops.stop_gradient(x)",
        GRAD,
        _recv(
            "torch.Tensor.detach_",
            "mindspore.ops.stop_gradient({recv})",
            note="not in place: assign the result back",
        ),
    ),
    Idiom(
        "stop-gradient",
        ("torch.Tensor.detach",),
        "idiom",
        "mindspore.ops.stop_gradient(x)",
        GRAD,
        _recv("torch.Tensor.detach", "mindspore.ops.stop_gradient({recv})"),
    ),
    Idiom(
        "train-step",
        ("torch.Tensor.grad", "torch.Tensor.requires_grad", "torch.Tensor.requires_grad_"),
        "idiom",
        "gradients come from value_and_grad; trainability is mindspore.Parameter.requires_grad",
        GRAD,
    ),
    Idiom(
        "train-step",
        (
            "torch.optim.Optimizer.state_dict",
            "torch.optim.Optimizer.load_state_dict",
            "torch.optim.Optimizer.add_param_group",
            "torch.optim.Optimizer.param_groups",
            "torch.optim.lr_scheduler.LRScheduler.step",
            "torch.optim.lr_scheduler.LRScheduler.state_dict",
            "torch.optim.lr_scheduler.LRScheduler.load_state_dict",
        ),
        "idiom",
        "optimizer state is Parameters (mindspore.save_checkpoint(optimizer, f)); groups are "
        "a list of dicts given at construction; learning-rate schedules are "
        "mindspore.experimental.optim.lr_scheduler or a per-step lr list",
        OPTIM,
    ),
    # ---------------------------------------------------------------- mixed precision
    Idiom(
        "amp",
        (
            "torch.cuda.amp.autocast",
            "torch.autocast",
            "torch.amp.autocast",
            "torch.cpu.amp.autocast",
            "torch.is_autocast_enabled",
            "torch.get_autocast_dtype",
            "torch.get_autocast_gpu_dtype",
            "torch.get_autocast_cpu_dtype",
            "torch.is_autocast_cpu_enabled",
        ),
        "idiom",
        _AMP,
        AMP,
    ),
    # a custom Function's AMP decorator (``@custom_fwd(cast_inputs=torch.float32)``): the
    # Function runs in float32 whatever autocast does around it
    Idiom(
        "amp",
        (
            "torch.amp.custom_fwd",
            "torch.amp.custom_bwd",
            "torch.cuda.amp.custom_fwd",
            "torch.cuda.amp.custom_bwd",
        ),
        "idiom",
        "delete the decorator; cast the inputs the decorator casts (x.astype(mindspore.float32)) "
        "or keep the Cell in float32 under mixed precision (cell.to_float(mindspore.float32))",
        AMP,
    ),
    Idiom(
        "amp",
        (
            "torch.cuda.amp.GradScaler",
            "torch.GradScaler",
            "torch.amp.GradScaler",
            "torch.GradScaler.scale",
            "torch.GradScaler.step",
            "torch.GradScaler.update",
            "torch.GradScaler.unscale_",
            "torch.GradScaler.state_dict",
            "torch.GradScaler.load_state_dict",
        ),
        "idiom",
        _AMP,
        AMP,
    ),
    # ---------------------------------------------------------------- distributed
    Idiom(
        "ddp",
        ("torch.nn.parallel.DistributedDataParallel", "torch.nn.DataParallel"),
        "idiom",
        _DDP,
        DIST,
        Template(
            "torch.nn.parallel.DistributedDataParallel",
            "",
            (
                Arg("module"),
                _drop("device_ids"),
                _drop("output_device"),
                _drop("dim", "0"),
                _drop("broadcast_buffers", "True"),
                _drop("process_group"),
                _drop("bucket_cap_mb"),
                _drop("find_unused_parameters", "False"),
            ),
            format="{module}",
            note=_DDP,
        ),
    ),
    Idiom(
        "ddp",
        # the wrappers' forward only hands the inputs to the wrapped network's forward: once
        # the network is used unwrapped, the call is that network's own construct
        ("torch.nn.parallel.DistributedDataParallel.forward", "torch.nn.DataParallel.forward"),
        "idiom",
        "net(*inputs): the wrapped network's construct, the network used unwrapped",
        DIST,
    ),
    Idiom(
        "ddp",
        ("torch.distributed.init_process_group",),
        "idiom",
        # r2.6.0 pytorch_api_mapping.md:273 (older tables: mindspore.communication.init)
        "mindspore.mint.distributed.init_process_group() (mindspore.communication.init() in "
        "MindSpore before 2.6), one process per device launched by msrun",
        DIST,
        Template(
            "torch.distributed.init_process_group",
            "",
            (
                _drop("backend"),
                _drop("init_method"),
                _drop("timeout"),
                _drop("world_size", "-1"),
                _drop("rank", "-1"),
            ),
            format="mindspore.mint.distributed.init_process_group()",
            note=_DDP,
        ),
    ),
    Idiom(
        "ddp",
        ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"),
        "idiom",
        "launch one process per device with msrun (or mpirun); no spawn in the script",
        DIST,
    ),
    # ---------------------------------------------------------------- checkpoints
    Idiom(
        "checkpoint",
        ("torch.save",),
        "idiom",
        "mindspore.save_checkpoint(net_or_parameters, path)",
        SAVE,
        Template(
            "torch.save",
            "",
            (Arg("obj"), Arg("f")),
            format="mindspore.save_checkpoint({obj}, {f})",
            note="exact when the object is a Cell, a parameter list or a dict of "
            "parameters; other objects go through pickle",
        ),
    ),
    Idiom(
        "checkpoint",
        ("torch.load",),
        "idiom",
        "mindspore.load_checkpoint(path) → a dict of Parameters",
        SAVE,
        Template(
            "torch.load",
            "",
            (
                Arg("f"),
                _drop("map_location"),
                _drop("pickle_module"),
                _drop("weights_only"),
                _drop("mmap"),
            ),
            format="mindspore.load_checkpoint({f})",
            note="reads a MindSpore .ckpt: convert PyTorch .pth weights once "
            "(parameter names differ: BatchNorm weight→gamma, running_mean→moving_mean)",
        ),
    ),
    Idiom(
        "checkpoint",
        ("torch.nn.Module.load_state_dict",),
        "idiom",
        "mindspore.load_param_into_net(net, param_dict, strict_load=False)",
        SAVE,
        Template(
            "torch.nn.Module.load_state_dict",
            "",
            (Arg("state_dict"), Arg("strict", "True", to="strict_load"), _drop("assign", "False")),
            method=True,
            format="mindspore.load_param_into_net({recv}, {state_dict}, strict_load={strict})",
        ),
    ),
    Idiom(
        "checkpoint",
        ("torch.nn.Module.state_dict",),
        "idiom",
        "net.parameters_dict()",
        SAVE,
        _recv("torch.nn.Module.state_dict", "{recv}.parameters_dict()"),
    ),
    # ---------------------------------------------------------------- seeds
    # r2.4.0 pytorch_api_mapping.md:339-340: manual_seed and seed are Consistent
    Idiom(
        "seed",
        ("torch.manual_seed", "torch.random.manual_seed"),
        "idiom",
        "mindspore.manual_seed(seed)",
        SEED,
        Template("torch.manual_seed", "", (Arg("seed"),), format="mindspore.manual_seed({seed})"),
    ),
    Idiom(
        "seed",
        ("torch.seed",),
        "idiom",
        "mindspore.seed()",
        SEED,
        Template("torch.seed", "", format="mindspore.seed()"),
    ),
    # ---------------------------------------------------------------- data
    Idiom(
        "data",
        ("torch.utils.data.DataLoader",),
        "idiom",
        "mindspore.dataset.GeneratorDataset(dataset, column_names=[...], shuffle=...)"
        ".batch(batch_size, drop_remainder=...)",
        DATA,
        Template(
            "torch.utils.data.DataLoader",
            "",
            (
                Arg("dataset"),
                Arg("batch_size", "1"),
                Arg("shuffle", "False"),
                _drop("sampler"),
                _drop("batch_sampler"),
                _drop("num_workers", "0"),
                _drop("collate_fn"),
                _drop("pin_memory", "False"),
                Arg("drop_last", "False"),
                _drop("timeout", "0"),
                _drop("worker_init_fn"),
                _drop("multiprocessing_context"),
                _drop("generator"),
                _drop("prefetch_factor"),
                _drop("persistent_workers", "False"),
            ),
            format="mindspore.dataset.GeneratorDataset({dataset}, column_names=COLUMNS, "
            "shuffle={shuffle}).batch({batch_size}, drop_remainder={drop_last})",
            note="COLUMNS: the names of what __getitem__ returns; samplers, workers and "
            "collate_fn become GeneratorDataset/batch arguments (sampler=, "
            "num_parallel_workers=, per_batch_map=)",
        ),
    ),
    Idiom(
        "data",
        ("torch.utils.data.Dataset", "torch.utils.data.IterableDataset"),
        "idiom",
        "a plain class with __getitem__/__len__ (or __iter__) given to "
        "mindspore.dataset.GeneratorDataset",
        DATA,
        Template("torch.utils.data.Dataset", "", format="object"),
        usages=("base_class",),
    ),
    Idiom(
        "data",
        (
            "torch.utils.data.get_worker_info",
            "torch.utils.data.default_collate",
            "torch.utils.data.ConcatDataset",
            "torch.utils.data.Sampler",
            "torch.utils.data.BatchSampler",
        ),
        "idiom",
        "mindspore.dataset pipeline operations (concat: ds1 + ds2; samplers: sampler=; "
        "batching: .batch(per_batch_map=...))",
        DATA,
    ),
    # ---------------------------------------------------------------- compilation
    Idiom(
        "jit",
        (
            "torch.jit.ignore",
            "torch.jit.unused",
            "torch.jit.export",
            "torch.fx.wrap",
            "torch.jit.annotate",
            "torch.jit.is_scripting",
            "torch.jit.is_tracing",
            "torch.compiler.is_compiling",
            "torch._dynamo.disable",
        ),
        "delete",
        "delete: TorchScript/FX markers mean nothing to MindSpore (is_scripting() → False)",
        JIT,
    ),
    Idiom(
        "jit",
        ("torch.jit.Final", "torch.jit.annotations.List"),
        "delete",
        "delete the TorchScript annotation (typing.Final / list remain plain Python)",
        JIT,
    ),
    Idiom(
        "autograd",
        ("torch.autograd.Variable", "torch.autograd.variable.Variable"),
        "delete",
        "delete the wrapper: Variable(x) is x since PyTorch 0.4 (requires_grad belongs to a "
        "mindspore.Parameter)",
        GRAD,
    ),
    Idiom(
        "constants",
        ("torch.pi",),
        "idiom",
        "math.pi",
        CELL,
        Template("torch.pi", "", format="math.pi", note="import math"),
    ),
    Idiom(
        "constants",
        ("torch.finfo", "torch.iinfo"),
        "idiom",
        "numpy.finfo(mindspore.dtype_to_nptype(dtype)) (numpy.iinfo for integers)",
        CELL,
    ),
    # a dtype MindSpore documents under the same name: renamed at each use, as the other
    # constants are (no micro-test to run: the dtype page says what it is)
    *(
        Idiom(
            "constants",
            (f"torch.{name}",),
            "idiom",
            "a rename: the same dtype on MindSpore's dtype page",
            DTYPE_PAGE,
            Template(f"torch.{name}", "", format=convert_dtype(f"torch.{name}")),
        )
        for name in sorted(SAME_DTYPES)
    ),
    Idiom(
        "constants",
        ("torch.get_default_dtype",),
        "idiom",
        "mindspore.float32 (MindSpore has no global default dtype)",
        CELL,
        Template("torch.get_default_dtype", "", format="mindspore.float32"),
    ),
    Idiom(
        "module-walk",
        ("torch.nn.Module.get_submodule", "torch.nn.Module.get_parameter"),
        "idiom",
        "dict(net.cells_and_names())[name] / dict(net.parameters_and_names())[name]",
        CELL,
    ),
    Idiom(
        "jit",
        ("torch.jit.script", "torch.jit.trace", "torch.compile"),
        "idiom",
        "@mindspore.jit on the function (or net.construct) for graph mode",
        JIT,
    ),
    Idiom(
        "recompute",
        ("torch.utils.checkpoint.checkpoint",),
        "idiom",
        f"{RECOMPUTE_CALL} instead of checkpoint(block, x)",
        RECOMPUTE_PAGE,
    ),
    Idiom(
        "init",
        ("torch.nn.init.trunc_normal_", "torch.nn.init.xavier_normal_"),
        "idiom",
        "param.set_data(mindspore.common.initializer.initializer(Init(...), param.shape, "
        "param.dtype)) with TruncatedNormal/XavierNormal",
        INIT,
    ),
    # r1.10 pytorch_api_mapping.md:294-298: each initializer function is an Initializer class
    *(
        Idiom(
            "init",
            (f"torch.nn.init.{name}",),
            "idiom",
            "param.set_data(mindspore.common.initializer.initializer("
            f"mindspore.common.initializer.{cls}(...), param.shape, param.dtype))",
            INIT,
        )
        for name, cls in (
            ("kaiming_normal_", "HeNormal"),
            ("kaiming_uniform_", "HeUniform"),
            ("xavier_uniform_", "XavierUniform"),
        )
    ),
    Idiom(
        "init",
        ("torch.nn.init.uniform_",),
        "idiom",
        # r2.4.0 pytorch_api_mapping.md:425
        "param.set_data(mindspore.ops.uniform(param.shape, mindspore.Tensor(a), "
        "mindspore.Tensor(b), dtype=param.dtype))",
        INIT,
    ),
)

#: Deletions whose rewrite is the literal ``False`` (a query that is always false).
ALWAYS_FALSE = frozenset(
    {"torch.jit.is_scripting", "torch.jit.is_tracing", "torch.compiler.is_compiling"}
)
#: Decorators and statements deleted outright.
DELETE_STATEMENT = frozenset(
    {
        "torch.cuda.empty_cache",
        "torch.cuda.synchronize",
        "torch.cuda.manual_seed",
        "torch.cuda.manual_seed_all",
        "torch.cuda.reset_peak_memory_stats",
        "torch.optim.Optimizer.zero_grad",
        "torch.nn.Module.zero_grad",
    }
)


#: A member of a torch optimizer class (``torch.optim.Adadelta.step``): the base class's.
_OPTIMIZER_MEMBER = re.compile(r"^torch\.optim\.[A-Z]\w*\.(\w+)$")
#: ``forward`` of a torch layer class (``torch.nn.Sequential.forward``,
#: ``torch.nn.Conv2d.forward``): each class defines its own, so the name resolves to the
#: class, not to ``torch.nn.Module``; calling it by hand is calling the module.
_LAYER_FORWARD = re.compile(r"^torch\.nn\.(?:[a-z_]+\.)*[A-Z]\w*\.forward$")


def idiom_for(api: str, usage: str) -> Idiom | None:
    """The idiom of one use: an entry restricted to this usage first, then a general one. A
    member of any optimizer class is the base ``torch.optim.Optimizer``'s (Adadelta's
    ``step`` is the train step as much as SGD's)."""
    found = _BY_API.get(api, ())
    member = _OPTIMIZER_MEMBER.match(api)
    if not found and member is not None:
        found = _BY_API.get(f"torch.optim.Optimizer.{member.group(1)}", ())
    if not found and _LAYER_FORWARD.match(api):
        found = _BY_API.get("torch.nn.Module.forward", ())
    for idiom in found:
        if idiom.usages and usage in idiom.usages:
            return idiom
    return next((i for i in found if not i.usages), None)


_BY_API: dict[str, tuple[Idiom, ...]] = {}
for _idiom in IDIOMS:
    for _api in _idiom.apis:
        _BY_API[_api] = (*_BY_API.get(_api, ()), _idiom)
