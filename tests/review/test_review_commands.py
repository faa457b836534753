"""The config a repository's documented training command names (review/commands.py)."""

from __future__ import annotations

from pathlib import Path

from apiscan.review.commands import commanded_config, commanded_configs

_CONFIGS = {"configs/a/one.yaml", "configs/b/two.yaml"}


def _repo(tmp_path: Path, readme: str, script: str = "") -> Path:
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    if script:
        (tmp_path / "scripts").mkdir()
        (tmp_path / "scripts" / "train.sh").write_text(script, encoding="utf-8")
    return tmp_path


def test_the_training_command_names_the_config_an_evaluation_does_not(tmp_path: Path) -> None:
    readme = (
        "Test:\n\n    python tools/test_net.py --config-file configs/b/two.yaml\n\n"
        "Train:\n\n    python -m torch.distributed.launch \\\n        tools/train_net.py \\\n"
        "        --config-file ./configs/a/one.yaml OUTPUT_DIR x\n"
        "    python tools/train_net.py --config-file configs/b/two.yaml --eval-only\n"
    )
    assert commanded_config(_repo(tmp_path, readme), _CONFIGS) == (
        "configs/a/one.yaml",
        "README.md:7",
    )


def test_the_config_named_most_often_wins_a_tie_picks_none(tmp_path: Path) -> None:
    readme = (
        "    python tools/train.py --cfg configs/a/one.yaml\n"
        "    python tools/train.py --cfg=configs/b/two.yaml\n"
    )
    assert commanded_config(_repo(tmp_path, readme), _CONFIGS) is None
    (tmp_path / "README.md").unlink()
    script = "#!/bin/sh\npython train.py -c configs/b/two.yaml  # the default run\n"
    repo = _repo(tmp_path, readme, script)
    assert commanded_config(repo, _CONFIGS) == ("configs/b/two.yaml", "README.md:2")
    assert commanded_config(repo, {"configs/c/three.yaml"}) is None


def test_a_lower_case_readme_and_the_docs_pages_hold_commands(tmp_path: Path) -> None:
    """NAFNet's ``readme.md`` and ``docs/GoPro.md``: both are read; the pages' commands
    count with the README's in the list of every named config with its count."""
    (tmp_path / "readme.md").write_text(
        "See docs.\n    python train.py -opt configs/a/one.yaml\n", encoding="utf-8"
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "GoPro.md").write_text(
        "```\npython -m torch.distributed.launch basicsr/train.py -opt configs/b/two.yaml\n"
        "python basicsr/train.py -opt configs/b/two.yaml --launcher pytorch\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "notes.txt").write_text(
        "python train.py -opt configs/a/one.yaml\n" * 3, encoding="utf-8"
    )  # not a documentation page: not read
    # a page's commands never make a config the one trained: the README's alone pick
    assert commanded_config(tmp_path, _CONFIGS) == ("configs/a/one.yaml", "readme.md:2")
    assert commanded_configs(tmp_path, _CONFIGS) == [
        ("configs/b/two.yaml", "docs/GoPro.md:2", 2),
        ("configs/a/one.yaml", "readme.md:2", 1),
    ]
    (tmp_path / "docs" / "GoPro.md").unlink()
    assert commanded_configs(tmp_path, _CONFIGS) == [("configs/a/one.yaml", "readme.md:2", 1)]
    # INVALID: a page alone names a config once: listed, never picked
    (tmp_path / "readme.md").write_text("# nothing to run\n", encoding="utf-8")
    (tmp_path / "docs" / "notes").mkdir()
    (tmp_path / "docs" / "notes" / "bench.md").write_text(
        "    python tools/train_net.py --config-file configs/b/two.yaml\n", encoding="utf-8"
    )
    assert commanded_config(tmp_path, _CONFIGS) is None
    assert commanded_configs(tmp_path, _CONFIGS) == [
        ("configs/b/two.yaml", "docs/notes/bench.md:1", 1)
    ]


def test_root_pages_hold_a_runner_s_training_command(tmp_path: Path) -> None:
    """SlowFast-style: the README names no command; ``GETTING_STARTED.md`` and
    ``INSTALL.md`` at the root run ``tools/run_net.py --cfg X KEY VALUE ...``, a script that
    runs whatever its config enables: a training, unless the command switches it off."""
    (tmp_path / "README.md").write_text("See GETTING_STARTED.md.\n", encoding="utf-8")
    (tmp_path / "GETTING_STARTED.md").write_text(
        "```\npython tools/run_net.py \\\n  --cfg configs/a/one.yaml \\\n  NUM_GPUS 2 \\\n```\n"
        "Test only:\n```\npython tools/run_net.py --cfg configs/b/two.yaml"
        " TRAIN.ENABLE False\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "INSTALL.md").write_text(
        "    python tools/run_net.py --cfg configs/a/one.yaml NUM_GPUS 1\n", encoding="utf-8"
    )
    assert commanded_config(tmp_path, _CONFIGS) == ("configs/a/one.yaml", "GETTING_STARTED.md:2")
    # INVALID: a runner asked to evaluate trains nothing
    (tmp_path / "INSTALL.md").write_text(
        "    python main.py --eval --cfg configs/a/one.yaml\n", encoding="utf-8"
    )
    assert commanded_config(tmp_path, _CONFIGS) is None  # one page command left: none picked


def test_a_command_passes_the_words_of_the_variables_set_before_it(tmp_path: Path) -> None:
    """A README that sets its flags in shell variables (``TRAIN_FLAGS="--lr 1e-4
    --batch_size 128"``) and runs ``python train.py $MODEL_FLAGS $TRAIN_FLAGS`` documents
    those values: the command's options are the variables' words; a variable set after the
    command, one the caller chooses (``NET=$2``) and a command run with a variable in its
    environment are no such value."""
    from apiscan.review.commands import launches

    readme = (
        "```\n"
        'MODEL_FLAGS="--image_size 64 --num_res_blocks 3"\n'
        "export TRAIN_FLAGS='--lr 1e-4 --batch_size 128'\n"
        "GPUS=$2\n"
        "```\n\n"
        "```\n"
        "CUDA_VISIBLE_DEVICES=0 python train.py --data x $MODEL_FLAGS ${TRAIN_FLAGS}\n"
        "mpiexec -n $GPUS python train.py --seed 1 $UNSET\n"
        "```\n\n"
        'MODEL_FLAGS="--image_size 256"\n'
    )
    runs = launches(_repo(tmp_path, readme), "train.py")
    assert [r.words for r in runs] == [
        (
            *("--data", "x", "--image_size", "64", "--num_res_blocks", "3"),
            *("--lr", "1e-4", "--batch_size", "128"),
        ),
        ("--seed", "1", "$UNSET"),
    ]
    assert runs[0].given(("--batch_size",)) == ("128",)


def test_a_command_run_from_a_folder_names_its_config_from_the_root(tmp_path: Path) -> None:
    """A page's ``cd tools/`` then ``./train_net.py --config-file ../configs/a/one.yaml``:
    the command runs in a folder of the repository, so the config it names is the same path
    below the root; its evaluation run (``--eval-only``) still names none."""
    (tmp_path / "README.md").write_text("See GETTING_STARTED.md.\n", encoding="utf-8")
    (tmp_path / "GETTING_STARTED.md").write_text(
        "```\ncd tools/\n./train_net.py --num-gpus 8 \\\n"
        "  --config-file ../configs/a/one.yaml\n```\n"
        "```\n./train_net.py --config-file ../configs/a/one.yaml --num-gpus 1 X 2\n```\n"
        "```\n./train_net.py --config-file ../configs/b/two.yaml --eval-only\n```\n",
        encoding="utf-8",
    )
    assert commanded_config(tmp_path, _CONFIGS) == ("configs/a/one.yaml", "GETTING_STARTED.md:3")
    assert commanded_configs(tmp_path, _CONFIGS) == [
        ("configs/a/one.yaml", "GETTING_STARTED.md:3", 2)
    ]
    # INVALID: a path climbing out of the repository's folders names no config of it
    assert commanded_configs(tmp_path, {"a/one.yaml"}) == []


def test_a_usage_synopsis_and_a_pointer_to_help_are_no_runs(tmp_path: Path) -> None:
    """A README pasting the synopsis ``--help`` prints (``usage: train.py [-h] [--lr LR]``),
    and a sentence sending its reader there (``via python train.py --help):``), launches
    nothing: the options' launched values are the shell script's, not "default"."""
    from apiscan.review.commands import documented_runs, launches

    readme = (
        "1. Input arguments (see full input arguments via python train.py --help):\n"
        "    ```Shell\n"
        "    usage: train.py [-h] [--backbone {resnet,xception}]\n"
        "                [--lr LR] [--epochs N]\n"
        "    ```\n"
        "2. Train:\n"
        "    ```Shell\n    bash train_voc.sh\n    ```\n"
    )
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    (tmp_path / "train_voc.sh").write_text(
        "python train.py --backbone resnet --lr 0.007 --epochs 50\n", encoding="utf-8"
    )
    (tmp_path / "train.py").write_text("print(1)\n", encoding="utf-8")
    runs = launches(tmp_path, "train.py")
    assert [(r.path, r.line) for r in runs] == [("train_voc.sh", 1)]
    documented = documented_runs(tmp_path, {"train.py": "train.py"})
    assert [(r.path, r.line) for r in documented] == [("train_voc.sh", 1)]
    # INVALID: a real command with one optional flag in brackets is still a run
    readme += "3. Or:\n    ```shell\n    python train.py -b 64 --fp16 [--cache]\n    ```\n"
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    runs = launches(tmp_path, "train.py")
    assert [(r.path, r.line) for r in runs] == [("README.md", 12), ("train_voc.sh", 1)]
