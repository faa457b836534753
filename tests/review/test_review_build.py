"""The whole review of the fixture repositories, byte for byte, and the ``apiscan review`` CLI.

A golden failure means the review changed: if the change is deliberate, regenerate with
``APISCAN_UPDATE_GOLDEN=1 pytest tests/review/test_review_build.py`` and read the diff of
tests/review/golden/ before committing.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from scan_helpers import review_fixture

from apiscan.cli.main import main
from apiscan.review.gaps import GAP_STATUSES
from apiscan.review.html import render_html
from apiscan.review.json import document, load_schema, render_json
from apiscan.review.markdown import render_markdown
from apiscan.review.model import Review

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
FIXTURES = ("tinydet", "textcls", "setpred", "promptseg")
RENDERERS = {"md": render_markdown, "json": render_json, "html": render_html}
UPDATE = os.environ.get("APISCAN_UPDATE_GOLDEN") == "1"


@pytest.fixture(scope="module")
def reviews() -> dict[str, Review]:
    """Each fixture reviewed once, from the repository root (golden paths are relative)."""
    return {name: review_fixture(f"fixtures/{name}") for name in FIXTURES}


def validate(doc: object) -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(load_schema())
    errors = [e.message for e in Draft202012Validator(load_schema()).iter_errors(doc)]
    assert errors == []


@pytest.mark.parametrize("suffix", sorted(RENDERERS))
@pytest.mark.parametrize("fixture", FIXTURES)
def test_golden(fixture: str, suffix: str, reviews: dict[str, Review]) -> None:
    text = RENDERERS[suffix](reviews[fixture])
    golden = GOLDEN / fixture / f"review.{suffix}"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text("utf-8"), f"{fixture} review.{suffix} differs from its golden"


@pytest.mark.parametrize("fixture", FIXTURES)
def test_json_follows_the_schema(fixture: str, reviews: dict[str, Review]) -> None:
    doc = json.loads(render_json(reviews[fixture]))
    validate(doc)
    assert doc == json.loads(json.dumps(document(reviews[fixture])))


def test_schema_rejects_what_it_should(reviews: dict[str, Review]) -> None:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(load_schema())
    doc = document(reviews["tinydet"])
    bad_role = json.loads(json.dumps(doc))
    bad_role["modules"][0]["role"] = "trunk"
    missing_effort = {k: v for k, v in doc.items() if k != "effort"}
    bad_gap = json.loads(json.dumps(doc))
    bad_gap["gaps"][0]["status"] = "consistent"
    for broken in (bad_role, missing_effort, bad_gap):
        assert list(validator.iter_errors(broken)), broken


def test_tinydet_review_sections(reviews: dict[str, Review]) -> None:
    review = reviews["tinydet"]
    assert review.root == "fixtures/tinydet"
    roles = {m.cls: m.role for m in review.modules}
    assert roles["tinydet.model.TinyDet"] == "model"
    assert roles["tinydet.backbone.Backbone"] == "backbone"
    assert set(review.coverage) == {"network", "data", "host"}
    assert review.gaps and all(g.status in GAP_STATUSES for g in review.gaps)
    assert [tp.package for tp in review.third_party] == ["numpy"]
    assert review.extensions == () and review.sparse == () and review.errors == ()
    effort = review.effort
    # DetectionLoss.assign (8 findings) and DetectionLoss.__call__ (`pred_boxes[fg]`, fg a
    # stack of the masks assign returns: dynamic at run time, flagged since the measure)
    assert effort.dynamic_shape_rewrites == 2
    assert "tinydet/loss.py:DetectionLoss.assign" in effort.explanation[3]
    # network gaps less the deletions (a `torch.device` annotation: no work to count)
    to_change = sum(g.uses for g in review.gaps if g.disposition != "delete")
    assert effort.call_sites_to_change == to_change


def test_tinydet_recipe_rows_carry_their_lines(reviews: dict[str, Review]) -> None:
    """SGD with nesterov, the cosine schedule, EMA and AMP each reach the page with a line."""
    page = render_markdown(reviews["tinydet"]).splitlines()
    expected = {
        "`torch.optim.SGD`": "tools/train.py:86",
        "`torch.optim.lr_scheduler.CosineAnnealingLR`": "tools/train.py:64",
        "(ModelEMA)`": "tinydet/ema.py:11",
        "`torch.autocast`": "tools/train.py:98",
        "`torch.cuda.amp.GradScaler`": "tools/train.py:89",
    }
    for name, where in expected.items():
        (row,) = [line for line in page if line.startswith("| ") and name in line]
        assert f"[{where}]" in row, row
    (sgd,) = [line for line in page if "`torch.optim.SGD`" in line]
    assert "`nesterov` = `True`" in sgd and "`momentum` = `0.9`" in sgd


def test_textcls_review_sections(reviews: dict[str, Review]) -> None:
    review = reviews["textcls"]
    (module,) = review.modules
    assert module.cls == "classifier.TextClassifier"
    assert dict(module.layers)["torch.nn.LSTM"] == 1
    custom = review.effort.explanation[2]
    # packing is no operator: MindSpore's LSTM takes the padded batch and seq_length; and the
    # collate's padding runs on the host (a padded batch of the dataset pipeline), no custom op
    assert "pack_padded_sequence" not in custom and "pad_sequence" not in custom
    assert review.effort.custom_ops == 0
    assert [(w.path, rule, scope) for w, rule, scope, _m in review.dynamic_shape] == [
        ("reviews.py", "DS119", "data")
    ]


# --- CLI -----------------------------------------------------------------------------------


@pytest.fixture
def at_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


@pytest.mark.usefixtures("at_repo")
def test_cli_markdown_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "fixtures/textcls"]) == 0
    out = capsys.readouterr().out
    assert out == (GOLDEN / "textcls" / "review.md").read_text("utf-8")


@pytest.mark.usefixtures("at_repo")
def test_cli_json_to_file(tmp_path: Path) -> None:
    target = tmp_path / "review.json"
    assert main(["review", "fixtures/textcls", "--format", "json", "-o", str(target)]) == 0
    validate(json.loads(target.read_text("utf-8")))


@pytest.mark.usefixtures("at_repo")
def test_cli_html_missing_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "apiscan.review.html", None)  # as if not installed
    assert main(["review", "fixtures/textcls", "--format", "html"]) == 2
    assert "html review format is not available" in capsys.readouterr().err


@pytest.mark.usefixtures("at_repo")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["review", "no/such/dir"], "path does not exist"),
        (["review", "fixtures/textcls", "--ms-version", "0.1"], "0.1"),
        (["review", "fixtures/textcls", "-o", "/no/such/dir/review.md"], "cannot write"),
    ],
)
def test_cli_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("apiscan review: error:") and message in err


def test_cli_unknown_format_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["review", "fixtures/textcls", "--format", "pdf"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
