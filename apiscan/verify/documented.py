"""Documented forms generated from signatures: what a "consistent" row promises, as cases.

A row that says ``torch.round`` ↔ ``mindspore.mint.round`` is consistent promises every
documented parameter of ``torch.round`` works through the target. This module turns the
PyTorch signature (the shipped torch index, ``mapping_data/torch_api``) into call forms:

- each documented optional parameter once by keyword with a non-default value of its kind
  (``torch.round(x, decimals=1)``) and, where PyTorch takes it by position, once by
  position with the values of the parameters before it (``torch.sort(x, 0, True)``);
- the no-argument form on hypothesis-style inputs: an empty tensor, NaN and ±inf values, a
  non-contiguous view, int64 and bool tensors, a broadcast second operand.

The values come from tables of strategies per parameter kind rather than per case:
:data:`REQUIRED` fills what every call must pass (operands whose shapes chain, axes,
factorisations), :data:`NON_DEFAULT` a non-default value per parameter name,
:data:`LAYER_NON_DEFAULT` what a constructor flag means for a layer (``bias=False``),
:data:`COMPANIONS` the parameters another one needs beside it, :data:`OPERAND_KINDS` the
operands an API accepts at all (integers, square matrices, vectors), :data:`PER_API` what a
name means differently for one API. Signatures the torch index could not record are found by
rule or taken from the docs (:func:`row_entry`). A row whose required parameters the tables
cannot fill gets no forms and is listed with the reason (:func:`generate` returns both), as
is a row that cannot run on a CPU machine at all (:data:`CANNOT_RUN_HERE`). The targets are
the one the scan picks today (``match_api``) and every other consistent row's (``via``).
The result is a plain table written by
``scripts/gen_documented_forms.py`` into ``apiscan/verify/catalogue/documented_forms.csv``,
which the catalogue reads (no mapping data is parsed when a scan imports the catalogue).

Pure standard library plus apiscan's mapping store: runs without torch or MindSpore.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apiscan.mapping.store import MappingRow

#: Inputs by name: ``name=kind[shape]`` plus ``@low:high`` and ``!special`` (see
#: :func:`apiscan.verify.catalogue.documented.parse_inputs`).
X = "x=float[3,4]"
Y = "y=float[3,4]"
IMG = "x=float[2,3,8,8]"

#: What fills a required parameter: (argument text, the inputs it needs).
REQUIRED: dict[str, tuple[str, tuple[str, ...]]] = {
    "input": ("x", (X,)),
    "self": ("x", (X,)),
    "tensor": ("x", (X,)),
    "a": ("x", (X,)),
    "x": ("x", (X,)),
    "other": ("y", (Y,)),
    "input2": ("y", (Y,)),
    "tensor2": ("y", (Y,)),
    "tensor1": ("x", (X,)),
    "end": ("y", (Y,)),
    "src": ("y", (Y,)),
    "source": ("y", (Y,)),
    "values": ("y", (Y,)),
    "target": ("y", (Y,)),
    "dim": ("1", ()),
    "dim0": ("0", ()),
    "dim1": ("1", ()),
    "index": ("i", ("i=int[3,2]@0:4!unique",)),
    "indices": ("i", ("i=int[3,2]@0:4!unique",)),
    "mask": ("m", ("m=bool[3,4]",)),
    "value": ("0.5", ()),
    "fill_value": ("1.5", ()),
    "size": ("(2, 3)", ()),
    "shape": ("(4, 3)", ()),
    "exponent": ("2.0", ()),
    "tensors": ("[x, y]", (X, Y)),
    "mat2": ("w", ("w=float[4,3]",)),
    "vec2": ("v", ("v=float[4]",)),
    "vec": ("v", ("v=float[4]",)),
    "repeats": ("2", ()),
    "k": ("2", ()),
    "n": ("3", ()),
    "p": ("2.0", ()),
    "lambd": ("0.5", ()),
    "kernel_size": ("2", ()),
    "divisor": ("y", (Y,)),
    "min": ("-0.5", ()),
    "max": ("0.5", ()),
    "dims": ("(1, 0)", ()),
    "split_size_or_sections": ("2", ()),
    "indices_or_sections": ("2", ()),
    "split_size": ("2", ()),
    "chunks": ("2", ()),
    "sections": ("2", ()),
    "diagonal": ("1", ()),
    "num_classes": ("5", ()),
    "pad": ("(1, 1)", ()),
    "weight": ("w", ("w=float[5,4]",)),
    "start": ("0", ()),
    "steps": ("5", ()),
    # matrix products: shapes that chain with x = float[3, 4] (addmm(x, mat1, mat2))
    "batch1": ("b1", ("b1=float[2,3,5]",)),
    "batch2": ("b2", ("b2=float[2,5,4]",)),
    "mat1": ("m1", ("m1=float[3,5]",)),
    "vec1": ("v3", ("v3=float[3]",)),
    "mat": ("x", (X,)),
    # axes and sizes given by position
    "destination": ("1", ()),
    "axis0": ("0", ()),
    "axis1": ("1", ()),
    "shifts": ("1", ()),
    "length": ("2", ()),
    "window_length": ("5", ()),
    "row": ("4", ()),
    "col": ("3", ()),
    "num_samples": ("2", ()),
    "output_size": ("(2, 2)", ()),
    # a square matrix (linalg), a condition, the operands of a binary op by other names
    "A": ("a", ("a=float[3,3]",)),
    "condition": ("m", ("m=bool[3,4]",)),
    "dividend": ("x", (X,)),
    "x1": ("x", (X,)),
    "x2": ("y", (Y,)),
    "y": ("y", (Y,)),
    "b": ("y", (Y,)),
    "obj": ("x", (X,)),
    "logits": ("x", (X,)),
    "type1": ("torch.int32", ()),
    "type2": ("torch.float32", ()),
    "dtype": ("torch.float64", ()),
    "running_mean": ("rm", ("rm=float[4]",)),
    "running_var": ("rv", ("rv=float[4]@0.5:1.5",)),
    "abs": ("p", ("p=float[3,4]@0.05:0.95",)),
    "angle": ("y", (Y,)),
    "theta": ("th", ("th=float[1,2,3]",)),
    "input1": ("x", (X,)),
    "data": ("x", (X,)),
    "upscale_factor": ("2", ()),
    "downscale_factor": ("2", ()),
    "high": ("5", ()),
    "generator": ("torch.Generator().manual_seed(1)", ()),
    # factorisations: any pivot sequence in 1..n is a valid series of row swaps, and a
    # triangular factor with its diagonal in [0.5, 1.5) is well conditioned
    "LU_data": ("a", ("a=float[3,3]",)),
    "LU_pivots": ("piv.int()", ("piv=int[3]@1:4",)),
    "L": ("lf", ("lf=float[3,3]@0.5:1.5",)),
    "B": ("y3", ("y3=float[3,4]",)),
    # CTC: log-probabilities (T=6, N=2, C=4), labels in 1..3, full lengths
    "log_probs": ("lp", ("lp=float[6,2,4]@-3:-0.1",)),
    "targets": ("tg", ("tg=int[2,3]@1:3",)),
    "input_lengths": ("il", ("il=int[2]@6:7",)),
    "target_lengths": ("tl", ("tl=int[2]@3:4",)),
}

#: A non-default value per optional parameter name (the default is what omitting it gives).
NON_DEFAULT: dict[str, str] = {
    "dim": "0",
    "keepdim": "True",
    "dtype": "torch.float64",
    "alpha": "2.0",
    "beta": "0.5",
    "eps": "0.001",
    "reduction": "'sum'",
    "inplace": "True",
    "value": "0.5",
    "min": "-0.5",
    "max": "0.5",
    "offset": "1",
    "diagonal": "1",
    "upper": "True",
    "lambd": "0.3",
    "correction": "0",
    "unbiased": "False",
    "descending": "True",
    "rounding_mode": "'floor'",
    "decimals": "1",
    "stable": "True",
    "largest": "False",
    "equal_nan": "True",
    "rtol": "0.001",
    "atol": "0.001",
    "start_dim": "1",
    "end_dim": "0",
    "approximate": "'tanh'",
    "negative_slope": "0.2",
    "threshold": "0.5",
    "ignore_index": "1",
    "label_smoothing": "0.1",
    "minlength": "5",
    "nan": "0.5",
    "posinf": "1.0",
    "neginf": "-1.0",
    "out_int32": "True",
    "right": "True",
    "scale_factor": "2",
    "ord": "1",
    "margin": "0.5",
    "stride": "1",
    "padding": "1",
    "ceil_mode": "True",
    "count_include_pad": "False",
    "divisor_override": "3",
    "dilation": "2",
    "return_indices": "True",
    "num_classes": "5",
    "p": "1.0",
    "exponent": "3.0",
    "other": "0.5",
    "k": "1",
    "n": "2",
    "prepend": "y",
    "append": "y",
    "weights": "None",
    "mode": "'bilinear'",
    "align_corners": "True",
    "output_size": "(3, 3)",
    "log_target": "True",
    "full": "True",
    "reduce": "'add'",
    "include_self": "False",
    "side": "'right'",
    "as_tuple": "True",
    "return_inverse": "True",
    "return_counts": "True",
    "dims": "1",
    "shifts": "1",
    "unbiased_": "False",
    "size": "(2, 3)",
    "mean": "1.0",
    "std": "2.0",
    "accumulate": "True",
    "bins": "5",
    "end": "5",
    "step": "2",
    "interpolation": "'lower'",
    "groups": "1",
    "training": "True",
    "pivot": "True",
    "some": "False",
    "dim1": "1",
    "dim2": "0",
    "weight": "w",
    "generator": "torch.Generator().manual_seed(1)",
    "momentum": "0.2",
    "padding_idx": "0",
    "max_norm": "1.0",
    "norm_type": "1.0",
    "scale_grad_by_freq": "True",
    "sparse": "True",
    "init": "0.1",
    "delta": "0.5",
    "log_input": "False",
    "padding_mode": "'reflect'",
    "output_padding": "1",
    "recompute_scale_factor": "True",
    "compute_mode": "'use_mm_for_euclid_dist'",
    "base": "2.0",
    "m": "4",
    "wrap": "True",
    "force": "True",
    "median": "0.5",
    "sigma": "2.0",
    "increasing": "True",
    "N": "3",
    "periodic": "False",
    "replacement": "True",
    "tau": "0.5",
    "hard": "True",
    "min_val": "-0.5",
    "max_val": "0.5",
    "sorted": "False",
    "left": "False",
    "transpose": "True",
    "unpack_data": "False",
    "unpack_pivots": "False",
    "blank": "3",
    "zero_infinity": "True",
    "low": "1",
    "data": "x",
    "num_layers": "2",
    "nonlinearity": "'relu'",
    "batch_first": "True",
    "dropout": "0.5",
    "bidirectional": "True",
    "proj_size": "2",
}
#: Layers: a non-default value where a constructor parameter means something else than
#: the function parameter of that name (``bias=False`` builds no bias; a loss's ``weight``
#: is a per-class tensor); the weights the harness copies are simply absent then.
LAYER_NON_DEFAULT: dict[str, str] = {
    "bias": "False",
    "affine": "False",
    "elementwise_affine": "False",
    "track_running_stats": "False",
    "dtype": "torch.float32",
    "start_dim": "0",
    "end_dim": "1",
    "weight": "torch.tensor([0.5, 1.0, 1.5, 2.0])",
    "pos_weight": "torch.tensor([0.5, 1.0, 1.5, 2.0])",
}
#: Parameters that only act together with another one (``padding_mode`` needs padding,
#: ``output_padding`` a stride above one, ``norm_type`` a ``max_norm``): the companion is
#: passed by keyword in the same form.
COMPANIONS: dict[str, str] = {
    "padding_mode": "padding=1",
    "output_padding": "stride=2",
    "norm_type": "max_norm=1.0",
    "recompute_scale_factor": "scale_factor=2",
    # an interpolation that aligns corners: a size and a linear mode
    "torch.nn.functional.interpolate:align_corners": "scale_factor=2, mode='bilinear'",
    "torch.nn.Upsample:align_corners": "scale_factor=2, mode='bilinear'",
    "dim1": "dim2=0",
    "dim2": "dim1=1",
}
#: Operand kinds by the API's name: what its tensors must be for PyTorch to accept the call
#: at all (integer-only bit operations, square matrices, vectors); the forms of such an API
#: draw ``x`` (and ``y``) of that kind instead of a float matrix.
_INT_OPERANDS = ("x=int[3,4]@0:8", "y=int[3,4]@1:8")
_SQUARE_OPERANDS = ("x=float[3,3]", "y=float[3,3]")
_VECTOR_OPERANDS = ("x=float[4]", "y=float[4]")
OPERAND_KINDS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(
        ("bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm", "bitwise_left_shift"),
        _INT_OPERANDS,
    ),
    "bincount": ("x=int[6]@0:5", "y=float[6]"),
    **dict.fromkeys(
        ("inverse", "logdet", "slogdet", "det", "matrix_power", "matrix_exp"), _SQUARE_OPERANDS
    ),
    **dict.fromkeys(("dot", "outer", "vander", "ger", "vdot"), _VECTOR_OPERANDS),
    "is_nonzero": ("x=float[1]", "y=float[1]"),
    "cholesky_solve": _SQUARE_OPERANDS,
    # a factorisation of a symmetric positive-definite matrix; a Householder product of a
    # tall matrix (rows >= columns) and one scale per reflector
    "cholesky": ("x=float[3,3]!spd", "y=float[3,3]"),
    "orgqr": ("x=float[4,3]", "y=float[3]"),
    "mvlgamma": ("x=float[3,4]@1:3", "y=float[3,4]"),  # defined above (p - 1) / 2
}
#: How a form's output is read when its order is unspecified (``topk(sorted=False)``): the
#: values, sorted, so both sides compare whatever order they return.
PROBES: dict[str, str] = {
    "sorted": "np.sort(np.asarray({}[0]), axis=-1)",
    # unique returns one tensor unless asked for inverse or counts
    "torch.unique:sorted": "np.sort(np.asarray({}), axis=None)",
    "torch.Tensor.unique:sorted": "np.sort(np.asarray({}), axis=None)",
}
#: Parameters not exercised: they steer where a result goes, not what it is (``out``,
#: ``device``, ``layout``, ``pin_memory``, ``requires_grad``), are deprecated (the losses'
#: ``size_average``/``reduce``), random (``generator``) or process-wide (distributed groups).
IGNORED = frozenset(
    {
        "out",
        "device",
        "layout",
        "pin_memory",
        "requires_grad",
        "memory_format",
        "size_average",
        "_stacklevel",
        "async_op",
        "group",
        "tag",
        "non_blocking",
        "names",
        "copy",
    }
)
#: Random APIs: their values cannot be compared, only shapes.
_RANDOM_WORDS = (
    "rand",
    "dropout",
    "multinomial",
    "bernoulli",
    "normal",
    "poisson",
    "uniform_",
    "cauchy",
    "exponential_",
    "geometric_",
    "gumbel",
    "empty",  # uninitialised values
)
#: Per API: required fills and non-default values that differ from the tables above, and
#: parameters that mean something else for it (``reduce`` of a loss is deprecated).
PER_API: dict[str, dict[str, str | None]] = {
    "torch.index_select": {"index": "i1"},
    "torch.Tensor.index_select": {"index": "i1"},
    "torch.take": {"index": "i1"},
    "torch.Tensor.index_add": {"index": "i1", "source": "s"},
    "torch.Tensor.index_fill": {"index": "i1"},
    "torch.Tensor.index_put_": {"indices": None},
    "torch.gather": {"index": "i"},
    "torch.nn.functional.one_hot": {"tensor": "i"},
    "torch.nn.functional.kl_div": {"target": "p"},
    "torch.bincount": {"input": "i1", "weights": "None"},
    "torch.Tensor.bincount": {"weights": "None"},
    "torch.permute": {"dims": "(1, 0)"},
    "torch.Tensor.permute": {"dims": "(1, 0)"},
    "torch.flip": {"dims": "(1,)"},
    "torch.Tensor.flip": {"dims": "(1,)"},
    "torch.arange": {"end": "5", "start": "1"},
    "torch.linspace": {"end": "1.0", "start": "0.0"},
    "torch.logspace": {"end": "1.0", "start": "0.0"},
    "torch.where": {"condition": "m", "input": "x", "other": "y"},
    "torch.diff": {"n": "2"},
    "torch.topk": {"k": "2"},
    # ``p`` is an int here (1 or 2), a float norm order elsewhere
    "torch.nn.MultiMarginLoss": {"p": "2"},
    "torch.nn.functional.multi_margin_loss": {"p": "2", "target": "c3", "weight": "g4"},
    "torch.nn.functional.rrelu": {"upper": "0.5", "lower": "0.2"},
    "torch.nn.RReLU": {"upper": "0.5", "lower": "0.2"},
    "torch.nn.functional.hardtanh": {"min_val": "-0.5", "max_val": "0.5"},
    # matrix products whose second factor chains with mat1 = float[3, 5]
    "torch.addmm": {"mat2": "m2"},
    "torch.Tensor.addmm": {"mat2": "m2"},
    "torch.addmv": {"input": "v3"},
    "torch.tensordot": {"dims": "([1], [1])"},
    "torch.cdist": {"x2": "w"},
    "torch.rot90": {"dims": "(1, 0)"},
    "torch.select": {"index": "1"},
    "torch.tril_indices": {"dtype": "torch.int32"},
    "torch.triu_indices": {"dtype": "torch.int32"},
    "torch.Tensor.mvlgamma": {"p": "2"},
    "torch.mvlgamma": {"p": "2"},
    "torch.Tensor.repeat_interleave": {"output_size": "24"},
    "torch.repeat_interleave": {"output_size": "24"},
    "torch.Tensor.sum_to_size": {"size": "(1, 4)"},
    "torch.linalg.matrix_norm": {"dim": "(1, 0)"},
    "torch.lerp": {"weight": "0.5"},
    "torch.Tensor.lerp": {"weight": "0.5"},
    "torch.Tensor.index_put": {"indices": "(i1,)", "values": "v"},
    "torch.nn.ConvTranspose2d": {"padding_mode": "'zeros'"},  # the one mode it accepts
    "torch.nn.functional.unfold": {"input": "img"},
    # resampling (what nn.Upsample calls): a batch of images, as the layer's forms take; on a
    # matrix PyTorch rejects every form ("Only 3D, 4D and 5D input Tensors supported")
    "torch.nn.functional.interpolate": {"input": "img"},
    "torch.nn.functional.upsample": {"input": "img"},
    "torch.nn.functional.upsample_nearest": {"input": "img"},
    "torch.nn.functional.upsample_bilinear": {"input": "img"},
    "torch.nn.functional.binary_cross_entropy": {"input": "p", "target": "s01", "weight": "g4"},
    "torch.Tensor.expand": {"size": "(2, 3, 4)"},
    "torch.nn.functional.binary_cross_entropy_with_logits": {"pos_weight": "pw", "weight": "g4"},
    "torch.nn.functional.multilabel_soft_margin_loss": {"weight": "g4"},
    "torch.nn.functional.l1_loss": {"weight": "p"},
    "torch.nn.functional.mse_loss": {"weight": "p"},
    # class-index targets and per-class weights
    "torch.nn.functional.cross_entropy": {"weight": "g4"},
    "torch.nn.functional.nll_loss": {"target": "c3", "weight": "g4"},
    "torch.nn.functional.multilabel_margin_loss": {"target": "ml"},
    # movedim's source is an axis, index_add's a tensor
    **{
        api: {"source": "0"}
        for api in (
            "torch.movedim",
            "torch.moveaxis",
            "torch.Tensor.movedim",
            "torch.Tensor.moveaxis",
        )
    },
    "torch.Tensor.roll": {"dims": "1"},
    "torch.nn.functional.embedding": {"input": "ix"},
    "torch.nn.functional.pixel_unshuffle": {"input": "img"},
    "torch.nn.functional.prelu": {"weight": "g4"},
    "torch.nn.functional.fold": {"input": "fx", "output_size": "(4, 4)"},
    "torch.nn.Fold": {"output_size": "4", "stride": "2"},
    # complex operands
    "torch.imag": {"input": "z"},
    "torch.view_as_real": {"input": "z"},
    # max-unpooling: indices distinct within each plane and inside the smallest output of
    # every form (a stride of 3 keeps the stride-and-padding form's output larger than its
    # input), an output size within a stride of the default
    **{
        f"torch.nn.functional.max_unpool{n}d": {
            "input": f"xu{n}",
            "indices": f"u{n}",
            "stride": "3",
            "output_size": ("(9,)", "(9, 9)", "(5, 5, 5)")[n - 1],
        }
        for n in (1, 2, 3)
    },
    **{f"torch.nn.MaxUnpool{n}d": {"stride": "3"} for n in (1, 2, 3)},
    "torch.trapz": {"x": "s4"},
    "torch.multinomial": {"input": "p"},
    "torch.nn.functional.linear": {"bias": "b5"},
    "torch.nn.functional.affine_grid": {"size": "(1, 1, 4, 4)"},
    "torch.nn.functional.batch_norm": {"weight": "g4", "bias": "b4"},
    "torch.nn.PReLU": {"num_parameters": "4"},
    "torch.nn.Embedding": {"max_norm": "1.0"},
    "torch.bernoulli": {"input": "p"},
    "torch.orgqr": {"input": "w", "tau": "t3"},
    "torch.Tensor.ormqr": {"input2": "t3", "input3": "a"},
    "torch.nn.functional.bilinear": {"weight": "w3", "bias": "b5"},
    "torch.nn.functional.pixel_shuffle": {"input": "c8"},
    "torch.nn.functional.conv1d": {"weight": "k1", "bias": "b4"},
    "torch.nn.functional.conv2d": {"weight": "k2", "bias": "b4"},
    "torch.nn.functional.conv3d": {"weight": "k3", "bias": "b4"},
    "torch.nn.functional.conv_transpose2d": {"weight": "kt", "bias": "b4"},
    # their targets hold -1 and 1 only
    "torch.nn.functional.hinge_embedding_loss": {"target": "sg"},
    "torch.nn.functional.margin_ranking_loss": {"target": "sg"},
    "torch.nn.functional.cosine_embedding_loss": {"target": "sg3"},
}
#: Losses: ``reduce`` is their deprecated flag (``reduction`` replaced it), not scatter's.
_LOSS_WORDS = ("loss", "cross_entropy", "nll", "kl_div", "binary_cross")
#: Rows whose inputs the generic strategies cannot draw: the reason is listed instead.
SKIPPED: dict[str, str] = {
    "torch.nn.Transformer": (
        "its forward takes a source and a target sequence the generic layer input does not"
        " draw: every form built the default 12-layer model for seconds, then PyTorch"
        " rejected the call"
    ),
}
#: The operand of a ``torch.nn.functional`` API by the rank its name ends with.
_RANKED_INPUTS = {"1d": "x=float[2,3,6]", "2d": IMG, "3d": "x=float[1,3,4,6,6]"}
_RANKED_SIZES = {"1d": "2", "2d": "(2, 2)", "3d": "(2, 2, 2)"}
#: Rows that cannot run on this CPU machine at all, by PyTorch or target name prefix, and
#: why: never counted as covered (:mod:`apiscan.verify.coverage` lists them apart).
CANNOT_RUN_HERE: dict[str, str] = {
    "torch.distributed.": (
        "needs a process group, and MindSpore cannot create one on CPU:"
        " mindspore.mint.distributed.init_process_group is documented for Ascend only"
        " (MindSpore 2.10 accepts backend='hccl' only, and on CPU requires 'mccl' started"
        " by msrun); torch's single-process gloo group alone has nothing to compare with"
    ),
    "torchvision.": (
        "torchvision is not installed where verification runs (its compiled ops do not load"
        " on the CPU torch build): the PyTorch side cannot run"
    ),
    "torchaudio.": (
        "torchaudio is not installed where verification runs: the PyTorch side cannot run"
    ),
    "torch.manual_seed": (
        "seeds one framework's own random generator: the two generators draw different"
        " numbers by design, nothing to compare"
    ),
    "torch.seed": "seeds one framework's own random generator: nothing to compare",
    "torch.initial_seed": "reads one framework's own generator seed: nothing to compare",
    "torch.get_rng_state": "one framework's own generator state: nothing to compare",
    "torch.set_rng_state": (
        "takes a state only the same framework's get_rng_state produces: nothing to compare"
    ),
}
#: Parameters that cannot be exercised on this CPU machine whatever the row, and why.
PARAM_CANNOT_RUN: dict[str, str] = {
    "capturable": (
        "torch's capturable=True requires parameters on cuda or xpu (CUDA-graph capture);"
        " on CPU the optimizer raises at its first step"
    ),
    "process_group": (
        "a process group, which MindSpore cannot create on CPU (SyncBatchNorm's other"
        " parameters run in eval mode, where nothing is synchronised)"
    ),
    "device_ids": "device ids of a process group, which MindSpore cannot create on CPU",
    "group": "a process group, which MindSpore cannot create on CPU",
}
#: Max-unpooling operands by rank: an input of spatial size 4 (2 for 3-d) and its indices.
_UNPOOL_INPUTS = {
    "xu1": "xu1=float[2,3,4]",
    "u1": "u1=int[2,3,4]@0:4!planes",
    "xu2": "xu2=float[2,3,4,4]",
    "u2": "u2=int[2,3,4,4]@0:16!planes",
    "xu3": "xu3=float[1,3,2,2,2]",
    "u3": "u3=int[1,3,2,2,2]@0:8!planes",
}
#: Extra inputs the per-API names above refer to.
_NAMED_INPUTS = {
    "p": "p=float[3,4]@0.05:0.95",
    "i1": "i1=int[2]@0:3",
    "i": "i=int[3,2]@0:4!unique",
    "s": "s=float[3,2]",
    "m": "m=bool[3,4]",
    "x": X,
    "y": Y,
    "w": "w=float[5,4]",
    "m2": "m2=float[5,4]",
    "v3": "v3=float[3]",
    "b5": "b5=float[5]",
    "b4": "b4=float[4]",
    "g4": "g4=float[4]",
    "s4": "s4=float[4]@0:1",
    "t3": "t3=float[3]",
    "a": "a=float[3,3]",
    "w3": "w3=float[5,4,4]",
    "c8": "c8=float[1,8,4,4]",
    "pw": "pw=float[4]@0.5:2",
    "k1": "k1=float[4,3,3]",
    "k2": "k2=float[4,3,3,3]",
    "k3": "k3=float[4,3,3,3,3]",
    "kt": "kt=float[3,4,3,3]",
    "sg": "sg=sign[3,4]",
    "ix": "ix=int[3,4]@0:5",
    "c3": "c3=int[3]@0:4",
    "ml": "ml=int[3,4]@-1:4",
    "(i1,)": "i1=int[2]@0:3",
    "v": "v=float[4]",
    "img": "img=float[2,3,8,8]",
    "s01": "s01=float[3,4]@0:1",
    "fx": "fx=float[1,4,9]",
    "sg3": "sg3=sign[3]",
    "z": "z=complex[3,4]",
    **_UNPOOL_INPUTS,
}
#: Inputs of the edge-case forms of a tensor's first operand.
EDGE_INPUTS: dict[str, str] = {
    "plain": X,  # the call on ordinary values: what the edge cases are measured against
    "empty": "x=float[0,4]",
    "nan": "x=float[3,4]!nan",
    "inf": "x=float[3,4]!inf",
    "noncontig": "x=float[3,4]!noncontig",
    "int64": "x=int[3,4]@-5:5",
    "bool": "x=bool[3,4]",
}
#: Documented overload parameters the torch index does not record (it keeps one overload
#: per name): ``torch.max(input, dim, keepdim)``, ``scatter(..., reduce=)``.
OVERLOADS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "torch.max": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.min": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.scatter": (("reduce", "kw_only", True),),
    "torch.Tensor.scatter": (("reduce", "kw_only", True),),
    "torch.median": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.Tensor.median": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.mode": (("dim", "pos_or_kw", True), ("keepdim", "pos_or_kw", True)),
    "torch.var": (("correction", "kw_only", True),),
    "torch.std": (("correction", "kw_only", True),),
}
FIELDS = (
    "api",
    "target",
    "status",
    "param",
    "form",
    "call",
    "inputs",
    "probe",
    "layer",
    "via",
    "rename",
)
#: Layers (``torch.nn`` classes): what fills a required constructor parameter.
CLASS_REQUIRED: dict[str, str] = {
    "output_size": "2",
    "kernel_size": "2",
    "padding": "1",
    "value": "0.5",
    "groups": "3",
    "upscale_factor": "1",
    "downscale_factor": "1",
    "num_features": "3",
    "normalized_shape": "4",
    "num_groups": "1",
    "num_channels": "3",
    "in_channels": "3",
    "out_channels": "4",
    "in_features": "4",
    "out_features": "5",
    "dim": "1",
    "size": "4",
    "num_embeddings": "10",
    "embedding_dim": "3",
    "norm_type": "2.0",
    "threshold": "0.1",
    "input_size": "4",
    "hidden_size": "3",
}
#: Parameters a layer with weights copies to the MindSpore cell, by what its constructor
#: takes (a layer whose weights are not listed here gets no forms: random weights differ).
_WEIGHTS: dict[str, str] = {
    "num_features": "weight:weight,bias:bias,running_mean:running_mean,running_var:running_var",
    "normalized_shape": "weight:weight,bias:bias",
    "num_channels": "weight:weight,bias:bias",
    "in_channels": "weight:weight,bias:bias",
    "in_features": "weight:weight,bias:bias",
    "num_embeddings": "weight:weight",
    # recurrent layers and cells: every layer's and direction's weights, same names in
    # both frameworks (those a form does not build are skipped by the harness)
    "input_size": ",".join(
        f"{kind}_{gate}{layer}:{kind}_{gate}{layer}"
        for layer in ("", "_l0", "_l0_reverse", "_l1", "_l1_reverse")
        for kind in ("weight", "bias")
        for gate in ("ih", "hh")
    ),
}
#: Constructor parameters that would make the weights' names or shapes differ.
_NO_VALUE_FOR_LAYERS = frozenset({"bias", "affine", "elementwise_affine", "track_running_stats"})


@dataclass(frozen=True)
class Form:
    """One generated call form of a row's claim (a line of the table)."""

    api: str
    target: str
    status: str
    param: str  # the documented parameter exercised ("decimals=1"), or the edge case
    form: str  # "keyword", "positional", "edge"
    call: str
    inputs: str  # ";"-joined input specs
    probe: str = "{}"
    #: A layer form: ``-`` for a layer without weights, else the parameters to copy
    #: (``weight:weight,bias:bias``); empty for a function or method call.
    layer: str = ""
    #: ``1`` for a form of a consistent row whose target is not the one the scan picks
    #: (``torch.optim.SGD`` ↔ ``mindspore.nn.SGD`` beside ``experimental.optim.SGD``).
    via: str = ""
    #: ``torch_name:ms_name`` for a form passing a parameter the row documents as renamed
    #: (``data:default_input``): the MindSpore side passes that keyword under its name.
    rename: str = ""


@dataclass(frozen=True)
class Skip:
    """A row without forms and why (a required parameter no table fills...)."""

    api: str
    reason: str


def _params(api: str, entry: dict) -> list[tuple[str, str, bool]]:
    recorded = [(n, k, bool(d)) for n, k, d in entry.get("p", [])]
    names = {n for n, _, _ in recorded}
    return recorded + [p for p in OVERLOADS.get(api, ()) if p[0] not in names]


def row_params(api: str, entry: dict) -> list[tuple[str, str, bool]]:
    """The documented parameters of ``api``: the recorded signature plus the overloads the
    index does not keep (``torch.max(input, dim, keepdim)``)."""
    return _params(api, entry)


def _companion(api: str, pname: str) -> str:
    """The keyword arguments ``pname`` needs beside it in a form of ``api`` (with the
    separator), ``""`` for none: :data:`COMPANIONS` by ``api:param``, then by name."""
    found = COMPANIONS.get(f"{api}:{pname}", COMPANIONS.get(pname, ""))
    return f"{found}, " if found else ""


def _dispatch_only(entry: dict | None) -> bool:
    """A signature that says nothing: ``(*args, **kwargs)`` of a dispatching wrapper."""
    return entry is not None and {k for _, k, _ in entry.get("p", [])} == {"var_pos", "var_kw"}


#: Documented signatures the torch index could not record (overloaded builtins), from
#: PyTorch's documentation: ``torch.randint(low=0, high, size, *, generator, dtype...)``
#: written with keywords, the one spelling that reaches every overload.
DOCUMENTED_SIGNATURES: dict[str, list[list]] = {
    "torch.randint": [
        ["high", "kw_only", False],
        ["size", "kw_only", False],
        ["low", "kw_only", True],
        ["generator", "kw_only", True],
        ["out", "kw_only", True],
        ["dtype", "kw_only", True],
        ["layout", "kw_only", True],
        ["device", "kw_only", True],
        ["requires_grad", "kw_only", True],
    ],
    **{
        f"torch.nn.{name}": [
            ["input_size", "pos_or_kw", False],
            ["hidden_size", "pos_or_kw", False],
            ["num_layers", "pos_or_kw", True],
            *([["nonlinearity", "pos_or_kw", True]] if name == "RNN" else []),
            ["bias", "pos_or_kw", True],
            ["batch_first", "pos_or_kw", True],
            ["dropout", "pos_or_kw", True],
            ["bidirectional", "pos_or_kw", True],
            *([["proj_size", "pos_or_kw", True]] if name == "LSTM" else []),
            ["device", "pos_or_kw", True],
            ["dtype", "pos_or_kw", True],
        ]
        for name in ("RNN", "LSTM", "GRU")
    },
    "torch.full_like": [
        ["input", "pos_or_kw", False],
        ["fill_value", "pos_or_kw", False],
        ["dtype", "kw_only", True],
        ["layout", "kw_only", True],
        ["device", "kw_only", True],
        ["requires_grad", "kw_only", True],
        ["memory_format", "kw_only", True],
    ],
}
#: Parameters PyTorch documents as deprecated (not part of what a row promises).
DEPRECATED: dict[str, str] = {
    "min_value": "deprecated by PyTorch in favour of min_val",
    "max_value": "deprecated by PyTorch in favour of max_val",
}
#: Parameters and rows not exercised although they could run here, and why (gaps of the
#: harness, listed as uncovered with the reason, never as covered).
NOT_EXERCISED: dict[str, str] = {}


def row_entry(api: str, index: dict[str, dict]) -> dict | None:
    """The torch index's record of ``api``, or where the index has none (a builtin it could
    not introspect) or only ``(*args, **kwargs)`` (``boolean_dispatch`` wrappers), the
    record of the very callable it wraps or re-exports, found by rule:

    - ``torch.nn.functional.X`` re-exports ``torch.X`` (``F.conv2d is torch.conv2d``);
    - ``F.max_pool2d`` dispatches to ``F.max_pool2d_with_indices`` (same parameters);
    - ``torch.X`` is ``torch.Tensor.X`` with the tensor first (``torch.unique``)."""
    entry = index.get(api)
    if entry is not None and "p" in entry and not _dispatch_only(entry):
        return entry
    if api in DOCUMENTED_SIGNATURES:
        return {"k": "function", **(entry or {}), "p": DOCUMENTED_SIGNATURES[api]}
    owner, _, name = api.rpartition(".")
    tries = [f"{api}_with_indices"]
    if owner == "torch.nn.functional":
        tries.append(f"torch.{name}")
    for other in tries:
        found = index.get(other)
        if found is not None and "p" in found and not _dispatch_only(found):
            return {**found, "k": "function"}
    method = index.get(f"torch.Tensor.{name}") if owner == "torch" else None
    if method is not None and "p" in method and not _dispatch_only(method):
        return {**method, "k": "function", "p": [["input", "pos_or_kw", False], *method["p"]]}
    return entry


def cannot_run_here(api: str, target: str, param: str) -> str:
    """Why ``param`` of the row ``api`` ↔ ``target`` cannot be exercised on this CPU
    machine (``""`` when it can): the whole row (:data:`CANNOT_RUN_HERE`, by name prefix)
    or the parameter (:data:`PARAM_CANNOT_RUN`)."""
    for prefix, reason in CANNOT_RUN_HERE.items():
        if api.startswith(prefix) or target.startswith(prefix):
            return reason
    return PARAM_CANNOT_RUN.get(param, "")


def _positional_ok(api: str, entry: dict, given: list[str], pname: str) -> bool:
    """Whether ``pname`` can be passed by position after the values ``given`` (names, in
    order): every optional positional parameter before it in the real signature, ignored
    ones included (``size_average`` before a loss's ``reduction``, ``_stacklevel`` before
    ``log_softmax``'s ``dtype``), must be among them."""
    before = []
    for name, kind, has_default in _params(api, entry):
        if name == pname:
            return before == given
        if has_default and kind in ("pos_or_kw", "pos_only"):
            before.append(name)
    return False


def _fill(api: str, name: str) -> tuple[str, tuple[str, ...]] | None:
    override = PER_API.get(api, {})
    rank = _RANKED_INPUTS.get(api.rpartition(".")[2][-2:])
    if name == "input" and rank and api.startswith("torch.nn.functional.") and name not in override:
        return "x", (rank,)  # F.max_pool2d, F.conv2d: an image batch, not a matrix
    sizes = _RANKED_SIZES.get(api.rpartition(".")[2][-2:])
    if name == "output_size" and sizes and name not in override:
        return sizes, ()  # one size per spatial dimension
    if name in override:
        text = override[name]
        if text is None:
            return None
        return text, ((_NAMED_INPUTS[text],) if text in _NAMED_INPUTS else ())
    return REQUIRED.get(name)


def _merge_inputs(groups: Iterable[tuple[str, ...]]) -> str:
    seen: dict[str, str] = {}
    for group in groups:
        for spec in group:
            seen.setdefault(spec.split("=", 1)[0], spec)
    return ";".join(seen.values())


def forms_for(
    api: str,
    target: str,
    status: str,
    entry: dict,
    unsupported: frozenset[str] = frozenset(),
    renamed: dict[str, str] | None = None,
) -> tuple[list[Form], str]:
    """The forms of one row (``entry``: the torch index's record of ``api``), or a reason.
    ``renamed`` (PyTorch name → MindSpore name) are documented renames: those parameters
    get a keyword form whose MindSpore side passes MindSpore's name (``rename``)."""
    renamed = renamed or {}
    kind = entry.get("k")
    if api in SKIPPED:
        return [], SKIPPED[api]
    if any(word in api.rpartition(".")[2].lower() for word in _LOSS_WORDS):
        entry = {**entry, "p": [p for p in entry.get("p", []) if p[0] != "reduce"]}
    if kind == "class" and api.startswith("torch.optim.") and ".lr_scheduler." not in api:
        if status != "consistent":
            return [], "an optimizer with documented differences: its forms are hand-written"
        return _optimizer_forms(api, target, status, entry)
    if api == "torch.nn.Parameter":
        kind = "function"  # wraps a tensor: the value is what a call compares
    elif kind == "class" and api.startswith("torch.nn.") and api.count(".") == 2:
        return _layer_forms(api, target, status, entry, unsupported, renamed)
    if kind not in ("function", "method"):
        return [], f"a {kind} outside torch.nn: its forms are hand-written"
    params = [p for p in _params(api, entry) if p[0] not in IGNORED]
    # ``torch.rand(*size)``: a variadic size is passed as one tuple, which torch accepts
    params = [
        (n, "pos_only", False) if k == "var_pos" and n == "size" else (n, k, d)
        for n, k, d in params
    ]
    params = [p for p in params if p[1] not in ("var_pos", "var_kw")]
    method = api.startswith("torch.Tensor.")
    name = api.rpartition(".")[2]
    if method and not target.startswith("mindspore.Tensor."):
        return [], "a Tensor method mapped to a function: the call cannot be written alike"
    if name.startswith("_"):
        return [], "private function"
    if name.endswith("_") and not method and not target.endswith("_"):
        # torch.nn.init.ones_ ↔ initializer.One: an in-place call maps alike only to an
        # in-place target (F.relu_ ↔ mint.nn.functional.relu_)
        return [], "an in-place function mapped to a constructor: the call cannot be written alike"
    required = [p for p in params if not p[2]]
    optional = [p for p in params if p[2]]
    args: list[str] = []
    inputs: list[tuple[str, ...]] = [(X,)] if method else []
    for pname, pkind, _ in required:
        filled = _fill(api, pname)
        if filled is None:
            return [], f"no value for its required parameter {pname!r}"
        text, needs = filled
        args.append(f"{pname}={text}" if pkind == "kw_only" else text)
        inputs.append(needs)
    if not method and not any(inputs):
        inputs.append(())
    probe = "{}.shape" if any(w in api.lower() for w in _RANDOM_WORDS) else "{}"
    base = ", ".join(args)
    head = f"x.{name}(" if method else f"{api}("
    out: list[Form] = []
    positional_done: list[str] = []
    positional_names: list[str] = []
    positional_inputs: list[tuple[str, ...]] = []  # the named inputs of earlier values
    can_position = True
    for pname, pkind, _ in optional:
        value = PER_API.get(api, {}).get(pname, NON_DEFAULT.get(pname))
        rename = f"{pname}:{renamed[pname]}" if pname in renamed else ""
        if value is None or (pname in unsupported and not rename):
            can_position = False
            continue
        extra = (_NAMED_INPUTS[value],) if value in _NAMED_INPUTS else ()
        joined = _merge_inputs([*inputs, extra])
        sep = ", " if base else ""
        companion = _companion(api, pname)
        call = f"{head}{base}{sep}{companion}{pname}={value})"
        out.append(
            Form(
                api,
                target,
                status,
                f"{pname}={value}",
                "keyword",
                call,
                _sized(call, joined),
                PROBES.get(f"{api}:{pname}", PROBES.get(pname, probe)) if probe == "{}" else probe,
                rename=rename,
            )
        )
        if (
            pkind in ("pos_or_kw", "pos_only")
            and can_position
            and not rename
            and not companion
            and pname not in PROBES
            and _positional_ok(api, entry, positional_names, pname)
        ):
            positional_names.append(pname)
            positional_done.append(value)
            positional_inputs.append(extra)
            out.append(
                Form(
                    api,
                    target,
                    status,
                    f"{pname}={value}",
                    "positional",
                    f"{head}{base}{sep}{', '.join(positional_done)})",
                    _sized(
                        f"{head}{base}{sep}{', '.join(positional_done)})",
                        _merge_inputs([*inputs, *positional_inputs]),
                    ),
                    probe,
                )
            )
        else:
            can_position = False
    # Edge-case inputs for the tensor the call is about (the receiver, or ``input``).
    operand = "x" if (method or (required and _fill(api, required[0][0]) == ("x", (X,)))) else ""
    if operand and probe == "{}":
        rest = [spec for group in inputs for spec in group if not spec.startswith("x=")]
        for label, spec in EDGE_INPUTS.items():
            out.append(
                Form(
                    api,
                    target,
                    status,
                    label,
                    "edge",
                    f"{head}{base})",
                    _merge_inputs([(spec,), tuple(rest)]),
                    probe,
                )
            )
        if "y" in base.split(", "):
            out.append(
                Form(
                    api,
                    target,
                    status,
                    "broadcast",
                    "edge",
                    f"{head}{base})",
                    _merge_inputs([("x=float[3,1]", "y=float[1,4]"), *inputs]),
                    probe,
                )
            )
    if not out and required:
        # only required parameters (``torch.linalg.inv(A)``, ``torch.hstack(tensors)``):
        # the call passing them, by position, is the one documented form
        call = f"{head}{base})"
        out.append(Form(api, target, status, "", "positional", call, _merge_inputs(inputs), probe))
    if not out:
        return [], "no documented parameter to exercise and no tensor operand"
    if name in OPERAND_KINDS:
        out = [_with_operands(f, OPERAND_KINDS[name]) for f in out]
        out = [f for f in out if f is not None]
    return out, ""


#: Calls whose input's shape follows from their arguments: ``fold`` takes one column per
#: sliding block, and how many blocks there are depends on every geometry argument.
_FOLD_CALLS = ("torch.nn.Fold(", "torch.nn.functional.fold(")


def _sized(call: str, inputs: str) -> str:
    """``inputs`` with the first operand's shape fitted to ``call`` where the call decides it
    (:data:`_FOLD_CALLS`: ``(N, C·kernel, blocks)``), else unchanged."""
    if not call.startswith(_FOLD_CALLS):
        return inputs
    import ast

    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    args = [ast.literal_eval(a) for a in node.args if not isinstance(a, ast.Name)]
    names = ("output_size", "kernel_size", "dilation", "padding", "stride")
    geometry = dict(zip(names, args, strict=False))
    geometry.update({k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg})
    size, kernel = _pair(geometry["output_size"]), _pair(geometry["kernel_size"])
    dilation, padding = _pair(geometry.get("dilation", 1)), _pair(geometry.get("padding", 0))
    stride = _pair(geometry.get("stride", 1))
    blocks = 1
    for o, k, d, p, st in zip(size, kernel, dilation, padding, stride, strict=True):
        blocks *= (o + 2 * p - d * (k - 1) - 1) // st + 1
    name, _, spec = inputs.split(";")[0].partition("=")
    rest = inputs.split(";")[1:]
    dims = spec[spec.index("[") + 1 : spec.index("]")].split(",")
    shaped = f"{name}=float[{dims[0]},{dims[1]},{blocks}]{spec[spec.index(']') + 1 :]}"
    return ";".join([shaped, *rest])


def _pair(value: object) -> tuple[int, int]:
    if isinstance(value, tuple):
        return (int(value[0]), int(value[1]))
    return (int(value), int(value))  # type: ignore[call-overload]


def _with_operands(form: Form, kinds: tuple[str, str]) -> Form | None:
    """``form`` drawing ``x`` and ``y`` of the API's operand kind; an edge case keeps its
    meaning (empty: a zero first dimension; NaN, inf, non-contiguous: float operands of
    two dimensions only, else dropped)."""
    x_spec, y_spec = kinds
    if form.form == "edge" and form.param in ("int64", "bool", "broadcast"):
        return None  # dtype and broadcast variants of a kind-bound operand: not its forms
    if form.form == "edge" and form.param != "plain" and "!" in x_spec:
        return None  # values drawn to a structure (positive definite): no edge variants
    if form.form == "edge" and form.param not in ("plain", "empty"):
        if "=float[" not in x_spec or x_spec.count(",") < 1:
            return None
        x_spec = f"{x_spec}!{form.param}"
    if form.param == "empty":
        x_spec = re.sub(r"\[\d+", "[0", x_spec, count=1)
    specs = []
    for spec in form.inputs.split(";"):
        if spec.startswith("x="):
            spec = x_spec
        elif spec.startswith("y="):
            spec = y_spec
        specs.append(spec)
    return replace(form, inputs=";".join(specs))


#: Optimizers: a non-default value per constructor parameter (one form each, on top of
#: ``lr=0.01``); ``nesterov`` needs momentum. ``foreach``, ``fused`` and ``differentiable``
#: choose an implementation, not the update, yet a target must accept them (a
#: differentiable step runs on a non-leaf parameter, see the harness); ``capturable`` needs
#: CUDA (:data:`PARAM_CANNOT_RUN`).
OPTIMIZER_VALUES: dict[str, str] = {
    "lr": "0.05",
    "momentum": "0.9",
    "dampening": "0.1",
    "weight_decay": "0.01",
    "nesterov": "True, momentum=0.9",
    "maximize": "True",
    "betas": "(0.8, 0.95)",
    "eps": "1e-06",
    "amsgrad": "True",
    "alpha": "0.9",
    "centered": "True",
    "lr_decay": "0.01",
    "initial_accumulator_value": "0.1",
    "rho": "0.8",
    "momentum_decay": "0.005",
    "decoupled_weight_decay": "True, weight_decay=0.01",
    "lambd": "0.001",
    "t0": "2.0",
    "etas": "(0.4, 1.3)",
    "step_sizes": "(1e-05, 1.0)",
    "foreach": "True",
    "fused": "True",
    "differentiable": "True",
}
OPTIMIZER_INPUTS = "w=float[4,5];g=float[4,4,5]"


def _optimizer_forms(api: str, target: str, status: str, entry: dict) -> tuple[list[Form], str]:
    """``torch.optim.X(params, lr=0.01, p=v)``: the parameter after each of four steps."""
    out = []
    for pname, _, has_default in _params(api, entry):
        value = OPTIMIZER_VALUES.get(pname)
        if not has_default or value is None:
            continue
        lr = "" if pname == "lr" else "lr=0.01, "
        call = f"{api}(params, {lr}{pname}={value})"
        param = f"{pname}={value.split(',')[0]}"
        out.append(
            Form(api, target, status, param, "keyword", call, OPTIMIZER_INPUTS, "{}", "optimizer")
        )
    if not out:
        return [], "no optimizer parameter to exercise"
    return out, ""


#: Layers whose input must be an image batch whatever their name says.
_IMAGE_LAYERS = frozenset(
    {
        "LocalResponseNorm",
        "SyncBatchNorm",
        "GroupNorm",
        "ChannelShuffle",
        "PixelUnshuffle",
        "PixelShuffle",
        "Upsample",
        "UpsamplingNearest2d",
        "UpsamplingBilinear2d",
        "Unfold",
    }
)


def _layer_input(name: str) -> str:
    signed = {
        "HingeEmbeddingLoss": f"{X};sg=sign[3,4]",
        "MarginRankingLoss": f"{X};{Y};sg=sign[3,4]",
        "CosineEmbeddingLoss": f"{X};{Y};sg3=sign[3]",
    }
    if name in signed:
        return signed[name]  # targets of -1 and 1
    if name == "CTCLoss":
        return "lp=float[6,2,4]@-3:-0.1;tg=int[2,3]@1:3;il=int[2]@6:7;tl=int[2]@3:4"
    if name in ("RNN", "LSTM", "GRU"):
        return "x=float[5,2,4]"  # (sequence, batch, input_size)
    if name in ("RNNCell", "GRUCell"):
        return f"{X};h=float[3,3]"  # MindSpore's cells take the hidden state as required
    if name in ("NLLLoss", "MultiMarginLoss"):
        return f"{X};c3=int[3]@0:4"  # class indices
    if name == "MultiLabelMarginLoss":
        return f"{X};ml=int[3,4]@-1:4"  # class indices, -1 ends each row's list
    if name in _IMAGE_LAYERS:
        return IMG
    if name.startswith("MaxUnpool"):
        n = name[-2]
        return f"x={_UNPOOL_INPUTS[f'xu{n}'].split('=', 1)[1]};{_UNPOOL_INPUTS[f'u{n}']}"
    if name == "Fold":
        return "x=float[1,12,9]"  # Fold(4, 2): 3 channels of 2x2 blocks, 3x3 of them
    if name == "Embedding":
        return "x=int[3,4]@0:10"  # indices into its 10 rows
    if name == "KLDivLoss":
        return "x=float[3,4];y=float[3,4]@0.05:0.95"  # the target is probabilities
    if name.endswith("Loss"):
        if name.startswith("BCE") and "Logits" not in name:
            return "x=float[3,4]@0.05:0.95;y=float[3,4]@0:1"
        return f"{X};{Y}"
    for rank, spec in (("1d", "x=float[2,3,6]"), ("2d", IMG), ("3d", "x=float[1,3,4,6,6]")):
        if name.endswith(rank) or f"{rank.upper()}" in name:
            return spec
    return X


def _layer_forms(
    api: str,
    target: str,
    status: str,
    entry: dict,
    unsupported: frozenset[str],
    renamed: dict[str, str] | None = None,
) -> tuple[list[Form], str]:
    """``torch.nn.X(<required>, p=v)`` forms of a layer, run as layer cases (eval mode, the
    same weights on both sides when it has any)."""
    name = api.rpartition(".")[2]
    if name.endswith(("List", "Dict", "Sequential")) or name in ("Parameter", "Module"):
        return [], "a container, not a computation"
    params = [
        p
        for p in _params(api, entry)
        if p[0] not in IGNORED and p[0] != "reduce" and p[1] != "var_kw"
    ]
    if any(p[1] == "var_pos" for p in params):
        params = [p for p in params if p[1] != "var_pos"]
    layer = "-"
    args = []
    for pname, pkind, has_default in params:
        if has_default:
            continue
        value = PER_API.get(api, {}).get(pname, CLASS_REQUIRED.get(pname))
        if value is None:
            return [], f"no value for its required constructor parameter {pname!r}"
        layer = _WEIGHTS.get(pname, layer)
        args.append(f"{pname}={value}" if pkind == "kw_only" else value)
    if any(p[0] in ("weight", "pos_weight") and p[2] for p in params) and layer == "-":
        layer = "-"  # an optional loss weight: left at its default
    inputs = _layer_input(name)
    if target.rpartition(".")[2][:1].islower():
        # a layer the table maps to a function (nn.Flatten → mint.flatten): the call is
        # ``torch.nn.Flatten(1)(x)``, the constructor's arguments follow the input there
        operands = ", ".join(spec.split("=", 1)[0] for spec in inputs.split(";"))
        return _function_layer_forms(api, target, status, params, args, inputs, operands)
    base = ", ".join(args)
    out: list[Form] = []
    done: list[str] = []
    done_names: list[str] = []
    can_position = True
    for pname, pkind, has_default in params:
        if not has_default:
            continue
        value = PER_API.get(api, {}).get(
            pname, LAYER_NON_DEFAULT.get(pname, NON_DEFAULT.get(pname))
        )
        rename = f"{pname}:{renamed[pname]}" if renamed and pname in renamed else ""
        if value is None or (pname in unsupported and not rename) or value in _NAMED_INPUTS:
            can_position = False
            continue
        if pname in _NO_VALUE_FOR_LAYERS or _companion(api, pname) or pname == "weights" or rename:
            can_position = False  # a flag, a tensor or a renamed parameter: by keyword only
        sep = ", " if base else ""
        companion = _companion(api, pname)
        call = f"{api}({base}{sep}{companion}{pname}={value})"
        out.append(
            Form(
                api,
                target,
                status,
                f"{pname}={value}",
                "keyword",
                call,
                _sized(call, inputs),
                "{}",
                layer,
                rename=rename,
            )
        )
        if (
            pkind in ("pos_or_kw", "pos_only")
            and can_position
            and _positional_ok(api, entry, done_names, pname)
        ):
            done_names.append(pname)
            done.append(value)
            call = f"{api}({base}{sep}{', '.join(done)})"
            out.append(
                Form(
                    api,
                    target,
                    status,
                    f"{pname}={value}",
                    "positional",
                    call,
                    _sized(call, inputs),
                    "{}",
                    layer,
                )
            )
        else:
            can_position = False
    if ";" not in inputs:
        for label in ("plain", "empty", "nan", "noncontig"):
            if label == "nan" and "=float[" not in inputs:
                continue  # NaN needs a float input (Embedding takes indices)
            spec = inputs.replace("]", "]!nan") if label == "nan" else inputs
            if label == "noncontig":
                spec = inputs.split("!")[0] + "!noncontig"
            if label == "empty":
                spec = re.sub(r"\[\d+,", "[0,", inputs, count=1)
            out.append(
                Form(api, target, status, label, "edge", f"{api}({base})", spec, "{}", layer)
            )
    if not out:
        return [], "no documented parameter to exercise and no tensor operand"
    return out, ""


def _function_layer_forms(
    api: str,
    target: str,
    status: str,
    params: list[tuple[str, str, bool]],
    args: list[str],
    inputs: str,
    operands: str,
) -> tuple[list[Form], str]:
    base = ", ".join(args)
    sep = ", " if base else ""
    out = [Form(api, target, status, "", "keyword", f"{api}({base})({operands})", inputs)]
    for pname, _, has_default in params:
        value = LAYER_NON_DEFAULT.get(pname, NON_DEFAULT.get(pname))
        if has_default and value is not None and value not in _NAMED_INPUTS:
            call = f"{api}({base}{sep}{pname}={value})({operands})"
            out.append(Form(api, target, status, f"{pname}={value}", "keyword", call, inputs))
    out = [f for f in out if f.param]
    if not out:
        return [], "no documented parameter to exercise"
    return out, ""


def torch_index(data_dir: Path) -> dict[str, dict]:
    """The shipped torch index's records by name (torch, torchvision, torchaudio)."""
    names: dict[str, dict] = {}
    for path in sorted((data_dir / "torch_api").glob("*.json")):
        names.update(json.loads(path.read_text(encoding="utf-8"))["names"])
    return names


def generate(ms_version: str | None = None) -> tuple[list[Form], list[Skip]]:
    """Every consistent or different row's forms, against the target the scan picks."""
    from apiscan.mapping.findings import Matcher
    from apiscan.mapping.match import match_api
    from apiscan.mapping.store import load_table, mapping_data_dir
    from apiscan.resolve.torch_api import load_torch_api

    table = load_table(ms_version)
    index = torch_index(mapping_data_dir())
    matcher = Matcher(table, load_torch_api())
    with (mapping_data_dir() / "ms_targets.csv").open(encoding="utf-8") as handle:
        kinds = {row["target"]: row["kind"] for row in csv.DictReader(handle)}
    forms: list[Form] = []
    skips: list[Skip] = []
    for api in sorted({row.torch_api for row in table}):
        entry = row_entry(api, index)
        # the target the scan picks for a call passing these keywords (SGD(params, lr=...)
        # → mindspore.experimental.optim.SGD rather than mindspore.nn.SGD), then every
        # other consistent row's target: each row promises its parameters. The rows are
        # those the scan reads for this torch object: where the tables list it under
        # several names, the newest described one (r1.10's undescribed
        # ``torch.nn.Parameter`` gives way to r2.4.0's ``torch.nn.parameter.Parameter``
        # and its diff page).
        named = [p[0] for p in _params(api, entry or {}) if p[2] and p[0] not in IGNORED]
        found = match_api(
            api,
            table,
            passed_params=named,
            keywords=named,
            same_object=matcher.same_object(api),
        )
        listed = found.matched or api
        primary = table.lookup(listed)
        if primary is None:
            continue
        picked = found.mindspore_api
        rows = {r.ms_apis[0]: r for r in reversed(table.rows_for(listed)) if r.ms_apis}
        targets = [picked] if primary.status in ("consistent", "different") else []
        targets += [t for t, r in rows.items() if r.status == "consistent" and t != picked]
        for target in dict.fromkeys(targets):
            row = rows.get(target, primary) if target else primary
            found, reason = _row_forms(api, target, row, entry, kinds)
            if reason:
                skips.append(Skip(api, reason))
            if target != picked:
                found = [replace(f, via="1") for f in found]
            forms.extend(found)
    return forms, skips


def _row_forms(
    api: str, target: str | None, row: MappingRow, entry: dict | None, kinds: dict[str, str]
) -> tuple[list[Form], str]:
    if not target or entry is None or "p" not in entry:
        return [], cannot_run_here(api, target or "", "") or (
            "no target or no recorded PyTorch signature"
        )
    reason = cannot_run_here(api, target, "")
    if reason:
        return [], reason
    if kinds.get(target) == "attribute":
        # Tensor.size → Tensor.shape: a migration reads the attribute, nobody calls it
        return [], "its target is an attribute: no call to compare"
    # A "different" row documents its parameter differences: those are not claims. A
    # parameter it lists under the same name without a note is the same (RNN's num_layers).
    unsupported = frozenset(
        p.torch_param
        for p in row.params
        if p.torch_param and (p.note or p.ms_param != p.torch_param or row.status != "different")
    )
    if row.status != "different":
        return forms_for(api, target, row.status, entry, unsupported)
    optional = {name for name, _, has_default in _params(api, entry) if has_default}
    differing = sorted(
        p.torch_param
        for p in row.params
        if p.torch_param in optional and DEFAULT_DIFFERS.search(p.note)
    )
    if differing:
        # every form leaves it at PyTorch's default, which the row says MindSpore's is not
        # (nn.Conv1d's bias, nn.MaxPool2d's stride): the two calls compute different
        # functions by the table's own account, no claim to test
        return [], (
            f"a different row whose default of {', '.join(differing)} differs: a form run"
            " alike on both sides is no claim of the table"
        )
    # a parameter the row renames and calls the same (Parameter's data → default_input)
    # is passed by keyword under MindSpore's name: the documented mapping, tested
    renamed = {
        p.torch_param: p.ms_param
        for p in row.params
        if p.torch_param
        and p.ms_param
        and p.ms_param != p.torch_param
        and SAME_FUNCTION.match(p.note.strip())
        and p.torch_param.isidentifier()
        and p.ms_param.isidentifier()
    }
    return forms_for(api, target, row.status, entry, unsupported, renamed)


#: A documented parameter note saying its default differs between the frameworks
#: ("different default value", "PyTorch defaults to True, and MindSpore defaults to
#: False", "the default values are different").
DEFAULT_DIFFERS = re.compile(
    r"different [\w ]*default values?"
    r"|default values?(?: of (?:the )?parameters?)? (?:is |are )?different"
    r"|defaults to \w+.*defaults to"
    r"|default value (?:for|of) pytorch.*default value (?:for|of) mindspore",
    re.IGNORECASE,
)
#: A documented parameter note saying only the name differs ("Same function, different
#: parameter names", "Consistent").
SAME_FUNCTION = re.compile(
    r"^(?:-|(?:consistent|same)(?: functions?)?(?:,? (?:but )?(?:with )?different parameter"
    r" names?)?)\.?$",
    re.IGNORECASE,
)


def to_csv(forms: Iterable[Form]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(FIELDS)
    for f in forms:
        writer.writerow([getattr(f, name) for name in FIELDS])
    return buffer.getvalue()
