"""The config file a repository's documented training command names.

A yacs repository whose training script declares ``--config-file`` with no default
(maskrcnn-benchmark and FCOS: ``default=""``) still says which config it trains: its README's
training command (``python -m torch.distributed.launch ... tools/train_net.py --config-file
configs/fcos/fcos_imprv_R_50_FPN_1x.yaml``) or a shell script that runs the training. Those
commands are text, no worker records them: this module reads the README at the root (any
case: NAFNet's ``readme.md``), the other Markdown pages at the root (SlowFast's
``GETTING_STARTED.md``), the Markdown pages of a root ``docs/`` folder (NAFNet's
``docs/GoPro.md``, where each task's training command lives) and the shell scripts of the
repository (a few small files), once per review, through
:func:`apiscan.review.config_files.yaml_configs`.

Only commands that run a training script count (``train`` in the script's name, or a script
run in several modes given ``train``: ``./tools/run_net.py --mode train``; no
``--eval-only``): an evaluation or a demo's config is not the one trained. The config named
most often wins; a tie picks none (HRNet's README trains on MPII and on COCO alike: the review
then says the configs differ, as with no command); the README's and the scripts' commands
pick one, and the documentation pages' only where those name none and every training
command of the pages, two at least, names the same config (pycls's README sends its reader
to ``docs/GETTING_STARTED.md``). :func:`commanded_configs` keeps every config the commands name, the
documentation pages' included, for a reader that counts what those configs set (the network
most of NAFNet's documented commands train) rather than what every shipped file sets.
:func:`launches` gives the recipe the shell scripts' commands that run one training script,
with the options they pass it (RAFT's ``train_standard.sh``: one command per stage).
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import textwrap
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from apiscan.review.roles import LAUNCH_MODULES
from apiscan.review.sources import is_test_path

#: Files read for commands: the README at the root (its name in any case), the documentation
#: pages of a root docs folder, shell scripts anywhere (not tests).
_READMES = ("README.md", "README.rst", "README.txt", "README")
_DOCS = ("docs", "doc")
_DOC_SUFFIXES = (".md", ".rst")
#: Documentation pages read at most.
_MAX_DOCS = 50
#: A shell script or README larger than this is no list of commands.
_SIZE_LIMIT = 100_000
#: Shell scripts read at most.
_MAX_SCRIPTS = 200
#: Options that name the config a script reads.
_CONFIG_FLAGS = frozenset(
    {"--config-file", "--config_file", "--cfg", "--config", "-c", "-opt", "--opt"}
)
#: A command that evaluates, tests or demonstrates (its config is not the training's).
_NOT_TRAINING = re.compile(r"--eval-only|--eval_only|--test-only|--evaluate\b")
#: A run of the training script that only evaluates (``--eval true``, a bare ``--eval``).
#: ``--eval-bleu`` (a training that scores its validation set) is no such option.
_EVALUATION_RUN = re.compile(r"--eval(uate)?(?![-\w])(?!\s*(false|0)\b)", re.IGNORECASE)
_SKIPPED_DIRS = frozenset({".git", ".github", "node_modules", "__pycache__", "site"})


def commanded_config(
    root: Path, configs: set[str], flags: Collection[str] = ()
) -> tuple[str, str] | None:
    """(the config among ``configs`` (paths from the root) the training commands name most
    often, where the first such command is: ``README.md:67``), or None (no command, or a
    tie). ``flags``: options besides the usual config flags whose value names the config
    (the code's own option for the file it loads: ``--fname``)."""
    named = commanded_configs(root, configs, docs=False, flags=flags)
    if not named:
        # no README or script command: the documentation pages' (pycls-style
        # ``docs/GETTING_STARTED.md``, where the README sends its reader), when all their
        # training commands name one config, twice at least (a training and its variant
        # with other options); a page's single command (a note timing one config) and a
        # page timing configs against other frameworks (``docs/notes/benchmarks.md``)
        # document no training of this one
        paged = commanded_configs(root, configs, docs=True, timing=False, flags=flags)
        if len(paged) == 1 and paged[0][2] > 1:
            return paged[0][0], paged[0][1]
        return None
    best = named[0][2]
    tied = [(config, where) for config, where, count in named if count == best]
    if len(tied) > 1:
        # HRNet's README trains MPII and COCO alike: neither is "the" config; unless the
        # tied commands run a training script and its named variants (VITS's ``train.py -c
        # configs/ljs_base.json`` beside ``train_ms.py -c configs/vctk_base.json``): the
        # script itself is the one ported, its config the one trained
        return _base_script_config(root, tied)
    return named[0][0], named[0][1]


def _base_script_config(root: Path, tied: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """(config, where) of the one tied command whose script every other tied command's
    script is a named variant of (``train_ms.py`` of ``train.py``: the same folder, its
    name the script's and more after ``_``); None when no such one."""
    scripts: list[PurePosixPath | None] = []
    for _config, where in tied:
        path, _, line = where.rpartition(":")
        words = next(
            (w for at, start, w in _commands(root, docs=True) if at == path and str(start) == line),
            [],
        )
        script = next((w for w in words if w.endswith(".py")), None)
        scripts.append(
            PurePosixPath(os.path.normpath(script.removeprefix("./"))) if script else None
        )
    for n, base in enumerate(scripts):
        if base is None:
            continue
        if all(
            other is not None
            and other.parent == base.parent
            and other.stem.startswith(base.stem + "_")
            for m, other in enumerate(scripts)
            if m != n
        ):
            return tied[n]
    return None


def command_overrides(root: Path, where: str, keys: Iterable[str]) -> list[tuple[str, str]]:
    """(key, value) of each ``KEY VALUE`` pair the command at ``where`` (``README.md:135``)
    passes after its options, ``KEY`` one of ``keys`` (a yacs/detectron-style command line:
    ``train_net.py --config-file x.yaml SOLVER.BASE_LR 0.0025 SOLVER.STEPS "(480000,
    640000)"``, merged over the file by ``cfg.merge_from_list(args.opts)``), in order; []
    when it passes none or is not found."""
    path, _, line = where.rpartition(":")
    known = set(keys)
    # a documentation page's command too (:func:`commanded_config` may pick one)
    for at, start, words in _commands(root, docs=True):
        if at != path or str(start) != line:
            continue
        pairs = [
            (word, value)
            for word, value in itertools.pairwise(words)
            if word in known and not value.startswith("-")
        ]
        if pairs:
            return pairs
    return []


def script_config(root: Path, script: str, flag: str) -> tuple[str, str] | None:
    """(the value the README's and the shell scripts' commands running ``script`` (a path
    from the root) pass its option ``flag`` most often, where the first such command is),
    or None (no command passes it, or a tie): the config file a script whose option
    default names no file of the repository is documented to train with (RAM's
    ``pretrain.py --config ram/configs/pretrain.yaml`` beside ``finetune.py --config
    ram/configs/finetune.yaml``, each script its own)."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for path, line, words in _commands(root, docs=False):
        if not any(_names_script(w, script) for w in words):
            continue
        command = " ".join(words)
        if _NOT_TRAINING.search(command) or _EVALUATION_RUN.search(command):
            continue  # an evaluation run (``--evaluate``) names no config it trains with
        for word, value in itertools.zip_longest(words, words[1:], fillvalue=""):
            name = value if word == flag else ""
            if word.partition("=")[0] == flag and "=" in word:
                name = word.partition("=")[2]
            name = os.path.normpath(name.removeprefix("./")) if name else ""
            if name:
                counts[name] += 1
                first.setdefault(name, f"{path}:{line}")
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0], first[ranked[0][0]]


def script_configs(
    root: Path, script: str, flags: Collection[str], configs: Collection[str]
) -> list[tuple[str, str, int]]:
    """(config, where its first command is, how many commands name it) of each of
    ``configs`` the documented training commands running ``script`` (root-relative) pass
    one of its ``flags``, the documentation pages' included, the most named first: the
    configs a script whose config option has no default is documented to train (Swin's
    ``main.py --cfg`` run with the tiny, small and base configs and two fine-tunings). An
    evaluation run (``--eval``) names no trained config; other scripts' commands never
    count (a sibling pre-training script's configs are its own)."""
    commands = (
        (path, line, words)
        for path, line, words in _commands(root, docs=True)
        if any(_names_script(w, script) for w in words)
        and not _NOT_TRAINING.search(" ".join(words))
        and not _EVALUATION_RUN.search(" ".join(words))
    )
    return _named_configs(commands, flags, configs)


def _named_configs(
    commands: Iterable[tuple[str, int, list[str]]],
    flags: Collection[str],
    configs: Collection[str],
) -> list[tuple[str, str, int]]:
    """(config, where its first command is, how many commands name it) of each of
    ``configs`` the ``commands`` pass one of ``flags`` (``--cfg x`` or ``--cfg=x``), the
    most named first (ties: the first met)."""
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}
    for path, line, words in commands:
        named: list[str] = []
        for word, value in itertools.zip_longest(words, words[1:], fillvalue=""):
            name = value if word in flags else ""
            if word.partition("=")[0] in flags and "=" in word:
                name = word.partition("=")[2]
            name = _config_path(name, configs) if name else ""
            if name in configs:
                named.append(name)
        if not named:
            # a config passed as the script's positional argument (OpenMMLab's ``python
            # tools/train.py configs/x.py``, ``./tools/dist_train.sh configs/x.py 8``): a
            # word naming one of ``configs`` that is no option's value
            named = [
                name
                for before, word in itertools.pairwise(words)
                if not before.startswith("-") and (name := _config_path(word, configs)) in configs
            ]
        for name in named:
            counts[name] += 1
            first.setdefault(name, f"{path}:{line}")
    order = list(first)
    ranked = sorted(first, key=lambda c: (-counts[c], order.index(c)))
    return [(c, first[c], counts[c]) for c in ranked]


def _names_script(word: str, script: str) -> bool:
    """Whether a command's word runs ``script`` (root-relative): the same path, ``./``
    or not."""
    return word.endswith(".py") and os.path.normpath(word.removeprefix("./")) == script


def commanded_configs(
    root: Path,
    configs: set[str],
    docs: bool = True,
    timing: bool = True,
    flags: Collection[str] = (),
) -> list[tuple[str, str, int]]:
    """(config, where its first training command is, how many commands name it) for each of
    ``configs`` a training command names, the most named first (ties: the first met).
    ``docs``: the documentation pages' commands count too. A page's single command never
    makes its config *the* one (:func:`commanded_config` reads the README and the scripts
    first: detectron2's ``docs/notes/benchmarks.md`` times one config); the pages only
    weigh what the documented commands train, all together. ``timing``: the commands of a
    page named for benchmarks or profiling count too. ``flags``: more options naming the
    config (see :func:`commanded_config`)."""
    commands = (
        (path, line, words)
        # bare lines too: a config passed as the only argument (``python tools/train.py
        # configs/x.py``) is named by a command with no option
        for path, line, words in _commands(root, docs, bare=True)
        if (timing or not _TIMING_PAGE.search(PurePosixPath(path).name))
        and _trains(words)
        and not _NOT_TRAINING.search(" ".join(words))
    )
    return _named_configs(commands, _CONFIG_FLAGS | set(flags), configs)


def _config_path(written: str, configs: Collection[str]) -> str:
    """The root-relative path of the config a command names: as written (``./`` left
    aside), or, when that names none of ``configs``, with its leading ``../`` parts dropped:
    a command run from a folder of the repository (``cd tools/`` then ``./train_net.py
    --config-file ../configs/x.yaml``) names a config the same path below the root."""
    name = os.path.normpath(written.removeprefix("./"))
    if name in configs or not name.startswith("../"):
        return name
    while name.startswith("../"):
        name = name[3:]
    return name


#: The options that pick what a script run in several modes does (``--mode train``).
_MODE_FLAG = re.compile(r"^--?(mode|phase|task|action|run[_-]?mode)$")
#: Scripts named for running whatever their config or options enable (``run_net.py``,
#: ``run.py``, ``main.py``): no name says training, a command runs one unless it says not.
_RUNNER = re.compile(r"^(?:run(?:_\w+)?|main)$")
#: A runner's command that trains nothing: a yacs override switching the training off
#: (``TRAIN.ENABLE False``), or an option asking for evaluation, testing or a demo.
_RUNNER_OFF = re.compile(
    r"(?i)\btrain\w*\.enable\w*\s+(?:false|0)\b|(?:^|\s)--(?:eval|test|demo|inference|predict)"
    r"(?:[_-]\w+)?(?:\s|=|$)"
)
#: Documentation pages that time configs rather than train one (their name says so).
_TIMING_PAGE = re.compile(r"(?i)benchmark|profil")


def _trains(words: Sequence[str]) -> bool:
    """Whether a command runs a training: its script is named for training (``train.py``,
    ``train_net.py``), or a script run in several modes is given ``train`` as one
    (``./tools/run_net.py --mode train``, ``main.py train``) after it."""
    index = next((i for i, w in enumerate(words) if w.endswith(".py")), -1)
    if index < 0:
        # a launcher script named for training (OpenMMLab's ``./tools/dist_train.sh``)
        return any(w.endswith(".sh") and "train" in Path(w).name for w in words)
    if "train" in Path(words[index]).name:
        return True
    after = words[index + 1 :]
    if after[:1] == ["train"]:
        return True
    if _RUNNER.match(Path(words[index]).stem) and not any(
        _MODE_FLAG.match(w.partition("=")[0]) for w in after
    ):
        # a script that runs whatever its config enables (SlowFast's ``tools/run_net.py
        # --cfg x.yaml``: training, then testing): a training unless the command turns the
        # training off (``TRAIN.ENABLE False``) or asks for another task (``--eval``)
        return not _RUNNER_OFF.search(" ".join(after))
    return any(
        _MODE_FLAG.match(flag) and value == "train"
        for flag, value in itertools.zip_longest(after, after[1:], fillvalue="")
    ) or any(
        w.partition("=")[2] == "train" and _MODE_FLAG.match(w.partition("=")[0]) for w in after
    )


#: Launchers a documented command runs a Python script through (``torchrun --nproc_per_node
#: 8 -m pkg.main``, ``srun python -u src/pkg/main.py``).
_LAUNCHERS = frozenset(
    {"python", "python3", "torchrun", "srun", "deepspeed", "accelerate", "mpirun"}
)


def documented_entry(root: Path, scripts: Mapping[str, str]) -> str | None:
    """The training script the documentation's commands run, when they name one: the README
    at the root, the pages of a root docs folder and the shell scripts, each command's
    ``-m pkg.main`` (``python -m``, ``torchrun ... -m``) or ``path.py`` after a launcher.
    ``scripts`` maps each module name and path of the repository's runnable training scripts
    (a ``__main__`` block reaching the training step; tests never) to its path. The script
    named most often wins (open_clip's README launches ``open_clip_train.main`` nine times and
    its ``legacy_main`` once); a tie names none. Then the rows of every other script are
    another task's (a linear probe, a zero-shot benchmark, a profiler), not the recipe."""
    counts: Counter[str] = Counter()
    order: list[str] = []
    for _, _, words, cwd in _placed(_commands(root, docs=True, bare=True)):
        for _, path in _launched(words, scripts, cwd):
            counts[path] += 1
            if path not in order:
                order.append(path)
    if not counts:
        return None
    ranked = sorted(counts, key=lambda p: (-counts[p], order.index(p)))
    if len(ranked) > 1 and counts[ranked[0]] == counts[ranked[1]]:
        return None
    return ranked[0]


def training_commands_scripts(root: Path | None) -> frozenset[str]:
    """The Python scripts (root-relative) the documented training commands run (``python
    tools/train.py configs/x.py``): where the training runs inside a framework's runner, no
    file of the repository holds an optimizer step, and these are its training files."""
    if root is None:
        return frozenset()
    out = set()
    for _, _, words, cwd in _placed(_commands(root, docs=True, bare=True)):
        if cwd == "?" or not _trains(words) or _NOT_TRAINING.search(" ".join(words)):
            continue
        script = next((w for w in words if w.endswith(".py")), None)
        if script is not None and not script.startswith(("/", "$", "~")):
            out.add(os.path.normpath(os.path.join(cwd, script.removeprefix("./"))))
    return frozenset(out)


def documented_scripts(root: Path, scripts: Mapping[str, str]) -> frozenset[str]:
    """Every script of ``scripts`` (module name or path -> path) a command of the
    documentation launches, however often: a script the README runs is a task of its own
    (pretraining, then fine-tuning with another config), even when its code is the same."""
    return frozenset(
        path
        for _, _, words, cwd in _placed(_commands(root, docs=True, bare=True))
        for _, path in _launched(words, scripts, cwd)
    )


def documented_stages(root: Path, scripts: Mapping[str, str], entry: str) -> tuple[str, ...]:
    """The training scripts the documentation launches before its first command of ``entry``
    (:func:`documented_entry`), in the order met: the earlier stages of one pipeline (DALL-E's
    README trains the discrete VAE with ``train_vae.py``, then ``train_dalle.py --vae_path
    ./vae.pt``), each training its own model. ``scripts`` as for :func:`documented_entry`.
    A script launched only after the entry (a probe, a fine-tuning, a benchmark) is none:
    the caller still checks that a stage trains a model of its own."""
    order: list[str] = []
    for _, _, words, cwd in _placed(_commands(root, docs=True, bare=True)):
        for _, path in _launched(words, scripts, cwd):
            if path == entry:
                return tuple(order)
            if path not in order:
                order.append(path)
    return ()


class Launch(NamedTuple):
    """A shell script's command that runs a training script, with the options it passes
    (RAFT's ``train_standard.sh``: one ``python -u train.py --stage chairs --lr 0.0004 ...``
    line per training stage). The values it gives are the run's, not the argparse defaults."""

    #: the shell script (root-relative) and the command's first line
    path: str
    line: int
    #: the words after the script's name, as the shell splits them, up to the end of this one
    #: command (:func:`split_commands` leaves the commands joined to it apart)
    words: tuple[str, ...]
    #: the launched script's path, where known (the documentation's runs say it)
    script: str = ""

    def leading(self) -> tuple[str, ...]:
        """The words before the command's first option (``python main.py kinetics RGB
        --lr 0.02``: kinetics, RGB): what its positional arguments take, in declaration
        order. A redirection, the next command, a shell value (``$DATA``) or a placeholder
        the reader fills in (``<dataset>``) ends them: no value from there on."""
        out: list[str] = []
        for word in self.words:
            if word.startswith(("-", ">", "2>", "1>")) or word in _SHELL_STOPS:
                break
            bare = word.strip("'\"")
            if "$" in word or "`" in word or PLACEHOLDER.match(bare):
                break
            out.append(bare)
        return tuple(out)

    def given(self, names: Collection[str], count: int | None = None) -> tuple[str, ...] | None:
        """The words the command gives the option spelled as any of ``names`` (``--lr
        0.0004`` → ("0.0004",), ``--gamma=0.85`` → ("0.85",), ``--image_size 368 496`` →
        both, a bare flag → ()), None when it does not pass it; the last one given wins, as
        argparse reads a repeated option. An option known to take ``count`` words
        (:attr:`~apiscan.extract.values.ArgOption.words`) takes no more: ``--rank 0 [your
        imagenet-folder]`` gives ``--rank`` the 0, the rest are positionals."""
        found: tuple[str, ...] | None = None
        words = self.words
        for index, word in enumerate(words):
            if word.startswith((">", "2>", "1>")):
                break  # a redirection: no option follows
            flag, equals, value = word.partition("=")
            if flag not in names:
                continue
            if equals:
                taken = [value]
            else:
                taken = []
                for later in words[index + 1 :]:
                    # (an optional flag the documentation brackets, ``--accumulation-steps
                    # 2 [--use-checkpoint]``, is the next option, no value of this one)
                    if (later.startswith("-") and not NUMBER.match(later)) or later.startswith(
                        "[-"
                    ):
                        break
                    taken.append(later)
                if count is not None:
                    taken = taken[:count]
            filled = [PLACEHOLDER.match(w.strip("'\"")) is not None for w in taken]
            if filled[:1] == [True]:
                continue  # ``--model_type <model_type>``: the reader's to fill in, no value
            if True in filled:  # ``--batch 16 LMDB_PATH``: the positional's placeholder
                taken = taken[: filled.index(True)]
            found = tuple(taken)
        return found


#: A documented command's word that stands for a value the reader fills in: a placeholder
#: in angle brackets, braces or square brackets (MiDaS's README: ``python run.py
#: --model_type <model_type>``, ``{MODEL}``, ``--ckpt [CHECKPOINT]``), a capitalised name of
#: words joined by underscores (``--batch BATCH_SIZE``, ``--nproc_per_node=N_GPU``) or an
#: ellipsis. The option keeps its default.
PLACEHOLDER = re.compile(
    r"^(?:<[^<>]+>|\{[^{}]+\}|\[[A-Za-z][\w-]*\]|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\.\.\.|…)$"
)
#: Words that end a command (what follows is another command).
_SHELL_STOPS = frozenset({"&&", "||", "|", ";", "&"})
#: A command-line word that is a number, not an option (``--min_scale -0.2``).
NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)(e-?\d+)?$", re.IGNORECASE)


def launch_commands(root: Path) -> list[tuple[str, int, list[str], str]]:
    """(file, line, words, folder it runs in) of every command of the root README, the other
    Markdown pages at the root (a ``TRAINING.md``, where the README sends its
    reader for the training commands) and the shell scripts (:func:`_placed`): read once per
    review and handed to :func:`launches` for each script. Where those pages hold no
    command, the pages in folders the README sends its reader to (RobustVideoMatting's
    "see the [training documentation](documentation/training.md)") are read instead: a
    README with commands of its own keeps them (YOLOX's, beside its custom-data page)."""
    found = list(_placed(_commands(root, docs=False, bare=True, pages=True)))
    if any(not path.endswith(".sh") for path, _, _, _ in found):
        return found
    readme = next((p for p in _files(root, docs=False) if not p.endswith(".sh")), "")
    linked = [p for p in _linked_pages(root, readme) if "/" in p][:_MAX_DOCS] if readme else []
    return found + list(_placed(_commands(root, bare=True, files=linked))) if linked else found


def _synopsis(words: Sequence[str], index: int) -> bool:
    """Whether the command launching ``words[index]`` asks for its usage or is the usage
    synopsis ``--help`` prints, pasted into the README: ``usage: train.py [-h] [--backbone
    {resnet,xception}] [--lr LR]`` (its options shown in brackets, no value passed), or a
    sentence sending the reader to it (``(see full input arguments via python train.py
    --help):``, the flag's word holding the sentence's punctuation)."""
    before = words[index - 1].lower() if index > 0 else ""
    after = words[index + 1 :]
    # (every option in brackets: one optional flag of a real command, ``-b 64 --fp16 -o
    # [--cache]``, leaves it a run)
    bracketed = any(w.startswith("[-") for w in after) and not any(w.startswith("-") for w in after)
    return (
        before == "usage:"
        or bracketed
        or any(w.strip("()[]{}:;,.'\"`") in ("--help", "-h") for w in after)
    )


def launches(
    root: Path,
    script: str,
    modules: Collection[str] = (),
    commands: Sequence[tuple[str, int, list[str], str]] | None = None,
) -> list[Launch]:
    """The documented commands that run ``script`` (a root-relative path, or one of its
    ``modules`` after ``-m``): the root README's own commands first (co-tracker's README
    trains with ``python train_on_kubric.py --batch_size 1 --num_steps 50000 ...``, a
    multi-line block joined at its backslashes: the documented run, not the argparse
    defaults), then the shell scripts', those of the script the README names first leading
    (RAFT's README shows ``./train_standard.sh`` before ``./train_mixed.sh``), then the
    others in path order, then the other root pages', each file's commands in line order. A
    command that runs another script (an evaluation, a demo) is none: its options are not
    this script's; nor is one that runs this script to evaluate (``--eval true``)."""
    names = {script: script, **{m: script for m in modules}}
    found: dict[str, list[Launch]] = {}
    arguments: dict[str, frozenset[str]] = {}
    for path, line, words, cwd in launch_commands(root) if commands is None else commands:
        for index, _ in _launched(words, names, cwd):
            if path.endswith(".sh") and path not in arguments:
                arguments[path] = script_arguments(root / path)
            passed = _without_arguments(tuple(words[index + 1 :]), arguments.get(path, frozenset()))
            command = " ".join(passed)
            if {"--help", "-h"} & set(passed) or _synopsis(words, index):
                continue  # a usage line, no run
            if _NOT_TRAINING.search(command) or _EVALUATION_RUN.search(command):
                continue  # the README's ``main.py --eval true --resume ...``: no training run
            found.setdefault(path, []).append(Launch(path, line, passed))
    readme = _readme_text(root)
    mentioned = {p: readme.find(PurePosixPath(p).name) for p in found}
    # the README, then the shell scripts, then the other pages
    first = next(iter(_files(root, docs=False)), "")
    order = sorted(
        found,
        key=lambda p: (
            p != first,
            not p.endswith(".sh"),
            p.endswith(".sh") and mentioned[p] < 0,
            mentioned[p],
            p,
        ),
    )
    return _training_mode([launch for path in order for launch in found[path]])


#: An option value that picks a script's training mode (``--mode train``, ``--phase=train``).
_TRAIN_VALUE = re.compile(r"(?i)train(ing)?")


def _option_values(words: Sequence[str]) -> dict[str, str]:
    """Each ``--option`` of a command with the one word it is given (``--mode train``,
    ``--mode=train``); a flag given no value is left out."""
    out: dict[str, str] = {}
    for index, word in enumerate(words):
        if not word.startswith("--"):
            continue
        name, equals, value = word.partition("=")
        if not equals and index + 1 < len(words) and not words[index + 1].startswith("-"):
            value = words[index + 1]
        if value:
            out.setdefault(name, value.strip("'\""))
    return out


def _training_mode(runs: list[Launch]) -> list[Launch]:
    """The runs of a script whose mode option picks training, where the documentation also
    runs it in other modes (StarGAN-style ``main.py --mode sample`` and ``--mode eval``
    commands before ``--mode train``): a sampling or evaluation command of the same script
    is no training run, and its options are not the training's. Every run stays where no
    option is given ``train`` in one command and another value in another."""
    given = [_option_values(run.words) for run in runs]
    modes = {
        name
        for values in given
        for name, value in values.items()
        if _TRAIN_VALUE.fullmatch(value) and any(other.get(name, value) != value for other in given)
    }
    if not modes:
        return runs
    return [
        run
        for run, values in zip(runs, given, strict=True)
        if all(_TRAIN_VALUE.fullmatch(values.get(name, "train")) for name in modes)
    ]


#: A shell variable read in a word (``$NET``, ``${NET}``, ``${NET:-alex}``, ``$2``).
_SHELL_READ = re.compile(r"\$\{?([A-Za-z_]\w*|[0-9@*])")
#: A shell assignment from the script's own arguments (``NET=${2}``, ``export LR="$1"``).
_FROM_ARGUMENT = re.compile(
    r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=[\"']?\$\{?[0-9@*]", re.MULTILINE
)


def documented_runs(root: Path | None, scripts: Mapping[str, str]) -> list[Launch]:
    """The documented training runs of ``scripts`` (each module name, path or console
    command name of a script -> its path), in reading order: the root README, the other
    Markdown pages at the root, the pages of a root docs folder (a getting-started page's
    ``fairseq-train data-bin/x --arch fconv_iwslt_de_en --optimizer nag``), then the shell
    scripts. A run's launched name says it trains (``train.py``, ``fairseq-train``) and
    the command evaluates nothing (``--eval-only``); a usage line (``--help``) is none.
    Each :class:`Launch` holds the words after the launched name."""
    if root is None or not scripts:
        return []
    runs: list[Launch] = []
    for path, line, words, cwd in _placed(_commands(root, docs=True, bare=True, pages=True)):
        for index, script in _launched(words, scripts, cwd):
            passed = tuple(words[index + 1 :])
            command = " ".join(passed)
            if "train" not in words[index].rpartition("/")[2]:
                continue  # an evaluation, a preprocessing, a generation command
            if {"--help", "-h"} & set(passed) or _synopsis(words, index):
                continue  # a usage line, or the usage synopsis ``--help`` prints
            if _NOT_TRAINING.search(command):
                continue
            if _EVALUATION_RUN.search(command):
                continue
            if any(w.strip("().") == "" and "..." in w for w in passed):
                continue  # a fragment showing one option (``fairseq-train --fp16 (...)``)
            runs.append(Launch(path, line, passed, script))
    return runs


def script_arguments(path: Path) -> frozenset[str]:
    """The variables a shell script binds to its own command-line arguments
    (``NET=${2}`` before ``python train.py --net ${NET}``): what its caller chooses, not a
    value the repository sets. Empty when the script cannot be read."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:_SIZE_LIMIT]
    except OSError:
        return frozenset()
    return frozenset(m.group(1) for m in _FROM_ARGUMENT.finditer(text))


def _without_arguments(words: tuple[str, ...], arguments: frozenset[str]) -> tuple[str, ...]:
    """A launch's words less the options whose value is the script's own argument (``--net
    ${NET}`` with ``NET=${2}``, ``--lr $1``): the script hands on its caller's choice, so
    the command tells nothing of the option and the argparse default is what the repository
    says; a value with a fallback the script writes (``${2:-alex}``) stays as given."""

    def callers(word: str) -> bool:
        if ":-" in word:
            return False
        reads = _SHELL_READ.findall(word)
        return any(r in arguments or (not r[0].isalpha() and r[0] != "_") for r in reads)

    out: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        _, equals, value = word.partition("=")
        if word.startswith("-") and not NUMBER.match(word):
            taken = [value] if equals else []
            end = index + 1
            while (
                not equals
                and end < len(words)
                and not (words[end].startswith("-") and not NUMBER.match(words[end]))
            ):
                taken.append(words[end])
                end += 1
            if taken and any(callers(w) for w in taken):
                index = end
                continue
            out.extend(words[index:end])
            index = end
            continue
        out.append(word)
        index += 1
    return tuple(out)


#: A README line linking released weights: a URL beside a word for weights, or a URL of a
#: weights file (``[model](https://.../TPS-ResNet-BiLSTM-Attn.pth?dl=0)``).
_WEIGHTS_LINK = re.compile(
    r"(?i)(?=.*https?://)(?:.*\b(?:pretrain\w*|checkpoints?|weights?|model zoo|download)\b"
    r"|.*https?://\S+\.(?:pth|pt|ckpt|bin|safetensors|pkl|tar|zip)\b)"
)


def documents_weights(root: Path | None) -> bool:
    """Whether the root README links released weights (a download of a pretrained model or
    checkpoint): the repository hands its users PyTorch weights, whatever format they hold."""
    if root is None or not root.is_dir():
        return False
    return any(_WEIGHTS_LINK.match(line) for line in _readme_text(root).splitlines())


def _readme_text(root: Path) -> str:
    """The root README's text ("" without one)."""
    for path in _files(root, docs=False):
        if path.endswith(".sh"):
            break
        try:
            return (root / path).read_text(encoding="utf-8", errors="replace")[:_SIZE_LIMIT]
        except OSError:
            return ""
    return ""


def _placed(
    commands: Iterator[tuple[str, int, list[str]]],
) -> Iterator[tuple[str, int, list[str], str]]:
    """The commands with the folder each runs in (root-relative, "" at the root, "?" once a
    ``cd`` leaves the repository or names a shell variable): a script's ``cd src``
    line moves the commands after it (CenterTrack's ``experiments/*.sh``: ``cd src`` then
    ``python main.py ...``, run from the root), a file's commands start at the root again.
    The ``cd`` commands themselves are not yielded."""
    current, cwd = "", ""
    for path, line, words in commands:
        if path != current:
            current, cwd = path, ""
        if words[0] == "cd":
            target = words[1] if len(words) == 2 else ""
            moved = os.path.normpath(os.path.join(cwd, target)) if target else ".."
            bad = "$" in target or "~" in target or target.startswith("/") or cwd == "?"
            cwd = "?" if bad or moved.startswith("..") else ("" if moved == "." else moved)
            continue
        yield path, line, words, cwd


def _launched(
    words: list[str], scripts: Mapping[str, str], cwd: str = ""
) -> Iterator[tuple[int, str]]:
    """(the index of the word naming it, the script) for the scripts of ``scripts`` a
    command's words launch: the module after ``-m``, a ``.py`` path (``./`` and a leading
    ``python`` path left aside, taken from ``cwd``, the folder the command runs in) after a
    launcher. A command in an unknown folder (``cwd`` "?") names a script by its path
    from the root alone."""
    # a script run as a command of its own (``./tools/run_net.py --mode train``: its
    # shebang is the launcher)
    launched = bool(words) and words[0].endswith(".py")
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        command = word.rstrip(")`")
        if (
            command in scripts
            and _console_name(command)
            and (launched or all(_COMMAND_PREFIX.match(w) for w in words[:index]))
        ):
            # a console script the packaging declares (``fairseq-train data-bin/x --lr
            # 0.25``, after a prompt, variables or ``$(which fairseq-train)``)
            yield index, scripts[command]
            return
        if Path(word).name in _LAUNCHERS:
            launched = True
        elif launched and word == "-m":
            if following.startswith(LAUNCH_MODULES):
                continue  # ``python -m torch.distributed.launch ... main.py``: the script follows
            if following in scripts:  # ``python -m pytest`` launches no script of the repo
                yield index + 1, scripts[following]
            elif "." in following:
                # an installed package's alias of a script (YOLOX's ``python -m
                # yolox.tools.train`` runs ``tools/train.py``): the module's tail is its path
                tail = next(
                    (s for s in scripts if s.endswith(".py") and _module_tail(following, s)),
                    None,
                )
                if tail is not None:
                    yield index + 1, scripts[tail]
            return
        elif launched and word.endswith(".py"):
            name = os.path.normpath(word.removeprefix("./"))
            if "$" in name:
                # ``${EXP_DIR}/${NAME}/code/train.py``: a copy of the repository somewhere a
                # variable names; the part after the last variable is the script's path
                name = name.rpartition("$")[2].partition("/")[2]
                name = next((s for s in scripts if _tail_of(name, s)), name)
            elif cwd not in ("", "?") and not name.startswith("/"):
                name = os.path.normpath(os.path.join(cwd, name))
            if name in scripts:
                yield index, scripts[name]
            return


#: Words a console command may follow: a prompt (``>``, ``$``), an environment variable set
#: for it (``CUDA_VISIBLE_DEVICES=0``), the shell's ``$(which`` around its name.
_COMMAND_PREFIX = re.compile(r"^(?:[>$%#]|\$\(which|`which|[A-Za-z_]\w*=\S*)$")


def _console_name(name: str) -> bool:
    """Whether ``name`` (a key of a script table) is a console script's command name
    (``fairseq-train``), not a path or a dotted module."""
    return bool(name) and not name.endswith(".py") and "." not in name and "/" not in name


def _module_tail(module: str, script: str) -> bool:
    """Whether the dotted ``module`` (``yolox.tools.train``) ends with the path of
    ``script`` (``tools/train.py``) in two parts at least, under a package of its own."""
    dotted = script.removesuffix(".py").replace("/", ".")
    return dotted.count(".") >= 1 and module.endswith(f".{dotted}")


def _tail_of(written: str, script: str) -> bool:
    """Whether the path ``written`` after a shell variable (``cotracker3/train.py``) ends
    with the repository script ``script`` (``train.py``) at a folder boundary."""
    return bool(written) and (written == script or written.endswith(f"/{script}"))


def _commands(
    root: Path,
    docs: bool = True,
    bare: bool = False,
    pages: bool | None = None,
    files: Sequence[str] | None = None,
) -> Iterator[tuple[str, int, list[str]]]:
    """(file, line, words) of every command line in the root README, the documentation
    pages (with ``docs``) and the shell scripts, continuation lines (a trailing backslash)
    joined. A line counts when it passes options; with ``bare`` also when it starts with a
    launcher (barlowtwins' ``python main.py /path/to/imagenet/``: the pretraining run with
    every default, beside two linear-evaluation commands that set options) and, in a shell
    script, when it changes folder (``cd src``: :func:`_placed` reads it). ``files``: read
    those (root-relative) instead."""
    for path, text in _texts(root, docs, pages=docs if pages is None else pages, files=files):
        start, pending = 0, ""
        page = not path.endswith(".sh")
        # the variables the file sets before a command reads them (a README's
        # ``TRAIN_FLAGS="--lr 1e-4 --batch_size 128"`` block, then ``python train.py
        # $TRAIN_FLAGS``): the command passes their words
        assigned: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            # a page's HTML code block (BLIP's README: ``<pre>python -m torch.distributed.run
            # ... train_retrieval.py \``, its last line ending ``</pre>``): the tags are
            # no words of the command
            stripped = (_HTML_CODE_TAG.sub(" ", line) if page else line).strip()
            if not pending:
                start = number
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            line_text, pending = pending + stripped, ""
            if _remember_assignment(line_text, assigned):
                continue
            line_text = expand_variables(line_text, assigned)
            # a bare launch in a code span is prose naming a script (``Run `python main.py`
            # to train.``); one passing options is a command (a table cell's)
            bare_here = bare and not (page and _CODE_SPAN.search(line_text))
            for words in _unwrapped(split_commands(line_text, page)):
                if not words or words[0].startswith("-"):
                    continue  # no command starts with an option: a table's rule (| --- |)
                command = " ".join(words)
                options = "--" in command or re.search(r"\s-(c|opt)\s", command)
                moves = bare and not page and words[0] == "cd"  # a script's ``cd src``
                if options or moves or (bare_here and _launch_word(words)):
                    yield path, start, words


def _launch_word(words: Sequence[str]) -> bool:
    """Whether a command line starts with a launcher (``python``, ``torchrun``) or runs a
    shell script (OpenMMLab's ``./tools/dist_train.sh configs/x.py 8``, ``bash
    train.sh``): a command though it passes no option."""
    first = words[0]
    if first in _LAUNCHERS or first.endswith(".sh"):
        return True
    return first in ("bash", "sh") and len(words) > 1 and words[1].endswith(".sh")


#: A shell assignment on a line of its own (``MODEL_FLAGS="--image_size 64 --num_channels 128"``,
#: ``export LR=0.1``): the name and the value as written.
_ASSIGNMENT = re.compile(r"^(?:export\s+)?([A-Za-z_]\w*)=(\S.*)?$")


def _remember_assignment(text: str, assigned: dict[str, str]) -> bool:
    """Whether the line ``text`` is a shell assignment and nothing else (not
    ``CUDA_VISIBLE_DEVICES=0 python train.py``, a command run with a variable set); a value
    that reads no variable of its own (``NET=${2}`` is the caller's choice) is kept in
    ``assigned`` for the commands after it, another forgets the name."""
    match = _ASSIGNMENT.match(text)
    if match is None:
        return False
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return False
    if words and words[0] == "export":
        words = words[1:]
    if len(words) != 1:
        return False  # a command run with the variable set in its environment
    name, _, value = words[0].partition("=")
    if "$" in value or "`" in value:
        assigned.pop(name, None)
    else:
        assigned[name] = value
    return True


def expand_variables(text: str, assigned: Mapping[str, str]) -> str:
    """``text`` with each read of a variable of ``assigned`` (``$TRAIN_FLAGS``,
    ``${TRAIN_FLAGS}``) replaced by its value, as the shell expands it before splitting the
    words; a variable the file does not set stays as written."""
    if not assigned or "$" not in text:
        return text

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        known = assigned.get(name)
        if known is None or any(c in known for c in "\"'`$"):
            return match.group(0)
        return known

    return _VARIABLE_READ.sub(value, text)


#: A plain read of a shell variable: ``$NAME`` or ``${NAME}`` (no default, no operator).
_VARIABLE_READ = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


#: A Markdown or reStructuredText code span (```python train.py``` in a table cell,
#: ````python train.py```` in reST): on a documentation page the command is its text.
_CODE_SPAN = re.compile(r"`+([^`]+)`+")
#: The HTML tags a Markdown page writes a code block or a code span with (``<pre>``,
#: ``</code>``), and its line breaks.
_HTML_CODE_TAG = re.compile(r"</?(pre|code|kbd|samp|tt|br)(\s[^>]*)?/?>", re.IGNORECASE)


def _unwrapped(commands: list[list[str]]) -> list[list[str]]:
    """The commands, each quoted word that holds a command of its own put in its place: a
    scheduler or shell runs it (``sbatch --wrap="srun python train.py --lr 1"``, ``bash -c
    'python train.py'``): the launched command is the quoted text, whose words the outer
    split left as one."""
    out: list[list[str]] = []
    for words in commands:
        inner = [
            found
            for word in words
            if " " in word
            for found in split_commands(word.partition("=")[2] if word.startswith("-") else word)
            if any(Path(w).name in _LAUNCHERS for w in found)
        ]
        out += inner or [words]
    return out


def split_commands(text: str, page: bool = False) -> list[list[str]]:
    """The words of each command a line of text holds, in order. Commands joined by ``;``,
    ``&&``, ``||``, ``|`` or ``&`` are separate runs (Person_reID-style README cells: ``python
    train.py --name x; python test.py --name x`` trains, then evaluates: two commands, each
    with its own options). ``page``: a documentation line whose code spans hold the
    commands (a table row's cell ```python train.py --fp16```): only the spans are read,
    the prose and the cell borders around them are no command's words."""
    pieces = _CODE_SPAN.findall(text) if page and "`" in text else []
    commands: list[list[str]] = []
    for piece in pieces or [text]:
        try:
            words = shlex.split(piece, comments=True)
        except ValueError:
            words = piece.split()
        current: list[str] = []
        for word in words:
            if word in _SHELL_STOPS:
                commands.append(current)
                current = []
            elif word.endswith(";"):
                # ``--name eff;``: the shell ends the command at the semicolon
                current.append(word[:-1])
                commands.append(current)
                current = []
            else:
                current.append(word)
        commands.append(current)
    return [words for words in commands if words]


def _texts(
    root: Path, docs: bool = True, pages: bool = False, files: Sequence[str] | None = None
) -> Iterator[tuple[str, str]]:
    """(path, text) of each of :func:`_files` (or of ``files``) no larger than the size
    limit that reads."""
    for path in _files(root, docs, pages) if files is None else files:
        try:
            full = root / path
            if full.stat().st_size > _SIZE_LIMIT:
                continue
            yield path, full.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue


def _files(root: Path, docs: bool = True, pages: bool = False) -> Iterator[str]:
    """The root README (its name in any case), the other Markdown pages at the root (with
    ``pages``: where commands are read), the pages of a root docs folder (with ``docs``)
    and the shell scripts below the root, sorted, tests left out."""
    try:
        names = {p.name.lower(): p.name for p in root.iterdir() if p.is_file()}
    except OSError:
        names = {}
    readme = ""
    for name in _READMES:
        if name.lower() in names:
            readme = names[name.lower()]
            yield readme
            break
    read = 0
    # the other Markdown pages at the root (SlowFast's GETTING_STARTED.md and INSTALL.md,
    # where the README sends its reader for the training command): documentation pages
    for name in sorted(names.values()) if pages else ():
        suffix = PurePosixPath(name).suffix.lower()
        if name != readme and suffix in _DOC_SUFFIXES and read < _MAX_DOCS:
            read += 1
            yield name
    for folder in _DOCS if docs else ():
        base = root / folder
        if not base.is_dir():
            continue
        for page in sorted(base.rglob("*")):
            rel = page.relative_to(root).as_posix()
            if page.suffix.lower() in _DOC_SUFFIXES and page.is_file() and read < _MAX_DOCS:
                read += 1
                yield rel
    yield from files_below(root, (".sh",), _SKIPPED_DIRS, _MAX_SCRIPTS)


#: A relative link to a documentation page in Markdown or HTML (``[text](doc/train.md)``,
#: ``<a href="doc/train.md#setup">``): the page's path, its anchor left out.
_PAGE_LINK = re.compile(
    r"""(?:\]\(|href=["'])\.?/?([\w./-]+\.(?:md|rst))(?:#[^)"'\s]*)?[)"']""", re.I
)


def _linked_pages(root: Path, readme: str) -> list[str]:
    """The documentation pages inside ``root`` that the README at ``readme`` links to, in
    the order it names them, each once."""
    try:
        full = root / readme
        if full.stat().st_size > _SIZE_LIMIT:
            return []
        text = full.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    found: list[str] = []
    for match in _PAGE_LINK.finditer(text):
        name = PurePosixPath(match.group(1)).as_posix()
        if ".." in name.split("/") or name in found:
            continue
        if (root / name).is_file():
            found.append(name)
    return found


def files_below(
    root: Path, suffixes: tuple[str, ...], skipped: frozenset[str], most: int
) -> Iterator[str]:
    """The files below ``root`` whose names end in one of ``suffixes`` (root-relative, in the
    sorted order of the walk), tests left out, folders named in ``skipped`` or hidden not
    entered; the first ``most`` of them (a repository of thousands is sampled no further).
    The one walk the shell scripts here and the YAML configurations
    (:mod:`apiscan.review.config_files`) are found by."""
    count = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in skipped and not d.startswith("."))
        for name in sorted(names):
            if not name.endswith(suffixes):
                continue
            rel = (Path(folder) / name).relative_to(root).as_posix()
            if is_test_path(rel):
                continue
            count += 1
            if count > most:
                return
            yield rel


#: A documented clone of another repository (``git clone -b pytorch_1.7 https://host/o/DCNv2.git``)
#: or a pip install straight from one (``pip install git+https://host/o/pkg.git@v1``): the name
#: of the repository is its last path part.
_CLONE = re.compile(
    r"(?:git\s+clone\b|pip3?\s+install\b[^\n]*?git\+)[^\n]*?"
    r"(?:https?://|git@)[\w.@:/~-]*?/([\w.-]+?)(?:\.git)?(?:@[\w./-]+)?(?=[\s`'\"#)]|$)",
    re.MULTILINE,
)
#: A command building a package's compiled code: its ``make.sh``, ``setup.py build develop``
#: (``install``, ``build_ext``), or an editable pip install of the checkout.
_BUILD = re.compile(
    r"make\.sh\b|setup\.py\s+(?:build|develop|install|build_ext)\b|pip3?\s+install\s+(?:-\S+\s+)*-e\b"
)
#: Lines after a clone in which its build command is looked for (``cd DCNv2`` then ``./make.sh``).
_BUILD_WINDOW = 8


def package_key(name: str) -> str:
    """A package or repository name compared whatever its case and separators: ``DCNv2``,
    ``dcn_v2`` and ``DCN-v2`` are one name."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def built_packages(root: Path | None) -> dict[str, str]:
    """:func:`package_key` of each repository the documentation clones and builds, or
    pip-installs from its git URL -> where (``README.md:54``): FairMOT-style installs of a
    compiled op (``git clone ... DCNv2 && cd DCNv2 && ./make.sh``) that the code then imports
    as a top-level package (``from dcn_v2 import DCN``). A clone with no build command after
    it (a data set, the repository itself cloned to start) is none."""
    if root is None or not root.is_dir():
        return {}
    found: dict[str, str] = {}
    for path, text in _texts(root, docs=True):
        lines = text.splitlines()
        for match in _CLONE.finditer(text):
            number = text.count("\n", 0, match.start())
            after = "\n".join(lines[number : number + _BUILD_WINDOW])
            if "git+" in match.group(0) or _BUILD.search(after):
                found.setdefault(package_key(match.group(1)), f"{path}:{number + 1}")
    return found


#: The info strings of a Python block (an untagged block counts when it parses).
_PYTHON_TAGS = frozenset({"python", "py", "python3", "pycon", ""})


def fenced_blocks(text: str) -> Iterator[tuple[str, str]]:
    """(info string, text) of each fenced code block of a Markdown page (```` ``` ```` or
    ``~~~``; a block left open runs to the end of the page)."""
    for _, tag, block in fenced_blocks_at(text):
        yield tag, block


def fenced_blocks_at(text: str) -> Iterator[tuple[int, str, str]]:
    """(line of the block's first line, info string, text) of each fenced code block of a
    Markdown page. One pass over the lines: a page of many unclosed fences costs no more
    than its length."""
    fence, tag, lines, first = "", "", [], 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not fence:
            if stripped.startswith(("```", "~~~")):
                fence = stripped[:3]
                tag = stripped[3:].strip().split(" ")[0].lower() if stripped[3:].strip() else ""
                lines, first = [], number + 1
        elif stripped.startswith(fence) and not stripped.strip(fence[0]):
            yield first, tag, "\n".join(lines)
            fence = ""
        else:
            lines.append(line)
    if fence:
        yield first, tag, "\n".join(lines)


def _unprompted(line: str) -> str:
    """A line of a doctest-style example without its ``>>> `` or ``... `` prompt."""
    body = line.lstrip()
    if body.startswith((">>> ", "... ")) or body in (">>>", "..."):
        return line[: len(line) - len(body)] + body[4:]
    return line


def documented_calls(root: Path | None) -> frozenset[str]:
    """The last names of what the Python examples of the documentation call (the root
    README's and the root and docs pages' fenced ``python`` blocks: ImageBind's
    ``model = imagebind_model.imagebind_huge(pretrained=True)``, a promptable model's
    ``predictor = Predictor(build_model(checkpoint=...))``): how a library that trains
    nothing is used, its inference path. A block that does not parse as Python (a shell
    session, output) names nothing."""
    import ast

    names: set[str] = set()
    for _, _, _, tree in _example_trees(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    names.add(func.id)
                elif isinstance(func, ast.Attribute):
                    names.add(func.attr)
    return frozenset(names)


def documented_imports(root: Path | None) -> frozenset[tuple[str, str]]:
    """(module, name) of each name the documentation's Python examples import from a module
    by name and then call (``from lib import Model, Trainer`` ... ``Trainer(diffusion,
    ...)``), or call through a module they import whole (``import loralib as lora`` ...
    ``lora.Linear(...)``, in that block or a later one of the same page): the classes and
    functions a library's users build, told by the module they come from (a same-named copy
    in another module of the library is not one of them)."""
    import ast

    out: set[tuple[str, str]] = set()
    # the modules each page's examples import whole (``import loralib as lora``), by the
    # name they bind: a later block of the same page calls through it (``lora.Linear(...)``)
    bound: dict[str, dict[str, str]] = {}
    for path, _, _, tree in _example_trees(root):
        called = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        modules = bound.setdefault(path, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if (alias.asname or alias.name) in called:
                        out.add((node.module, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    head = alias.name.partition(".")[0]
                    modules[alias.asname or head] = alias.name if alias.asname else head
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            links = [node.func.attr]
            e = node.func.value
            while isinstance(e, ast.Attribute):
                links.append(e.attr)
                e = e.value
            if isinstance(e, ast.Name) and e.id in modules:
                *inner, name = [modules[e.id], *reversed(links)]
                out.add((".".join(inner), name))
    return frozenset(out)


class DocumentedBuild(NamedTuple):
    """A call the documentation's examples make of a name they import from a module
    (``GaussianDiffusion(model, image_size = 128)``), where it is written, and the names
    imported alike whose results its arguments hold (``model = Unet(...)`` passed first:
    ``(0, "pkg", "Unet")``; a keyword by its name)."""

    module: str
    name: str
    where: str
    passed: tuple[tuple[int | str, str, str], ...]


def documented_builds(root: Path | None) -> list[DocumentedBuild]:
    """The calls of the documentation's examples to names they import from a module by
    name, in reading order, with the imported names whose results they are handed: how a
    library's users put its model together."""
    import ast

    out: list[DocumentedBuild] = []
    for path, first, _, tree in _example_trees(root):
        imported: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    imported[alias.asname or alias.name] = (node.module, alias.name)
        # a name bound to the result of an imported name's call (``model = Unet(...)``)
        held: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id in imported
            ):
                held[node.targets[0].id] = imported[node.value.func.id]
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in imported
            ):
                continue
            slots = [*enumerate(node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
            passed = tuple(
                (slot, *held[value.id])
                for slot, value in slots
                if isinstance(value, ast.Name) and value.id in held
            )
            module, name = imported[node.func.id]
            out.append(DocumentedBuild(module, name, f"{path}:{first + node.lineno - 1}", passed))
    return out


def documented_keywords(
    root: Path | None,
) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(called name, keyword) -> (the literal passed, where: ``README.md:72``) of each
    keyword argument the documentation's Python examples pass as a literal
    (``Trainer(diffusion, train_lr = 8e-5, amp = True)``): the values a library's users
    run it with, where no file of its own calls it."""
    import ast

    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for path, first, code, tree in _example_trees(root):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            for kw in node.keywords:
                if not name or kw.arg is None:
                    continue
                try:
                    ast.literal_eval(kw.value)
                except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                    continue
                where = f"{path}:{first + kw.value.lineno - 1}"
                text = ast.get_source_segment(code, kw.value) or ast.unparse(kw.value)
                out.setdefault((name, kw.arg), []).append((text, where))
    return out


def _example_trees(root: Path | None) -> Iterator[tuple[str, int, str, Any]]:
    """(page, line of the block's first line, its code, syntax tree) of each fenced ``python`` block
    of the root README and the root and docs pages that parses as Python (doctest prompts
    removed)."""
    import ast

    if root is None:
        return
    for path, text in _texts(root, docs=True, pages=True):
        if not path.lower().endswith(".md") and "." in PurePosixPath(path).name:
            continue  # shell scripts, reStructuredText: no fenced blocks
        for first, tag, block in fenced_blocks_at(text):
            if tag not in _PYTHON_TAGS:
                continue
            code = textwrap.dedent("\n".join(_unprompted(line) for line in block.splitlines()))
            try:
                yield path, first, code, ast.parse(code)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
