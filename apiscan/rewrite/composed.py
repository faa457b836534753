"""Tensor computations with no MindSpore counterpart that are still no custom op: a library
function that is one composition of existing ops (a thin wrapper or an elementwise formula), a
``torch.distributions`` member MindSpore's probability package has, an initialiser or a layer's
re-initialisation, run once at construction.

The scan's disposition reads this table (:func:`apiscan.rewrite.dispose`): such an API is a
``rewrite`` with its composition, never a ``custom-op``, so the scan's report and the review
count the same custom-op sites. One home: the review reads the dispositions and this module,
never a table of its own.
"""

from __future__ import annotations

#: The scan's note on a finding it disposed as a composition: the prefix, then the composition.
COMPOSE_NOTE = "compose it from existing ops: "

#: Library functions that are one composition of existing ops (a thin wrapper or an
#: elementwise formula), with the composition: never a custom op.
COMPOSITIONS: dict[str, str] = {
    "torchvision.ops.misc.interpolate": "torch.nn.functional.interpolate",
    "torchvision.ops.box_area": "(b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])",
    "torchvision.ops.boxes.box_area": "(b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])",
    "torchvision.ops.box_iou": "elementwise max/min/clamp of the corners, then a division",
    "torchvision.ops.boxes.box_iou": "elementwise max/min/clamp of the corners, then a division",
    "torchvision.ops.generalized_box_iou": "box_iou plus the enclosing box's area",
    "torchvision.ops.boxes.generalized_box_iou": "box_iou plus the enclosing box's area",
    "torchvision.ops.box_convert": "unbind, add/subtract, stack",
    "torchvision.ops.boxes.box_convert": "unbind, add/subtract, stack",
    "torchvision.ops.clip_boxes_to_image": "clamp of each coordinate",
    "torchvision.ops.boxes.clip_boxes_to_image": "clamp of each coordinate",
    "torchvision.ops.remove_small_boxes": "a comparison and nonzero",
    # yolov9's panoptic loss: sigmoid, BCE with logits, the (1 - p_t) ** gamma factor
    **dict.fromkeys(
        ("torchvision.ops.sigmoid_focal_loss", "torchvision.ops.focal_loss.sigmoid_focal_loss"),
        "p = sigmoid(x); ce = binary_cross_entropy_with_logits(x, t, reduction='none'); "
        "p_t = p * t + (1 - p) * (1 - t); ce * (1 - p_t) ** gamma, weighted by "
        "alpha * t + (1 - alpha) * (1 - t), then the reduction",
    ),
    "torchvision.ops.boxes.remove_small_boxes": "a comparison and nonzero",
    "torch.nn.functional.scaled_dot_product_attention": (
        "softmax(q @ k.swapaxes(-2, -1) * scale + mask) @ v, or "
        "mindspore.ops.flash_attention_score on Ascend"
    ),
    "torch.nn.attention.sdpa_kernel": "nothing to compute: a kernel choice, deleted",
    # one axis split into several: a reshape (MindSpore 2.10 has nn.Unflatten, no function)
    **dict.fromkeys(
        ("torch.Tensor.unflatten", "torch.unflatten"),
        "x.reshape(x.shape[:dim] + tuple(sizes) + x.shape[dim + 1:])",
    ),
    # MindSpore 2.10's names list has mindspore.ops.rms_norm(x, gamma, epsilon) and no layer
    "torch.nn.RMSNorm": (
        "a Cell with a gamma Parameter (ones of normalized_shape) whose construct returns "
        "mindspore.ops.rms_norm(x, self.gamma, eps)[0], or x * rsqrt(mean(x ** 2, -1) + eps) "
        "* gamma"
    ),
    "torch.Tensor.dequantize": (
        "nothing to compute for a float tensor: the `if x.is_quantized:` branch it sits in "
        "is deleted (detectron2's ROIAlign)"
    ),
    "torch.nn.functional.multi_head_attention_forward": (
        "mindspore.nn.MultiheadAttention with the in/out projection weights copied, or "
        "linear q/k/v projections, softmax(q @ k.swapaxes(-2, -1) * scale + mask) @ v and "
        "the output projection (CLIP's attention pooling)"
    ),
    "torch.nn.functional.has_torch_function": "nothing to compute: torch-function dispatch",
    "torch.nn.functional.handle_torch_function": "nothing to compute: torch-function dispatch",
    "torch.Tensor.clamp_min": "x.clamp(min=v)",
    "torch.Tensor.clamp_min_": "x.clamp(min=v)",
    "torch.Tensor.clamp_max": "x.clamp(max=v)",
    "torch.Tensor.clamp_max_": "x.clamp(max=v)",
    # the function spellings of the same clamps
    "torch.clamp_min": "mindspore.ops.clamp(x, min=v)",
    "torch.clamp_max": "mindspore.ops.clamp(x, max=v)",
    "torch.clamp_min_": "mindspore.ops.clamp(x, min=v)",
    "torch.clamp_max_": "mindspore.ops.clamp(x, max=v)",
    # a module whose functional form exists (RITM's ScaleLayer): call it in construct
    "torch.nn.Softplus": "mindspore.ops.softplus(x, beta, threshold) in construct",
    # mindspore.nn.CosineSimilarity is an evaluation metric, no layer (SimSiam's criterion)
    "torch.nn.CosineSimilarity": "mindspore.ops.cosine_similarity(x1, x2, dim, eps) in construct",
    "torch.Tensor.new_tensor": "mindspore.tensor(data, dtype=x.dtype)",
    # MindSpore 2.10 has mindspore.ops.Complex (and ops.view_as_real for the way back);
    # rotary embeddings written with complex numbers (LLaMA's freqs_cis) also go real
    "torch.view_as_complex": (
        "mindspore.ops.Complex()(x[..., 0], x[..., 1]), or the rotation written with "
        "cos/sin on the real and imaginary halves"
    ),
    "torch.Tensor.unfold": (
        "sliding windows by indexing: x[..., idx] with idx = arange(size)[None] + "
        "step * arange(n)[:, None] (whisper's median filter)"
    ),
    "torch.nn.Embedding.from_pretrained": (
        "mindspore.nn.Embedding(n, dim, embedding_table=weights) (frozen: requires_grad=False)"
    ),
    "torch.nn.Linear.reset_parameters": (
        "re-initialise with mindspore.common.initializer (HeUniform weight, Uniform bias)"
    ),
    # a distance is the norm of a difference (DINOv2's KoLeo loss)
    **dict.fromkeys(
        ("torch.nn.PairwiseDistance", "torch.nn.functional.pairwise_distance"),
        "mindspore.ops.norm(x1 - x2 + eps, ord=p, dim=-1, keepdim=keepdim)",
    ),
    "torch.nn.functional.instance_norm": (
        "(x - mean) / sqrt(var + eps) over the spatial axes, per sample and channel"
    ),
    "torch.nn.functional.rms_norm": "x * rsqrt(mean(x ** 2, -1) + eps) * weight",
    "torch.nn.utils.rnn.pack_padded_sequence": (
        "nothing to pack: MindSpore's RNNs take the padded batch and seq_length"
    ),
    "torch.nn.utils.rnn.pad_packed_sequence": (
        "nothing to unpack: MindSpore's RNNs return the padded batch"
    ),
    "torch.expand_copy": "x.expand(shape).copy()",
    "torch.split_with_sizes": "mindspore.ops.split(x, sizes, axis)",
    # counterparts under another name (fairseq's vocoders and examples)
    "torch.pinverse": "mindspore.ops.pinv(x)",
    "torch.fft.rfft": "mindspore.ops.rfft(x, n, dim)",
    "torch.nn.functional.conv_transpose1d": (
        "mindspore.nn.Conv1dTranspose with the weight set, or conv2d_transpose on an added axis"
    ),
    "torch.nn.GRU.forward": "mindspore.nn.GRU called as a cell (its construct)",
    "torch.distributions.Normal": "mean + std * mindspore.ops.standard_normal(shape)",
    "torch.distributions.Normal.rsample": "mean + std * mindspore.ops.standard_normal(shape)",
    "torch.distributions.Uniform": "low + (high - low) * mindspore.ops.uniform(shape, 0, 1)",
    "torchvision.ops.FrozenBatchNorm2d": (
        "x * scale + shift with scale = weight * rsqrt(running_var + eps), "
        "shift = bias - running_mean * scale (fixed buffers)"
    ),
    "torchvision.ops.misc.FrozenBatchNorm2d": (
        "x * scale + shift with scale = weight * rsqrt(running_var + eps), "
        "shift = bias - running_mean * scale (fixed buffers)"
    ),
    "torch.distributions.Distribution.sample": (
        "the draw of the distribution's MindSpore counterpart "
        "(mindspore.nn.probability.distribution), or numpy on the host for a scalar"
    ),
    "torch.distributions.Beta": (
        "a Beta draw for mixup: numpy.random.beta on the host, or mindspore.ops.gamma ratios"
    ),
    # a sparse adjacency times dense features (a GCN layer): MindSpore's COO matmul on GPU
    # and CPU, or the adjacency kept dense on Ascend
    **dict.fromkeys(
        ("torch.spmm", "torch.sparse.mm"),
        "mindspore.ops.SparseTensorDenseMatmul()(indices, values, shape, dense) with the COO "
        "parts of the sparse matrix (GPU, CPU), or the matrix kept dense and "
        "mindspore.ops.matmul (Ascend)",
    ),
    **dict.fromkeys(
        ("torch.sparse.FloatTensor", "torch.sparse_coo_tensor"),
        "mindspore.COOTensor(indices.T, values, shape) (indices as rows of coordinates)",
    ),
    "torch.Tensor.to_sparse": (
        "keep the tensor dense (a mask buffer), or mindspore.COOTensor(indices, values, shape)"
    ),
    "torch.distributions.Categorical": (
        "a categorical draw: mindspore.ops.multinomial(mindspore.ops.softmax(logits), 1)"
    ),
    "torch.distributions.Categorical.sample": (
        "mindspore.ops.multinomial(probs, 1) (probs = softmax(logits))"
    ),
    "torchvision.ops.batched_nms": (
        "NMS of the boxes offset per class (boxes + idxs[:, None] * (boxes.max() + 1)): "
        "mindspore.ops.NMSWithMask, then select with its mask"
    ),
    "torchvision.ops.boxes.batched_nms": (
        "NMS of the boxes offset per class (boxes + idxs[:, None] * (boxes.max() + 1)): "
        "mindspore.ops.NMSWithMask, then select with its mask"
    ),
}


#: Initialisers run once, at construction, on parameters: never an operator to implement.
INITIALISERS = "torch.nn.init."
_INIT_REWRITE = (
    "an initialiser, run once at construction: param.set_data(mindspore.common.initializer."
    "initializer(Init(...), param.shape, param.dtype)) (Dirac, Orthogonal, TruncatedNormal...), "
    "or the values computed with numpy"
)


#: The distributions of ``torch.distributions`` that MindSpore 2.x also has, in
#: ``mindspore.nn.probability.distribution`` under the same name (checked against the installed
#: MindSpore by the tests). The scan's index of MindSpore names does not list that namespace,
#: so their members come out as custom-op candidates: a log-density, a CDF or a draw of one of
#: these is a formula of existing ops (DiT's ``Normal(...).log_prob``), never a kernel to write.
MINDSPORE_DISTRIBUTIONS = frozenset(
    {
        "Bernoulli",
        "Beta",
        "Categorical",
        "Cauchy",
        "Exponential",
        "Gamma",
        "Geometric",
        "Gumbel",
        "HalfNormal",
        "Laplace",
        "LogNormal",
        "Normal",
        "Poisson",
        "StudentT",
        "TransformedDistribution",
        "Uniform",
    }
)
#: torch.distributions members → the MindSpore distribution's method computing the same.
_DISTRIBUTION_METHODS = {
    "log_prob": "log_prob(x)",
    "cdf": "cdf(x)",
    "entropy": "entropy()",
    "sample": "sample(shape)",
    "rsample": "sample(shape)",
    "mean": "mean()",
    "mode": "mode()",
    "variance": "var()",
    "stddev": "sd()",
}
_DISTRIBUTIONS = "torch.distributions."


def _distribution(api: str) -> str:
    """The MindSpore counterpart of a ``torch.distributions`` class or member that MindSpore's
    probability package has ("" for any other API): the same distribution's method, or the
    closed form written with existing ops."""
    if not api.startswith(_DISTRIBUTIONS):
        return ""
    parts = api[len(_DISTRIBUTIONS) :].split(".")
    # torch.distributions.Normal or torch.distributions.normal.Normal, then the member
    at = next((i for i, p in enumerate(parts) if p in MINDSPORE_DISTRIBUTIONS), -1)
    if at < 0 or len(parts) > at + 2:
        return ""
    dist = f"mindspore.nn.probability.distribution.{parts[at]}(...)"
    if len(parts) == at + 1:
        return dist
    method = _DISTRIBUTION_METHODS.get(parts[at + 1])
    if method is None:
        return ""
    return f"{dist}.{method}, or its closed form written with existing ops"


#: A layer subclass calling its torch base's constructor by name (``nn.Linear.__init__(self,
#: in_features, out_features)`` in a class deriving from it and a mixin): the Cell skeleton.
_BASE_INIT_REWRITE = (
    "the base layer's constructor, called by a subclass: derive from the MindSpore "
    "counterpart and call its __init__ (nn.Linear -> mindspore.nn.Dense, its arguments "
    "renamed), a class skeleton, no tensor computation"
)
#: Methods of a torch.nn layer that (re-)initialise its parameters or statistics: run at
#: construction, never an operator (DINOv2's ``LayerNorm.reset_parameters``).
_RESETS = frozenset({"reset_parameters", "_reset_parameters", "reset_running_stats"})
_RESET_REWRITE = (
    "an initialisation, run at construction: set the layer's parameters with "
    "mindspore.common.initializer (the layer's own defaults: ones/zeros for a norm, "
    "HeUniform and Uniform for a linear or convolution layer)"
)


def composed(api: str) -> str:
    """What a tensor computation ``api`` with no MindSpore counterpart is composed of instead
    ("" when it needs a custom op)."""
    if api in COMPOSITIONS:
        return COMPOSITIONS[api]
    if found := _distribution(api):
        return found
    owner, _, method = api.rpartition(".")
    layer = owner.startswith("torch.nn.") and owner.rpartition(".")[2][:1].isupper()
    if method in _RESETS and layer:
        return _RESET_REWRITE
    if method == "__init__" and layer:
        return _BASE_INIT_REWRITE
    return _INIT_REWRITE if api.startswith(INITIALISERS) else ""
