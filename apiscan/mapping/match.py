"""Matching one PyTorch call against the mapping: status, targets, the parameters it hits.

The table's status describes the API in general; a call site adds what it actually hits:
a parameter the diff page says MindSpore lacks, a renamed parameter, a default that
changed. Only a parameter MindSpore has no counterpart for turns a "consistent" API into a
"different" call. The general difference parameters (``out``, ``device``, ``layout``,
``requires_grad``, ``pin_memory``, ``memory_format``, ...) never do: the tables' own
consistency rules exempt them (see :data:`GENERAL_PARAMS_RULE`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from apiscan.mapping.schema import CONSISTENT, DIFFERENT, MISSING, MappingRow, ParamDiff
from apiscan.mapping.store import MappingTable, is_undescribed
from apiscan.model import ParamChange

# Diff-page rows that describe outputs are not parameters a caller can pass.
_CALLABLE_CATEGORIES = frozenset({"Parameters", "Inputs"})

# The r2.6.0 table, "API Mapping Consistency Criteria and Exceptions" (line 21 of
# pytorch_api_mapping.md; the same words since r2.3.1):
#   "Exception Scenario 2: Compared to MindSpore APIss, the extra parameters of PyTorch API
#    are general difference parameters. General difference parameters exist because PyTorch
#    has some parameters that are added for non-functionality such as performance
#    optimization, and the performance optimization mechanism of MindSpore is different
#    from that of PyTorch."
# and "The API mapping is also consistent in the following exception scenarios" (line 13).
# So passing one of them never makes a consistent API different; the call only has to drop
# it (or, for ``out=``, assign the result), which the finding says.
GENERAL_PARAMS_RULE = (
    "a general difference parameter: it does not break consistency"
    " (mapping table, Exception Scenario 2)"
)

_DEFAULT_WORDING = re.compile(r"default", re.IGNORECASE)
# "..., and the default value behavior is the same as PyTorch" (BatchNorm's momentum):
# the defaults differ in number, not in effect.
_SAME_DEFAULT_BEHAVIOUR = re.compile(r"default value behaviou?r is the same", re.IGNORECASE)

# "the conversion relationship with PyTorch's momentum is 1-momentum": a passed value
# must be converted.
_CONVERTED = re.compile(r"conversion relationship|\b1\s*-\s*\w+", re.IGNORECASE)

UNSUPPORTED = "unsupported"
RENAMED = "renamed"
DEFAULT_CHANGED = "default"
GENERAL = "general"
INPUT = "input"

#: A diff page's note on a PyTorch parameter MindSpore's operator takes when it is called,
#: not when it is built: r2.6.0 nms.md's ``boxes`` and ``scores`` ("Bounding boxes, defined
#: in the input list of MindSpore"), roi_align.md's ``input`` and ``boxes``.
_IN_INPUT_LIST = re.compile(r"\binput list\b", re.IGNORECASE)


#: What the mapping's difference data says of a parameter whose only effect is where the
#: result is written, not what it is: its name or the diff page's words speak of working in
#: place (r2.4.0 LeakyReLU.html "whether to choose to perform the activation function
#: in-place", Normalize.html "Whether to make this operation in-place", ELU's row "MindSpore
#: has no parameter inplace.") or of memory. MindSpore computes out of place: the values are
#: the same, the keyword is dropped.
_MEMORY_ONLY = re.compile(r"in[- ]?place|\bmemory\b", re.IGNORECASE)


def memory_only(change: ParamChange) -> bool:
    """Whether an unsupported parameter only selects in-place or memory behaviour (its name or
    the mapping's note says so): dropping it changes no value. ``antialias`` or
    ``align_corners`` select what is computed and are never memory-only."""
    return change.kind == UNSUPPORTED and bool(
        _MEMORY_ONLY.search(change.param) or _MEMORY_ONLY.search(change.note)
    )


def converted(note: str) -> bool:
    """Whether a parameter's difference note says a value passed to PyTorch must be converted
    for MindSpore (BatchNorm's "the conversion relationship with PyTorch's momentum is
    1-momentum"): the same number is never right on both sides."""
    return bool(_CONVERTED.search(note))


@dataclass(frozen=True)
class Match:
    """The mapping verdict for one use of a PyTorch API.

    ``mindspore_api`` is the target to suggest (the first that exists and, with a target
    platform, runs there); ``mindspore_apis`` every target the row lists. ``history``
    says what the tables that lost said (``"1.10: different → mindspore.ops.SeLU"``).
    ``matched`` is the name the table row is listed under (the written name, or the
    alias that matched).
    """

    status: str
    mindspore_api: str | None
    note: str
    diff_url: str
    source_version: str | None
    unsupported_params: tuple[str, ...]
    target_exists: bool | None
    mindspore_apis: tuple[str, ...] = ()
    param_changes: tuple[ParamChange, ...] = ()
    backends: tuple[str, ...] = ()
    backend_gap: bool = False
    history: tuple[str, ...] = ()
    matched: str = ""


def match_api(
    api: str,
    table: MappingTable,
    *,
    passed_params: Iterable[str] = (),
    keywords: Iterable[str] | None = None,
    aliases: Iterable[str] = (),
    same_object: Iterable[str] = (),
    target_platform: str | None = None,
    torch_params: Iterable[str] = (),
    torch_required: Iterable[str] = (),
) -> Match:
    """Match ``api`` against ``table``, trying ``aliases`` (canonical name, other spellings
    of the same torch object, the method/function twin) when ``api`` has no row.

    ``passed_params`` are the PyTorch parameter names the call passes (keywords, and
    positional arguments the caller already mapped to names); ``keywords`` those passed
    by name (a rename only matters there; default: all of them). ``same_object`` are the
    other names the tables list the same torch object under: among ``api`` and those, the
    name whose rows come from the newest table that describes them wins (r1.10's
    undescribed ``torch.nn.Parameter`` loses to r2.4.0's ``torch.nn.parameter.Parameter``
    with its diff page); ``api`` wins ties. ``target_platform``
    (``Ascend``/``GPU``/``CPU``) prefers a target documented for it and flags a gap when
    the chosen target is documented for other platforms only. ``torch_params`` are the
    positional parameter names of the PyTorch API in order (from the torch index), used when
    the generated signatures do not record it; ``torch_required`` those without a default
    (every call passes them, in some form).
    """
    torch_params = tuple(torch_params)
    torch_required = tuple(torch_required)
    listed = [name for name in (api, *same_object) if table.rows_for(name)]
    if listed:
        matched: str | None = max(listed, key=lambda name: _row_rank(table.rows_for(name)))
    else:
        matched = next((name for name in aliases if table.rows_for(name)), None)
    if matched is None:
        return Match(
            status=MISSING,
            mindspore_api=None,
            note=f"{api} is not in the mapping table",
            diff_url="",
            source_version=None,
            unsupported_params=(),
            target_exists=None,
        )
    passed = tuple(dict.fromkeys(passed_params))
    named = passed if keywords is None else tuple(keywords)
    history = table.history_for(matched) + tuple(
        row for name in listed if name != matched for row in table.rows_for(name)
    )
    verdict = _verdict(
        api,
        matched,
        table.rows_for(matched),
        table,
        passed,
        named,
        target_platform,
        torch_params,
        torch_required,
    )
    if verdict.backend_gap:
        verdict = _older_target_for(verdict, history, table, passed, named, target_platform)
    return replace(verdict, history=_history(history))


def _verdict(
    api: str,
    matched: str,
    table_rows: tuple[MappingRow, ...],
    table: MappingTable,
    passed: tuple[str, ...],
    named: tuple[str, ...],
    target_platform: str | None,
    torch_params: tuple[str, ...] = (),
    torch_required: tuple[str, ...] = (),
) -> Match:
    """The verdict one table's rows of an API give this call."""
    rows = _best_first(table_rows)
    row = rows[0]
    listed, exists_flags, platforms = _targets(rows)
    targets, exists_flags, platforms = _by_keyword_fit(
        listed, exists_flags, platforms, named, table
    )
    target, exists, backends = _choose_target(targets, exists_flags, platforms, target_platform)
    if target is not None and target not in row.ms_apis:
        # The call fits another row's target better: that row's verdict and diff page go
        # with it (CosineAnnealingLR(opt, T_max=..) → experimental's CosineAnnealingLR, not
        # nn.cosine_decay_lr's parameter differences).
        row = next(r for r in rows if target in r.ms_apis)
        rows = (row,)
    changes = _param_changes(row, rows, passed, named, table, target)
    status, note = row.status, row.note
    described = _described_difference(row, passed)
    if described is not None:
        status, note, hit = described
        changes = (*changes, *hit)
    else:
        changes = (
            *changes,
            *_free_text_changes(row, passed, named, table, target, torch_params, torch_required),
        )
    unsupported = tuple(c.param for c in changes if c.kind == UNSUPPORTED)
    if matched != api:
        remark = f"listed in the table as {matched}"
        note = f"{note.rstrip('.')}; {remark}." if note else f"{remark[0].upper()}{remark[1:]}."
    if unsupported:
        names = ", ".join(unsupported)
        remark = f"MindSpore takes no counterpart of the passed parameter(s): {names}."
        note = f"{note.rstrip('.')}. {remark}" if note else remark
        if status == CONSISTENT:
            status = DIFFERENT
    renamed = [c for c in changes if c.kind == RENAMED]
    if status == CONSISTENT and renamed:
        # Only the real-signature check renames on a consistent row (a diff page belongs
        # to a different one): the call must be edited.
        names = ", ".join(c.headline() for c in renamed)
        remark = f"Rename for MindSpore: {names}."
        note = f"{note.rstrip('.')}. {remark}" if note else remark
        status = DIFFERENT
    padded = _padding_needs_pad_mode(row, passed, table, target)
    if padded is not None:
        changes = (*changes, padded)
        if status == CONSISTENT:
            note = f"{note.rstrip('.')}. {padded.note}" if note else padded.note
            status = DIFFERENT
    gap = bool(target_platform and backends and target_platform not in backends)
    if gap and status == CONSISTENT:
        status = DIFFERENT
        note = (
            f"{target} is documented for {', '.join(backends)} only,"
            f" not for the target platform {target_platform}."
        )
    return Match(
        status=status,
        mindspore_api=target,
        note=note,
        diff_url=row.diff_url,
        source_version=row.source_version,
        unsupported_params=unsupported,
        target_exists=exists,
        mindspore_apis=listed,
        param_changes=changes,
        backends=backends,
        backend_gap=gap,
        matched=matched,
    )


def _older_target_for(
    gap: Match,
    history: tuple[MappingRow, ...],
    table: MappingTable,
    passed: tuple[str, ...],
    named: tuple[str, ...],
    target_platform: str | None,
) -> Match:
    """When the newest table's target lacks the target platform (r2.6.0 maps most APIs to
    ``mindspore.mint``, much of it Ascend-only), the newest older table whose target exists
    and is documented for the platform (r2.4.0's ``mindspore.ops.stack`` for CPU) gives the
    verdict instead, saying why; failing that the gap stands."""
    by_version: dict[str, list[MappingRow]] = {}
    for row in history:
        by_version.setdefault(row.source_version, []).append(row)
    for rows in by_version.values():
        older = _verdict(
            gap.matched, gap.matched, tuple(rows), table, passed, named, target_platform
        )
        if older.target_exists and not older.backend_gap and target_platform in older.backends:
            why = (
                f"{gap.mindspore_api} is documented for {', '.join(gap.backends)} only; the"
                f" {older.source_version} table's {older.mindspore_api} runs on"
                f" {target_platform}."
            )
            note = f"{why} {older.note}" if older.note else why
            return replace(older, note=note)
    return gap


_STATUS_RANK = {CONSISTENT: 0, DIFFERENT: 1}

# Rows without a diff page whose whole description is one parameter MindSpore lacks
# (r2.6.0 pytorch_api_mapping.md:307 torch.nn.ELU "Consistent functions, MindSpore has no
# parameter inplace.") or one extra MindSpore parameter with a default (:276
# torch.distributed.new_group "... MindSpore has an additional parameter group_desc = None.").
_ONLY_LACKS = re.compile(
    r"^consistent functions?, mindspore (?:has no|does not contain)(?: the)? parameters? "
    r"(\w+)\.?$",
    re.IGNORECASE,
)
# r2.4.0 pytorch_api_mapping.md:897 torch.optim.lr_scheduler.CosineAnnealingLR →
# mindspore.experimental.optim.lr_scheduler.CosineAnnealingLR: "No `verbose` input param,
# other functions are consistent".
_ONLY_LACKS_INPUT = re.compile(
    r"^no `?(\w+)`? input param(?:eter)?, other functions are consistent\.?$", re.IGNORECASE
)
# r2.6.0 pytorch_api_mapping.md:319 torch.nn.Linear → mindspore.mint.nn.Linear: "Consistent
# function, MindSpore has two different parameters: weight_init = None and bias_init = None."
# Two extra MindSpore parameters with defaults: Exception Scenario 3 as well.
_EXTRA_PARAM = r"\w+ ?= ?\w+"
_ONLY_EXTRA = re.compile(
    r"^consistent functions?, mindspore has (?:an additional parameter"
    rf"|(?:two|\d+|some) (?:different|additional|extra) parameters:?) {_EXTRA_PARAM}"
    rf"(?:(?:,| and) {_EXTRA_PARAM})*\.?$",
    re.IGNORECASE,
)
# r2.4.0 pytorch_api_mapping.md:529 torch.nn.functional.glu → mindspore.ops.glu: "The
# functions are consistent, but the parameter names are inconsistent." (no diff page; 110
# rows of r2.4.0/r2.6.0 in a few wordings, r2.6.0:68 torch.arcsin "Consistent functions,
# inconsistent parameter names."). Which parameter is renamed comes from the real signatures.
NAMES_DIFFER = re.compile(
    r"parameter names are (?:inconsistent|different)|inconsistent parameter names", re.IGNORECASE
)
# r2.6.0 pytorch_api_mapping.md:223 torch.topk → mindspore.mint.topk: "The functions are
# consistent, but the default value of dim is different." (also end, indexing, side, low,
# scatter_list, align_corners): a call that omits the parameter gets MindSpore's default.
_DEFAULT_DIFFERS = re.compile(r"default value of `?(\w+)`? is different", re.IGNORECASE)
# ... when that default is the row's only difference (every such row of r2.6.0, :62-:368)
_ONLY_DEFAULT = re.compile(
    r"^(?:the functions are consistent|consistent functions), but the default value of "
    r"`?(\w+)`? is different\.?$",
    re.IGNORECASE,
)


def _described_difference(
    row: MappingRow, passed: tuple[str, ...]
) -> tuple[str, str, tuple[ParamChange, ...]] | None:
    """(status, note, changes) for a row whose description names its only difference.

    A call is different only for a difference it hits: ``nn.ELU()`` without ``inplace`` runs
    unchanged on ``mint.nn.ELU``; ``nn.ELU(inplace=True)`` hits the missing parameter; a call
    that passes the parameter whose default differs (``topk(x, k, dim=1)``) hits nothing. An
    extra MindSpore parameter with a default is no difference at all (Exception Scenario 3,
    r2.6.0 pytorch_api_mapping.md:23). None for every other row.
    """
    if row.status != DIFFERENT or row.diff_url:
        return None
    text = row.note.strip()
    lacks = _ONLY_LACKS.match(text) or _ONLY_LACKS_INPUT.match(text)
    if lacks:
        param = lacks.group(1)
        if param in passed:
            return DIFFERENT, text, (ParamChange(param, UNSUPPORTED, note=text),)
        return CONSISTENT, f"{text.rstrip('.')}. This call does not pass {param}.", ()
    if _ONLY_EXTRA.match(text):
        why = "an extra MindSpore parameter with a default is consistent (Exception Scenario 3)"
        return CONSISTENT, f"{text.rstrip('.')}: {why}.", ()
    default = _ONLY_DEFAULT.match(text)
    if default and default.group(1) in passed:
        # ``torch.topk(x, k, dim=1)`` on r2.6.0:223 "the default value of dim is different":
        # the call sets dim itself, so neither default applies (a call that omits it gets
        # the change :func:`_free_text_changes` reads)
        param = default.group(1)
        return (
            CONSISTENT,
            f"{text.rstrip('.')}. This call passes {param}: neither default applies.",
            (),
        )
    return None


def _padding_needs_pad_mode(
    row: MappingRow, passed: tuple[str, ...], table: MappingTable, target: str | None
) -> ParamChange | None:
    """A consistent row whose target pads only in ``pad_mode='pad'`` (r2.4.0:515
    ``torch.nn.functional.conv1d`` → ``mindspore.ops.conv1d(input, weight, bias=None,
    stride=1, pad_mode='valid', padding=0, ...)``): a call passing ``padding`` raises "the
    'pad' must be zero when 'pad_mode' is not 'pad'" (MindSpore 2.10, CPU) unless it also
    passes ``pad_mode='pad'``. Rows with a diff page describe pad_mode themselves."""
    if row.status != CONSISTENT or not target or "padding" not in passed or "pad_mode" in passed:
        return None
    ms_sig = dict(table.params_of(target) or ())
    default = ms_sig.get("pad_mode")
    if default is None or default.strip("'\"") == "pad" or "padding" not in ms_sig:
        return None
    note = (
        f"{target} applies padding only with pad_mode='pad' (its default is {default}):"
        " pass pad_mode='pad' with padding"
    )
    return ParamChange("padding", DEFAULT_CHANGED, "pad_mode", None, default, note)


def _free_text_changes(
    row: MappingRow,
    passed: tuple[str, ...],
    named: tuple[str, ...],
    table: MappingTable,
    target: str | None,
    torch_params: tuple[str, ...],
    torch_required: tuple[str, ...] = (),
) -> tuple[ParamChange, ...]:
    """The differences a call hits on a "different" row whose only description is a
    sentence naming the kind of difference (no diff page):

    - "the parameter names are inconsistent": a keyword the target's real signature lacks
      is renamed to the target's parameter at the same position (``F.glu(x, dim=2)`` →
      ``ops.glu(x, axis=2)``); arguments passed by position need no change;
    - "the default value of X is different": a call that omits X gets MindSpore's default
      (``torch.meshgrid(a, b)`` is ``indexing='ij'`` in PyTorch); a call that passes X does
      not hit it, nor does any call when PyTorch's X has no default (r2.6.0:65 torch.arange's
      ``end``: ``arange(n)`` is ``end=n`` in both).
    """
    if row.status != DIFFERENT or row.diff_url or row.params:
        return ()
    text = row.note.strip()
    torch_sig = dict(table.params_of(row.torch_api) or ())
    ms_sig = dict(table.params_of(target) or ()) if target else {}
    changes: list[ParamChange] = []
    default = _DEFAULT_DIFFERS.search(text)
    if default and default.group(1) not in passed and default.group(1) not in torch_required:
        # The page decides, not the default's text: torch.meshgrid's and mint.meshgrid's
        # indexing=None mean "ij" and "xy".
        name = default.group(1)
        changes.append(
            ParamChange(name, DEFAULT_CHANGED, name, torch_sig.get(name), ms_sig.get(name), text)
        )
    if NAMES_DIFFER.search(text) and ms_sig and not any(k.startswith("**") for k in ms_sig):
        torch_order = _positional(tuple(torch_sig) or torch_params)
        ms_order = _positional(tuple(ms_sig))
        general = frozenset(table.general_params)
        for name in named:
            if name in ms_sig or name in general or name not in torch_order:
                continue
            i = torch_order.index(name)
            if i >= len(ms_order):
                continue
            ms_name = ms_order[i]
            changes.append(
                ParamChange(
                    name,
                    RENAMED,
                    ms_name,
                    torch_sig.get(name),
                    ms_sig.get(ms_name),
                    f"{text} {target} takes {ms_name} where PyTorch takes {name}"
                    " (same position in the real signatures).",
                )
            )
    return tuple(changes)


def _positional(names: tuple[str, ...]) -> tuple[str, ...]:
    """The parameters a caller can pass by position, in order (``self`` and starred
    parameters, and everything after a ``*``, are not)."""
    result = []
    for name in names:
        if name.startswith("*"):
            break
        if name != "self":
            result.append(name)
    return tuple(result)


def _row_rank(rows: tuple[MappingRow, ...]) -> tuple[bool, tuple[int, ...]]:
    """How much a name's current rows say: described rows first, then the newer table."""
    described = not all(map(is_undescribed, rows))
    versions = (row.source_version or "0" for row in rows)
    newest = max(
        (tuple(int(p) for p in v.split(".") if p.isdigit()) for v in versions), default=(0,)
    )
    return described, newest


def _best_first(rows: tuple[MappingRow, ...]) -> tuple[MappingRow, ...]:
    """One table's rows of an API, a consistent row first (stable otherwise).

    r2.4.0 lists ``torch.optim.RMSprop`` twice: ``mindspore.nn.RMSProp`` (diff page) and
    ``mindspore.experimental.optim.RMSprop`` (Consistent). A drop-in counterpart exists,
    so the verdict is the consistent row's; the other target is still listed.
    """
    return tuple(sorted(rows, key=lambda row: _STATUS_RANK.get(row.status, 2)))


def _targets(
    rows: tuple[MappingRow, ...],
) -> tuple[tuple[str, ...], tuple[bool | None, ...], tuple[str, ...]]:
    """Every target of every row of one table (``optim.SGD`` has two rows), deduplicated."""
    seen: dict[str, tuple[bool | None, str]] = {}
    for row in rows:
        flags = row.targets_exist or (None,) * len(row.ms_apis)
        platforms = row.targets_platforms or ("",) * len(row.ms_apis)
        for target, flag, where in zip(row.ms_apis, flags, platforms, strict=True):
            seen.setdefault(target, (flag, where))
    return (
        tuple(seen),
        tuple(flag for flag, _ in seen.values()),
        tuple(where for _, where in seen.values()),
    )


def _by_keyword_fit(
    targets: tuple[str, ...],
    flags: tuple[bool | None, ...],
    platforms: tuple[str, ...],
    named: tuple[str, ...],
    table: MappingTable,
) -> tuple[tuple[str, ...], tuple[bool | None, ...], tuple[str, ...]]:
    """Several targets (r2.4.0 lists ``torch.optim.SGD`` → ``mindspore.nn.SGD`` and
    ``mindspore.experimental.optim.SGD``, both Consistent): the one whose real signature
    takes more of the keywords the call passes comes first (``SGD(params, lr=..,
    momentum=..)`` → the torch-style ``experimental.optim.SGD``); table order otherwise."""
    if len(targets) < 2 or not named:
        return targets, flags, platforms

    def fit(i: int) -> int:
        names = {name for name, _ in table.params_of(targets[i]) or ()}
        return -sum(1 for keyword in named if keyword in names)

    order = sorted(range(len(targets)), key=fit)
    return (
        tuple(targets[i] for i in order),
        tuple(flags[i] for i in order),
        tuple(platforms[i] for i in order),
    )


def _choose_target(
    targets: tuple[str, ...],
    flags: tuple[bool | None, ...],
    platforms: tuple[str, ...],
    target_platform: str | None,
) -> tuple[str | None, bool | None, tuple[str, ...]]:
    """The first target that exists (documented for ``target_platform`` when given);
    failing that the first of unknown existence; failing that the first target at all (so
    a report can still name what the table suggested). Also the target's platforms."""
    if not targets:
        return None, None, ()
    order = list(range(len(targets)))
    if target_platform:
        order.sort(key=lambda i: target_platform not in platforms[i].split())
    for wanted in (True, None):
        for i in order:
            if flags[i] is wanted:
                return targets[i], flags[i], _platform_tuple(platforms[i])
    return targets[0], flags[0], _platform_tuple(platforms[0])


def _platform_tuple(text: str) -> tuple[str, ...]:
    return tuple(text.split()) if text and text != "Deprecated" else ()


def _param_changes(
    row: MappingRow,
    rows: tuple[MappingRow, ...],
    passed: tuple[str, ...],
    named: tuple[str, ...],
    table: MappingTable,
    target: str | None,
) -> tuple[ParamChange, ...]:
    """The differences this call hits: of the passed parameters, those the diff page maps
    to no or another MindSpore parameter; of the omitted ones, those whose default the
    page says differs; and passed general difference parameters the target lacks."""
    diffs = _param_rows(rows)
    torch_sig = dict(table.params_of(row.torch_api) or ())
    ms_sig = dict(table.params_of(target) or ()) if target else {}
    inputs = _call_inputs(rows, diffs)
    changes: list[ParamChange] = []
    # the parameters a diff page (this table's or an older one's) says behave alike for one
    # value only: the other value selects what MindSpore does not implement
    splits = _value_splits((*rows, *table.history_for(row.torch_api)))
    for name, diff in diffs.items():
        hit = name in passed
        if hit and name in splits:
            changes.append(
                ParamChange(
                    name,
                    UNSUPPORTED,
                    diff.ms_param,
                    torch_sig.get(name),
                    ms_sig.get(diff.ms_param) if diff.ms_param else None,
                    splits[name],
                )
            )
            continue
        torch_default = torch_sig.get(name)
        ms_default = ms_sig.get(diff.ms_param) if diff.ms_param else None
        default_changed = (
            bool(_DEFAULT_WORDING.search(diff.note))
            and not _SAME_DEFAULT_BEHAVIOUR.search(diff.note)
            and torch_default != ms_default
        )
        if hit and not diff.ms_param and name in inputs:
            changes.append(ParamChange(name, INPUT, inputs[name][0], note=inputs[name][1]))
        elif hit and not diff.ms_param:
            changes.append(ParamChange(name, UNSUPPORTED, note=diff.note))
        elif name in named and diff.ms_param != name:
            changes.append(
                ParamChange(name, RENAMED, diff.ms_param, torch_default, ms_default, diff.note)
            )
        elif diff.ms_param and ((default_changed and not hit) or (hit and converted(diff.note))):
            changes.append(
                ParamChange(
                    name, DEFAULT_CHANGED, diff.ms_param, torch_default, ms_default, diff.note
                )
            )
        elif (
            passed  # a call, not a reference (isinstance(p, nn.Parameter))
            and not hit
            and diff.ms_param in ms_sig
            and ms_sig[diff.ms_param] is None
            and torch_default is not None
        ):
            # r2.4.0 pytorch_diff/Uniform.md: torch.nn.init.uniform_(tensor, a=0.0, b=1.0)
            # → ops.uniform(shape, minval, maxval): MindSpore requires what the call left
            # to PyTorch's default.
            note = (
                f"{diff.note.rstrip('.')}. {diff.ms_param} has no default in MindSpore: pass"
                f" PyTorch's {name}={torch_default}"
            ).lstrip(". ")
            changes.append(
                ParamChange(name, DEFAULT_CHANGED, diff.ms_param, torch_default, None, note)
            )
    general = frozenset(table.general_params)
    # Only keywords: a general difference parameter is an *extra* parameter of the PyTorch
    # API; passed positionally it is the API's own argument (torch.cuda.set_device(rank)).
    for name in named:
        if name in diffs or name not in general or name in ms_sig:
            # ms_sig: the target really takes it (mindspore.Parameter's requires_grad).
            continue
        changes.append(ParamChange(name, GENERAL))
    nothing = target is not None and _takes_nothing(row.torch_api, target, table)
    changes.extend(_absent_keywords(row, named, diffs, general, ms_sig, target, nothing))
    if nothing and target is not None:
        changes.extend(_refused_positionals(row, passed, named, diffs, general, target))
    return tuple(changes)


def _takes_nothing(torch_api: str, target: str, table: MappingTable) -> bool:
    """Whether a layer class's target is a Cell whose constructor takes no parameter
    (``mindspore.mint.nn.ReLU()``), by its recorded signature. Only class to class: an
    empty signature of a primitive (``mindspore.ops.Fill``) says nothing of what its call
    takes."""
    if table.params_of(target) != ():
        return False
    return torch_api.rpartition(".")[2][:1].isupper() and target.rpartition(".")[2][:1].isupper()


def _refused_positionals(
    row: MappingRow,
    passed: tuple[str, ...],
    named: tuple[str, ...],
    diffs: dict[str, ParamDiff],
    general: frozenset[str],
    target: str,
) -> list[ParamChange]:
    """What a "consistent" layer passes by position to a target that takes nothing:
    ``nn.ReLU(True)`` is ``inplace=True``, and ``mindspore.mint.nn.ReLU(True)`` fails."""
    if row.status != CONSISTENT:
        return []
    note = (
        f"{target} takes no parameter; the table lists no difference, but the call fails as written"
    )
    return [
        ParamChange(name, UNSUPPORTED, note=note)
        for name in passed
        if name not in named and name not in diffs and name not in general
    ]


def _absent_keywords(
    row: MappingRow,
    named: tuple[str, ...],
    diffs: dict[str, ParamDiff],
    general: frozenset[str],
    ms_sig: dict[str, str | None],
    target: str | None,
    takes_nothing: bool,
) -> list[ParamChange]:
    """Keywords a "consistent" row's target does not take, by its real signature
    (``takes_nothing``: an empty one that is known, :func:`_takes_nothing`).

    The tables' consistency criteria include "consistent parameter name" (r2.6.0
    pytorch_api_mapping.md:11); their exceptions excuse only the general difference
    parameters (Exception Scenario 2), checked before this, and MindSpore's *extra*
    parameters (Scenario 3). So ``torch.sum(x, dim=1)`` mapped to a target whose parameter
    is ``axis`` fails as written although the row says consistent: a difference the call
    hits. Targets taking ``**kwargs`` accept any name and are not judged.
    """
    if row.status != CONSISTENT or any(k.startswith("**") for k in ms_sig):
        return []
    if not ms_sig and not takes_nothing:
        return []  # no signature recorded: nothing to judge by
    takes = ", ".join(k for k in ms_sig if k != "self") or "none"
    changes = []
    for name in named:
        if name in diffs or name in general or name in ms_sig:
            continue
        if f"*{name}" in ms_sig:
            # torch.rand(size=(B,)): torch takes its varargs by keyword as one sequence;
            # mint.rand(*size, ...) takes the sequence only by position.
            note = f"{target} takes {name} only by position (*{name}): pass it without {name}="
            changes.append(ParamChange(name, RENAMED, f"*{name}", None, None, note))
            continue
        if "*args" in ms_sig:
            # mint.randint(*args, generator=None, dtype=None): low, high and size are read
            # from the positional arguments only, in PyTorch's order
            note = (
                f"{target} takes its arguments only by position (*args): pass {name} by "
                "position, in PyTorch's order, without "
                f"{name}="
            )
            changes.append(ParamChange(name, RENAMED, "*args", None, None, note))
            continue
        alias = _TORCH_KEYWORD_ALIASES.get(name)
        if alias in ms_sig:
            # torch.cat(xs, axis=1): torch reads axis as dim; MindSpore's target only
            # knows dim.
            note = f"torch accepts {name}= for {alias}=; {target} only takes {alias}="
            changes.append(ParamChange(name, RENAMED, alias, None, None, note))
            continue
        note = (
            f"{target} has no parameter named {name} (it takes: {takes}); the table"
            " lists no difference, but the call fails as written"
        )
        changes.append(ParamChange(name, UNSUPPORTED, note=note))
    return changes


#: Keywords torch's argument parser accepts in place of its own names (NumPy spellings).
_TORCH_KEYWORD_ALIASES = {"axis": "dim", "keepdims": "keepdim"}


def _call_inputs(
    rows: tuple[MappingRow, ...], diffs: dict[str, ParamDiff]
) -> dict[str, tuple[str, str]]:
    """PyTorch parameter → (the MindSpore input it goes into, what to say) for the
    parameters the diff page says MindSpore's operator takes as inputs when it is called
    (:data:`_IN_INPUT_LIST`), read from the page's ``Inputs`` rows that have no PyTorch
    counterpart: as many inputs as parameters pair in order (roi_align's ``input`` and
    ``boxes`` → ``features`` and ``rois``); fewer inputs take the parameters packed into one
    tensor (nms's ``boxes`` (N, 4) and ``scores`` (N,) → ``bboxes``, boxes and scores in
    one tensor). Neither is a parameter MindSpore lacks."""
    params = [name for name, d in diffs.items() if not d.ms_param and _IN_INPUT_LIST.search(d.note)]
    found = list(
        dict.fromkeys(
            (p.ms_param, p.note)
            for row in rows
            for p in row.params
            if p.category == "Inputs" and p.ms_param and not p.torch_param
        )
    )
    if not params or not found:
        return {}
    if len(found) >= len(params):
        return {
            name: (ms, f"passed to the operator when it is called, as its input {ms}: {note}")
            for name, (ms, note) in zip(params, found, strict=False)
        }
    ms, note = found[0]
    packed = ", ".join(params)
    return {
        name: (
            ms,
            f"{packed} packed into one input tensor {ms} (one row per item, the columns "
            f"side by side: {note})",
        )
        for name in params
    }


#: A diff page's note that a parameter behaves alike for one value only (roi_align's
#: ``aligned``: "The implementation is the same for False, but different for True").
_VALUE_SPLIT = re.compile(
    r"same for (?P<same>[\w.'\"-]+),? but different for (?P<other>[\w.'\"-]+)", re.IGNORECASE
)


def _value_splits(rows: tuple[MappingRow, ...]) -> dict[str, str]:
    """PyTorch parameter name -> the note of a diff-page row (of any table's rows) saying
    it behaves alike on both sides for one value only (:data:`_VALUE_SPLIT`): passing the
    other value selects an implementation MindSpore does not have, whatever a newer page
    says of the parameter's values."""
    out: dict[str, str] = {}
    for row in rows:
        for param in row.params:
            if param.category not in _CALLABLE_CATEGORIES:
                continue
            hit = _VALUE_SPLIT.search(param.note)
            if hit is None:
                continue
            note = (
                f"{param.note.strip().rstrip('.')} ({row.source_version} diff page): "
                f"{hit.group('other')} has no MindSpore counterpart; "
                f"{hit.group('same')} is the same"
            )
            for name in param.torch_param.split(","):
                name = name.strip().lstrip("*")
                if name:
                    out.setdefault(name, note)
    return out


def _param_rows(rows: tuple[MappingRow, ...]) -> dict[str, ParamDiff]:
    """PyTorch parameter name → its diff-page row (callable categories only)."""
    result: dict[str, ParamDiff] = {}
    for row in rows:
        for param in row.params:
            if param.category not in _CALLABLE_CATEGORIES:
                continue
            for name in param.torch_param.split(","):
                name = name.strip().lstrip("*")
                if name and name not in result:
                    result[name] = param
    return result


def _history(rows: tuple[MappingRow, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for row in rows:
        target = " / ".join(row.ms_apis) or "no target"
        seen.setdefault(f"{row.source_version}: {row.status} → {target}", None)
    return tuple(seen)
