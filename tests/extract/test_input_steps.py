"""The inference path's steps written as code, and the literals they name (worker side)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from apiscan.extract.input_steps import InputStep
from apiscan.extract.syntax import syntax_facts


def _facts(code: str) -> tuple[InputStep, ...]:
    text = textwrap.dedent(code)
    return syntax_facts(ast.parse(text), text).input_steps


def _kinds(code: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(s.kind, s.function, s.refs) for s in _facts(code)]


VALID = [
    # standardised by buffers, padded to the tower's side (a local bound to the chain)
    (
        """
        class Model:
            mask_threshold: float = 0.0

            def preprocess(self, x):
                x = (x - self.pixel_mean) / self.pixel_std
                h, w = x.shape[-2:]
                side = self.encoder.img_size
                return F.pad(x, (0, side - w, 0, side - h))

            def forward(self, x):
                return self.net(x) > self.mask_threshold
        """,
        [
            ("normalise", "Model.preprocess", ("self.pixel_mean", "self.pixel_std")),
            ("pad", "Model.preprocess", ("self.encoder.img_size",)),
            ("threshold", "Model.forward", ("mask_threshold",)),
        ],
    ),
    # padding amounts bound to names first; a long side scaled by a ratio
    (
        """
        def shape_for(oldh, oldw, long_side_length):
            scale = long_side_length * 1.0 / max(oldh, oldw)
            return int(oldh * scale), int(oldw * scale)

        def pad(self, x):
            padh = self.size - x.shape[-2]
            padw = self.size - x.shape[-1]
            return F.pad(x, (0, padw, 0, padh))
        """,
        [
            ("long_side", "shape_for", ("long_side_length",)),
            ("pad", "pad", ("self.size",)),
        ],
    ),
    # resized to the network's fixed size, the output resized back to the input's own size
    (
        """
        class Depth:
            def infer(self, x, mode="bilinear"):
                _, _, H, W = x.shape
                x = F.interpolate(x, size=(self.img_size, self.img_size), mode=mode)
                depth = self.forward(x)
                return F.interpolate(depth, size=(H, W), mode=mode)
        """,
        [
            ("resize", "Depth.infer", ("self.img_size",)),
            ("upscale", "Depth.infer", ("(H, W)",)),
        ],
    ),
    # x.sub(mean).div(std), and masks brought back to the original size
    (
        """
        def run(img, original_size):
            img = img.sub(MEAN).div(STD)
            return F.interpolate(img, original_size, mode="bilinear")
        """,
        [
            ("normalise", "run", ("MEAN", "STD")),
            ("upscale", "run", ("original_size",)),
        ],
    ),
    # numpy helpers: augmented assignments with the defaults' names, a longer side
    # magnified and capped, each side padded to a multiple, thresholds the caller passes
    (
        """
        def normalise(img, mean=(0.485, 0.456, 0.406), variance=(0.229, 0.224, 0.225)):
            img = img.astype(np.float32)
            img -= np.array([mean[0] * 255.0, mean[1] * 255.0, mean[2] * 255.0])
            img /= np.array([variance[0] * 255.0, variance[1] * 255.0, variance[2] * 255.0])
            return img

        def fit(img, cap, mag=1.0):
            height, width = img.shape[:2]
            size = mag * max(height, width)
            if size > cap:
                size = cap
            ratio = size / max(height, width)
            out_h, out_w = int(height * ratio), int(width * ratio)
            out_h = out_h + (32 - out_h % 32)
            out_w = out_w + (32 - out_w % 32)
            return out_h, out_w

        def boxes(score, link, text_thresh, low_text):
            _, keep = cv2.threshold(score, low_text, 1, 0)
            return keep[score.max(axis=0) > text_thresh]
        """,
        [
            ("normalise", "normalise", ("mean", "variance")),
            ("long_side_capped", "fit", ("mag", "cap")),
            ("pad_multiple", "fit", ("32",)),
            ("threshold", "boxes", ("low_text",)),
            ("threshold", "boxes", ("text_thresh",)),
        ],
    ),
]

INVALID = [
    # the inverse (a display helper): scaled back by the std, then shifted by the mean
    """
    def denormalise(img, mean=(0.5,), std=(0.5,)):
        img *= std
        img += mean
        return img
    """,
    # a running statistic subtracted and divided: computed from the data, not constants
    """
    def whiten(x):
        mean = x.mean()
        std = x.std()
        x -= mean
        x /= std
        return x
    """,
    # a count compared with a limit: no threshold name, and an offset that is no multiple
    """
    def clip(n, limit, step):
        if n > limit:
            n = limit
        return n + (step - n % 8)
    """,
    # a statistic of the data itself, not the constants an input is prepared with
    """
    def align(weights):
        std, mean = torch.std_mean(weights, dim=-2, keepdim=True)
        return (weights - mean) / std
    """,
    # a ratio, not a side scaled to a length
    """
    def recall(ap, ag):
        return np.count_nonzero(ap & ag) / max(np.count_nonzero(ag), 1)
    """,
    # a count compared with a setting made in __init__, not a class-level threshold
    """
    class Decoder:
        def __init__(self, beam_size):
            self.beam_size = beam_size

        def finished(self, sequences):
            return len(sequences) >= self.beam_size
    """,
    # a feature pyramid's layer: one map resized to another's shape
    """
    class FPN:
        def _upsample_add(self, x, y):
            _, _, H, W = y.shape
            return F.interpolate(x, size=(H, W), mode="bilinear") + y

        def forward(self, x):
            h, w = x.shape[-2:]
            x = F.interpolate(x, size=(self.side, self.side))
            return F.interpolate(self.body(x), size=(h, w))
    """,
    # padding by constants
    """
    def border(x):
        return F.pad(x, (1, 1, 1, 1))
    """,
]


@pytest.mark.parametrize(("code", "expected"), VALID)
def test_steps_found(code: str, expected: list[tuple[str, str, tuple[str, ...]]]) -> None:
    assert sorted(_kinds(code)) == sorted(expected)


@pytest.mark.parametrize("code", INVALID)
def test_not_steps(code: str) -> None:
    assert _kinds(code) == []


def test_literals_a_step_names_from_the_value_records() -> None:
    """The review reads a step's literals from the recipe's value records: a buffer's
    constructor argument passed by keyword (a name bound to a literal counts), a parameter's
    default, a class-level threshold, the one value every holder of a name agrees on."""
    from apiscan.extract.records import FileAnalysis
    from apiscan.extract.values import file_values
    from apiscan.review.names import NameValues

    text = textwrap.dedent(
        """
        SIDE = 1024

        class Segmenter:
            cut: float = 0.5

            def __init__(self, tower, pixel_mean=(0.0, 0.0, 0.0), eps=1e-6):
                self.register_buffer("mean", torch.Tensor(pixel_mean).view(-1, 1, 1), False)
                self.tower = tower

        class Tower:
            def __init__(self, side=512, width=64):
                self.side = side

        def build():
            size = 512
            return Segmenter(Tower(side=SIDE, width=size), pixel_mean=[123.675, 116.28, 103.53])
        """
    )
    fa = FileAnalysis("m.py", ("m",), "", 0)
    literals = NameValues([(fa, file_values(ast.parse(text), text))])
    assert literals.value("Segmenter", "self.mean").startswith("[123.675, 116.28, 103.53]")
    assert literals.value("Segmenter", "self.cut").startswith("0.5 (Segmenter.cut")
    # the default (512) and the construction (SIDE = 1024) disagree: no single value
    assert literals.value("Segmenter", "self.tower.side") is None
    # a construction's keyword wins over the default; a module constant counts as its value
    assert literals.value("Tower", "self.side").startswith("1024 (side of Tower() at m.py:")
    assert literals.value("Segmenter", "eps") is None  # a parameter, not an attribute


def test_a_length_followed_through_call_sites_and_a_positional_construction() -> None:
    """The longer side's length: a static method's parameter, passed ``self.target_length``
    by the class's methods, stored from the constructor's first argument, which the
    predictor passes as an attribute chain whose last name every holder sets to 1024."""
    from apiscan.extract.records import FileAnalysis
    from apiscan.extract.values import file_values
    from apiscan.review.names import NameValues

    text = textwrap.dedent(
        """
        class Encoder:
            def __init__(self, img_size=1024, depth=12):
                self.img_size = img_size

        class LongestSide:
            def __init__(self, target_length):
                self.target_length = target_length

            def apply(self, image):
                return self.shape_of(image.shape[0], image.shape[1], self.target_length)

            @staticmethod
            def shape_of(oldh, oldw, long_side_length):
                scale = long_side_length * 1.0 / max(oldh, oldw)
                return int(oldh * scale), int(oldw * scale)

        class Predictor:
            def __init__(self, model):
                self.transform = LongestSide(model.encoder.img_size)

        def build():
            size = 1024
            return Encoder(img_size=size)
        """
    )
    tree = ast.parse(text)
    steps = syntax_facts(tree, text).input_steps
    assert [(s.kind, s.function, s.refs) for s in steps] == [
        ("long_side", "LongestSide.shape_of", ("long_side_length",))
    ]
    literals = NameValues([(FileAnalysis("m.py", ("m",), "", 0), file_values(tree, text))])
    found = literals.value("LongestSide", "long_side_length", "LongestSide.shape_of")
    assert found is not None and found.startswith("self.target_length = model.encoder.img_size")
    assert "= 1024 (img_size at m.py:" in found


def test_a_construction_that_may_pass_the_value_through_kwargs_leaves_it_unknown() -> None:
    """``Resizer(**cfg)`` may set the length: neither the keyword another construction
    passes nor the constructor's default is the answer."""
    from apiscan.extract.records import FileAnalysis
    from apiscan.extract.values import file_values
    from apiscan.review.names import NameValues

    def value_of(build: str) -> str | None:
        text = textwrap.dedent(
            """
            class Resizer:
                def __init__(self, length=512):
                    self.length = length

            """
        ) + textwrap.dedent(build)
        tree = ast.parse(text)
        literals = NameValues([(FileAnalysis("m.py", ("m",), "", 0), file_values(tree, text))])
        return literals.value("Resizer", "self.length")

    assert value_of("a = Resizer(length=1024)\n").startswith("1024 (length of Resizer()")
    assert value_of("a = Resizer()\n").startswith("512 (default of length")
    assert value_of("a = Resizer(length=1024)\nb = Resizer(**cfg)\n") is None
    assert value_of("a = Resizer(length=1024)\nb = Resizer()\n") is None


DECODING_VALID = [
    # a draw from a distribution built in the call; a sampling default read in a closure
    (
        """
        def transcribe(model, audio, temperature=(0.0, 0.2, 0.4)):
            def fallback(x):
                for t in [temperature] if isinstance(temperature, float) else temperature:
                    yield t

            return fallback(audio)

        class Greedy:
            def update(self, logits):
                return Categorical(logits=logits / self.temperature).sample()
        """,
        [
            ("sampling", "transcribe", ("temperature = (0.0, 0.2, 0.4)",)),
            ("draw", "Greedy.update", ("Categorical(logits=logits / self.temperature).sample",)),
        ],
    ),
    # an options class's sampling defaults (a non-literal default and other fields ignored)
    (
        """
        class Options:
            task: str = "transcribe"
            temperature: float = 0.0
            beam_size: Optional[int] = None
            top_p = float("nan")
        """,
        [("sampling", "Options", ("temperature = 0.0", "beam_size = None"))],
    ),
    # a cache concatenated onto itself in a hook; a moving store read up to its position
    (
        """
        def hook(module, out):
            cache[module] = torch.cat([cache[module], out], dim=1).detach()

        class Attn:
            def forward(self, x, start):
                self.v[:, start : start + x.shape[1]] = x
                return self.v[:, : start + x.shape[1]]
        """,
        [
            ("growing_cache", "hook", ()),
            ("growing_cache", "Attn.forward", ("start",)),
        ],
    ),
    # a float16 default, a rank's shard of a sorted listing, a non-strict load, a host read
    # stopping the loop that runs the network
    (
        """
        def build(d, model):
            torch.set_default_dtype(torch.bfloat16)
            files = sorted(os.listdir(d))
            sd = torch.load(files[rank])
            model.load_state_dict(sd, strict=False)
            for i in range(8):
                out = model(sd)
                if out.eq(2).all().item():
                    break
        """,
        [
            ("precision", "build", ("torch.bfloat16",)),
            ("sharded_checkpoint", "build", ("rank",)),
            ("non_strict_load", "build", ("strict=False",)),
            ("loop_sync", "build", ("out.eq(2).all().item()",)),
        ],
    ),
]

DECODING_INVALID = [
    # settings forwarded by keyword; an unused one; a float32 default; the first file of a
    # listing, or a rank's share of a listing nothing loads; a strict load; a host check in a
    # loop that runs no network; fixed-size stores
    """
    def complete(self, p, temperature=0.6, top_p=0.9):
        return self.generate(p, temperature=temperature)

    def build(d, model):
        torch.set_default_dtype(torch.float32)
        files = sorted(glob.glob(d))
        model.load_state_dict(torch.load(files[0]), strict=True)
        for w in files:
            if all(c.isdigit() for c in w):
                break

    def split(d, rank, world):
        images = sorted(glob.glob(d))
        return images[rank::world], images[rank]

    class Attn:
        def forward(self, x, start):
            self.buf[:, 0:16] = x
            self.k[:, start] = x
            return self.buf[:, : self.size], self.k[:, :16]
    """,
]


@pytest.mark.parametrize(("code", "expected"), DECODING_VALID)
def test_decoding_steps(code: str, expected: list[tuple[str, str, tuple[str, ...]]]) -> None:
    assert _kinds(code) == expected


@pytest.mark.parametrize("code", DECODING_INVALID)
def test_no_decoding_steps(code: str) -> None:
    assert _kinds(code) == []
