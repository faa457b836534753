"""Builds the feasibility review of a repository: one scan, then each section from its facts.

The scan runs once (``scan_with_facts``: findings, with the verification results the cache
holds linked to them, plus the per-file records: classes and their lines, calls, functions, and
what the syntax says beyond torch APIs: imports, packages used, ``self.x`` assignments and
calls, model-zoo constructors, host round trips, the spans of defs), through the same cache as
``apiscan scan``, so a review after a scan re-analyses nothing. No section re-runs name
resolution: a torch API is whatever the scan's findings say it is, a repo call reaches whatever
the solver's call edges say. No section reads a source file again: the recipe and the model
tree follow values and constructions across files through the records the workers wrote
(:mod:`apiscan.review.sources`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from apiscan import __version__
from apiscan.config import path_matches
from apiscan.config import resolve as resolve_settings
from apiscan.extract.records import FileAnalysis
from apiscan.extract.shapes import RANDOM_RESIZE
from apiscan.extract.values import CallValues, DefValues, Expr
from apiscan.model import ScanResult
from apiscan.pipeline import ScanOptions, scan_with_facts
from apiscan.program.index import ClassTable, Hierarchy
from apiscan.resolve.torch_api import load_torch_api
from apiscan.review import effort, gaps, structure
from apiscan.review.commands import NUMBER, Launch, documented_calls, documented_imports
from apiscan.review.config_files import OptionFiles, YamlConfigs, config_names, framework_keeps
from apiscan.review.configs import DRAWN_SIZE, MULTI_SCALE, config_types
from apiscan.review.inference import (
    DECODE_SYNC,
    GROWING_CACHE,
    PER_IMAGE_PAD,
    default_settings,
    inference_steps,
)
from apiscan.review.leftout import documented_definitions, left_out
from apiscan.review.masked import DEBUG_CHECKS, METRICS, REDUCTION, masked_selections
from apiscan.review.model import (
    WORK_KINDS,
    ModuleNode,
    RecipeItem,
    Review,
    TopModel,
    Where,
    WorkItem,
)
from apiscan.review.names import ArgparseDefaults
from apiscan.review.readings import Readings
from apiscan.review.registry import registry_choices
from apiscan.review.roles import (
    HAND_DRAWN,
    TORCH_FRAMEWORKS,
    TRAINING_STEP,
    evaluation_file,
    train_switch,
    trains,
)
from apiscan.review.sources import fits_with, is_test_path, place, self_tests, with_facts
from apiscan.review.trainers import ADAPTER_ROW, trainer_files, trainer_recipe
from apiscan.review.work import (
    ANCILLARY_FILES,
    TEACHER_WHAT,
    Ancillary,
    Reach,
    alternative_places,
    apart_called,
    apart_only,
    backend_wrappers,
    bucketing_iterators,
    configured_weights,
    data_pipeline_sites,
    defaulted_branches,
    defaulted_flags,
    defaulted_places,
    documented_uncalled,
    fixed_size_inputs,
    framework_bases,
    framework_item,
    framework_zoo_items,
    library_model_bases,
    name_values,
    optional_kernels,
    package_trials,
    padded_batches,
    padding_collators,
    reached_work,
    rectangular_batches,
    skipped_spans,
    string_choices,
    switched_off_branch,
    switched_off_named,
    switched_off_spans,
    trained_reach,
    tree_classes,
    unbuilt_extensions,
    uncalled_methods,
    unpicked_imports,
    unreached,
    unrun_draws,
    vendored_copies,
    within,
    work_items,
)
from apiscan.rewrite.idioms import AMP_LOSS_SCALER


def scan_root(path: str | Path) -> Path:
    """The directory findings are relative to (a single file's parent), as discovery has it."""
    root = Path(path).resolve()
    return root.parent if root.is_file() else root


def build_review(
    path: str,
    ms_version: str | None = None,
    excludes: tuple[str, ...] = (),
    jobs: int | None = None,
    progress: bool = False,
) -> Review:
    """Scan ``path`` without the cache and assemble its review (raises what the scan raises
    for usage errors: ``DiscoveryError``, ``UnknownVersionError``). ``excludes``, ``jobs``
    and ``progress`` mean what they mean for the scan; :func:`review` takes every option."""
    options = ScanOptions(
        path,
        ms_version=ms_version,
        cache_dir=None,
        excludes=excludes,
        jobs=jobs,
        progress=progress,
    )
    return review(options)


def review(options: ScanOptions) -> Review:
    """Scan with ``options`` (cache, configuration, verification results included) and
    assemble the review of what it found."""
    from apiscan.review.configs import PREFIX as CONFIG

    # the one section with its own module
    from apiscan.review.recipe import branch_reader, extract_recipe

    result, analyses = scan_with_facts(options)
    root = scan_root(options.path)
    api = load_torch_api()
    hierarchy = Hierarchy(analyses, ClassTable(analyses, api))
    # what one review reads beyond the scan's records, read once: the YAML configs (the tree
    # and the recipe) and the argparse table (the names' values, the work items, the tree)
    readings = Readings(root, analyses)
    names = name_values(analyses, readings.argparse)
    # ... and those that hand the loop to a library's trainer (``transformers.Trainer``)
    library_trained = trainer_files(analyses)
    training = training_files(result) | library_trained
    ancillary = Ancillary(
        analyses,
        resolve_settings(options.path, {})["review-ancillary"],
        keep=training | entry_points(result, analyses),
        root=root,
        readings=readings,
    )
    # a vendored copy's own training (DINOv2's train/ beside Depth-Anything's inference
    # code) does not make this repository train
    training = frozenset(p for p in training if not ancillary.vendored(p))
    modules = structure.module_nodes(result, analyses, hierarchy, api)
    # the tree is read before the branches no config selects are counted apart: it still
    # shows every alternative (``FCOSModule or RetinaNetModule or RPNModule``)
    # the string-keyed branches the defaults take, as the work items read them: a builder's
    # branch they leave out is no alternative of a part (MiDaS's six encoders)
    choices = string_choices(analyses, ancillary, readings.argparse)
    unchosen = choices[0]
    not_built: dict[str, tuple[str, str]] = {}  # the parts the chosen config's tests skip
    built_under: dict[str, tuple[str, str]] = {}  # the parts built under tests it passes
    injected: dict[str, set[str]] = {}  # the parts constructions hand a module class
    not_picked: set[str] = set()  # the classes a pick by a default value leaves out
    tables: dict[str, set[str]] = {}  # each registry's registered defs
    # (class, part) -> where a construction hands the class that part
    injected_at: dict[tuple[str, str], set[tuple[str, int]]] = {}
    tops = structure.top_models(
        analyses,
        modules,
        ancillary.why,
        hierarchy,
        root,
        readings,
        not_built,
        unchosen,
        injected,
        not_picked,
        built_under,
        tables,
        injected_at=injected_at,
    )
    # the losses, optimizers and schedules a command-line option picks by name that the run
    # does not (the documented command's ``--criterion``, else the default): what other
    # commands build, alternatives as the registry's other models are
    run = readings.documented_run
    chosen: list[str] = []  # the entries those options pick: built by name
    for choice in registry_choices(analyses, [run] if run is not None else [], readings.argparse):
        picks = [d for name, _, d in choice.registered if d and name == choice.chosen]
        # an entry the picked one derives from is built with it (a task subclassing the
        # registered translation task runs its dataset loading)
        not_picked.update(
            dotted
            for _, _, dotted in choice.left_out()
            if dotted and not _derived_by(hierarchy, dotted, picks)
        )
        chosen += picks
    # the classes a dict config picks from a registry by ``type=`` (OpenMMLab's
    # ``backbone=dict(type='mit_b1')``, the config the run loads): built by name; the
    # registry's other entries are another config's, alternatives as a registry's are
    config_picks = _config_type_picks(analyses, root, tables, hierarchy)
    if config_picks is not None:
        built, others = config_picks
        not_picked.update(others)
        chosen += [d for d in built if d not in chosen]
    tops = _built_by_picked(tops, analyses, hierarchy, not_picked)
    # the code only the entries a default key leaves out of a table reach: their weights
    # downloads are no work item (the recipe drops their rows the same way)
    # the functions nothing runs: no recipe rows, no effort for their gaps
    # what the documentation's Python examples import from the package and call (a
    # library's ``from lib import Model, Trainer`` ... ``Trainer(model, ...)``, its only
    # training run) is how its users run it: reached, though no file of its own calls it
    shown = documented_definitions(analyses, documented_imports(root))
    uncalled = documented_uncalled(analyses, result, root)
    dead: dict[str, list[tuple[int, int]]] = {}
    for (path, _), span in sorted(uncalled.items()):
        dead.setdefault(path, []).append(span)
    # the models a pick selects stay built though only the ones it leaves out name them in
    # code (an unpicked wrapper building the picked network as its backbone)
    picked = [
        t.cls
        for t in tops
        if t.cls not in not_picked
        and t.parts
        and t.parts[0][0] == "selected by"
        and not t.parts[0][1].startswith("an alt")
    ]
    # ... and the loss an option picks by name, though only the losses it leaves out name
    # its class in code (their base class)
    picked += [c for c in chosen if c not in not_picked]
    # ... and the other entries of a registry the config picks from, which the pick leaves
    # in (the proposal generator a builder's ``.get(name)`` picks, not a top model of its
    # own): built by name, whatever left-out code subclasses them
    elsewhere_defs = {
        f"{m}.{c.qualname}"
        for fa in analyses
        if ancillary.apart(fa.path)
        for m in fa.modules
        for c in fa.classes
    }
    picked += sorted(_registry_picks(tables, not_picked, elsewhere_defs) - set(picked))
    # ... and every class the chosen config builds by a dotted ``target`` of any section
    # (an OmegaConf model config's ``cond_stage_config.target``: the text encoder the top
    # model instantiates from its params), though no code names it outside a ``__main__``
    # try-out: built by the run, never an alternative
    configured = _chosen_targets(readings.options[0], hierarchy)
    not_picked.difference_update(configured)
    picked += sorted(configured - set(picked))
    # ... and a class only the other configs name by a target (another model's first stage,
    # conditioning encoder or loss) is theirs: an alternative, with what only it reaches
    not_picked.update(_other_targets(readings.options[0], hierarchy, configured) - set(picked))
    options = names.argparse.values()
    # the functions every call of which the defaults switch off: no effort for their gaps,
    # no weights downloaded by them; and the branches inside functions the run's values
    # (options, the config's keys, what every caller passes) never take
    switched_off, named = switched_off_named(analyses, options, ancillary.apart)
    skipped = skipped_spans(analyses, options, named) if training else {}
    # the run's own branches: a sibling training script priced as a delta (a fine-tuning
    # variant passing ``simmim=True`` to the shared loader builder) is another run, so the
    # branches only its calls switch on (its data pipeline, its loss) give no row of this
    # run's recipe, though their code is priced with the variant
    skipped_run = skipped
    switched_off_run = switched_off
    if training and ancillary.variants():
        switched_off_run, named_run = switched_off_named(analyses, options, ancillary.why)
        skipped_run = skipped_spans(analyses, options, named_run)
    ported = [fa for fa in analyses if not is_test_path(fa.path)]

    def left_now(
        branches: bool = True, apart: Callable[[str], object] | None = None
    ) -> dict[str, list[tuple[int, int]]]:
        """What the current picks leave out (read again as the picks below shrink), with the
        branches the run's values skip unless ``branches`` is false, and the files ``apart``
        counts apart (default: the review's)."""
        return left_out(
            ported,
            hierarchy,
            not_picked,
            picked,
            dead=dead,
            defaults=readings.argparse.values(),
            skipped=skipped if branches else None,
            apart=apart or ancillary.apart,
        )

    left = left_now()
    # a registry's pick whose builder only left-out code calls (a segmentation head built
    # only by the models the config does not pick, a keypoint head built only after the
    # config's ``KEYPOINT_ON`` guard returns): another config's part, an alternative too
    for _ in range(4):
        unpicked = _picks_left_out(tops, picked, left)
        if not unpicked:
            break
        tops = [_as_alternative(t) if t.cls in unpicked else t for t in tops]
        not_picked.update(unpicked)
        picked = [c for c in picked if c not in unpicked]
        left = left_now()
    tops = _without_left_copies(tops, left)
    ancillary.count_apart(
        unreached(root, analyses, tops, modules, ancillary.keep, not_built, built_under)
    )
    # the repository's own copy of synchronized BatchNorm or a data-parallel wrapper: the
    # port takes MindSpore's built-in (a work item says so), not a port of the copy
    ancillary.count_apart(vendored_copies(analyses))
    # an extension built at import that only classes nothing builds call: never run
    ancillary.count_apart(unbuilt_extensions(result, analyses, ancillary, readings.config_words))
    # a compiled op every user imports with a fallback (``except ImportError: Op = None``):
    # an acceleration the code runs without
    ancillary.count_apart(optional_kernels(analyses, ancillary, root))
    # an implementation imported only in a branch the run's values skip (a detector picked
    # by a constructor's default argument): an alternative, counted apart
    unpicked_files = unpicked_imports(
        analyses,
        ancillary,
        branch_reader(
            result, analyses, root, hierarchy, ancillary.other_recipe, readings, uncalled
        ),
    )
    ancillary.count_apart(unpicked_files)
    tops = _untrained(tops, analyses, modules, training)
    flags: dict[str, dict[int, dict[str, list[object]]]] = {}
    if training:
        # a branch on a parameter every call leaves at its default (a forward's ``if
        # augment:`` test-time augmentation the training call never switches on) does not
        # run: its API uses and dynamic shapes are no work of the port
        flags = defaulted_flags(analyses, options, named, ancillary.why, set(uncalled))
        off = defaulted_branches(result.findings, analyses, flags)
        # ... and the branches the run's values skip (an ``elif pooler_type == "ROIPool":``
        # after the branch the config's pooler type takes)
        # (its API uses and dynamic shapes alike)
        off |= _in_spans(((f.path, f.span.line) for f in result.findings), skipped)
        if off:
            result = replace(
                result,
                findings=tuple(f for f in result.findings if (f.path, f.span.line) not in off),
            )

    # the places in branches the parameters' told values never take (none without training)
    def unrun(places: Iterable[tuple[str, int]]) -> frozenset[tuple[str, int]]:
        places = list(places)
        return defaulted_places(places, analyses, flags) | _in_spans(places, skipped)

    # the functions whose masked selections are only reduced (a loss over the valid pixels)
    # or only read on the host (metrics a loss returns): no dynamic-shape rewrite
    masked = masked_selections(analyses, result.shape_findings)
    # the classes and functions nothing builds or calls, less those a config file names (a
    # model YAML's layer, built by eval or a lookup): their code is not reached
    configured_names = config_names(readings.config_words, (name for _, name in uncalled))
    # where nothing trains, what the documentation's Python examples call (a README's
    # ``model = lib.build_huge(pretrained=True)``) is how the library's users reach the model
    documented = documented_calls(root) if not training else frozenset()
    unbuilt = frozenset(
        k for k in uncalled if k[1] not in configured_names and k[1] not in documented
    )
    # the classes and functions of ported files that only files counted apart use (an
    # export script's wrappers): counted apart with those files; and those only code not
    # reached uses (a loss's helpers beside the losses no config picks): not reached either
    dead_spans = {k: uncalled[k] for k in unbuilt}
    # where nothing trains, the examples, demos and notebooks are how the library is used:
    # what they call of its ported modules (a sampler, a pipeline) is its inference path
    reached_by = ancillary.apart if training else _product_users(ancillary.apart)
    # ... and the branches the options' defaults never take (a data pipeline only a flag
    # off by default builds): what only they use is not reached either
    # (the branches themselves stay where they are: a work item in one is noted as off by
    # default, not dropped)
    branches = switched_off_spans(analyses, options, named, names.argparse.unset())
    # where the documentation's examples build the library's own classes (its README's
    # ``Model(...)``, ``Trainer(model, ...)``), a module's ``__main__`` self-test trying out
    # another copy (a variant file's ``Model``) is no run of it: what only self-tests reach
    # is an alternative, not priced
    tried = package_trials(analyses, shown) if shown else {}
    branches = {**branches, **tried}
    off_spans = {**dead_spans, **branches}
    tried_paths = {p for p, _ in tried}

    def reaching(
        by: Callable[[str], str],
        spans: Mapping[tuple[str, str], tuple[int, int]],
        kept: Collection[str] = frozenset(),
    ) -> Reach:
        """:func:`apart_only` with what the documentation's examples build and the
        self-tests of their packages."""
        return apart_only(analyses, by, spans, kept, shown, tried_paths)

    reach = _without_spans(reaching(reached_by, off_spans), branches)
    if training and _trained_only_apart(result, ancillary, reach.exporting, shown):
        # a library's own trainer that only its examples, notebooks and demos run (a GPT
        # and its ``Trainer``, driven by a notebook and a side project's script): they are
        # how the library is used, as where nothing trains
        reached_by = _product_users(ancillary.apart, LIBRARY_USERS)
        reach = _without_spans(reaching(reached_by, off_spans), branches)
    # a class running the model through other frameworks' runtimes (a multi-backend
    # inference wrapper) goes with the exports and tools that use it: not priced
    for key, (why, span) in backend_wrappers(analyses, ancillary.why).items():
        reach.exporting.setdefault(key, why)
        reach.spans.setdefault(key, span)
    found = (name for _, name in (*reach.exporting, *reach.unreached))
    configured_names = config_names(readings.config_words, found)
    # where nothing trains, the top models are the library's product (CLIP's model, which
    # only its hub entry, notebooks and tests load): what is ported, not an export's code
    if not training:
        configured_names = frozenset(configured_names) | {
            t.cls.rpartition(".")[2] for t in tops if t.cls
        }
        # ... and what its modules list as their public API (``__all__``: a ``load`` building
        # the model from a state dict, a ``tokenize`` feeding it): the inference path the
        # library's users call, though only its notebooks call it here
        configured_names |= public_names(analyses, ancillary.apart) | documented
    if configured_names:  # those a config file names may be built: reached, as their users
        reach = _without_spans(reaching(reached_by, off_spans, configured_names), branches)
    unbuilt |= reach.unreached
    # what only the branches the defaults skip reach (a loss an untaken ``elif`` of the
    # config's type calls) is another run's: not priced, and told as an alternative the
    # run's values do not pick rather than code nothing reaches
    switched = frozenset()
    if branches and reach.unreached:
        plain = reaching(reached_by, dead_spans, configured_names)
        switched = reach.unreached - plain.unreached
    # the methods of reached classes that only that code calls (an inverse transform only
    # an unreached vocoder helper runs): their dynamic shapes and gaps are not priced
    unbuilt |= frozenset(uncalled_methods(analyses, unbuilt, reached_by))
    exporting = reach.exporting
    if training:
        # a model built only by functions nothing runs (a model zoo's ``DPN26()`` builders
        # and ``test()`` try-outs beside the one network the training script builds) is no
        # top model, and such a function builds no copy of one
        tops = _live_tops(tops, unbuilt)
    # the module classes a pick by the run's config leaves out (a registry's other models,
    # an option file's networks this run does not build): alternatives, not work
    picked_out = frozenset(
        (fa.path, d.qual)
        for fa in analyses
        if fa.syntax is not None and fa.syntax.values is not None
        for d in fa.syntax.values.defs
        if d.owner < 0
        and (
            (d.is_class and any(f"{m}.{d.qual}" in not_picked for m in fa.modules))
            # and the module-level defs only they reach (an unpicked transformer's blocks)
            or ("." not in d.qual and (d.line, d.end_line) in left.get(fa.path, ()))
        )
    )
    # work in code the training never reaches is no work: the places the effort leaves
    # unpriced (where nothing trains, what runs is a library's API, its demos and tools:
    # nothing to tell reached from not)
    runs = reach.runs if training else None
    alternative = alternative_places(tops, analyses, modules, left)
    # a checkpoint's loader called only in a branch the run's values skip (a resume off by
    # default) is still the format to convert: its places are told by the picks alone
    resumed = alternative
    if skipped:
        resumed = alternative_places(tops, analyses, modules, left_now(branches=False))
    # a compiled op that only the alternatives and evaluation code call (a rotated-box IoU
    # op of the unpicked rotated detectors and of a rotated-box evaluator): no op of the
    # network the run trains, counted apart with the alternatives
    op_alternative = alternative
    if any(evaluation_file(fa.path) for fa in ported) and (not_picked or skipped):
        op_alternative = alternative_places(
            tops,
            analyses,
            modules,
            left_now(apart=lambda path: ancillary.apart(path) or evaluation_file(path)),
        )
    items = work_items(
        result,
        analyses,
        ancillary,
        names,
        root,
        alternative,
        choices,
        tree_classes(tops, modules, analyses),
        switched_off,
        masked,
        runs,
        readings.config_words,
        op_alternative,
    )
    items = _run_places(items, unrun)
    # a host round trip only a switch off by default runs (an oracle evaluation's copies
    # under ``if opt.eval_oracle:``) costs the run nothing
    items = _switched_off_trips(items, analyses, readings.argparse.values())
    framework = framework_item(readings.options[0], analyses)
    items = items + ((framework,) if framework is not None else ())
    items = items + tuple(framework_zoo_items(readings.options[0], analyses))
    if runs is not None:
        items = reached_work(items, runs)
    # a work item's places in code only the models the config leaves out run (an unpicked
    # model's state updated in its forward) are that alternative's, not the run's work;
    # the items that list the alternatives' own ops apart keep theirs
    items = (
        *reached_work(
            [i for i in items if i.kind not in effort.APART_KINDS and i.kind != "checkpoint"],
            lambda path, line: not alternative(Where(path, line)),
        ),
        *reached_work(
            [i for i in items if i.kind == "checkpoint"],
            lambda path, line: not resumed(Where(path, line)),
        ),
        *(i for i in items if i.kind in effort.APART_KINDS),
    )
    # collectives where the repository's own process-group setup is never run (a training
    # on one device, the setup helper unreached): they never run, no work
    items = _single_process(items, result, unbuilt, ancillary.why)
    # ... and an item whose places left after those are all in branches the run never takes
    # (a tensor-parallel library reached only under a module flag the skipped set-up sets)
    items = _sorted_work(_run_places(items, unrun))
    # the gaps a port meets: not those of files counted apart (a module nothing imports, a
    # demo) or of code nothing reaches, nor a data transform's torch layers, which its work
    # item rewrites
    in_data = data_pipeline_sites(items)

    def network_covered(f: Any) -> bool:
        return (
            in_data(f)
            or bool(ancillary.why(f.path))
            or (f.path, f.function.partition(".")[0]) in unbuilt
            or (f.path, ".".join(f.function.split(".")[:2])) in unbuilt
            or (f.path, f.function.partition(".")[0]) in picked_out
            or within(exporting, f.path, f.function)
        )

    network_gaps = gaps.network_gaps(
        result, gaps.load_suggester(), names=names, covered=network_covered
    )
    # the recipe reads the same reachability answer as the effort and the work items: a
    # definition only unreached code uses (a loss's helpers beside the loss nothing builds)
    # gives no row, as one nothing calls gives none; one only files counted apart use
    # gives none either where something trains
    not_run = {**uncalled, **{k: reach.spans[k] for k in reach.unreached}}
    if training:  # what only files counted apart use is theirs, not the training's
        not_run.update((k, reach.spans[k]) for k in exporting)
        # ... and what only the alternatives the run's config leaves out reach (a head
        # built only after a guard the config returns from): another config's rows
        not_run.update(_left_defs(analyses, left))
        # ... and the classes and functions every use of which a string-keyed choice the
        # defaults take leaves out (a dataset class built only under ``elif args.dataset ==
        # 'cityscapes':``): another run's, its composition no row of this one
        # (and the methods only such branches, or the branches the run's values skip, hand
        # on: a loss builder's ``elif mode == 'focal': return self.FocalLoss``)
        # (what only those defs use in turn, a loader builder's ``build_dataset`` and its
        # ``build_transform``, is left out with them)
        chosen_out: dict[tuple[str, str], tuple[int, int]] = {}
        for _ in range(4):
            spans: dict[str, list[tuple[int, int]]] = {}
            for (path, _name), span in chosen_out.items():
                spans.setdefault(path, []).append(span)
            more = _chosen_out_defs(
                analyses,
                lambda path, line, spans=spans: (
                    bool(unchosen(path, line))
                    or any(a <= line <= z for a, z in skipped_run.get(path, ()))
                    or any(a <= line <= z for a, z in spans.get(path, ()))
                ),
            )
            if more.keys() <= chosen_out.keys():
                break
            chosen_out.update(more)
        not_run.update(chosen_out)
        # ... and what every configuration the documented commands load replaces in the
        # base they extend (an experiment's own ``get_data_loader`` and ``max_epoch = 80``
        # over its base's): the base's values never run
        not_run.update(_overridden_by_configs(analyses, hierarchy, ancillary.configs))
        # ... and the branches the run's values never take (``elif loss_type == "diou":``
        # with the config's loss type ``smooth_l1``): another config's rows
        not_run.update(
            ((path, f"<branch at {a}>"), (a, b))
            for path, spans in skipped_run.items()
            for a, b in spans
        )
    taken: list[Callable[[str, int], bool | None]] = []
    argument_values: list[Callable[[str, int, Expr], str | None]] = []
    recipe = extract_recipe(
        result,
        analyses,
        root,
        hierarchy,
        ancillary.other_recipe,
        readings,
        not_run,
        not_picked,
        taken,
        picked,
        ancillary.configs,
        tops,
        argument_values,
    )
    # the rows of a file whose registered classes the run picks none of (another model's
    # config dataclass and its fp16 field, another task's loss weights) are that
    # alternative's, not the run's
    elsewhere = alternative_files(analyses, not_picked)
    recipe = type(recipe)(i for i in recipe if i.where.path not in elsewhere)
    # the parts a constructor builds per branch, as the run's values (the YAML the entry
    # loads included) take them: the tree follows the values the recipe reads
    for branch_taken in taken:
        tops = structure.configured_parts(tops, analyses, branch_taken)
    if taken:
        items = _taken_work(items, taken)
        # the classes a constructor picks by a local bound per branch, in the branches the
        # run skips: not built, so neither their work nor their place in the tree is the run's
        picked_out_classes = branch_picked_out(analyses, modules, taken, ancillary.why)
        if picked_out_classes:
            built_parts = branch_picked_parts(analyses, modules, taken, ancillary.why)
            items, tops, modules = _without_classes(
                items, tops, modules, picked_out_classes, built_parts
            )
            # ... nor their recipe rows (the weights a left-out block sets in its
            # constructor)
            recipe = type(recipe)(
                i
                for i in recipe
                if not any(
                    i.where.path == path and first <= i.where.line <= last
                    for path, first, last, _ in picked_out_classes.values()
                )
            )
            # alternatives, as a pick by the run's config leaves out: not priced
            picked_out |= {(path, qual) for path, _, _, qual in picked_out_classes.values()}
            network_gaps = gaps.network_gaps(
                result, gaps.load_suggester(), names=names, covered=network_covered
            )
    recipe = staged(recipe, ancillary.stages)
    # a script that builds the repository's own optimizer class trains too (MAE's
    # main_linprobe.py: lars.LARS, its backward pass in another file)
    training |= {
        item.where.path
        for item in recipe
        if item.category == "optimizer"
        and not item.name.startswith(("argparse", "click ", CONFIG))
        and not ancillary.vendored(item.where.path)
    }
    # a model that computes its losses with no optimizer or backward pass in the repository
    # is trained by a framework's trainer (DeFCN's FCOS.losses, run by cvpods): not inference
    losses = loss_uses(result, analyses, ancillary) if not training else ()
    # ... but only where something says a trainer runs them: losses merely defined or
    # computed as diagnostics beside an inference path (a diffusion model's training_losses
    # nothing calls, a renderer's auxiliary losses) train nothing
    losses = losses if losses and trainer_signs(analyses, ancillary) else ()
    # a dict config's optimizer: a framework's trainer trains with it
    configured = any(i.category == "optimizer" and i.name.startswith(CONFIG) for i in recipe)
    inference = not training and not losses and not configured
    if losses:
        recipe += (_external_training(losses),)
    if inference:
        # nothing is trained: what runs only while training (under ``if self.training:``)
        # never runs, so it is no gap, no dynamic shape and no work item of the port
        branches = training_branches(analyses)
        if branches:

            def trained(path: str, line: int) -> bool:
                return any(a <= line <= z for a, z in branches.get(path, ()))

            result = replace(
                result,
                findings=tuple(f for f in result.findings if not trained(f.path, f.span.line)),
            )
            network_gaps = gaps.network_gaps(
                result,
                gaps.load_suggester(),
                names=names,
                # where the code builds its models, what only code counted apart uses (an
                # evaluation classifier beside a generator) is no gap, as the effort says
                covered=network_covered
                if tops
                else lambda f: in_data(f) or bool(ancillary.why(f.path)),
            )
            items = tuple(i for i in items if not all(trained(w.path, w.line) for w in i.where))
        # nothing is trained: transforms are the inference path's preprocessing, not
        # augmentation (DPT's keep-aspect resize to a multiple of 32, its mean and std); and
        # where a checkpoint is loaded, the weights come from it, not from the initialisers
        # A composition or a pipeline of statements is the path an input takes; a lone
        # functional call (``to_pil_image`` inside a resizer's helper) is one of its steps.
        loads = any(item.kind == "checkpoint" for item in items)
        # a loss in a method named for training (a diffusion model's ``training_losses``)
        # is the training this repository does not ship: no row, not even a score
        unshipped = {
            (f.path, f.span.line)
            for f in result.api_findings
            if _TRAINING_METHOD.search(f.function.rpartition(".")[2])
        }
        recipe = tuple(
            item
            for item in recipe
            if not (item.category == "loss" and (item.where.path, item.where.line) in unshipped)
        )
        recipe = tuple(
            replace(item, category="preprocessing")
            if item.category == "augmentation"
            else _scoring(item)
            if item.category == "loss"
            else item
            for item in recipe
            if not (loads and item.category == "init")
            and not (item.category == "augmentation" and not item.name.startswith(_PATHS))
        )
        # and the steps written as code around the network (a resize to the longer side,
        # normalisation by buffers, padding, upscaled and thresholded masks)
        recipe += inference_steps(analyses, recipe, lambda path: bool(ancillary.why(path)), names)
        # and the settings the top models run with by default (a matcher's thresholds)
        tree = tree_classes(tops, modules, analyses)
        recipe += default_settings(
            analyses,
            lambda path: bool(ancillary.why(path)),
            {cls for cls, inside in tree.items() if inside} if any(tree.values()) else None,
            readings.argparse,
        )
        # the inference path's precision is what the port runs in
        recipe = tuple(
            replace(item, inference_precision=False) if item.category == "amp" else item
            for item in recipe
        )
        # autocast casts the network for inference: no loss to scale
        network_gaps = tuple(
            replace(gap, suggestion=gap.suggestion.replace(AMP_LOSS_SCALER, INFERENCE_AMP))
            for gap in network_gaps
        )
    else:  # an evaluation or demo script's settings and transforms are not the recipe
        scripts = _scripts(analyses)
        launchers = training | {p for p in ancillary.keep if not _side_tool(p)}
        # a module the training imports runs as its library, whatever its own ``__main__``
        # demo does (a dataset file showing a few samples): its transforms are the training's
        launchers |= {p for p in trained_reach(analyses, training) if not _side_tool(p)}
        files = {fa.path: fa for fa in analyses if not fa.errors}
        recipe = tuple(
            item
            for item in recipe
            # a script that trains nothing preprocesses (eval_knn.py); one named for
            # evaluation or a tool (validate.py, tools/eval.py, clean_checkpoint.py) sets its
            # own batch size, AMP and EMA flags too: not the training recipe's. A launcher
            # (tools/train.py: the optimizer and the backward pass live elsewhere) is kept,
            # as is an entry point whose calls reach the step and whose name says no tool
            # (ConvNeXt's main.py: the backward pass in engine.py).
            # (a dataset's own draws are its training samples' wherever the module has a
            # ``__main__`` demo: YOLOv4's dataset.py)
            if not (
                _evaluation_script(scripts, item.where.path, launchers)
                and (item.category == "augmentation" or _side_tool(item.where.path))
                and item.note != HAND_DRAWN
            )
            and not (
                item.category == "augmentation"
                and _evaluation_time(item, files.get(item.where.path))
            )
            # a cast made for inference, measuring or a checkpoint: not how the model trains
            and not (item.category == "amp" and item.inference_precision)
        )
    # examples are the recipe only when the repository trains nowhere else (fairseq's
    # examples/ hold dozens of research projects beside fairseq_cli/train.py)
    trained_here = any(ancillary.why(p) != "examples" for p in training)
    recipe = tuple(
        item
        for item in recipe
        if _recipe_file(ancillary.why(item.where.path))
        and not (trained_here and ancillary.why(item.where.path) == "examples")
        # a notebook is the recipe only when it is the training (transformer_sizing.ipynb
        # sizes; a notebook beside a training module is counted apart, rows and all): one
        # counted apart in a folder of its own (notebooks/, examples/) is no entry either
        and not (item.where.path.endswith(".ipynb") and ancillary.why(item.where.path))
    )
    recipe = _counterpart_notes(recipe, result)
    # a row built in a branch the parameters' told values never take is not the run's
    skipped = unrun((r.where.path, r.where.line) for r in recipe)
    recipe = tuple(r for r in recipe if (r.where.path, r.where.line) not in skipped)
    # a framework's training loads its weights where the option file says, not where an
    # inference helper does
    by_path = {fa.path: fa for fa in analyses}

    def off(where: Where) -> str:
        fa = by_path.get(where.path)
        own = readings.argparse.values_in(where.path)  # the script's own options first
        found = switched_off_branch(fa, where.line, own, every=True) if fa else ""
        if found or fa is None or fa.syntax is None:
            return found
        # the load's function every call of which the defaults switch off (Swin's
        # ``load_checkpoint``, called under ``if config.MODEL.RESUME:``, empty by default)
        around = [
            (name, first, last)
            for name, first, last in fa.syntax.spans
            if first <= where.line <= last
        ]
        if around:
            name = max(around, key=lambda s: s[1])[0]
            if (where.path, name) in switched_off:
                return f"only by {name}(), every call of which is under a test off by default"
        return ""

    recipe += work_recipe(
        items,
        framework_keeps(readings.options[0], analyses),
        off,
        ancillary.other_recipe,
        training,
    )
    # a script with a recipe of its own (a linear evaluation run on the trained weights
    # after the training) writes its own checkpoint, no row of this training's
    own = frozenset(p for p in training if not ancillary.other_recipe(p))
    writes = checkpoint_writes(result, by_path, own, ancillary.why, readings.argparse)
    recipe += staged(writes, ancillary.stages)
    # the training arguments a library's trainer runs with (the documented command's)
    recipe += trainer_recipe(
        root,
        analyses,
        [p for p in library_trained if not ancillary.why(p)],
        argument_values[0] if argument_values else None,
    )
    # the initialisers of an architecture its builder then fills with pretrained weights
    recipe = _overwritten_inits(recipe, items, analyses)
    # the backbone a framework builds from the config, with the weights the config names
    items = _sorted_work(
        items
        + config_backbones(recipe, CONFIG)
        + growing_caches(recipe)
        + decode_syncs(recipe)
        + zoo_parts(
            [t for t in tops if not ancillary.why(t.where.path) and t.cls not in not_picked],
            items,
        )
    )
    # the weights the run's config loads in another framework's format (a pickled dict of
    # numpy arrays): a conversion of its own, beside the checkpoint loading it goes through
    if training:
        items = _sorted_work(items + tuple(configured_weights(_run_settings(readings.yaml))))
    # a model built from its YAML's layers (yolov7's Model: parse_model over the layer
    # names, each built by eval) has the module classes the model YAMLs name as its parts
    yaml_built = [
        m.cls
        for m in tops
        if any(name == "parts" and part.startswith(structure.YAML_PARTS) for name, part in m.parts)
    ]
    if yaml_built:
        layers = config_names(readings.config_words, {m.cls.rpartition(".")[2] for m in modules})
        for cls in yaml_built:
            injected.setdefault(cls, set()).update(
                m.cls for m in modules if m.cls.rpartition(".")[2] in layers and m.cls != cls
            )
    if training or tops:
        # the classes nothing on the run's path builds (dead, only dead code's, or only
        # files counted apart use them): no network rows, as they are no work; where
        # nothing trains, the models the code builds are the run's path (an inference
        # repository's evaluation-only classifier, which only its scripts use, is no part
        # of what is ported); what only a branch the defaults skip, or only an unpicked
        # alternative, reaches stays a row: the tree lists it with the alternatives
        modules = _unbuilt_classes_out(
            modules,
            tops,
            frozenset(dead_spans) | frozenset(exporting),
            unbuilt,
            ancillary,
            alternatives=switched | picked_out,
        )
    # the framework classes the repository's network classes extend (a detector's RPN and
    # RoI heads subclassed from detectron2's): the framework's code, to port with the model
    items = _sorted_work(
        items
        + tuple(
            framework_bases(
                modules, analyses, ancillary, not_picked, picked_out | switched | unbuilt
            )
        )
        + tuple(
            library_model_bases(
                modules, analyses, ancillary, not_picked, picked_out | switched | unbuilt
            )
        )
    )
    # a part handed to a class only in left-out code (an unpicked builder's backbone handed
    # to the same wrapper the picked builder uses) is no part of the class the run builds
    injected = _handed_where_run(injected, injected_at, left)
    # a top built only in a branch the run's values skip (``if args.model == 'pointnet':
    # model = PointNet(args)`` beside the default's ``DGCNN(args)``) is one of the
    # alternatives: told so in the tree, after the models the run builds
    # ... and so is a class of a file only such a skipped import brings (a block a helper
    # builds when ``if self.non_local:`` holds, the helper imported in that branch)
    others = not_picked | _classes_in(modules, picked_out | switched)
    others |= {m.cls for m in modules if m.where.path in unpicked_files}
    # (one the tree already calls an alternative keeps its place: an option file's other
    # network stays before a model only an inference script builds)
    if any(t.cls not in others for t in tops):
        tops = [t for t in tops if t.cls not in others or _said_alternative(t)] + [
            _as_alternative(t, _SKIPPED_BRANCH)
            for t in tops
            if t.cls in others and not _said_alternative(t)
        ]
    # a top whose builder only a variant script's call switches on (Swin's ``build_simmim``
    # under ``if is_pretrain:``, which only the SimMIM pretraining variant passes): the
    # variant's model, priced with its delta, not one the run builds
    tops = [
        replace(
            t,
            parts=(
                *t.parts,
                (
                    "built by",
                    f"a variant script only: {t.builder}() runs only where a variant's call "
                    "switches it on, every call of the run leaves it off",
                ),
            ),
        )
        if t.builder
        and (t.where.path, t.builder) in switched_off_run - switched_off
        and not _said_alternative(t)
        else t
        for t in tops
    ]
    modules = structure.with_top_roles(modules, tops, injected)
    recipe = _model_rows(recipe, modules, tops, others)
    # a random resize every composition crops to a fixed size after: one batch shape
    cropped = cropped_resizes(result, recipe)
    return Review(
        root=result.root,
        tool_version=__version__,
        recipe=_grouped_rows(_without_subsumed(recipe)),
        modules=modules,
        top_models=tops,
        # the registry's unpicked entries, and the classes only they (or a switch the run
        # leaves off) reach: a model's encoder built only by an unpicked model's factory
        # method is listed with the alternatives, not as a root of the run's tree
        alternatives=tuple(sorted(others)),
        coverage=gaps.coverage(result),
        gaps=network_gaps,
        dynamic_shape=gaps.dynamic_shape(result, ancillary.why, cropped),
        sparse=gaps.sparse_uses(result, analyses, ancillary.why),
        extensions=gaps.extensions(
            root, result, analyses, hierarchy, ancillary.why, unbuilt - switched
        )
        + submodule_extensions(items),
        third_party=gaps.third_party(analyses),
        effort=effort.estimate(
            result,
            network_gaps,
            items,
            ancillary,
            _not_variant_only(
                padded_batches(result, analyses, ancillary)
                + multi_scale(result, recipe)
                + rectangular_batches(analyses, ancillary)
                + bucketing_iterators(result, ancillary)
                + padding_collators(analyses, ancillary),
                variant_only := _variant_only(analyses, ancillary, dead_spans),
            ),
            frozenset(uncalled) | switched_off,
            # a random size drawn only under a branch the defaults never take is no pipeline
            cropped | unrun_draws(result, analyses, options, named),
            frozenset(k for k, kind in masked.items() if kind == REDUCTION),
            frozenset(k for k, kind in masked.items() if kind == METRICS),
            unbuilt - switched,
            exporting,
            reports=frozenset(k for k, kind in masked.items() if kind == DEBUG_CHECKS),
            callers=effort.callers_of(analyses),
            # the training datasets: the classes whose per-sample steps the recipe reads
            fixed=fixed_size_inputs(
                analyses,
                ancillary,
                {
                    item.name.partition(".")[0]
                    for item in recipe
                    if item.category in ("augmentation", "preprocessing") and "." in item.name
                },
                runs,
            ),
            alternatives=picked_out | switched,
            variant_only=variant_only,
            called_apart=apart_called(analyses, ancillary.why),
            other_runs=other_runs(readings.documented_runs, readings.documented_run),
        ),
        errors=tuple(
            (f.path, f"{f.code} {_line(f.span.line, f.cell)}: {f.message}")
            for f in result.error_findings
        ),
        work=items,
        inference_only=inference,
        ancillary=ancillary.listing(),
    )


def _run_settings(found: YamlConfigs | None) -> dict[str, list[tuple[str, str, int]]]:
    """dotted key -> [(value as written, path, line)] of what the run's yacs config gives
    each key: the chosen YAML's command override, else the YAML (its bases merged), else the
    Python default. Nothing without a chosen YAML."""
    if found is None or found.chosen is None:
        return {}
    chosen = found.flat.get(found.chosen, {})
    out: dict[str, list[tuple[str, str, int]]] = {}
    for key in sorted({*found.defaults, *chosen, *found.overrides}):
        setting = found.overrides.get(key) or chosen.get(key) or found.defaults.get(key)
        if setting is not None:
            out[key] = [(setting.text, setting.path, setting.line)]
    return out


def _left_defs(
    analyses: Sequence[FileAnalysis], left: Mapping[str, Sequence[tuple[int, int]]]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, qualified name) -> (first, last line) of the module-level defs ``left`` (the
    code only left-out picks reach) holds."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for fa in analyses:
        spans = left.get(fa.path)
        values = fa.syntax.values if spans and fa.syntax is not None else None
        for d in values.defs if values is not None else ():
            if d.owner < 0 and "." not in d.qual and (d.line, d.end_line) in spans:
                out[(fa.path, d.qual)] = (d.line, d.end_line)
    return out


def _chosen_out_defs(
    analyses: Sequence[FileAnalysis], left: Callable[[str, int], bool]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, qualified name) -> (first, last line) of the module-level classes and
    functions of the repository, and the methods of its module-level classes, that
    something uses, every use at a place ``left`` says the run's values leave out: a
    loader builder's ``elif args.dataset == 'cityscapes':`` branch building the Cityscapes
    dataset, with ``--dataset`` defaulting to ``pascal`` (a string-keyed choice,
    :func:`~apiscan.review.work.string_choices`), a loss builder's ``elif mode == 'focal':
    return self.FocalLoss`` with the mode ``ce``. Not the methods the framework calls by
    their name (``forward``, ``__call__``...): their uses are not all written out."""
    # (a library module's ``__main__`` self-test building its own dataset is no use by the
    # run, nor is a def's use of itself)
    tests = self_tests(analyses)
    # (an object handed on as a loader's ``dataset`` is named by its class: built where
    # its construction is, which is the class's use)
    uses: dict[str, list[tuple[str, int, str]]] = {}
    for fa in analyses:
        if fa.errors or is_test_path(fa.path):
            continue
        block = tests.get(fa.path, (0, 0))
        for c in fa.calls:
            if not block[0] <= c.line <= block[1]:
                callee = c.callee.removesuffix(".__init__")
                uses.setdefault(callee, []).append((fa.path, c.line, c.role))
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for fa in analyses:
        values = fa.syntax.values if not fa.errors and fa.syntax is not None else None
        defs = values.defs if values is not None else ()
        for d in defs:
            if d.owner >= 0 and not (
                d.qual.count(".") == 1
                and defs[d.owner].is_class
                and defs[d.owner].owner < 0
                and not d.is_class
                and not (d.name.startswith("__") and d.name.endswith("__"))
                and d.name != "forward"
            ):
                continue
            if d.owner < 0 and "." in d.qual:
                continue
            places = [
                (path, line)
                for m in fa.modules
                for path, line, role in uses.get(f"{m}.{d.qual}", ())
                if not (path == fa.path and d.line <= line <= d.end_line)
                and not (d.is_class and role != "call")
            ]
            if places and all(left(path, line) for path, line in places):
                out[(fa.path, d.qual)] = (d.line, d.end_line)
    return out


def _overridden_by_configs(
    analyses: Sequence[FileAnalysis], hierarchy: Hierarchy, configs: Collection[str]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(path, label) -> (first, last line) of what every configuration class the documented
    commands load (``configs``: their paths) overrides in a repository base class they
    extend: the base's methods each of them defines again without calling the base's
    (``super().get_data_loader(...)``), and the literal attributes the base's ``__init__``
    sets that each of their own ``__init__`` sets again (``self.max_epoch = 80`` over the
    base's ``300``). Nothing when no command names a configuration."""
    files = {fa.path: fa for fa in analyses if fa.syntax is not None and fa.modules}
    by_class: dict[str, tuple[FileAnalysis, int]] = {}
    for fa in files.values():
        values = fa.syntax.values if fa.syntax is not None else None
        for n, d in enumerate(values.defs if values is not None else ()):
            if d.is_class:
                by_class.setdefault(f"{fa.modules[0]}.{d.qual}", (fa, n))
    named = [
        f"{files[path].modules[0]}.{c.qualname}"
        for path in sorted(configs)
        if path in files
        for c in files[path].classes
        if "." not in c.qualname
    ]

    def ancestors(cls: str) -> list[str]:
        out: list[str] = []
        todo = [cls]
        while todo:
            fact = hierarchy.classes.facts.get(todo.pop())
            for base in fact.bases if fact is not None else ():
                q = hierarchy.resolve(base) if base else None
                if q is not None and q in by_class and q not in out and q != cls:
                    out.append(q)
                    todo.append(q)
        return out

    def own(cls: str) -> tuple[FileAnalysis, dict[str, int]]:
        fa, n = by_class[cls]
        defs = fa.syntax.values.defs  # type: ignore[union-attr]
        return fa, {d.qual.rpartition(".")[2]: m for m, d in enumerate(defs) if d.owner == n}

    def calls_base(fa: FileAnalysis, fn: int, name: str) -> bool:
        return any(
            c.function == fn
            and c.expr.func.kind == "Attribute"
            and c.expr.func.name == name
            and c.expr.func.target.kind == "Call"
            and c.expr.func.target.callee() == "super"
            for c in fa.syntax.values.calls  # type: ignore[union-attr]
        )

    def init_sets(fa: FileAnalysis, fn: int | None) -> dict[str, int]:
        if fn is None:
            return {}
        return {
            a.target.name: a.line
            for a in fa.syntax.values.defs[fn].assigns  # type: ignore[union-attr]
            if a.target.kind == "Attribute"
            and a.target.target.kind == "Name"
            and a.target.target.name == "self"
        }

    lineage = {cls: ancestors(cls) for cls in named if cls in by_class}
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for base in sorted({a for chain in lineage.values() for a in chain}):
        subs = [cls for cls, chain in lineage.items() if base in chain]
        base_fa, base_defs = own(base)
        base_values = base_fa.syntax.values  # type: ignore[union-attr]
        for name, fn in sorted(base_defs.items()):
            if name == "__init__":
                continue
            if all(
                (m := hierarchy.method(cls, name)) is not None
                and m != hierarchy.method(base, name)
                and m.startswith(cls + ".")
                and not calls_base(by_class[cls][0], own(cls)[1][name], name)
                for cls in subs
            ):
                d = base_values.defs[fn]
                out[(base_fa.path, f"<{d.qual} overridden>")] = (d.line, d.end_line)
        base_sets = init_sets(base_fa, base_defs.get("__init__"))
        again = [set(init_sets(by_class[c][0], own(c)[1].get("__init__"))) for c in subs]
        for attr, line in base_sets.items():
            if again and all(attr in s for s in again):
                out[(base_fa.path, f"<{base.rpartition('.')[2]}.{attr} overridden>")] = (line, line)
    return out


def _classes_in(modules: Iterable[ModuleNode], defs: Collection[tuple[str, str]]) -> set[str]:
    """The dotted names of the module classes among ``defs`` ((path, qualified name) of
    module-level defs)."""
    return {m.cls for m in modules if (m.where.path, m.cls.rpartition(".")[2]) in defs}


def _in_span(spans: Mapping[str, Sequence[tuple[int, int]]], path: str, line: int) -> bool:
    """Whether ``line`` of ``path`` lies in one of ``spans`` (path -> (first, last line))."""
    return any(a <= line <= b for a, b in spans.get(path, ()))


def _in_spans(
    places: Iterable[tuple[str, int]], spans: Mapping[str, Sequence[tuple[int, int]]]
) -> frozenset[tuple[str, int]]:
    """The ``places`` (path, line) inside one of ``spans`` (path -> (first, last line))."""
    return frozenset((path, line) for path, line in places if _in_span(spans, path, line))


def _registry_picks(
    tables: Mapping[str, Collection[str]],
    not_picked: Collection[str],
    apart: Collection[str] = (),
) -> set[str]:
    """The one entry of each registry (``tables``: registry -> its entries) that the run's
    pick leaves in when it leaves out (``not_picked``) every other entry but those of files
    counted apart (``apart``: their dotted names): the entry that pick builds by name."""
    out: set[str] = set()
    for found in tables.values():
        left = [c for c in found if c not in not_picked and c not in apart]
        if len(left) == 1 and len(left) < len(found):
            out.update(left)
    return out


def _switched_off_trips(
    items: Sequence[WorkItem], analyses: Sequence[FileAnalysis], defaults: dict[str, set[object]]
) -> tuple[WorkItem, ...]:
    """The work items less the host round trips every place of which lies in a branch on
    an option the run's values turn off (:func:`~apiscan.review.work.switched_off_branch`:
    the documented command's value, else the default): a ``store_true`` debug switch's
    copies to the host and back never run in the training, so they stall no step."""
    by_path = {fa.path: fa for fa in analyses}

    def off(where: Where) -> bool:
        fa = by_path.get(where.path)
        return fa is not None and bool(switched_off_branch(fa, where.line, defaults, every=True))

    return tuple(
        i
        for i in items
        if not (i.kind == "host-round-trip" and i.where and all(off(w) for w in i.where))
    )


def _chosen_targets(options: OptionFiles | None, hierarchy: Hierarchy) -> set[str]:
    """The repository's classes the chosen OmegaConf config names by a dotted ``target``
    in any of its sections (``model.target``, ``model.params.first_stage_config.target``,
    ``model.params.cond_stage_config.target``), by their defining module: what
    ``instantiate_from_config`` builds for the run. Empty without a chosen config of that
    kind."""
    if options is None or options.type_key != "target" or options.chosen is None:
        return set()
    found: set[str] = set()
    for key, setting in options.flat.get(options.chosen, {}).items():
        if key != "target" and not key.endswith(".target"):
            continue
        dotted = setting.text.strip("'\"")
        resolved = hierarchy.resolve(dotted)
        if resolved is not None and resolved in hierarchy.classes.facts:
            found.add(resolved)
    return found


def _other_targets(
    options: OptionFiles | None, hierarchy: Hierarchy, chosen: Collection[str]
) -> set[str]:
    """The repository's classes the other OmegaConf configs name by a dotted ``target``
    that the chosen one does not (``chosen``: :func:`_chosen_targets`): the models,
    conditioning encoders and losses of the trainings the run does not build (a BERT text
    encoder of another config beside the chosen config's CLIP one). A base class of a
    chosen class runs with it: never one of these. Empty without a chosen config."""
    if options is None or options.type_key != "target" or options.chosen is None or not chosen:
        return set()
    bases: set[str] = set()
    todo = list(chosen)
    while todo:
        fact = hierarchy.classes.facts.get(todo.pop())
        for base in fact.bases if fact is not None else ():
            parent = hierarchy.resolve(base) if base else None
            if parent is not None and parent in hierarchy.classes.facts and parent not in bases:
                bases.add(parent)
                todo.append(parent)
    found: set[str] = set()
    for path, flat in options.flat.items():
        if path == options.chosen:
            continue
        for key, setting in flat.items():
            if key != "target" and not key.endswith(".target"):
                continue
            resolved = hierarchy.resolve(setting.text.strip("'\""))
            if resolved is not None and resolved in hierarchy.classes.facts:
                found.add(resolved)
    return found - set(chosen) - bases


def _picks_left_out(
    tops: Sequence[TopModel], picked: Sequence[str], left: Mapping[str, Sequence[tuple[int, int]]]
) -> set[str]:
    """The picked top models whose construction lies in left-out code: a registry's entry
    the config's key names, but in a builder only the unpicked models (or branches the run
    skips) call. A class built in left-out code and also where the run builds it (the
    model a picked entry's builder returns, beside the same class the unpicked entries'
    builders return) stays picked."""
    return {
        t.cls
        for t in tops
        if t.cls in picked
        and all(_in_span(left, o.where.path, o.where.line) for o in tops if o.cls == t.cls)
    }


def _handed_where_run(
    injected: Mapping[str, set[str]],
    injected_at: Mapping[tuple[str, str], set[tuple[str, int]]],
    left: Mapping[str, Sequence[tuple[int, int]]],
) -> dict[str, set[str]]:
    """The parts each class is handed, less those every construction handing them lies in
    left-out code (DeepLabV3+'s ``IntermediateLayerGetter`` handed an ``Xception`` only by
    the builder of the entries the default does not pick, a ``MobileNetV2`` by the picked
    one). A part with no recorded place stays."""
    return {
        cls: {
            part
            for part in parts
            if not (places := injected_at.get((cls, part)))
            or not all(_in_span(left, path, line) for path, line in places)
        }
        for cls, parts in injected.items()
    }


def _without_left_copies(
    tops: Sequence[TopModel], left: Mapping[str, Sequence[tuple[int, int]]]
) -> list[TopModel]:
    """The top models less the constructions in left-out code of a class the run also
    builds elsewhere (the same model the builders of a table's unpicked entries return,
    beside the picked entry's): the class is shown where the run builds it, once."""

    kept = {t.cls for t in tops if not _in_span(left, t.where.path, t.where.line)}
    return [t for t in tops if not (_in_span(left, t.where.path, t.where.line) and t.cls in kept)]


def _config_type_picks(
    analyses: Sequence[FileAnalysis],
    root: Path,
    tables: Mapping[str, set[str]],
    hierarchy: Hierarchy,
) -> tuple[list[str], set[str]] | None:
    """(the registered defs the run's dict config names by ``type=``, the other entries of
    the registries it picks from), None where no dict config is known to be the run's. A
    registry entry is named by its def's name (OpenMMLab's ``register_module()`` default);
    an entry a picked one derives from (``mit_b1`` of ``MixVisionTransformer``) is built
    with it; a registry the config picks nothing from is left as it is."""
    types = config_types(analyses, root)
    if types is None or not types.chosen:
        return None
    built: list[str] = []
    left: set[str] = set()
    for _, defs in sorted(tables.items()):
        by_name = {d.rpartition(".")[2]: d for d in sorted(defs)}
        picked = [d for name, d in by_name.items() if name in types.chosen]
        if not picked:
            continue
        built += picked
        left.update(
            d
            for name, d in by_name.items()
            if name not in types.chosen and not _derived_by(hierarchy, d, picked)
        )
    return built, left - set(built)


def _live_tops(tops: Sequence[TopModel], dead: Collection[tuple[str, str]]) -> list[TopModel]:
    """``tops`` less the models every builder of which is a function nothing runs (``dead``:
    (path, module-level name)), and less those functions among the builders a model's tree
    lists (``also built by``). A builder named in another file is told by its name alone:
    dead where a function of that name is dead and no live one is the top's own builder. A
    model built in module code or a method stays."""
    dead_names = {name for _, name in dead}
    out = []
    for top in tops:
        primary_dead = bool(top.builder) and (top.where.path, top.builder) in dead
        parts = []
        alive_also = False
        for name, part in top.parts:
            if name != structure.ALSO_BUILT_BY:
                parts.append((name, part))
                continue
            kept = [b for b in part.split(", ") if b not in dead_names]
            alive_also = bool(kept)
            if kept:
                parts.append((name, ", ".join(kept)))
        if primary_dead and not alive_also:
            continue
        out.append(replace(top, parts=tuple(parts)))
    return out


#: Why a top the run's builder constructs only in a branch it skips is an alternative.
_SKIPPED_BRANCH = "built only in a branch the run's values skip"


def _model_rows(
    recipe: tuple[RecipeItem, ...],
    modules: Sequence[ModuleNode],
    tops: Sequence[TopModel],
    others: Collection[str],
) -> tuple[RecipeItem, ...]:
    """The recipe less the model-settings rows of classes that are no model the run builds:
    only a top model of the tree (not said to be an alternative) or a class the tree gives
    the model role keeps its row. A wrapper a one-time check constructs (an inference
    wrapper built to compare precisions), a head a builder makes for the other branch, a
    registry's other model: parts or alternatives, whose settings are not the run's."""
    kept = [t for t in tops if not _said_alternative(t) and t.cls not in others]
    models = {t.cls for t in kept} | {m.cls for m in modules if m.role == "model"}
    models -= set(others)
    # the parts the kept top models are handed (their rows say whose part they are)
    parts = {
        re.split(r"[\s(]", text, maxsplit=1)[0].rpartition(".")[2]
        for t in kept
        for _, text in t.parts
    }
    return type(recipe)(
        i
        for i in recipe
        if i.category != "model"
        or i.name in models
        # the documented runs' YAML model section: the settings of whatever model they build
        or i.name.startswith("config ")
        # the adapters a fine-tuning library injects into whatever pretrained model it loads
        or i.name.startswith(ADAPTER_ROW)
        or (": a part's" in i.note and i.name.rpartition(".")[2] in parts)
    )


def _said_alternative(top: TopModel) -> bool:
    """Whether ``top`` is already said to be an alternative (:func:`_as_alternative`)."""
    return bool(top.parts) and top.parts[0][1].startswith("an alternative")


def _as_alternative(top: TopModel, how: str = "") -> TopModel:
    """``top`` said to be an alternative: its builder runs only for what the run leaves out
    (or ``how``, where the builder runs but builds it only in a branch it skips)."""
    why = "an alternative: " + (
        how or f"{top.builder or 'its builder'} runs only in code the run leaves out"
    )
    if top.parts and top.parts[0][0] == "selected by":
        why += f" ({top.parts[0][1]})"
        return replace(top, parts=(("selected by", why), *top.parts[1:]))
    return replace(top, parts=(("selected by", why), *top.parts))


def _without_spans(reach: Reach, spans: Collection[tuple[str, str]]) -> Reach:
    """``reach`` less the dead ``spans`` it was given (the branches the defaults skip): what
    only they use is not reached, their own lines are still read where they are."""
    return reach._replace(spans={k: v for k, v in reach.spans.items() if k not in spans})


def _variant_only(
    analyses: Sequence[FileAnalysis],
    ancillary: Ancillary,
    dead: Mapping[tuple[str, str], tuple[int, int]],
) -> frozenset[tuple[str, str]]:
    """(path, name) of the module-level definitions of ported files that only variants of
    ported files (and other files counted apart) use: a dataset class with its own collate
    that only a copied training script's loader builds."""
    if not ancillary.variants():
        return frozenset()
    return frozenset(apart_only(analyses, ancillary.why, dead).exporting)


def _not_variant_only(
    pipelines: tuple[tuple[str, str], ...], only: frozenset[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    """The input pipelines less those in code only variants of ported files use
    (:func:`_variant_only`): a variant is priced as a delta of its sibling, and the
    pipeline it alone runs goes with that delta, not a pipeline of its own to bucket."""
    return tuple(
        (path, what)
        for path, what in pipelines
        if (path, what.partition(" ")[0].partition(".")[0]) not in only
    )


#: What a loss function is for where nothing is trained (LLaMA's ``F.cross_entropy`` over
#: the generated tokens when ``generate(logprobs=True)``, a renderer's auxiliary loss kept
#: as a diagnostic of its output).
SCORING_NOTE = (
    "scores the outputs on the inference path (log-probabilities of generated tokens, a "
    "diagnostic of a rendered output): no training loss; ported with the inference code"
)


def training_branches(analyses: Sequence[FileAnalysis]) -> dict[str, list[tuple[int, int]]]:
    """Path → (first, last line) of each branch that runs only while training: the body of
    an ``if`` on a training switch (``if self.training:``, ``if is_train:``), the ``else``
    of its negation (:func:`~apiscan.review.roles.train_switch`). Shap-e's conditioning
    dropout and its random number of unrolls drawn on the device and read back (``if
    self.training:``) never run where nothing trains."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        seen: set[tuple[int, int]] = set()
        for call in facts.values.calls if facts.values is not None else ():
            for near in call.ifs:
                if (near.line, near.col) in seen:
                    continue
                seen.add((near.line, near.col))
                switch = train_switch(near.test)
                body_end = near.body_end or near.end_line
                if switch is True:
                    spans.setdefault(fa.path, []).append((near.line, body_end))
                elif switch is False and near.body_end and near.body_end < near.end_line:
                    spans.setdefault(fa.path, []).append((near.body_end + 1, near.end_line))
    return spans


def _rows_item(
    recipe: Sequence[RecipeItem], prefix: str, kind: str, why: str
) -> tuple[WorkItem, ...]:
    """One work item of ``kind`` for the recipe rows named ``prefix ... in <where>``: the
    places of a pattern the inference path repeats, one design for all of them."""
    rows = [item for item in recipe if item.name.startswith(prefix)]
    if not rows:
        return ()
    return (
        WorkItem(
            kind=kind,
            what=", ".join(dict.fromkeys(item.name.rpartition(" in ")[2] for item in rows)),
            where=tuple(item.where for item in rows),
            why=why,
            uses=len(rows),
        ),
    )


def growing_caches(recipe: Sequence[RecipeItem]) -> tuple[WorkItem, ...]:
    """The inference path's caches that grow per decoding step (a KV cache sliced up to a
    Python position), as one work item: in graph mode each new length compiles again, so
    the port rewrites them as static-shape caches, one design for all of them. Where a
    step writes a run of positions (``cache[:, pos : pos + seqlen] = xk``), the first step
    writes the whole prompt, whose length changes per request: bucketed too."""
    why = (
        "the cache the network reads grows by a step each call, sliced by a Python "
        "position: in MindSpore's graph mode every new length compiles the network "
        "again; allocate it at the maximum length, write each step at its position "
        "(a scatter) and read it whole under an attention mask"
    )
    rows = [item for item in recipe if item.name.startswith(GROWING_CACHE)]
    if any(_RUN_WRITTEN.search(v) for item in rows for _, v in item.values):
        why += (
            "; a step writes a run of positions (the prompt's tokens at the first step, "
            "their number per request): pad the prompt to a few bucket lengths so its "
            "step compiles once per bucket"
        )
    return _rows_item(recipe, GROWING_CACHE, "growing-cache", why)


#: a slice of a run of positions from a Python position (``start_pos : start_pos + seqlen``)
_RUN_WRITTEN = re.compile(r"\b(\w+)\s*:\s*\1\s*\+\s*\w+")


def decode_syncs(recipe: Sequence[RecipeItem]) -> tuple[WorkItem, ...]:
    """The inference path's host reads once per decoding step (a stop test read on the
    host, a beam search's ``.item()``/``.tolist()`` in the method the loop calls each
    step), as one work item: the device waits for the host once per generated token."""
    return _rows_item(
        recipe,
        DECODE_SYNC,
        "decode-sync",
        "tensor values are read on the host once per generated token (a stop test, "
        ".item()/.tolist() of scores and tokens): each read waits for the device; "
        "keep the decision on the device (masks, topk, where), read every few "
        "steps, or keep the loop outside the compiled network and accept the wait",
    )


#: A function named for a training step (``training_losses``, ``train_step``).
_TRAINING_METHOD = re.compile(r"^_*train(?:ing)?(?:_|$)")

#: What replaces the AMP idiom's loss scaling where nothing is trained.
INFERENCE_AMP = " (inference only: no loss scaler)"


def _scoring(item: RecipeItem) -> RecipeItem:
    """A loss row of a repository that trains nothing: the function scores outputs."""
    note = f"{SCORING_NOTE}; {item.note}" if item.note else SCORING_NOTE
    return replace(item, category="scoring", note=note)


#: The part a top model no training reaches shows (Depth-Anything's ``DepthAnything``: its
#: package only infers; ``metric_depth/`` fine-tunes a model of its own).
INFERENCE_ONLY_PART = (
    "trained by",
    "no training entry point reaches it: inference only (the training here trains another model)",
)


#: What starts a process group: the collectives of a forward run only once it has.
_PROCESS_GROUP = re.compile(r"^torch\.distributed\.init_process_group$")


def _single_process(
    items: Sequence[WorkItem],
    result: ScanResult,
    unbuilt: Collection[tuple[str, str]],
    apart: Callable[[str], str],
) -> tuple[WorkItem, ...]:
    """The work items less the collectives a forward runs, where the repository starts its
    process group itself (``init_process_group``) and every function doing so is not reached
    or lies in a file counted apart (a ``init_distributed_mode`` helper the training script
    never calls): the run is one process, so the forward's ``if is_initialized():
    all_reduce(...)`` never runs. A repository starting no group of its own (a framework's
    launcher does) keeps its items."""
    starts = [f for f in result.api_findings if f.usage == "call" and _PROCESS_GROUP.match(f.api)]
    if not starts:
        return tuple(items)
    for f in starts:
        top = f.function.partition(".")[0]
        if not (apart(f.path) or (f.path, top) in unbuilt):
            return tuple(items)
    return tuple(i for i in items if i.kind != "collective-in-forward")


def _overwritten_inits(
    recipe: Sequence[RecipeItem], items: Sequence[WorkItem], analyses: Sequence[FileAnalysis]
) -> tuple[RecipeItem, ...]:
    """The initialisation rows inside a class that the function loading pretrained weights
    (a pretrained-backbone item's place) builds: the builder constructs the architecture,
    then loads the released weights into it (a copied torchvision ``_vgg``: ``VGG(...)``
    then ``model.load_state_dict(torch.load(...))``), so what the class's initialisers set
    is replaced before the first step. The row stays, told so: no init to reproduce there."""
    loads = [w for i in items if i.kind == "pretrained-backbone" for w in i.where]
    if not loads:
        return tuple(recipe)
    defs = {
        fa.path: (fa, fa.syntax.values.defs)
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.values is not None
    }
    classes = {
        d.qual: (path, d.line, d.end_line)
        for path, (_, ds) in defs.items()
        for d in ds
        if d.is_class and d.owner < 0
    }
    spans: list[tuple[str, int, int, Where]] = []
    for w in loads:
        if w.path not in defs:
            continue
        fa, ds = defs[w.path]
        around = [d for d in ds if not d.is_class and d.line <= w.line <= d.end_line]
        if not around:
            continue
        fn = max(around, key=lambda d: d.line).qual  # the innermost
        for c in fa.calls:
            name = c.callee.rpartition(".")[2]
            if c.caller == fn and c.role == "call" and name in classes:
                spans.append((*classes[name], w))
    if not spans:
        return tuple(recipe)
    out = []
    for r in recipe:
        hit = next(
            (
                w
                for p, a, z, w in spans
                if r.category == "init" and p == r.where.path and a <= r.where.line <= z
            ),
            None,
        )
        if hit is not None:
            told = f"overwritten: the pretrained weights loaded at {hit} replace what it sets"
            if _partial_load(defs[hit.path][0], hit.line):
                told = (
                    f"partly overwritten: the pretrained weights loaded at {hit} (strict=False)"
                    " replace what it sets for the parameters the checkpoint holds; those it"
                    " lacks (heads and layers added to the pretrained network) start as set here"
                )
            r = replace(r, note=f"{r.note}; {told}" if r.note else told)
        out.append(r)
    return tuple(out)


def _partial_load(fa: FileAnalysis, line: int) -> bool:
    """Whether the weights loaded at ``line`` go in through a ``load_state_dict(...,
    strict=False)`` around it or after it in its function (an ImageNet backbone's state dict
    loaded into a detector that adds a neck and heads): only the parameters the checkpoint
    names are replaced."""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None:
        return False
    around = [d for d in values.defs if not d.is_class and d.line <= line <= d.end_line]
    end = max(around, key=lambda d: d.line).end_line if around else line
    return any(
        c.expr.end_line >= line
        and c.expr.line <= end
        and c.expr.callee().rpartition(".")[2] == "load_state_dict"
        and any(k.name == "strict" and k.target.text == "False" for k in c.expr.keywords)
        for c in values.calls
    )


#: Why a file is counted apart when it shows how the library is used, not what it does
#: (its own code stays apart; what it calls of the library runs where nothing trains).
PRODUCT_USERS = frozenset({"examples", "demo", "notebook", "notebooks"})
#: ... and, where the library's own trainer is run only from files counted apart, the side
#: projects that train with it too (minGPT's ``projects/chargpt``)
LIBRARY_USERS = PRODUCT_USERS | {"side projects"}


def _product_users(
    apart: Callable[[str], str], users: Collection[str] = PRODUCT_USERS
) -> Callable[[str], str]:
    """``apart`` less the files that only show how an untrained library is used (examples,
    demos, notebooks: ``users``): a use there reaches the library's code as the product's
    users would (a diffusion sampler only the notebooks call is the inference path, not a
    demo's code)."""

    def reason(path: str) -> str:
        why = apart(path)
        return "" if why in users else why

    return reason


def _trained_only_apart(
    result: ScanResult,
    ancillary: Ancillary,
    exporting: Mapping[tuple[str, str], object],
    shown: Collection[tuple[str, str]] = (),
) -> bool:
    """Whether every training step of the ported files (an optimizer built, a backward
    pass) lies in a class or function only files counted apart use, or in one the
    documentation's examples build (``shown``: a README's ``model.configure_optimizers``
    beside its ``Trainer(...).run()``), and one at least in the former: the repository's
    training is a library's, run by its examples rather than by a script of its own."""
    steps = {
        (f.path, f.function)
        for f in result.api_findings
        if trains(f.api) and not is_test_path(f.path) and not ancillary.why(f.path)
    }
    apart = {(path, fn) for path, fn in steps if within(exporting, path, fn)}
    documented = {(path, fn) for path, fn in steps if (path, fn.partition(".")[0]) in shown}
    return bool(apart) and steps <= apart | documented


def public_names(analyses: Sequence[FileAnalysis], apart: Callable[[str], str]) -> frozenset[str]:
    """The names the ported modules list in a module-level ``__all__`` (a list or tuple of
    strings), read from the worker's value records: a library's public API."""
    out: set[str] = set()
    for fa in analyses:
        values = fa.syntax.values if fa.syntax is not None and not fa.errors else None
        if values is None or apart(fa.path) or is_test_path(fa.path):
            continue
        for a in values.assigns:
            if not (a.top and a.target.kind == "Name" and a.target.name == "__all__"):
                continue
            if a.value.kind not in ("List", "Tuple"):
                continue
            out.update(p.value for p in a.value.parts if isinstance(p.value, str) and p.value)
    return frozenset(out)


def _untrained(
    tops: Sequence[TopModel],
    analyses: Sequence[FileAnalysis],
    modules: Sequence[ModuleNode],
    training: frozenset[str],
) -> tuple[TopModel, ...]:
    """The top models, those that no training file reaches (neither the file defining the
    class nor the place building it) saying they are inference only: a repository whose
    main package has no training loop beside a subfolder that trains something else. The
    scripts that run a training file's loop count as training (they build the model it
    trains: :func:`~apiscan.review.work.trained_reach`)."""
    if not training:
        return tuple(tops)
    reached = trained_reach(analyses, training)
    files = {m.cls: m.where.path for m in modules}
    return tuple(
        replace(top, parts=(*top.parts, INFERENCE_ONLY_PART))
        if top.where.path not in reached
        and files.get(top.cls, "") not in reached
        and not any(key == structure.FRAMEWORK_BUILT for key, _ in top.parts)
        else top
        for top in tops
    )


def submodule_extensions(items: Sequence[WorkItem]) -> tuple[tuple[str, Where], ...]:
    """The compiled ops the code imports from a git submodule that is not checked out
    (CenterTrack's DCNv2): extensions too, though no source of them is in the tree."""
    return tuple(
        (f"{item.what} (git submodule not checked out)", item.where[0])
        for item in items
        if item.kind.startswith("compiled") and "git submodule" in item.why
    )


#: Arguments of an initialiser that name what it fills, not how (``tensor`` = ``m.bias``).
_FILLED = frozenset({"tensor", "module", "m", "w", "weight", "param", "params"})
#: Places an initialisation row names when it stands for several.
_SHOWN_PLACES = 3


#: Categories whose rows repeat word for word across files: a composition copied into each
#: model's config (RITM's 21 identical ``composition in train`` rows), and the loss, optimizer
#: and schedule each of those configs builds; and a precision cast repeated over the
#: layers a helper converts (``.half()`` of each weight and bias a ``convert_weights`` walks).
_REPEATED = frozenset(
    {"augmentation", "preprocessing", "loss", "optimizer", "scheduler", "wd_schedule", "amp"}
)


def _without_subsumed(recipe: tuple[RecipeItem, ...]) -> tuple[RecipeItem, ...]:
    """The rows less those another row at the same place says in full: a definition two
    scripts share (improved-diffusion's ``add_dict_to_argparser(parser,
    model_and_diffusion_defaults())`` in its image and super-resolution training scripts)
    is read once per script, and the documented run's reading adds what the command
    launched; the other says nothing more."""
    by_place: dict[tuple[object, ...], list[RecipeItem]] = {}
    for item in recipe:
        # (a row saying something else of the place, its note, is another row)
        by_place.setdefault((item.category, item.name, item.where, item.note), []).append(item)
    dropped: set[int] = set()
    for items in by_place.values():
        for i, item in enumerate(items):
            mine = set(item.values)
            for j, other in enumerate(items):
                if i == j or id(other) in dropped:
                    continue
                theirs = set(other.values)
                if mine < theirs or (mine == theirs and j < i):
                    dropped.add(id(item))
                    break
    return tuple(item for item in recipe if id(item) not in dropped)


def _grouped_rows(recipe: tuple[RecipeItem, ...]) -> tuple[RecipeItem, ...]:
    """Rows that say the same thing at several places are one row with its places.
    Initialisation rows that fill different tensors the same way are one: a lead reads how
    the weights start (timm's 113 ``zeros_`` of biases, 65 ``constant_(val=0)``), not one row
    per tensor; so are compositions identical to the value. The row keeps its first place and
    says which tensors and how many places it stands for. Shown rows only: the effort counts
    from the rows as found."""
    groups: dict[tuple[object, ...], list[RecipeItem]] = {}
    order: list[RecipeItem | tuple[object, ...]] = []
    for item in recipe:
        if item.category not in _REPEATED and item.category != "init":
            order.append(item)
            continue
        if item.category == "init":
            how = tuple((k, v) for k, v in item.values if k not in _FILLED)
        else:
            how = item.values
        key = (item.category, item.name, how, item.note, item.inference_precision)
        if item.category == "amp":  # a cast repeated in one file's helper, not the same
            key += (item.where.path,)  # cast in the network and in the training script
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(item)
    out: list[RecipeItem] = []
    for entry in order:
        if isinstance(entry, RecipeItem):
            out.append(entry)
            continue
        items = sorted(groups[entry], key=lambda i: (i.where.path, i.where.line, i.where.cell))
        if len(items) == 1:
            out.append(items[0])
            continue
        first = items[0]
        fills = first.category == "init"
        filled = (
            []
            if not fills
            else list(dict.fromkeys(v for i in items for k, v in i.values if k in _FILLED))
        )
        shown = ", ".join(filled[:_SHOWN_PLACES]) + (
            f" and {len(filled) - _SHOWN_PLACES} more" if len(filled) > _SHOWN_PLACES else ""
        )
        values = tuple((k, v) for k, v in first.values if not fills or k not in _FILLED)
        if filled:
            values = ((_filled_key(first), shown), *values)
        others = [f"{i.where.path}:{i.where.line}" for i in items[1 : 1 + _SHOWN_PLACES]]
        more = len(items) - 1 - len(others)
        also = f"also at {', '.join(others)}" + (f" and {more} more places" if more else "")
        note = f"{first.note}; {also}" if first.note else also
        out.append(replace(first, values=values, note=f"{len(items)} places; {note}"))
    return tuple(out)


def _filled_key(item: RecipeItem) -> str:
    return next((k for k, _ in item.values if k in _FILLED), "tensor")


#: Recipe rows that are an input's whole path: a composition, a pipeline of statements.
_PATHS = ("composition in ", "pipeline in ")


def _built_by_picked(
    tops: Sequence[TopModel],
    analyses: Sequence[FileAnalysis],
    hierarchy: Hierarchy,
    not_picked: set[str],
) -> list[TopModel]:
    """The top models less those only classes the run's picks leave out build (an unpicked
    task's ``build_generator``): each of those joins ``not_picked``, an alternative. A model
    found in such a class that other code builds too is placed at that construction."""

    def unpicked(module: str, caller: str) -> bool:
        return bool(caller) and f"{module}.{caller.partition('.')[0]}" in not_picked

    modules = {fa.path: fa.modules[0] if fa.modules else "" for fa in analyses}
    # path -> the spans of its module-level classes the picks leave out
    spans: dict[str, list[tuple[int, int]]] = {}
    for fa, facts in with_facts(analyses):
        for d in facts.values.defs if facts.values is not None else ():
            if d.is_class and d.owner < 0 and f"{modules[fa.path]}.{d.qual}" in not_picked:
                spans.setdefault(fa.path, []).append((d.line, d.end_line))
    moved = [
        t
        for t in tops
        if t.cls not in not_picked
        and any(a <= t.where.line <= z for a, z in spans.get(t.where.path, ()))
    ]
    if not moved:
        return list(tops)
    wanted = {t.cls for t in moved}
    elsewhere: dict[str, tuple[Where, str]] = {}
    for fa in analyses:
        module = modules[fa.path]
        if is_test_path(fa.path):
            continue
        for call in fa.calls:
            cls = hierarchy.resolve(call.callee) or call.callee
            if cls in wanted and cls not in elsewhere and not unpicked(module, call.caller):
                elsewhere[cls] = (Where(fa.path, call.line), call.caller.rpartition(".")[2])
    out: list[TopModel] = []
    for t in tops:
        if t not in moved:
            out.append(t)
        elif t.cls in elsewhere:
            where, builder = elsewhere[t.cls]
            out.append(replace(t, where=where, builder=builder))
        else:
            not_picked.add(t.cls)
    return out


def _derived_by(hierarchy: Hierarchy, cls: str, classes: Iterable[str]) -> bool:
    """Whether one of ``classes`` derives from ``cls`` through the repository's classes."""
    wanted = set(classes)
    todo, seen = [cls], {cls}
    while todo:
        for sub in hierarchy.subclasses(todo.pop()):
            if sub in wanted:
                return True
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return False


def alternative_files(analyses: Sequence[FileAnalysis], not_picked: set[str]) -> frozenset[str]:
    """The files whose module-level classes registered by a decorator (``@register_model(
    "hubert")``, ``@register_criterion("ctc")``) are all classes the run's pick leaves out:
    each holds another command's model, loss or task with its settings."""
    out: set[str] = set()
    for fa, facts in with_facts(analyses):
        module = fa.modules[0] if fa.modules else ""
        registered = [
            f"{module}.{qual}"
            for qual, _, names in facts.decorators
            if "." not in qual
            and any(n.rpartition(".")[2].startswith("register") for n in names)
            and any(c.qualname == qual for c in fa.classes)
        ]
        if registered and all(r in not_picked for r in registered):
            out.add(fa.path)
    return frozenset(out)


def entry_points(result: ScanResult, analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """Files outside tests whose own calls reach the training step through the repository's
    functions and classes: a training entry point that delegates the loop and the optimizer
    to the library (FCOS's ``tools/train_net.py``: ``make_optimizer``, ``do_train``;
    detectron2's ``tools/train_net.py``: a ``DefaultTrainer`` subclass). Evaluation and demo
    scripts reach the model, never the step, so they stay counted apart."""
    files = {fa.path: fa for fa in analyses if not fa.errors}
    # the repository's functions (module.qualname) and the calls each makes
    edges: dict[str, set[str]] = {}
    # a package re-export (``fcos_core.solver.make_optimizer``) -> the definition
    alias: dict[str, str] = {}
    bases: dict[str, tuple[str, ...]] = {}
    for fa in files.values():
        for module in fa.modules:
            for name, target in fa.exports:
                alias.setdefault(f"{module}.{name}", target)
            for c in fa.calls:
                if c.role == "call":
                    edges.setdefault(f"{module}.{c.caller}".rstrip("."), set()).add(c.callee)
            for cls in fa.classes:
                bases[f"{module}.{cls.qualname}"] = cls.bases
    step: set[str] = set()
    for f in result.api_findings:
        if TRAINING_STEP.search(f.api) and f.path in files and not is_test_path(f.path):
            step.update(f"{m}.{f.function}".rstrip(".") for m in files[f.path].modules)

    def resolve(name: str) -> str:
        """The definition ``name`` stands for, through re-exports of it or of its class
        (``yolox.exp.Exp.get_trainer`` -> ``yolox.exp.yolox_base.Exp.get_trainer``)."""
        for _ in range(4):  # a chain of re-exports, never a cycle
            head, rest = name, ""
            while head and head not in alias:
                head, _, last = head.rpartition(".")
                rest = f".{last}{rest}"
            if not head or alias[head] == head:
                break
            name = alias[head] + rest
        return name

    def members(name: str) -> set[str]:
        """A class stands for its methods and its bases' methods (a trainer subclass)."""
        out, todo, seen = set(), [name], set()
        while todo:
            cls = todo.pop()
            if cls in seen:
                continue
            seen.add(cls)
            out.update(f for f in edges if f.startswith(cls + "."))
            out.update(f for f in step if f.startswith(cls + "."))
            todo.extend(resolve(b) for b in bases.get(cls, ()) if b)
        if any(b.partition(".")[0] in TORCH_FRAMEWORKS for c in seen for b in bases.get(c, ())):
            # a framework's module: building it runs none of the hooks its trainer's ``fit``
            # calls (a sampling script building a LightningModule trains nothing)
            out = {f for f in out if not _FRAMEWORK_HOOK.match(f.rpartition(".")[2])}
        return out

    trains: dict[str, bool] = {}

    def reaches(name: str, depth: int = 0) -> bool:
        if name in trains:
            return trains[name]
        trains[name] = False  # a cycle reaches nothing new
        todo = {name} | (members(name) if name in bases else set())
        hit = bool(todo & step)
        if not hit and depth < 12:
            hit = any(
                reaches(resolve(callee), depth + 1)
                for f in todo
                for callee in edges.get(f, ())
                if not callee.startswith("?")
            )
        trains[name] = hit
        return hit

    # a method called on an object the file cannot type (YOLOX's ``exp.get_trainer(args)``):
    # the repository's methods of that name, when the name is the repository's own (not
    # ``train``/``eval``/``forward``, which every module has) and few define it
    defined: dict[str, list[str]] = {}
    for f in edges.keys() | step:
        defined.setdefault(f.rpartition(".")[2], []).append(f)
    #: each repository class (module.qualname) -> the methods it defines, empty ones included
    methods = {
        f"{module}.{cls.qualname}": frozenset(cls.methods)
        for fa in files.values()
        for module in fa.modules
        for cls in fa.classes
    }

    def ancestors(cls: str) -> set[str]:
        out, todo = set(), [cls]
        while todo:
            c = todo.pop()
            if c in out:
                continue
            out.add(c)
            todo.extend(resolve(b) for b in bases.get(c, ()) if b)
        return out

    def interface(name: str, found: Sequence[str]) -> bool:
        """Whether every definition of method ``name`` overrides one the repository's common
        base class declares (an options-selected model: ``BaseModel.optimize_parameters``
        implemented by each ``--model``'s class): a call on an untyped instance of that base
        runs one of them, whichever the options pick."""
        owners = [f.rpartition(".")[0] for f in found]
        if not owners or not all(o in methods for o in owners):
            return False
        common = set.intersection(*(ancestors(o) for o in owners))
        return any(name in methods.get(c, ()) for c in common)

    def untyped(callee: str) -> bool:
        name = callee.rpartition(".")[2]
        found = defined.get(name, [])
        if not callee.startswith("?.") or name in _GENERIC_METHODS or not found:
            return False
        if len(found) <= 2 and all(reaches(f) for f in found):
            return True
        # an interface method: the options pick the implementation, and the training runs
        # through one that steps the optimizer
        return interface(name, found) and any(reaches(f) for f in found)

    # the training frameworks whose modules the repository's training step is written in
    # (a LightningModule's ``configure_optimizers`` and ``training_step``)
    stepping = {f.path for f in result.api_findings if TRAINING_STEP.search(f.api)}
    frameworks = {
        top
        for path in stepping
        if path in files and not is_test_path(path) and files[path].syntax is not None
        for _, imported in files[path].syntax.imports
        if (top := imported.partition(".")[0]) in TORCH_FRAMEWORKS
    }
    out = set()
    for path, fa in files.items():
        name = PurePosixPath(path).name.lower()
        if is_test_path(path) or any(path_matches(name, p) for p in _NOT_ENTRY):
            continue
        callees = sorted(
            {resolve(c.callee) for c in fa.calls if c.role == "call"}
            | {resolve(name) for name in _callbacks(fa)}
        )
        stepped = any(untyped(c) if c.startswith("?") else reaches(c) for c in callees)
        if stepped or (frameworks and _fits_with(fa, frameworks)):
            out.add(path)
    return frozenset(out)


def _callbacks(fa: FileAnalysis) -> set[str]:
    """The dotted names of the functions ``fa`` hands another call as an argument
    (``multi_proc_run(num_proc=n, fun=trainer.train_model)``, ``launch(main, ...)``): a
    launcher runs them, so a script dispatching its ``--mode train`` so reaches the
    training step as surely as by calling it. Names are read through the file's imports
    (``trainer`` → ``pkg.core.trainer``) or are the file's own module-level names."""
    values = fa.syntax.values if fa.syntax is not None else None
    if values is None:
        return set()
    imported = dict(fa.syntax.imports) if fa.syntax is not None else {}
    found: set[str] = set()
    for call in values.calls:
        passed = [*call.expr.args, *(kw.parts[0] for kw in call.expr.keywords if kw.parts)]
        for arg in passed:
            if arg.kind not in ("Name", "Attribute") or not re.fullmatch(r"[\w.]+", arg.text):
                continue
            head, _, rest = arg.text.partition(".")
            if head in imported:
                found.add(imported[head] + (f".{rest}" if rest else ""))
            elif head not in ("self", "cls"):
                found.update(f"{m}.{arg.text}" for m in fa.modules[:1])
    return found


#: The hooks of a framework's module that only its trainer calls, in ``fit``: Lightning's
#: ``training_step``, ``configure_optimizers``, ``on_train_batch_end``, ``optimizer_step``...
_FRAMEWORK_HOOK = re.compile(
    r"^(?:training_\w+|on_train\w*|configure_optimizers|optimizer_\w+|backward|manual_backward)$"
)


def _fits_with(fa: FileAnalysis, frameworks: set[str]) -> bool:
    """Whether a script hands the training to one of ``frameworks``: it runs as a script
    (a ``__main__`` block), imports the framework and calls a ``fit`` (latent-diffusion's
    ``main.py``: ``trainer = Trainer.from_argparse_args(...)``, ``model =
    instantiate_from_config(config.model)``, ``trainer.fit(model, data)``). The framework then
    runs the LightningModule's ``training_step`` and ``configure_optimizers``, which no call
    of the script names: the script is the training entry, not a tool. A script importing
    the framework to load a checkpoint, or calling ``fit`` with none imported (a scikit-learn
    probe), is none."""
    return fa.syntax is not None and fa.syntax.main_guard and fits_with(fa, frameworks)


#: Methods every module or trainer has: an untyped call to one says nothing about training.
_GENERIC_METHODS = frozenset(
    {"train", "eval", "forward", "__call__", "__init__", "step", "run", "main", "update"}
)
#: Scripts that reach the training step but do not train the model: plotting an assigner
#: (YOLOX's ``visualize_assign.py`` subclasses the trainer), timing a training step
#: (detectron2's ``tools/benchmark.py``), demos and exports: the files counted apart by name.
_NOT_ENTRY = tuple(ANCILLARY_FILES)


def staged(recipe: tuple[RecipeItem, ...], stages: Sequence[str]) -> tuple[RecipeItem, ...]:
    """The rows of an earlier stage's training script said to be that stage's (``stages``:
    :attr:`~apiscan.review.work.Ancillary.stages`, in the documented order): two batch sizes
    or learning rates are then two models' (DALL-E's VAE, then the transformer on it), not
    one run's conflicting values."""
    if not stages:
        return recipe
    out = []
    for item in recipe:
        if item.where.path in stages:
            n = stages.index(item.where.path) + 1
            said = f"stage {n} of {len(stages) + 1}: {item.where.path} trains its own model first"
            item = replace(item, note=f"{said}; {item.note}" if item.note else said)
        out.append(item)
    return tuple(out)


def training_files(result: ScanResult) -> frozenset[str]:
    """Files outside tests that build an optimizer or run a backward pass: the training step,
    ported wherever it lives (``tools/train.py``). None: the repository only infers."""
    return frozenset(
        f.path for f in result.api_findings if trains(f.api) and not is_test_path(f.path)
    )


#: The last name of a loss function or class (``cross_entropy``, ``FocalLoss``,
#: ``sigmoid_focal_loss_jit``, a Module's ``losses`` method).
_LOSS_NAME = re.compile(r"(?i)(^|_)loss(es)?($|_)|Loss$|^cross_entropy$|^nll_loss$")


def loss_uses(
    result: ScanResult, analyses: Sequence[FileAnalysis], ancillary: Ancillary
) -> tuple[tuple[str, Where], ...]:
    """(name, where) of the losses the ported files compute: torch's loss functions and
    classes in the network graph, another package's loss functions, the repository's own
    loss methods called from the model. In a repository with no optimizer this says the
    training loop lives in a framework, not that the code only infers."""
    found: dict[str, Where] = {}
    for f in result.api_findings:
        last = f.api.rpartition(".")[2]
        if f.scope == "network" and _LOSS_NAME.search(last) and not ancillary.why(f.path):
            found.setdefault(f.api, Where(f.path, f.span.line, f.cell))
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        for call in fa.calls:
            if call.role == "call" and _LOSS_NAME.search(call.callee.rpartition(".")[2]):
                found.setdefault(call.callee, place(fa, call.line))
        for top, names in facts.package_uses:
            for name in names:
                if top != "torch" and _LOSS_NAME.search(name.rpartition(".")[2]):
                    found.setdefault(name, Where(fa.path, 1))
    # a call with its line first; a package use is known only by its file
    return tuple(sorted(found.items(), key=lambda t: (t[1].line == 1, t[1].path, t[1].line, t[0])))


def trainer_signs(analyses: Sequence[FileAnalysis], ancillary: Ancillary) -> bool:
    """Whether the ported files show that a trainer outside the repository runs the model's
    losses: a loss computed in a function that tests a training switch (``if
    self.training: return self.losses(...)``, or after ``if not self.training: return``),
    or another package's loss function imported (a framework's ``giou_loss``). A loss
    computed with neither is computed the same way at inference, or never: no training."""
    for fa, facts in with_facts(analyses):
        if ancillary.why(fa.path):
            continue
        if any(
            top != "torch" and _LOSS_NAME.search(name.rpartition(".")[2])
            for top, names in facts.package_uses
            for name in names
        ):
            return True
        if facts.values is None:
            continue
        calls = facts.values.calls
        switched = {
            near.function
            for call in calls
            for near in call.ifs
            if train_switch(near.test) is not None
        } | {
            near.function
            for d in facts.values.defs
            for a in d.assigns
            for near in a.ifs
            if train_switch(near.test) is not None
        }
        if any(
            _LOSS_NAME.search(call.expr.func.name)
            and (call.scope in switched or any(n.function in switched for n in call.ifs))
            for call in calls
            if call.expr.func.kind in ("Name", "Attribute")
        ):
            return True
    return False


def _external_training(losses: tuple[tuple[str, Where], ...]) -> RecipeItem:
    """The recipe row of a model trained outside the repository: its losses, and where the
    optimizer and schedule must be read instead."""
    names = ", ".join(name for name, _ in losses[:6]) + (" ..." if len(losses) > 6 else "")
    return RecipeItem(
        "loss",
        names,
        losses[0][1],
        note=(
            "the model computes its losses, but no optimizer or backward pass is in the "
            "repository: a framework's trainer runs the step (its optimizer, schedule and "
            "augmentation come from that framework and its config)"
        ),
    )


#: Files counted apart that may still hold the training entry (``tools/train.py``). A
#: notebook counted apart is never one, in a ``notebooks/`` folder or not (dinov2's
#: ``notebooks/dinotxt.ipynb`` runs ``torch.autocast`` and a loader to probe features): where
#: only notebooks train, the training notebook is no file counted apart at all.
_ENTRY_PLACES = frozenset({"", "tools", "scripts", "examples"})


#: Work item kinds whose places are the calls that pass something MindSpore lacks: a call
#: in a branch the run's values skip passes nothing. (The weights a run resumes from or an
#: evaluation loads under ``if args.resume:`` are converted all the same; an extension's
#: op is built whichever branch calls it.)
_DROPPED_IN_SKIPPED_BRANCHES = frozenset({"unsupported-param", "memory-param", "bn-momentum"})


def _taken_work(
    items: tuple[WorkItem, ...], taken: Sequence[Callable[[str, int], bool | None]]
) -> tuple[WorkItem, ...]:
    """The work items less their places inside ``if`` branches the run's values skip (the
    recipe's reading: argparse defaults, the config the entry loads, what the callers pass),
    an item with none left dropped: ``nn.LeakyReLU(inplace=True)`` under ``elif act ==
    "lrelu"`` when every build passes ``act="silu"`` is no unsupported-parameter gap of the
    port. A place no value decides stays."""

    def runs(path: str, line: int) -> bool:
        return all(branch_taken(path, line) is not False for branch_taken in taken)

    kept = [i for i in items if i.kind not in _DROPPED_IN_SKIPPED_BRANCHES]
    other = reached_work([i for i in items if i.kind in _DROPPED_IN_SKIPPED_BRANCHES], runs)
    return _sorted_work((*kept, *other))


#: A command's value naming a file or a folder (``data/train``, ``m30k.pkl``): where a
#: run reads or writes, no choice of what it builds.
_PATH_VALUE = re.compile(r"/|\.[A-Za-z]\w*$")
#: How many other documented runs, and options of each, the effort names.
_MAX_OTHER_RUNS = 3
_MAX_RUN_OPTIONS = 6


def other_runs(runs: Sequence[Launch], reference: Launch | None) -> tuple[str, ...]:
    """The documented training commands of the reference run's script after it that pass
    other choices (``README.md:84 (--Transformation TPS, --Prediction Attn)``): each place
    with the options whose values differ from the reference's, paths left aside (another
    dataset folder is no other model); none when no run differs."""
    if reference is None or not reference.script:
        return ()

    def options(run: Launch) -> dict[str, str]:
        out: dict[str, str] = {}
        words = run.words
        for index, word in enumerate(words):
            if not word.startswith("-") or NUMBER.match(word):
                continue
            flag, equals, value = word.partition("=")
            if not equals:
                value = words[index + 1] if index + 1 < len(words) else ""
                value = "" if value.startswith("-") and not NUMBER.match(value) else value
            out[flag] = value
        return out

    given = options(reference)
    out: list[str] = []
    for run in runs:
        if run.script != reference.script or (run.path, run.line) == (
            reference.path,
            reference.line,
        ):
            continue
        differ = [
            f"{flag} {value}".strip()
            for flag, value in options(run).items()
            if given.get(flag) != value and not _PATH_VALUE.search(value)
        ]
        if differ:
            shown = ", ".join(differ[:_MAX_RUN_OPTIONS])
            out.append(f"{run.path}:{run.line} ({shown})")
        if len(out) == _MAX_OTHER_RUNS:
            break
    return tuple(out)


def branch_picked_out(
    analyses: Sequence[FileAnalysis],
    modules: Sequence[ModuleNode],
    taken: Sequence[Callable[[str, int], bool | None]],
    apart: Callable[[str], str],
) -> dict[str, tuple[str, int, int, str]]:
    """The module classes a constructor picks by a local bound in each branch of an ``if``
    and called after it (``if net == 'vgg': net_type = vgg16 elif net == 'alex': net_type =
    alexnet ...`` then ``self.net = net_type(...)``) whose every binding sits in a branch the
    run's values skip while another binding of that local runs: alternatives the run never
    builds, nor does any other code of the port (a reference outside the class's own body,
    in a file not counted apart, keeps it). Class (dotted) -> (its path, first, last line,
    its name in the module)."""
    by_short = _by_short_name(modules)
    runs = _all_verdicts(taken)

    spans: dict[str, tuple[str, int, int, str]] = {}
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or apart(fa.path) or is_test_path(fa.path):
            continue
        spans.update(
            {
                f"{mod}.{d.qual}": (fa.path, d.line, d.end_line, d.qual)
                for d in values.defs
                if d.is_class
                for mod in fa.modules
            }
        )
    # class -> (path, line) of the bindings of it in skipped branches
    candidates: dict[str, set[tuple[str, int]]] = {}
    for fa, _, _, _, bindings in _branch_bindings(analyses, by_short, runs, apart):
        alive = {cls for cls, _, r in bindings if r is not False}
        for cls, line, r in bindings:
            if r is False and cls and cls not in alive:
                candidates.setdefault(cls, set()).add((fa.path, line))
    if not candidates:
        return {}
    # every name read in the port's code, with where: a class named anywhere else the port
    # runs (built directly, handed on) stays
    reads: list[tuple[str, int, str]] = []
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or apart(fa.path) or is_test_path(fa.path):
            continue
        exprs = [(c.expr.line, c.expr) for c in values.calls]
        exprs += [(a.line, a.value) for a in values.assigns]
        exprs += [(a.line, a.value) for d in values.defs for a in d.assigns]
        reads.extend(
            (fa.path, line, e.name)
            for line, expr in exprs
            for e in expr.walk()
            if e.kind in ("Name", "Attribute") and e.name
        )

    def named(found: Mapping[str, set[tuple[str, int]]], out: Collection[str]) -> set[str]:
        """The classes of ``found`` a read names outside their own body, the bodies of
        ``out`` and their skipped bindings."""
        shorts = {cls.rpartition(".")[2]: cls for cls in found}
        bodies = [spans[c][:3] for c in (*found, *out) if c in spans]
        kept: set[str] = set()
        for path, line, name in reads:
            cls = shorts.get(name)
            if cls is None or (path, line) in found[cls]:
                continue  # the skipped binding itself
            if any(path == p and first <= line <= last for p, first, last in bodies):
                continue  # a body left out (``tv.vgg16(...)`` inside class ``vgg16``)
            kept.add(cls)
        return kept

    kept = named(candidates, ())
    out = {cls: spans[cls] for cls in candidates if cls not in kept and cls in spans}
    # ... and the blocks only those classes build (a left-out transformation's localization
    # network and grid generator): built by nothing the run builds
    parents: dict[str, set[str]] = {}
    for m in modules:
        for child in m.children:
            parents.setdefault(child, set()).add(m.cls)
    while True:
        more = {
            cls: set()
            for cls, by in parents.items()
            if cls not in out and cls in spans and by <= out.keys()
        }
        more = {c: v for c, v in more.items() if c not in named(more, out)} if more else {}
        if not more:
            return out
        out.update({cls: spans[cls] for cls in more})


def _branch_bindings(
    analyses: Sequence[FileAnalysis],
    by_short: Mapping[str, Sequence[ModuleNode]],
    runs: Callable[[str, int], bool | None],
    apart: Callable[[str], str],
) -> Iterator[tuple[FileAnalysis, int, str, str, list[tuple[str, int, bool | None]]]]:
    """(file, def index, owner class's name in the module or "", the local, its bindings:
    (class, line, whether the run takes the branch)) of each local a def binds to one of
    the repository's module classes in two branches or more and calls, one binding of
    which the run's values take (:func:`branch_picked_out`)."""
    for fa, facts in with_facts(analyses):
        values = facts.values
        if values is None or apart(fa.path) or is_test_path(fa.path):
            continue
        for n, d in enumerate(values.defs):
            called = {
                c.expr.callee()
                for c in values.calls
                if c.function == n and "." not in c.expr.callee()
            }
            bound: dict[str, list[tuple[str, int, bool | None]]] = {}
            for a in d.assigns:
                # a constructor's part built in each branch (``if variant == "small":
                # self.backbone = SmallEncoder(...) else: self.backbone = BigEncoder(...)``)
                part = (
                    d.name == "__init__"
                    and a.ifs
                    and a.target.kind == "Attribute"
                    and a.target.target.kind == "Name"
                    and a.target.target.name == "self"
                    and a.value.kind == "Call"
                )
                if part:
                    found = by_short.get(a.value.callee(), [])
                    key = f"self.{a.target.name}"
                    if len(found) == 1:
                        bound.setdefault(key, []).append(
                            (found[0].cls, a.line, runs(fa.path, a.line))
                        )
                    elif not found and a.value.callee():
                        # a framework layer built in another branch (``if opt.Prediction ==
                        # 'CTC': self.Prediction = nn.Linear(...)`` beside ``elif ... 'Attn':
                        # self.Prediction = Attention(...)``): "" for no class of the
                        # repository, the branch the run takes all the same
                        bound.setdefault(key, []).append(("", a.line, runs(fa.path, a.line)))
                    continue
                if (
                    a.target.kind != "Name"
                    or a.target.name not in called
                    or not a.ifs
                    or a.value.kind not in ("Name", "Attribute")
                ):
                    continue
                found = by_short.get(a.value.name or "", [])
                if not found and a.value.kind == "Attribute" and a.value.name[:1].isupper():
                    # a framework layer class bound in another branch (``norm_layer =
                    # nn.BatchNorm2d`` beside ``else: norm_layer = ActNorm``): "" for no class
                    # of the repository, the branch the run takes all the same
                    bound.setdefault(a.target.name, []).append(("", a.line, runs(fa.path, a.line)))
                    continue
                if len(found) != 1:
                    continue
                cls = found[0].cls
                bound.setdefault(a.target.name, []).append((cls, a.line, runs(fa.path, a.line)))
            owner = values.defs[d.owner].qual if d.owner >= 0 and d.name == "__init__" else ""
            for local, bindings in bound.items():
                if not any(cls for cls, _, _ in bindings):
                    continue
                if len(bindings) > 1 and any(r is True for _, _, r in bindings):
                    yield fa, n, owner, local, bindings
                elif local.startswith("self.") and all(r is False for _, _, r in bindings):
                    # a constructor's part built only in branches the run's values skip
                    # (``if opt.Transformation == 'TPS': self.Transformation = TPS(...)``
                    # with ``--Transformation None``): the run builds no such part
                    yield fa, n, owner, local, bindings


def _by_short_name(modules: Sequence[ModuleNode]) -> dict[str, list[ModuleNode]]:
    """The module classes by their last name (what a local bound in a branch spells)."""
    by_short: dict[str, list[ModuleNode]] = {}
    for m in modules:
        by_short.setdefault(m.cls.rpartition(".")[2], []).append(m)
    return by_short


def _all_verdicts(
    taken: Sequence[Callable[[str, int], bool | None]],
) -> Callable[[str, int], bool | None]:
    """Whether a line runs by every reading of the run's values: False if one says skipped,
    None if one cannot tell, else True."""

    def runs(path: str, line: int) -> bool | None:
        verdicts = [t(path, line) for t in taken]
        if any(v is False for v in verdicts):
            return False
        return None if any(v is None for v in verdicts) else True

    return runs


def branch_picked_parts(
    analyses: Sequence[FileAnalysis],
    modules: Sequence[ModuleNode],
    taken: Sequence[Callable[[str, int], bool | None]],
    apart: Callable[[str], str],
) -> dict[str, list[tuple[str, str]]]:
    """Module class (dotted) -> (attribute, class) of the parts its constructor builds from
    such a local (``self.net = net_type(...)``): the class of the one binding the run takes,
    none where the run takes several or none."""
    by_short = _by_short_name(modules)
    runs = _all_verdicts(taken)

    out: dict[str, list[tuple[str, str]]] = {}
    for fa, n, owner, local, bindings in _branch_bindings(analyses, by_short, runs, apart):
        picked = {cls for cls, _, r in bindings if r is True}
        if local.startswith("self.") or not owner or len(picked) != 1:
            continue  # (a part built in its branch: the tree reads it where it is built)
        if any(r is None for _, _, r in bindings):
            continue
        (cls,) = picked
        values = fa.syntax.values if fa.syntax is not None else None
        for a in values.defs[n].assigns if values is not None else ():
            target = a.target
            if (
                target.kind == "Attribute"
                and target.target.kind == "Name"
                and target.target.name == "self"
                and a.value.kind == "Call"
                and a.value.callee() == local
            ):
                for mod in fa.modules:
                    out.setdefault(f"{mod}.{owner}", []).append((target.name, cls))
    return out


def _unbuilt_classes_out(
    modules: Sequence[ModuleNode],
    tops: Sequence[TopModel],
    dead: Collection[tuple[str, str]],
    unreached: Collection[tuple[str, str]],
    ancillary: Ancillary,
    alternatives: Collection[tuple[str, str]] = frozenset(),
) -> tuple[ModuleNode, ...]:
    """The module classes less those of ported files the run never builds, and less their
    place among other classes' children: a class nothing names at all or only files counted
    apart use (``dead``, (path, module-level name): HAT's ``PatchMerging`` nothing
    constructs, ByteTrack's ``YOLOFPN`` only re-exported by a package's ``__init__``), and
    one of ``unreached`` (what only code not reached uses) whose every builder in the tree
    is gone (the ``Darknet`` only ``YOLOFPN`` builds), or that only unreached functions
    build (a model zoo's ``DPN`` built by ``DPN26()``, which nothing calls; a module's
    functions picked from its ``__dict__`` by a name not known are never unreached), unless
    such a class is one of the ``alternatives`` (what only a branch the defaults skip or an
    unpicked entry reaches: listed with the alternatives). A top
    model and the parts it builds stay, as do the classes of files counted apart (listed
    apart with their files)."""
    # a top model and its parts stay, whatever the reachability says of them (a model
    # whose training only a script counted apart launches)
    by_cls = {m.cls: m for m in modules}
    models = {t.cls for t in tops}
    todo = list(models)
    while todo:
        node = by_cls.get(todo.pop())
        for child in node.children if node is not None else ():
            if child not in models:
                models.add(child)
                todo.append(child)
    builders: dict[str, set[str]] = {}
    for m in modules:
        for child in m.children:
            builders.setdefault(child, set()).add(m.cls)

    def key(m: ModuleNode) -> tuple[str, str]:
        # a module-level class by its name (a nested one is its outer def's: kept)
        return (m.where.path, m.cls.rpartition(".")[2])

    candidates = [m for m in modules if m.cls not in models and not ancillary.why(m.where.path)]
    # the names a top model's parts are written with (``encoder`` ← ``Encoder``, built by
    # a conditional callee the tree's children do not show): such a class is built
    parts = {w for t in tops for _, part in t.parts for w in re.findall(r"\w+", part)}
    gone = {m.cls for m in candidates if key(m) in dead}
    grew = True
    while grew:
        grew = False
        for m in candidates:
            built_by = builders.get(m.cls, set())
            if (
                m.cls not in gone
                and key(m) in unreached
                and built_by <= gone
                and (built_by or (key(m) not in alternatives and key(m)[1] not in parts))
            ):
                gone.add(m.cls)
                grew = True
    if not gone:
        return tuple(modules)
    return tuple(
        replace(m, children=tuple(c for c in m.children if c not in gone))
        for m in modules
        if m.cls not in gone
    )


def _without_classes(
    items: tuple[WorkItem, ...],
    tops: Sequence[TopModel],
    modules: Sequence[ModuleNode],
    classes: Mapping[str, tuple[str, int, int, str]],
    built: Mapping[str, Sequence[tuple[str, str]]] = {},
) -> tuple[tuple[WorkItem, ...], list[TopModel], tuple[ModuleNode, ...]]:
    """The work items less their places inside ``classes`` (an item with none left dropped),
    the top models' parts and the module classes' children less those classes: what
    :func:`branch_picked_out` finds the run never builds; with the parts the run builds
    instead (``built``: :func:`branch_picked_parts`) among their parts and children."""

    def inside(where: Where) -> bool:
        return any(
            where.path == path and first <= where.line <= last
            for path, first, last, _ in classes.values()
        )

    kept: list[WorkItem] = []
    for item in items:
        places = tuple(w for w in item.where if not inside(w))
        if not places:
            continue
        kept.append(item if len(places) == len(item.where) else replace(item, where=places))
    shorts = {cls.rpartition(".")[2] for cls in classes}
    new_tops: list[TopModel] = []
    for top in tops:
        parts: list[tuple[str, str]] = []
        for label, text in top.parts:
            if label == structure.ALSO_BUILDS:
                rest = [n for n in text.split(", ") if n not in shorts]
                if rest:
                    parts.append((label, ", ".join(rest)))
                continue
            parts.append((label, text))
        labels = {a for label, _ in parts for a in label.split(", ")}
        also = [p for p in parts if p[0] == structure.ALSO_BUILDS]
        parts = [p for p in parts if p[0] != structure.ALSO_BUILDS]
        shown: set[str] = set()
        for attr, cls in built.get(top.cls, ()):
            if attr not in labels:
                short = cls.rpartition(".")[2]
                shown.add(short)
                parts.append((attr, f"{short} (the branch the run's values take)"))
        for label, text in also:  # a class now shown as its part is not said again
            rest = [n for n in text.split(", ") if n not in shown]
            if rest:
                parts.append((label, ", ".join(rest)))
        new_tops.append(replace(top, parts=tuple(parts)))
    # (a left-out class keeps its own children: the alternatives' tree shows what they
    # build)
    new_modules = tuple(
        replace(
            m,
            children=tuple(
                dict.fromkeys(
                    [c for c in m.children if c not in classes or m.cls in classes]
                    + [cls for _, cls in built.get(m.cls, ())]
                )
            ),
        )
        for m in modules
    )
    return tuple(kept), new_tops, new_modules


def _scripts(analyses: Sequence[FileAnalysis]) -> frozenset[str]:
    """Files that run as a script (``if __name__ == "__main__"`` at their top level), as
    their workers recorded it."""
    return frozenset(
        fa.path
        for fa in analyses
        if not fa.errors and fa.syntax is not None and fa.syntax.main_guard
    )


#: Words of a script's name that say it is a tool beside training, not its launcher.
_TOOL_WORDS = frozenset({"checkpoint", "checkpoints", "export", "convert", "bench", "benchmark"})


def _side_tool(path: str) -> bool:
    """A script named for evaluation or as a tool (``validate.py``, ``eval_linear.py``,
    ``clean_checkpoint.py``), never for training (``tools/train.py``, ``main_pretrain.py``)."""
    words = _words(PurePosixPath(path).stem)
    return bool(words & (_EVALUATION_WORDS | _TOOL_WORDS)) and not words & {"train", "pretrain"}


def _evaluation_script(scripts: frozenset[str], path: str, training: frozenset[str]) -> bool:
    """A script run on its own (``if __name__ == "__main__"``) that trains nothing:
    ``eval_knn.py``, ``video_generation.py`` beside ``main_dino.py``."""
    return path not in training and path in scripts


#: Words of a name that say it runs at evaluation time (``ValTransform``,
#: ``transforms_imagenet_eval``, ``get_eval_loader``): its transforms preprocess.
_EVALUATION_WORDS = frozenset(
    {"eval", "evaluate", "evaluation", "val", "valid", "validate", "validation", "test"}
    | {"testing", "infer", "inference", "predict", "prediction", "demo"}
)
_TRAINING_WORDS = frozenset({"train", "training", "aug", "augment", "augmentation"})
_CALLED = re.compile(r"^([\w.]+)\(")
_STORED = re.compile(r"stored as ([\w.]+)")


def _words(name: str) -> set[str]:
    """``ValTransform`` → {val, transform}; ``get_eval_loader`` → {get, eval, loader}."""
    return {w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+", name)}


def _evaluation_time(item: RecipeItem, fa: FileAnalysis | None) -> bool:
    """An augmentation row that only preprocesses for evaluation: the transform's name or
    the builder its value calls says so, or the function it is built in does (the scan's
    spans of the file's defs)."""
    stored = _STORED.search(item.note)
    when = dict(item.values).get("when", "")
    # what the composition is stored as says it first (train_transform, val_tf), then the
    # test that picks it (``if split == "val":``)
    if re.search(r"\bnot\b|!=", when):
        when = ""  # ``if not is_train:``: the words would say the opposite
    for said in (stored.group(1) if stored else "", " ".join(re.findall(r"\w+", when))):
        words = set().union(*(_words(w) for w in said.split())) if said else set()
        if words & _TRAINING_WORDS or words & _EVALUATION_WORDS:
            return not words & _TRAINING_WORDS
    names = [item.name.rpartition(".")[2]]
    names += [m.group(1).rpartition(".")[2] for _, v in item.values if (m := _CALLED.match(v))]
    # a composition of a list named for evaluation (``Compose(transform_val_list)``)
    if item.name.startswith("composition"):
        names += [v for _, v in item.values if v.isidentifier()]
    if fa is not None and fa.syntax is not None:
        line = item.where.line
        if item.where.cell:  # a notebook: the joined line of (cell, line in cell)
            line = next((n for n, at in enumerate(fa.cells, 1) if at == (item.where.cell, line)), 0)
        names += fa.syntax.enclosing(line).split(".")
    return any(_words(name) & _EVALUATION_WORDS for name in names)


#: A setting that names the range of input sizes the training draws (YOLOX's
#: ``random_size``, a ``multi_scale`` list or switch).
_MULTI_SCALE_SETTING = re.compile(r"random_?(size|resize|shape)s?|multi_?scales?", re.IGNORECASE)
#: What a setting holds when it is switched off.
_NO_SETTING = frozenset({"None", "False", "0", "()", "[]", "''", '""'})


def multi_scale(result: ScanResult, recipe: tuple[RecipeItem, ...]) -> tuple[tuple[str, str], ...]:
    """(path, step) of the augmentation rows that resize to one of several sizes
    (detectron2's lazy config: ``ResizeShortestEdge(short_edge_length=(640, ..., 800),
    sample_style="choice")``) when the scan itself found no random resize (DS119): every
    batch then has its own shape, an input pipeline to bucket."""
    found = set()
    steps: dict[str, str] = {}  # one per resize step: two scripts running it are one pipeline
    for item in recipe:
        if item.category == "preprocessing":
            for step in _own_sizes(item):
                steps.setdefault(step, item.where.path)
        if item.category != "augmentation" or any(
            f.case == RANDOM_RESIZE for f in result.shape_findings
        ):
            continue
        setting = item.name.rpartition(".")[2]
        if _MULTI_SCALE_SETTING.fullmatch(setting) and any(
            key == "value" and value not in _NO_SETTING for key, value in item.values
        ):
            # a configuration's range of input sizes drawn during training (YOLOX's
            # ``self.random_size = (18, 32)``): one pipeline, whichever configs set it
            steps.setdefault(f"multi-scale {item.name}", item.where.path)
            continue
        for _, value in item.values:
            hit = MULTI_SCALE.search(value)
            if hit:
                found.add((item.where.path, f"multi-scale {hit.group(1)}"))
            drawn = DRAWN_SIZE.search(value) if item.note == HAND_DRAWN else None
            if drawn:
                found.add((item.where.path, f"multi-scale {item.name}"))
    return tuple(sorted(found | {(path, step) for step, path in steps.items()}))


#: A resize that keeps each image's aspect ratio (``keep_aspect_ratio=True``), and a later
#: step that makes the size fixed again (a crop, a pad to a square).
_KEEPS_RATIO = re.compile(r"^(\w+)\(.*\bkeep_(?:aspect_)?ratio\s*=\s*True")
_FIXES_SIZE = re.compile(r"^(?:\w+\.)*\w*(Crop|Pad)\w*\(", re.IGNORECASE)
#: ... unless the crop is a fraction of each image (detectron2's ``RandomCrop("relative_range",
#: (0.9, 0.9))``): the size still follows the image.
_RELATIVE = re.compile(r"relative", re.IGNORECASE)


def _fixed_after(steps: Sequence[str], i: int) -> bool:
    """Whether a step after the ``i``-th of a composition crops or pads to a fixed size."""
    return any(_FIXES_SIZE.match(s) and not _RELATIVE.search(s) for s in steps[i + 1 :])


def _run_places(
    items: Sequence[WorkItem],
    unrun: Callable[[Iterable[tuple[str, int]]], frozenset[tuple[str, int]]],
) -> tuple[WorkItem, ...]:
    """The work items less those whose every place is in a branch the run never takes
    (``unrun``: a third-party conv under ``elif rectified_conv:``, the parameter left False
    by every caller). A checkpoint load stays (a resume the defaults leave off is still the
    format to convert), and so does an item with a place that runs, all its places listed."""
    skipped = unrun((w.path, w.line) for i in items for w in i.where)
    return tuple(
        i
        for i in items
        if i.kind == "checkpoint"
        or not i.where
        or not all((w.path, w.line) in skipped for w in i.where)
    )


def cropped_resizes(result: ScanResult, recipe: Sequence[RecipeItem]) -> frozenset[tuple[str, str]]:
    """(path, function) of the random resizes (DS119) in a transform class's method whose
    every training composition crops or pads to a fixed size after it (DeepLabV3+'s
    ``ExtRandomScale((0.5, 2.0))`` then ``ExtRandomCrop(size=(513, 513),
    pad_if_needed=True)``): every batch then has one shape, no input pipeline to bucket. A
    transform no composition row shows stays counted."""
    compositions = [
        [value for key, value in item.values if key.isdigit()]
        for item in recipe
        if item.category == "augmentation" and item.name.startswith("composition in ")
    ]
    fixed = set()
    for f in result.shape_findings:
        if f.case != RANDOM_RESIZE:
            continue
        cls = (f.function or "").rpartition(".")[0].rpartition(".")[2]
        if not cls:
            continue
        uses = [
            (steps, i)
            for steps in compositions
            for i, step in enumerate(steps)
            if step.partition("(")[0].rpartition(".")[2] == cls
        ]
        if uses and all(_fixed_after(steps, i) for steps, i in uses):
            fixed.add((f.path, f.function))
    return frozenset(fixed)


def _own_sizes(item: RecipeItem) -> list[str]:
    """The inference path's resize steps that give every image its own size (DPT's resize
    to a multiple of 32 keeping the aspect ratio), with no crop or pad after them: the
    compiled network sees one shape per image size (set_inputs with dynamic axes, or a
    fixed size), and the code that pads each side up to a multiple (:data:`PER_IMAGE_PAD`)."""
    if item.name.startswith(PER_IMAGE_PAD):
        # padded up to a multiple of its own size (CRAFT's canvas): the shape still varies
        return [f"per-image sizes {item.name.rpartition(' in ')[2]}"]
    steps = [value for key, value in item.values if key.isdigit()]
    out = []
    for i, value in enumerate(steps):
        hit = _KEEPS_RATIO.match(value)
        if hit and not _fixed_after(steps, i):
            out.append(f"per-image sizes {hit.group(1)}")
    return out


def _recipe_file(why: str) -> bool:
    """Whether a recipe fact in a file counted apart for ``why`` is part of the recipe:
    demos, exports, hub files, plotting, side projects and adapters are not."""
    return why in _ENTRY_PLACES or why.startswith("matches ")


#: A config key naming the weights a framework loads into what it builds (``MODEL.WEIGHTS``,
#: ``pretrained``, ``load_from``).
_WEIGHTS_KEY = re.compile(r"(?:^|\.)(?:WEIGHTS|PRETRAINED|pretrained|load_from|checkpoint)$")
#: Values that name no weights.
_NO_WEIGHTS = frozenset({"", "None", "False", "0"})


def config_backbones(recipe: Sequence[RecipeItem], prefix: str) -> tuple[WorkItem, ...]:
    """A pretrained-backbone item for each backbone row read from a config (rows named
    ``prefix``...) that names weights: DeFCN's ``MODEL.WEIGHTS =
    "detectron2://ImageNetPretrained/MSRA/R-50.pkl"`` with ``RESNETS.DEPTH = 50``, built by
    cvpods. The architecture lives in the framework and the weights are a PyTorch pickle:
    both are porting work the API tables do not show."""
    out = []
    for item in recipe:
        if item.category != "backbone" or not item.name.startswith(prefix):
            continue
        weights = [
            v
            for k, v in item.values
            if _WEIGHTS_KEY.search(k) and v.strip("'\"") not in _NO_WEIGHTS
        ]
        if not weights:
            continue
        others = ", ".join(f"{k}={v}" for k, v in item.values if not _WEIGHTS_KEY.search(k))
        built = f"{item.name}: {others}" if others else item.name
        out.append(
            WorkItem(
                kind="pretrained-backbone",
                what=f"pretrained weights {weights[0]} ({built})",
                where=(item.where,),
                why=(
                    "the config names the backbone a framework builds and the pretrained "
                    "weights loaded into it: it needs a MindSpore counterpart of that "
                    "architecture (MindCV or a port) and the weights converted to a MindSpore "
                    "checkpoint (parameter names and BatchNorm statistics mapped), checked "
                    "against PyTorch's outputs" + (f"; {item.note}" if item.note else "")
                ),
            )
        )
    return tuple(out)


#: Model-zoo packages whose architectures a model's part may be picked from by name.
_ZOO_PARTS = ("torchvision.models.", "timm.models.", "timm.")


def zoo_parts(tops: Sequence[TopModel], items: Sequence[WorkItem]) -> tuple[WorkItem, ...]:
    """A backbone item for each model-zoo architecture a top model's part is picked from by
    name (MoCo's ``encoder_q`` ← ``torchvision.models.resnet50``, built from
    ``models.__dict__[args.arch]`` with the option's default), unless a backbone item
    already names it: no call in the code names the architecture, so the zoo-call reading
    finds none, yet the port needs a MindSpore counterpart of it (and its weights converted
    when the part loads pretrained ones). One item per architecture, at every model
    building it."""
    # (an alternative's architecture is noted in the picked one's item: "vgg16 (FCN8...")
    named = " ".join(f"{i.what} {i.why}" for i in items)
    found: dict[str, tuple[list[str], list[Where], bool]] = {}
    for top in tops:
        for param, text in top.parts:
            arch = text.partition(" ")[0]
            tail = arch.rpartition(".")[2]
            # an architecture is built by a zoo's constructor function (``resnet50``), a layer
            # by its class (``Block``: a zoo-layer item's); an item of
            # ``timm.create_model("resnet50")`` names it by its last name
            if (
                not arch.startswith(_ZOO_PARTS)
                or not tail[:1].islower()
                or re.search(rf"\b{re.escape(tail)}\b", named)
            ):
                continue
            params, wheres, weights = found.setdefault(arch, ([], [], False))
            params.append(f"{top.cls.rpartition('.')[2]}.{param}")
            if top.where not in wheres:
                wheres.append(top.where)
            found[arch] = (params, wheres, weights or "pretrained" in text)
    out = []
    for arch, (params, wheres, weights) in sorted(found.items()):
        package = arch.partition(".")[0]
        why = (
            f"the model's parts are built from {package}'s architecture, picked by name (no "
            "call in the code names it): the port needs a MindSpore counterpart of that "
            "architecture (MindCV or a port of its code)"
        )
        if weights:
            why += (
                " and its pretrained weights converted to a MindSpore checkpoint (parameter "
                "names and BatchNorm statistics mapped), checked against PyTorch's outputs"
            )
        out.append(
            WorkItem(
                kind="pretrained-backbone",
                what=f"{arch}{' (pretrained)' if weights else ''} as {', '.join(params)}",
                where=tuple(wheres),
                why=why,
            )
        )
    return tuple(out)


def _sorted_work(items: Sequence[WorkItem]) -> tuple[WorkItem, ...]:
    """Work items in the order of :data:`~apiscan.review.model.WORK_KINDS`, then place."""
    order = list(WORK_KINDS)
    return tuple(
        sorted(items, key=lambda i: (order.index(i.kind), i.where[0].path, i.where[0].line))
    )


def work_recipe(
    items: tuple[WorkItem, ...],
    keeps: Callable[[str], bool] | None = None,
    off: Callable[[Where], str] | None = None,
    other: Callable[[str], str] | None = None,
    training: Collection[str] = (),
) -> tuple[RecipeItem, ...]:
    """The backbones and checkpoint formats of the work items, as recipe facts. ``other``
    says whose recipe a file is when not this one's (a backbone built by the training and
    by a linear evaluation beside it is placed where the training builds it). ``keeps``
    (:func:`~apiscan.review.config_files.framework_keeps`), when a framework runs the
    training, says which files' checkpoint loads are the training's: an inference helper's
    ``torch.load`` is work (the weights are converted all the same) but no recipe row.
    ``off`` says why a load does not run with the defaults (vq-vae-2's ``torch.load``
    under ``if args.ckpt is not None:``, ``--ckpt`` left out): a load that runs is the
    row's place, else the row says the load is a resume the defaults leave off. A load in
    a file that trains (``training``) comes before one elsewhere, whether it runs or not:
    an evaluation script's ``torch.load(args.model)`` beside the training's ``if
    args.restore_ckpt is not None: torch.load(...)`` is another run's start."""
    out = []
    for item in items:
        if item.kind == "pretrained-backbone":
            place = min(item.where, key=lambda w: bool(other and other(w.path)))
            out.append(RecipeItem("backbone", item.what, place, note=item.why))
        elif item.kind == "third-party-model" and item.what.endswith(TEACHER_WHAT):
            # the model the training step distils from: where it is loaded and run
            name = item.what.removesuffix(f", {TEACHER_WHAT}")
            note = "run by the training step beside the trained network: its outputs are targets"
            places = ", ".join(str(w) for w in item.where[1:5])
            values = (("also at", places),) if places else ()
            out.append(RecipeItem("teacher", name, item.where[0], values, note))
        elif item.kind == "checkpoint":
            where = [w for w in item.where if keeps is None or keeps(w.path)]
            # a tool's or demo's load of the released weights is work, not the training's
            ran = [w for w in where if not (other and other(w.path))]
            where = ran or where
            if not where:
                continue
            why = {w: off(w) if off is not None else "" for w in where}
            # the training's own load first, then a load that runs
            where = sorted(
                where, key=lambda w: (bool(training) and w.path not in training, bool(why[w]))
            )
            places = ", ".join(str(w) for w in where[1:4])
            note = f"also at {places}" if places else ""
            # the documented commands that pass a weights file (:func:`_launched_weights`
            # adds their places): the load they switch on starts those runs
            commands = [w for w in where if not w.path.endswith((".py", ".ipynb"))]
            if why[where[0]] and commands:
                started = (
                    f"loaded {why[where[0]]}: the documented commands that pass a weights "
                    f"file start from it ({commands[0]})"
                )
                note = f"{started}; {note}" if note else started
            elif not ran:
                # only a tool or demo loads it (an inference script's ``--checkpoint``): the
                # released weights the ported model is used with, no resume of the training
                used = "loaded only by files counted apart (tools, demos): the released weights"
                note = f"{used}; {note}" if note else used
            elif why[where[0]]:
                resume = f"loaded {why[where[0]]}: a run resumed, not the training's start"
                note = f"{resume}; {note}" if note else resume
            elif commands:
                # the load runs, and the documented commands name the file it reads
                started = (
                    "the documented commands pass a weights file the training starts "
                    f"from ({commands[0]})"
                )
                note = f"{started}; {note}" if note else started
            out.append(RecipeItem("checkpoint", item.what, where[0], note=note))
    return tuple(out)


#: How many checkpoint writes of the training the recipe shows.
_MAX_WRITES = 2


def checkpoint_writes(
    result: ScanResult,
    files: Mapping[str, FileAnalysis],
    training: Collection[str],
    apart: Callable[[str], str],
    options: ArgparseDefaults,
) -> tuple[RecipeItem, ...]:
    """The training's own checkpoint writes (``torch.save`` in a training file, none counted
    apart): what each holds (the keys of the dict it saves, written in the call or bound to
    the name it saves: ``model``, ``ema``, ``opt``) and when (the ``if`` statements around
    it, outermost first, with the value each option they read holds: ``train_steps %
    args.ckpt_every == 0`` and ``args.ckpt_every = 50000``). The port writes the same parts
    with ``mindspore.save_checkpoint`` (the EMA's weights and the optimizer's state too)."""
    out: list[RecipeItem] = []
    seen: set[tuple[str, int]] = set()
    helpers = _training_callers(files, training)
    for f in sorted(result.api_findings, key=lambda f: f.sort_key()):
        if f.api != "torch.save" or f.usage != "call" or apart(f.path):
            continue
        fa = files.get(f.path)
        values = fa.syntax.values if fa is not None and fa.syntax is not None else None
        line = f.span.line
        if values is None or (f.path, line) in seen or len(out) >= _MAX_WRITES:
            continue
        # a helper of another file the training calls writes the training's checkpoint
        # (a ``Saver.save_checkpoint(state, is_best)`` called with the state dict)
        by = [] if f.path in training else _helper_calls(helpers, fa.modules, f.function)
        if f.path not in training and not by:
            continue
        seen.add((f.path, line))
        call = next(
            (c for c in values.calls if c.expr.line == line and c.expr.callee().endswith("save")),
            None,
        )
        if call is None or not call.expr.args:
            continue
        saved = call.expr.args[0]
        # each training call of the helper may hand it another state (HiFi-GAN's
        # ``save_checkpoint(g_path, {'generator': ...})`` then ``save_checkpoint(do_path,
        # {'mpd': ..., 'msd': ..., 'optim_g': ...})``): what each one writes
        holds: list[tuple[str, str]] = []
        if by and saved.kind == "Name" and call.function >= 0:
            for one in by:
                state = _handed_state(values.defs[call.function], saved, one)
                shown_state = _held(state)
                if all(shown_state != h for _, h in holds):
                    holds.append((str(place(one[0], one[1].expr.line)), shown_state))
        if len(holds) == 1:
            holds = []  # every call hands the same state: one row as before
        added: list[str] = []  # keys written into the dict after it is built
        if by and saved.kind == "Name" and call.function >= 0:
            saved = _handed_state(values.defs[call.function], saved, by[0])
        elif saved.kind == "Name" and call.function >= 0:
            stored_as = saved.name
            bound = [
                a
                for a in values.defs[call.function].assigns
                if a.target.kind == "Name" and a.target.name == saved.name and a.line < line
            ]
            if bound:
                # the last one written before the save (the records list a def's assignments
                # in no line order: the branches of a depth pick come last to first)
                last = max(bound, key=lambda a: a.line)
                saved = last.value
                # ``save_dict['model_state_dict'] = net.state_dict()`` (in a ``try``) after
                # ``save_dict = {'epoch': ..., 'optimizer_state_dict': ...}``: held too
                added = [
                    str(a.target.parts[1].value)
                    for a in sorted(values.defs[call.function].assigns, key=lambda a: a.line)
                    if a.target.kind == "Subscript"
                    and len(a.target.parts) > 1
                    and a.target.parts[0].kind == "Name"
                    and a.target.parts[0].name == stored_as
                    and isinstance(a.target.parts[1].value, str)
                    and last.line < a.line < line
                ]
        shown: list[tuple[str, str]] = []
        if holds:
            shown.extend((f"holds ({where})", held) for where, held in holds)
        elif saved.kind == "Dict" and saved.keys and all(saved.keys):
            keys = list(dict.fromkeys([*(str(k) for k in saved.keys), *added]))
            shown.append(("holds", ", ".join(keys)))
        else:
            shown.append(("holds", _held(saved)))
        own = options.values_in(f.path)
        tests = [branch.test for branch in reversed(call.ifs)]
        if tests:
            # a write in an ``else`` (or past an ``elif``) runs when the test fails
            said = [
                f"not ({b.test.text})" if b.body_end and line > b.body_end else b.test.text
                for b in reversed(call.ifs)
            ]
            shown.append(("when", "; ".join(said)))
        for test in tests:
            for e in test.walk():
                held = own.get(e.name) if e.kind == "Attribute" and e.name else None
                if held is not None and len(held) == 1 and e.text not in dict(shown):
                    value = next(iter(held))
                    shown.append((e.text, repr(value) if isinstance(value, str) else str(value)))
        note = (
            "the training's own checkpoint: the port writes the same parts with "
            "mindspore.save_checkpoint (a PyTorch pickle does not load into MindSpore)"
        )
        off = switched_off_branch(fa, line, own, every=True) if fa is not None else ""
        if off:  # ``if opts.out:`` with ``--out`` left empty: no checkpoint by default
            note = f"written {off}; {note}"
        if by:
            sites = ", ".join(f"{c[0].path}:{c[1].expr.line}" for c in by[:3])
            note = f"written by {f.function}, called by the training at {sites}; {note}"
        out.append(RecipeItem("checkpoint_save", f.api, place(fa, line), tuple(shown), note))
    return tuple(out)


def _training_callers(
    files: Mapping[str, FileAnalysis], training: Collection[str]
) -> dict[str, list[tuple[FileAnalysis, CallValues]]]:
    """Fully qualified repository function -> the calls of it the training files make
    (the call graph's edges from those files, with each call's value record)."""
    out: dict[str, list[tuple[FileAnalysis, CallValues]]] = {}
    for path in sorted(training):
        fa = files.get(path)
        values = fa.syntax.values if fa is not None and fa.syntax is not None else None
        if values is None:
            continue
        for fact in fa.calls:
            if fact.role != "call":
                continue
            last = fact.callee.rpartition(".")[2]
            call = next(
                (
                    c
                    for c in values.calls
                    if c.expr.line == fact.line and c.expr.callee().rpartition(".")[2] == last
                ),
                None,
            )
            if call is not None:
                out.setdefault(fact.callee, []).append((fa, call))
    return out


def _helper_calls(
    helpers: Mapping[str, list[tuple[FileAnalysis, CallValues]]],
    modules: Sequence[str],
    function: str,
) -> list[tuple[FileAnalysis, CallValues]]:
    """The training's calls of ``function`` of the module ``modules`` name, by its own
    dotted name or, for a module-level function, through a package above the module that
    re-exports it (``from pkg.utils import save_checkpoint``, defined in
    ``pkg/utils/checkpoint.py``)."""
    found = [c for m in modules for c in helpers.get(f"{m}.{function}", ())]
    if found or not function or "." in function:
        return found
    return [
        c
        for callee, calls in helpers.items()
        if callee.rpartition(".")[2] == function
        and any(m.startswith(callee.rpartition(".")[0] + ".") for m in modules)
        for c in calls
    ]


def _held(saved: Expr) -> str:
    """What a checkpoint write holds: the keys of the dict it saves, else its text."""
    if saved.kind == "Dict" and saved.keys and all(saved.keys):
        return ", ".join(str(k) for k in saved.keys)
    return saved.text


def _handed_state(d: DefValues, saved: Expr, by: tuple[FileAnalysis, CallValues]) -> Expr:
    """The state a helper's parameter ``saved`` holds at the training's call ``by``: the
    argument handed there, or the dict that argument was bound to before the call
    (``ckpt_state = {...}`` then ``save_checkpoint(ckpt_state, ...)``)."""
    handed = _handed_argument(d, saved.name, by)
    if handed is None:
        return saved
    caller = by[0].syntax.values if by[0].syntax is not None else None
    at = by[1]
    if handed.kind == "Name" and caller and at.function >= 0:
        bound = [
            a
            for a in caller.defs[at.function].assigns
            if a.target.kind == "Name" and a.target.name == handed.name and a.line < at.expr.line
        ]
        if bound:
            return max(bound, key=lambda a: a.line).value
    return handed


def _handed_argument(d: DefValues, param: str, by: tuple[FileAnalysis, CallValues]) -> Expr | None:
    """What the call ``by`` hands the parameter ``param`` of def ``d`` (a method's
    ``self`` left out), by position or keyword; None when it cannot be told."""
    positional = list(d.positional)
    if d.owner >= 0 and not d.static and positional[:1] == ["self"]:
        positional = positional[1:]
    expr = by[1].expr
    for k in expr.keywords:
        if k.name == param:
            return k.target
    if any(a.kind == "Starred" for a in expr.args) or param not in positional:
        return None
    index = positional.index(param)
    return expr.args[index] if index < len(expr.args) else None


def _line(line: int, cell: int) -> str:
    return f"cell {cell} line {line}" if cell else f"line {line}"


def _counterpart_notes(
    recipe: tuple[RecipeItem, ...], result: ScanResult
) -> tuple[RecipeItem, ...]:
    """Each recipe row that builds a torch API MindSpore lacks, noted with what the scan's
    disposition writes instead (RAFT's ``OneCycleLR``: no scheduler of that name in
    MindSpore 2.10, the per-step rates written as a LambdaLR or a list). A lead reading the
    recipe learns there that the row is work, not only from the API table. Idioms (AMP,
    DataParallel) are left to the work items that describe them."""
    missing = {
        (f.path, f.span.line, f.api): f.rewrite_note
        for f in result.api_findings
        # an idiom (AMP, DataParallel) is a known translation the work items describe
        if f.status == "missing"
        and f.is_call_site
        and f.rewrite_note
        and f.disposition in ("rewrite", "gap", "custom-op")
    }
    # an unverified counterpart (``orthogonal_`` → ``initializer.Orthogonal``): named, so the
    # row does not read as work without a MindSpore API
    candidates = {
        (f.path, f.span.line, f.api): f.mindspore_api
        for f in result.api_findings
        if f.status == "candidate" and f.is_call_site and f.mindspore_api
    }
    out = []
    for item in recipe:
        key = (item.where.path, item.where.line, item.name)
        how = missing.get(key)
        said = ""
        if how:
            said = f"no {item.name.rpartition('.')[2]} in MindSpore: {how}"
        elif candidates.get(key):
            said = f"MindSpore counterpart: {candidates[key]} (unverified)"
        if said:
            item = replace(item, note=f"{item.note}; {said}" if item.note else said)
        out.append(item)
    return tuple(out)
