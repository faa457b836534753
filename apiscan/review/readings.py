"""What one review reads from the repository's files beyond the scan's records, read once.

The recipe and the model tree both need the repository's YAML configs (the recipe's rows,
the tree's ``MODEL.NAME`` pick) and its option files (basicsr-style option YAMLs, JSON
hparams); :func:`apiscan.review.build.review` creates one
:class:`Readings` and hands it to both, so the files are read once per review and no
module keeps state between reviews. It also holds the review's one table of argparse
options (:attr:`Readings.argparse`), read from the scan's value records by the names'
values, the work items and the model tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from apiscan.extract.records import FileAnalysis
from apiscan.review.commands import (
    Launch,
    commanded_config,
    documented_runs,
    launch_commands,
    launches,
)
from apiscan.review.config_files import (
    Composed,
    OptionFiles,
    YamlConfigs,
    config_settings,
    config_words,
    option_files,
    yacs_settings,
    yaml_configs,
    yaml_files,
)
from apiscan.review.names import ArgparseDefaults, dataclass_settings
from apiscan.review.sources import with_facts


class Readings:
    """The files one review reads as data, each read on first use and kept for the review."""

    def __init__(self, root: Path | None, analyses: Sequence[FileAnalysis]) -> None:
        self.root = root
        self.analyses = analyses
        #: each YAML file composed once, for both readers below
        self.composed: Composed = {}

    @cached_property
    def yaml(self) -> YamlConfigs | None:
        """The yacs YAML configs (:func:`~apiscan.review.config_files.yaml_configs`);
        shared by the recipe and the model tree: treat it as read-only."""
        return yaml_configs(self.root, self.analyses, self.composed)

    @cached_property
    def commanded_yaml(self) -> tuple[str, str] | None:
        """(path, ``file:line``) of the YAML file (of any kind, not only a yacs config) the
        documented training command names
        (:func:`~apiscan.review.commands.commanded_config`), or None: the config folder the
        run reads, beside which another launcher's Python configs are counted apart."""
        if self.root is None or not self.root.is_dir():
            return None
        yamls = set(yaml_files(self.root))
        return commanded_config(self.root, yamls) if yamls else None

    @cached_property
    def config_words(self) -> frozenset[str]:
        """Every word the YAML and JSON files write
        (:func:`~apiscan.review.config_files.config_words`): what
        :func:`~apiscan.review.config_files.config_names` asks, for the names nothing calls,
        the classes a model YAML builds and the extensions' wrappers."""
        return config_words(self.root)

    @cached_property
    def options(self) -> tuple[OptionFiles | None, OptionFiles | None]:
        """(the option YAMLs, the JSON hparams) the training reads
        (:func:`~apiscan.review.config_files.option_files`); read-only, like :attr:`yaml`."""
        return option_files(self.root, self.analyses, self.composed)

    @cached_property
    def unpassed(self) -> dict[str, dict[int, dict[str, list[object]]]]:
        """The parameters with a constant default that no call of the code passes
        (:func:`~apiscan.review.work.unpassed_flags`): they always hold the default."""
        from apiscan.review.work import unpassed_flags  # work reads these readings' tables

        return unpassed_flags(self.analyses)

    @cached_property
    def documented_runs(self) -> list[Launch]:
        """The documentation's training commands (:func:`~apiscan.review.commands.
        documented_runs`) of the scripts that run as programs (a ``__main__`` block) and of
        the console commands the packaging declares (``fairseq-train``), in reading order:
        the options the documented run passes (``--arch``, ``--optimizer``, ``--lr``)."""
        from apiscan.review.work import console_scripts  # work reads these readings' tables

        scripts: dict[str, str] = {}
        for fa, sf in with_facts(self.analyses):
            if sf.main_guard:
                scripts.update({fa.path: fa.path, **{m: fa.path for m in fa.modules}})
        scripts.update(console_scripts(self.root, self.analyses))
        return documented_runs(self.root, scripts)

    @cached_property
    def documented_run(self) -> Launch | None:
        """The documented training run: the first of :attr:`documented_runs` that passes an
        option (a getting-started page's first ``fairseq-train`` command). Its values are
        read together, as one run: an option it does not pass keeps its default, whatever
        a later command (another model's) passes."""
        return next(
            (run for run in self.documented_runs if any(w.startswith("-") for w in run.words)),
            None,
        )

    @cached_property
    def argparse(self) -> ArgparseDefaults:
        """Every argparse option of the repository's files (test files left out) with its
        default: the one table the work items, the inference numbers and the model tree
        read (:class:`~apiscan.review.names.ArgparseDefaults`)."""
        table = ArgparseDefaults(
            (fa, sf.values) for fa, sf in with_facts(self.analyses) if sf.values is not None
        )
        if self.root is not None and table.all:
            # the documented run's option values and the chosen config file's settings:
            # what the branch tests of the run read (``if config["use_synch_bn"]:``)
            commands = launch_commands(self.root)
            table.set_launched(lambda path, modules: launches(self.root, path, modules, commands))
        # and the yacs keys' values in the run (``if cfg.DATA_LOADER.MODE == "ffcv":``)
        table.settings = yacs_settings(self.yaml) | config_settings(self.options[1])
        # ... and the defaults of a config written as nested dataclasses, where no command
        # gives the setting (``if cfg.common.model_parallel_size > 1:`` with ``= 1``)
        commands = launch_commands(self.root) if self.root is not None else []
        fields = dataclass_settings(
            ((fa, sf.values) for fa, sf in with_facts(self.analyses) if sf.values is not None),
            (words for _, _, words, _ in commands),
        )
        table.settings = {**fields, **table.settings}
        return table
