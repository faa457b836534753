"""The HTML review page: self-contained, complete, linked, and rendered by a real browser.

The structural tests read the page the way a browser's parser would (``html.parser``) and the
charts the way an SVG renderer must (``xml.etree``). The screenshot test renders the page in
headless Chromium and decodes the PNG with the standard library, to prove that the page draws
something and that the charts' colours reach the screen.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from apiscan.review.html import SCOPE_COLOURS, STATUS_COLOURS, TOP_BARS, render_html
from apiscan.review.model import (
    Effort,
    Gap,
    ModuleNode,
    RecipeItem,
    Review,
    ThirdParty,
    Where,
)

REPO = Path(__file__).resolve().parents[2]
SCREENSHOT_SCRIPT = REPO / "scripts" / "screenshot_review.py"
SECTIONS = (
    "recipe",
    "structure",
    "gaps",
    "work",
    "dynamic-shape",
    "extensions",
    "third-party",
    "effort",
    "errors",
)
ROOT = "fixtures/tinydet"


def _w(path: str, line: int) -> Where:
    return Where(path, line)


def tinydet_review() -> Review:
    """What the review of ``fixtures/tinydet`` holds, written out by hand from its sources."""
    train = "tools/train.py"
    recipe = (
        RecipeItem(
            "optimizer",
            "torch.optim.SGD",
            _w(train, 86),
            (
                ("lr", "0.01 (argparse default, tools/train.py:39)"),
                ("momentum", "0.9"),
                ("nesterov", "True"),
                ("params", "param_groups(model, 5e-4)"),
            ),
            "weight decay per parameter group: 5e-4, 0.0 for biases and norms",
        ),
        RecipeItem(
            "scheduler",
            "torch.optim.lr_scheduler.CosineAnnealingLR",
            _w(train, 64),
            (("T_max", "max(1, steps - warmup)"), ("eta_min", "1e-4")),
        ),
        RecipeItem(
            "scheduler",
            "torch.optim.lr_scheduler.SequentialLR",
            _w(train, 67),
            (("milestones", "[warmup]"),),
        ),
        RecipeItem(
            "warmup",
            "torch.optim.lr_scheduler.LinearLR",
            _w(train, 63),
            (("start_factor", "0.1"), ("total_iters", "3 (argparse default, tools/train.py:40)")),
        ),
        RecipeItem("loss", "tinydet.loss.DetectionLoss", _w(train, 85)),
        RecipeItem(
            "amp",
            "torch.autocast",
            _w(train, 98),
            (("device_type", "device.type"), ("enabled", "use_amp")),
        ),
        RecipeItem("amp", "torch.cuda.amp.GradScaler", _w(train, 89)),
        RecipeItem(
            "ema",
            "EMA of weights",
            _w("tinydet/ema.py", 31),
            (("decay", "0.999"), ("tau", "20.0")),
            "tinydet.ema.ModelEMA, updated every step",
        ),
        RecipeItem(
            "grad_clip",
            "torch.nn.utils.clip_grad_norm_",
            _w(train, 108),
            (("max_norm", "10.0"),),
        ),
        RecipeItem(
            "dataloader",
            "torch.utils.data.DataLoader",
            _w(train, 80),
            (
                ("batch_size", "4 (argparse default, tools/train.py:37)"),
                ("shuffle", "True"),
                ("num_workers", "0"),
                ("collate_fn", "collate"),
            ),
        ),
        RecipeItem("seed", "torch.manual_seed", _w(train, 73), (("seed", "0 (argparse default)"),)),
        RecipeItem(
            "init",
            "torch.nn.init.kaiming_normal_",
            _w("tinydet/model.py", 30),
            (("mode", '"fan_out"'), ("nonlinearity", '"relu"')),
        ),
        RecipeItem("init", "torch.nn.init.zeros_", _w("tinydet/model.py", 32)),
    )
    modules = (
        ModuleNode(
            "tinydet.model.TinyDet",
            _w("tinydet/model.py", 16),
            "model",
            ("tinydet.backbone.Backbone", "tinydet.neck.FPN", "tinydet.head.Head"),
        ),
        ModuleNode(
            "tinydet.backbone.Backbone",
            _w("tinydet/backbone.py", 12),
            "backbone",
            ("tinydet.layers.ConvBNAct", "tinydet.attention.SqueezeExcite"),
            (
                ("torch.nn.Conv2d", 1),
                ("torch.nn.BatchNorm2d", 1),
                ("torch.nn.MaxPool2d", 1),
                ("torch.nn.Sequential", 2),
            ),
        ),
        ModuleNode(
            "tinydet.neck.FPN",
            _w("tinydet/neck.py", 13),
            "neck",
            ("tinydet.layers.ConvBNAct",),
            (("torch.nn.Conv2d", 1), ("torch.nn.ModuleList", 2)),
        ),
        ModuleNode(
            "tinydet.head.Head",
            _w("tinydet/head.py", 39),
            "head",
            ("tinydet.layers.ConvBNAct", "tinydet.head.Linear"),
            (("torch.nn.Conv2d", 1), ("torch.nn.Sequential", 1)),
        ),
        ModuleNode("tinydet.head.Linear", _w("tinydet/head.py", 15), "block"),
        ModuleNode(
            "tinydet.layers.ConvBNAct",
            _w("tinydet/layers.py", 18),
            "block",
            layers=(("torch.nn.Conv2d", 1), ("torch.nn.BatchNorm2d", 1)),
        ),
        ModuleNode(
            "tinydet.attention.SqueezeExcite",
            _w("tinydet/attention.py", 11),
            "block",
            layers=(("torch.nn.Conv2d", 2), ("torch.nn.Sequential", 1)),
        ),
    )
    # Insertion order on purpose not the display order: the page must not depend on it.
    coverage = {
        "host": {"missing": 36, "different": 108, "consistent": 71},
        "network": {"missing": 9, "different": 26, "consistent": 29},
        "data": {"missing": 3, "different": 2},
    }
    gaps = (
        Gap(
            "torch.Tensor.device",
            "missing",
            2,
            (_w("tinydet/head.py", 69), _w("tinydet/model.py", 40)),
            None,
            "MindSpore tensors carry no device.",
            "drop it: placement is set with mindspore.set_context",
        ),
        Gap(
            "torch.nn.Module.modules",
            "missing",
            2,
            (_w("tinydet/model.py", 48), _w("tinydet/model.py", 28)),
            None,
            "",
            "mindspore.nn.Cell.cells_and_names",
        ),
        Gap("torch.float32", "missing", 3, (_w("tinydet/neck.py", 21),), None, "", ""),
        Gap("torch.device", "missing", 1, (_w("tinydet/head.py", 31),), None, "", ""),
        Gap(
            "torch.Tensor.expand",
            "different",
            3,
            (_w("tinydet/loss.py", 73), _w("tinydet/loss.py", 74), _w("tinydet/loss.py", 78)),
            "mindspore.Tensor.broadcast_to",
            "Differences in the data types supported by the parameters.",
        ),
        Gap(
            "torch.arange",
            "different",
            6,
            tuple(_w("tinydet/loss.py", line) for line in (78, 80, 82, 84, 86, 88)),
            "mindspore.mint.arange",
            "MindSpore takes no counterpart of the passed parameter(s): device.",
        ),
    )
    dynamic = (
        (_w("tinydet/loss.py", 79), "DS111", "network", "the index has a data-dependent length"),
        (_w("tinydet/loss.py", 79), "DS104", "network", "indexing with a boolean mask"),
        (_w("tinydet/loss.py", 80), "DS111", "network", "the index has a data-dependent length"),
        (_w("tinydet/loss.py", 80), "DS104", "network", "indexing with a boolean mask"),
        (_w("tools/infer.py", 32), "DS104", "host", "indexing with a boolean mask"),
        (_w("tools/infer.py", 50), "DS104", "host", "indexing with a boolean mask"),
        (_w("tinydet/head.py", 66), "DS104", "network", "indexing with a boolean mask"),
    )
    effort = Effort(
        call_sites_to_change=35,
        custom_ops=0,
        dynamic_shape_rewrites=5,
        explanation=(
            "35 call sites in the network graph use a missing (9) or different (26) API.",
            "No missing API needs a custom operator: each has a composition in MindSpore.",
            "5 dynamic-shape findings in the network graph need a fixed-size rewrite.",
        ),
    )
    return Review(
        root=ROOT,
        tool_version="0.1.0",
        recipe=recipe,
        modules=modules,
        coverage=coverage,
        gaps=gaps,
        dynamic_shape=dynamic,
        sparse=(_w("tinydet/loss.py", 90),),
        extensions=(("torch.autograd.Function subclass", _w("tinydet/layers.py", 41)),),
        third_party=(
            ThirdParty("torchvision", ("torchvision.ops.nms", "torchvision.transforms"), 2),
        ),
        effort=effort,
        errors=(("tools/broken.py", "syntax error: invalid syntax (line 3)"),),
    )


def empty_review() -> Review:
    return Review(
        root="repo",
        tool_version="0.1.0",
        recipe=(),
        modules=(),
        coverage={},
        gaps=(),
        dynamic_shape=(),
        sparse=(),
        extensions=(),
        third_party=(),
        effort=Effort(0, 0, 0, ()),
    )


class _Page(HTMLParser):
    """Every start tag with its attributes, every link with its text, and the section ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        if tag == "a":
            self._href, self._text = attributes.get("href", ""), []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text)))
            self._href = None


def _parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    parser.close()
    return parser


def _svgs(page: str) -> list[ET.Element]:
    return [ET.fromstring(chunk) for chunk in re.findall(r"<svg\b.*?</svg>", page, re.S)]


def _bar_labels(svg: ET.Element, fill: str) -> list[str]:
    """The full label (its ``<title>``) of each bar of colour ``fill``, top to bottom."""
    return [
        rect.findtext("title", "").split(":")[0]
        for rect in svg.iter("rect")
        if rect.get("fill") == fill and rect.findtext("title")
    ]


# --------------------------------------------------------------------------- structure


def test_page_loads_nothing_from_anywhere() -> None:
    page = render_html(tinydet_review())
    parsed = _parse(page)
    for tag, attributes in parsed.tags:
        assert tag not in {"link", "img", "iframe", "object", "embed", "base"}, tag
        for name in ("src", "href", "action", "srcset", "xlink:href", "poster", "data"):
            value = attributes.get(name, "")
            assert not re.match(r"^[a-z][a-z0-9+.-]*:", value, re.I), (tag, name, value)
            assert "//" not in value, (tag, name, value)
    assert "http://" not in page and "https://" not in page
    assert "@import" not in page and "url(" not in page
    assert page.count("<script>") == 1 and "<script src" not in page
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page


def test_every_section_is_a_collapsible_details_with_a_summary() -> None:
    for review in (tinydet_review(), empty_review()):
        page = render_html(review)
        ids = [attrs.get("id") for tag, attrs in _parse(page).tags if tag == "details"]
        assert [i for i in ids if i] == list(SECTIONS)
        for ident in SECTIONS:
            assert re.search(rf'<details class="section" id="{ident}" open>\n<summary><h2>', page)
        nav = [href for href, _ in _parse(page).links if href.startswith("#")]
        assert nav == [f"#{ident}" for ident in SECTIONS]


def test_charts_are_well_formed_svg_with_one_bar_per_item() -> None:
    page = render_html(tinydet_review())
    coverage, missing, hotspots = _svgs(page)
    # Coverage: one 100 % bar per scope, network first, a segment per non-zero status.
    labels = [t.text for t in coverage.iter("text") if t.get("class") == "label"]
    assert labels == ["network", "data", "host"]
    assert _bar_labels(coverage, STATUS_COLOURS["missing"]) == ["network", "data", "host"]
    assert _bar_labels(coverage, STATUS_COLOURS["consistent"]) == ["network", "host"]
    widths = [
        float(r.get("width", "0"))
        for r in coverage.iter("rect")
        if r.findtext("title", "").startswith("network:")
    ]
    assert widths[0] / sum(widths) == pytest.approx(9 / 64, abs=0.001)  # missing share
    # Missing APIs: most used first, ties by name; different APIs are not in this chart.
    assert _bar_labels(missing, STATUS_COLOURS["missing"]) == [
        "torch.float32",
        "torch.Tensor.device",
        "torch.nn.Module.modules",
        "torch.device",
    ]
    # Hotspots: files by number of findings, split by scope.
    network = _bar_labels(hotspots, SCOPE_COLOURS["network"])
    assert network == ["tinydet/loss.py", "tinydet/head.py"]
    assert _bar_labels(hotspots, SCOPE_COLOURS["host"]) == ["tools/infer.py"]
    totals = [t.text for t in hotspots.iter("text") if t.get("class") == "total"]
    assert totals == ["4", "2", "1"]


def test_missing_chart_keeps_the_top_15_by_uses() -> None:
    gaps = tuple(
        Gap(f"torch.api_{i:02d}", "missing", i, (_w("a.py", i),), None, "") for i in range(1, 21)
    )
    review = tinydet_review()
    review = Review(**{**review.__dict__, "gaps": gaps})
    _, missing, _ = _svgs(render_html(review))
    labels = _bar_labels(missing, STATUS_COLOURS["missing"])
    assert len(labels) == TOP_BARS
    assert labels == [f"torch.api_{i:02d}" for i in range(20, 5, -1)]
    bars = [r for r in missing.iter("rect") if r.get("fill") == STATUS_COLOURS["missing"]]
    widths = [float(r.get("width", "0")) for r in bars]
    assert widths == sorted(widths, reverse=True)
    assert widths[0] / widths[-1] == pytest.approx(20 / 6, rel=0.01)


def test_every_finding_links_to_its_file_and_line() -> None:
    review = tinydet_review()
    links = set(_parse(render_html(review)).links)

    def expect(where: Where) -> None:
        assert (f"{ROOT}/{where.path}#L{where.line}", f"{where.path}:{where.line}") in links

    for item in review.recipe:
        expect(item.where)
    for module in review.modules:
        expect(module.where)
    for gap in review.gaps:
        for where in gap.where:
            expect(where)
    for where, *_ in review.dynamic_shape:
        expect(where)
    for where in review.sparse:
        expect(where)
    for _, where in review.extensions:
        expect(where)
    assert (f"{ROOT}/tools/broken.py", "tools/broken.py") in links
    assert ("fixtures/tinydet/tools/train.py#L86", "tools/train.py:86") in links


def test_recipe_lists_each_training_trick_with_its_values() -> None:
    page = render_html(tinydet_review())
    recipe = page[page.index('id="recipe"') : page.index('id="structure"')]
    for label in ("Optimizer", "LR schedule", "Warm-up", "Mixed precision", "EMA of weights"):
        assert f">{label}</th>" in recipe
    assert "<code>nesterov</code> = <code>True</code>" in recipe
    assert "0.01 (argparse default, tools/train.py:39)" in recipe
    # The checklist items the code does not show are named, so their absence is visible.
    assert "Not found in the code: Gradient accumulation, Distributed training" in recipe
    # Two schedulers under one heading, in the order the builder gave them.
    assert recipe.index(">CosineAnnealingLR<") < recipe.index(">SequentialLR<")
    assert 'rowspan="2">LR schedule</th>' in recipe


def test_structure_is_a_tree_that_expands_shared_blocks_once() -> None:
    page = render_html(tinydet_review())
    structure = page[page.index('id="structure"') : page.index('id="gaps"')]
    assert structure.index(">TinyDet<") < structure.index(">Backbone<") < structure.index(">FPN<")
    assert structure.count(">ConvBNAct<") == 3
    assert structure.count("expanded above") == 2
    assert "Conv2d ×2, Sequential ×1" in structure  # SqueezeExcite's layers


def test_classes_that_build_each_other_do_not_recurse_forever() -> None:
    modules = (
        ModuleNode("pkg.A", _w("pkg.py", 1), "block", ("pkg.B",)),
        ModuleNode("pkg.B", _w("pkg.py", 9), "block", ("pkg.A", "other.Unknown")),
    )
    page = render_html(Review(**{**empty_review().__dict__, "modules": modules}))
    structure = page[page.index('id="structure"') : page.index('id="gaps"')]
    assert structure.count('title="pkg.A">A<') == 1 and structure.count('title="pkg.B">B<') == 1
    assert "A</span> (cycle)" in structure and ">other.Unknown<" in structure
    assert 'href="repo/pkg.py#L9"' in structure


def test_gaps_table_is_worst_first_and_folds_long_location_lists() -> None:
    page = render_html(tinydet_review())
    gaps = page[page.index('id="gaps"') : page.index('id="dynamic-shape"')]
    order = [gaps.index(f"<code>torch.<wbr>{name}</code>") for name in ("float32", "arange")]
    assert order == sorted(order)
    assert "<summary>+2 more</summary>" in gaps  # torch.arange: 6 uses, 4 shown
    assert "<code>mindspore.<wbr>Tensor.<wbr>broadcast_to</code>" in gaps
    assert '<td class="num">9 <span class="pct">14.1%</span></td>' in gaps


def test_everything_from_the_repository_is_escaped() -> None:
    hostile = "<script>alert(1)</script>"
    review = Review(
        root='repo "x"',
        tool_version="0.1.0",
        recipe=(RecipeItem("optimizer", hostile, _w("a b/#x.py", 3), (("lr", hostile),), hostile),),
        modules=(ModuleNode("m.<Evil>", _w("m.py", 1), "other"),),
        coverage={"network": {"missing": 1}},
        gaps=(Gap("torch.x<y", "missing", 1, (_w("a&b.py", 2),), None, hostile),),
        dynamic_shape=((_w("a.py", 1), "DS1", "network", hostile),),
        sparse=(),
        extensions=(),
        third_party=(),
        effort=Effort(1, 0, 0, (hostile,)),
        errors=(("e.py", hostile),),
    )
    page = render_html(review)
    assert hostile not in page and "<Evil>" not in page and "x<y" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    links = {href for href, _ in _parse(page).links}
    assert "repo%20%22x%22/a%20b/%23x.py#L3" in links
    assert "repo%20%22x%22/a%26b.py#L2" in links
    for svg in _svgs(page):
        assert svg.tag == "svg"


def test_output_is_deterministic_and_ignores_dict_order() -> None:
    review = tinydet_review()
    reordered = Review(
        **{
            **review.__dict__,
            "coverage": {
                scope: dict(reversed(counts.items()))
                for scope, counts in reversed(review.coverage.items())
            },
            "dynamic_shape": tuple(reversed(review.dynamic_shape)),
        }
    )
    assert render_html(review) == render_html(tinydet_review()) == render_html(reordered)


def test_an_empty_review_says_so_in_every_section() -> None:
    page = render_html(empty_review())
    assert "<svg" not in page
    for message in (
        "No PyTorch API call sites were found.",
        "No training recipe element was found.",
        "No nn.Module subclass was found in the repository.",
        "No dynamic-shape finding.",
        "No sparse tensor use found.",
        "No third-party PyTorch package is imported.",
        "None: every file was analysed.",
    ):
        assert message in page


# --------------------------------------------------------------------------- real browser


def _png_pixels(data: bytes) -> tuple[int, int, Counter[tuple[int, int, int]]]:
    """Width, height and a histogram of the RGB colours of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, bytearray(), b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(bytes(idat)), width * bpp
    previous, counts = bytes(stride), Counter[tuple[int, int, int]]()
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(kind, row, previous, bpp)
        counts.update(zip(row[0::bpp], row[1::bpp], row[2::bpp], strict=True))
        previous = bytes(row)
    return width, height, counts


def _unfilter(kind: int, row: bytearray, prev: bytes, bpp: int) -> None:
    """Undo one scanline's PNG filter in place (None, Sub, Up, Average, Paeth)."""
    if kind == 2:  # Up: byte-wise addition without carries, on whole rows as integers
        low = int.from_bytes(b"\x7f" * len(row), "big")
        a, b = int.from_bytes(row, "big"), int.from_bytes(prev, "big")
        row[:] = (((a & low) + (b & low)) ^ ((a ^ b) & ~low)).to_bytes(len(row), "big")
        return
    for i in range(len(row) if kind else 0):
        left = row[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + left) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
        else:
            up, corner = prev[i], prev[i - bpp] if i >= bpp else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            row[i] = (row[i] + pred) & 0xFF


def _rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.lstrip("#"), 16)
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def test_png_decoder_against_a_hand_made_image() -> None:
    """Each filter type on a 2x5 RGB image whose pixels are known."""
    pixels = [(10, 20, 30), (200, 100, 50)]
    rows = [bytes(c for p in pixels for c in p)] * 5
    raw = bytearray()
    prev = bytes(6)
    for kind, row in enumerate(rows):
        if kind == 0:
            filtered = row
        elif kind == 1:
            filtered = bytes((row[i] - (row[i - 3] if i >= 3 else 0)) & 0xFF for i in range(6))
        elif kind == 2:
            filtered = bytes((row[i] - prev[i]) & 0xFF for i in range(6))
        elif kind == 3:
            filtered = bytes(
                (row[i] - (((row[i - 3] if i >= 3 else 0) + prev[i]) >> 1)) & 0xFF for i in range(6)
            )
        else:  # Paeth on a row equal to the previous one predicts "up" everywhere
            filtered = bytes(6)
        raw += bytes([kind]) + filtered
        prev = row
    ihdr = struct.pack(">IIBBBBB", 2, 5, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + b"\0\0\0\0"

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))
    width, height, counts = _png_pixels(png + chunk(b"IEND", b""))
    assert (width, height) == (2, 5)
    assert counts == Counter({pixels[0]: 5, pixels[1]: 5})


def test_page_renders_in_headless_chromium(tmp_path: Path) -> None:
    if shutil.which("chromium") is None:
        pytest.fail(
            "chromium is not installed, and this test needs a real browser: "
            "apt-get update && apt-get install -y chromium"
        )
    page = tmp_path / "review.html"
    page.write_text(render_html(tinydet_review()), encoding="utf-8")
    out = tmp_path / "review.png"
    done = subprocess.run(
        [sys.executable, str(SCREENSHOT_SCRIPT), str(page), str(out)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    width, height, counts = _png_pixels(out.read_bytes())
    assert (width, height) == (1280, 2000)
    # Not blank: text, cards and charts give many colours, and no colour fills the page.
    assert len(counts) > 200, len(counts)
    assert counts.most_common(1)[0][1] < 0.8 * width * height
    # Every chart colour reaches the screen as solid bars (a 16px-high bar is thousands of pixels).
    for colour in (
        *(STATUS_COLOURS[s] for s in ("missing", "different", "consistent")),
        SCOPE_COLOURS["network"],
        SCOPE_COLOURS["host"],
    ):
        assert counts[_rgb(colour)] > 1000, (colour, counts[_rgb(colour)])
