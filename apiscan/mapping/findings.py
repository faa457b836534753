"""API uses become findings: mapping verdicts, memoised per (api, parameters passed)."""

from __future__ import annotations

import csv
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from apiscan.model import ApiFinding, ApiUse, namespace_of

if TYPE_CHECKING:
    from apiscan.mapping.match import Match
    from apiscan.mapping.store import MappingTable
    from apiscan.resolve.torch_api import TorchApi


#: The kind of MindSpore target (``ms_targets.csv``) that can stand for each kind of
#: PyTorch API (the torch index's kinds) where it is written.
_TARGET_KINDS: dict[str, str] = {
    "function": "callable",
    "method": "callable",
    "class": "class",
    "attribute": "attribute",
    "property": "attribute",
    "constant": "attribute",
}

#: Namespaces where torch exposes a function of ``torch.`` a second time, as its own object.
_FUNCTIONAL_TWINS = ("torch.nn.functional.", "torch.special.")


def target_kind(target: str, data_dir: Path | None = None) -> str | None:
    """What a table's MindSpore target is in the MindSpore ``ms_targets.csv`` was generated
    from (``scripts/gen_ms_targets.py``): ``class``, ``callable`` or ``attribute``; None when
    the file does not know it."""
    from apiscan.mapping.store import MAPPING_DATA_DIR

    return _target_kinds(data_dir or MAPPING_DATA_DIR).get(target) or None


@cache
def _target_kinds(data_dir: Path) -> dict[str, str]:
    from apiscan.mapping.schema import MS_TARGETS_FILE

    path = data_dir / MS_TARGETS_FILE
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["target"]: row.get("kind") or "" for row in csv.DictReader(handle)}


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


class Matcher:
    """Mapping verdicts, memoised per (api, parameters passed)."""

    def __init__(
        self, table: MappingTable, api: TorchApi, target_platform: str | None = None
    ) -> None:
        self.table = table
        self.api = api
        self.target_platform = target_platform
        self.memo: dict[tuple[str, tuple[str, ...], tuple[str, ...], str], Match | None] = {}
        self._by_object: dict[str, tuple[str, ...]] | None = None

    def same_object(self, name: str, canonical: str = "") -> tuple[str, ...]:
        """Every name the tables list ``name``'s torch object under, other than ``name``
        (r2.4.0 lists ``torch.nn.parameter.Parameter``, r1.10 ``torch.nn.Parameter``)."""
        if self._by_object is None:
            grouped: dict[str, list[str]] = {}
            for listed in dict.fromkeys(row.torch_api for row in self.table):
                key = self.api.canonical(listed)
                if key:
                    grouped.setdefault(key, []).append(listed)
            self._by_object = {key: tuple(names) for key, names in grouped.items()}
        key = canonical or self.api.canonical(name) or ""
        return tuple(n for n in self._by_object.get(key, ()) if n != name)

    def stale_target(self, api: str, m: Match) -> str:
        """Why the verdict ``m`` names a target that cannot stand for ``api`` as it is
        written, or "" when it can (or nothing says otherwise).

        Only a verdict resting on rows that name a target without describing it
        (:func:`~apiscan.mapping.store.is_undescribed`: most of r1.10's) qualifies, and only
        when the target is another kind of object than the PyTorch API: r1.10's
        ``torch.Tensor.fill_`` → ``mindspore.ops.Fill`` (r1.10 pytorch_api_mapping.md:339)
        and ``torch.Tensor.zero_`` → ``mindspore.ops.ZerosLike`` (:379) name primitive
        classes, to be built and then called, for in-place methods; no later table lists
        either. A target of the same kind (``torch.load`` → ``mindspore.load_checkpoint``)
        is the table's counterpart, whatever MindSpore now has of the same name
        (``mindspore.load`` reads a MindIR graph)."""
        from apiscan.mapping.store import is_undescribed

        rows = self.table.rows_for(m.matched) if m.matched else ()
        if m.status != "different" or not m.mindspore_api or not rows:
            return ""
        if not all(map(is_undescribed, rows)):
            return ""
        from apiscan.mapping.candidates import INIT_NAMESPACE, initialiser_class

        if m.mindspore_api == f"{INIT_NAMESPACE}.{initialiser_class(api)}":
            # r1.10's ``torch.nn.init.zeros_`` → ``initializer.Zero`` (:299): a function for
            # a class by design, MindSpore's initialisers being classes (see
            # :func:`~apiscan.mapping.candidates.initialiser_class`)
            return ""
        torch_kind = self.api.kind(api)
        ms_kind = target_kind(m.mindspore_api)
        if torch_kind is None or ms_kind is None:
            return ""
        if ms_kind == _TARGET_KINDS.get(torch_kind):
            name, target = api.rpartition(".")[2], m.mindspore_api.rpartition(".")[2]
            if name.endswith("_") and not name.endswith("__") and target == name[:-1]:
                # r1.10's ``torch.Tensor.copy_`` → ``mindspore.Tensor.copy`` (:332): the
                # out-of-place twin returns a copy of the tensor itself, nothing is copied
                # into it; MindSpore 2.x has the in-place method of the same name
                return (
                    f"the {m.source_version} table names {m.mindspore_api}, its out-of-place "
                    "twin, without describing the mapping, for an in-place method"
                )
            return ""
        return (
            f"the {m.source_version} table names {m.mindspore_api} ({_a(ms_kind)}) without "
            f"describing the mapping, for {_a(torch_kind)}"
        )

    def candidate(self, api: str, missing: Match, stale: str = "") -> Match:
        """A missing API with a same-name MindSpore API becomes a (unverified) candidate;
        so does one whose only rows name a target of another kind (``stale`` says why: see
        :meth:`stale_target`), the rows it had kept in the history."""
        from apiscan.mapping.candidates import load_candidates, same_dtype

        index = load_candidates()
        if index is None:
            return missing
        # Only a counterpart of the same kind and a compatible arity (torch.Size, a class, is
        # not ops.Size, a primitive).
        kind, params = self.api.kind(api), self.api.params(api)
        spellings = [api, *(s for s in self.api.spellings(api) if s != api)]
        found = next(
            (hit for hit in (index.lookup(s, kind, params) for s in spellings) if hit), None
        )
        if found is None:
            return missing
        target, why = found
        lead = stale or "not in the mapping table"
        if why == "same-name" and same_dtype(api):
            # documented: the dtype page (DTYPE_PAGE) lists it with its width
            note = f"{lead}; MindSpore's dtype page lists {target} as the same dtype: a rename"
        elif why == "same-name":
            note = (
                f"{lead}; MindSpore {index.mindspore_version} has {target} "
                "of the same name and kind (unverified: a same name does not prove the same "
                "behaviour)"
            )
        else:
            note = (
                f"{lead}; namespace move: {why}, where MindSpore "
                f"{index.mindspore_version} has {target} (unverified)"
            )
        if stale:
            # the table's words stay with the finding: what it said, in the history
            old = f"{missing.source_version}: {missing.status} → {missing.mindspore_api}"
            return replace(
                missing,
                status="candidate",
                mindspore_api=target,
                mindspore_apis=(target,),
                note=note,
                diff_url="",
                source_version=None,
                unsupported_params=(),
                param_changes=(),
                backends=(),
                backend_gap=False,
                target_exists=True,
                history=tuple(dict.fromkeys((old, *missing.history))),
            )
        return replace(
            missing, status="candidate", mindspore_api=target, note=note, target_exists=True
        )

    def passed_params(self, use: ApiUse) -> tuple[str, ...]:
        names = list(use.keywords)
        if use.positional:
            # a module's name called stands for its function (``torchvision.ops.roi_align``):
            # the canonical object's signature names the positional arguments
            params = self.api.params(use.api) or self.api.params(use.canonical or "") or ()
            for i, (pname, pkind, _default) in enumerate(params):
                if i >= use.positional or pkind in ("var_pos", "kw_only", "var_kw"):
                    break
                names.append(pname)
        return tuple(names)

    def aliases(self, name: str) -> tuple[str, ...]:
        """Other names the table may list ``name``'s object under, best first: its other
        spellings (canonical first), then its method/function twin (``torch.Tensor.x`` ↔
        ``torch.x``) when torch has both."""
        spellings = [s for s in self.api.spellings(name) if s != name]
        twins = []
        for spelled in (name, *spellings):
            if spelled.startswith("torch.Tensor."):
                twin = "torch." + spelled.removeprefix("torch.Tensor.")
            elif spelled.count(".") == 1 and spelled.startswith("torch."):
                twin = "torch.Tensor." + spelled.removeprefix("torch.")
            else:
                continue
            kinds = {self.api.kind(spelled), self.api.kind(twin)}
            if kinds == {"function", "method"} and twin not in twins:
                twins.append(twin)
        # the functional spelling of a torch function or its method twin: torch ships
        # ``torch.log_softmax`` and ``torch.nn.functional.log_softmax`` as two Python objects
        # of one op, and the tables list only the latter (``x.log_softmax(2)`` is no custom op)
        for listed in (name, *spellings, *list(twins)):
            if listed.count(".") != 1 or self.api.kind(listed) != "function":
                continue
            for namespace in _FUNCTIONAL_TWINS:
                twin = namespace + listed.removeprefix("torch.")
                if self.api.kind(twin) == "function" and twin not in twins:
                    twins.append(twin)
        return tuple(dict.fromkeys([*spellings, *twins]))

    def match(
        self, name: str, passed: tuple[str, ...], keywords: tuple[str, ...], canonical: str = ""
    ) -> Match:
        """The verdict for ``name`` as written; the table may list it under the canonical
        object's name or another spelling, which are tried next."""
        from apiscan.mapping.match import match_api

        aliases = tuple(dict.fromkeys(a for a in (canonical, *self.aliases(name)) if a != name))
        return match_api(
            name,
            self.table,
            passed_params=passed,
            keywords=keywords,
            aliases=tuple(a for a in aliases if a),
            same_object=self.same_object(name, canonical),
            target_platform=self.target_platform,
            torch_params=tuple(
                pname
                for pname, pkind, _default in self.api.params(canonical or name) or ()
                if pkind in ("pos_only", "pos_or_kw")
            ),
            torch_required=tuple(
                pname
                for pname, pkind, has_default in self.api.params(canonical or name) or ()
                if not has_default and pkind in ("pos_only", "pos_or_kw", "kw_only")
            ),
        )

    def verdict(
        self,
        name: str,
        passed: tuple[str, ...] = (),
        keywords: tuple[str, ...] = (),
        canonical: str = "",
    ) -> Match | None:
        """What a finding of ``name`` reports (its MindSpore column): the table's verdict, a
        same-name candidate where the table lacks the API or names a target of another
        kind; None for a name that is not a public API."""
        if not self.api.is_public(name) and (
            # torchaudio/torchtext are not indexed: a table row is proof enough
            name.startswith(("torch.", "torchvision.")) or self.table.lookup(name) is None
        ):
            return None
        m = self.match(name, passed, keywords, canonical)
        if m.status == "missing":
            return self.candidate(name, m)
        stale = self.stale_target(name, m)
        if stale:
            return self.candidate(name, m, stale)
        return self.undescribed(m)

    def undescribed(self, m: Match) -> Match:
        """A verdict resting only on rows that name a target without describing it (most of
        r1.10's: ``torch.from_numpy`` → ``mindspore.Tensor.from_numpy``, ``torch.nn.Module``
        → ``mindspore.nn.Cell``, r1.10 pytorch_api_mapping.md:58, :225) is an unverified
        counterpart, not a documented difference: that table marks a difference only by a
        diff page and leaves the description empty otherwise. The target stays the table's;
        the status says nobody compared it (``candidate``). A row of the same-named member
        was already settled as consistent when the table was read."""
        from apiscan.mapping.store import is_undescribed

        if m.status != "different" or not m.mindspore_api or not m.matched:
            return m
        rows = self.table.rows_for(m.matched)
        if not rows or not all(map(is_undescribed, rows)):
            return m
        note = (
            f"the {m.source_version} table names {m.mindspore_api} without describing the "
            "mapping: no difference is documented, none is ruled out (unverified)"
        )
        return replace(m, status="candidate", note=note)

    def finding(self, path: str, use: ApiUse) -> ApiFinding | None:
        api = self.api
        passed = self.passed_params(use)
        key = (use.api, passed, use.keywords, use.canonical)
        if key in self.memo:
            m = self.memo[key]
        else:
            m = self.verdict(use.api, passed, use.keywords, use.canonical)
            self.memo[key] = m
        if m is None:
            return ApiFinding(
                path,
                use.span,
                use.api,
                "unknown",
                None,
                use.confidence,
                (
                    f"not a public API of torch {api.version} (private, removed or misspelt)"
                    if use.api.startswith("torch.")
                    else f"not in apiscan's index of {use.api.partition('.')[0]} nor in the "
                    "mapping tables"
                ),
                use.usage,
                namespace_of(use.api),
                use.function,
                # what the call passes is the call's, known API or not (a download's URL
                # through a third-party re-export of torch's loader tells backbone weights
                # from a checkpoint)
                args=use.args,
            )
        canonical = use.canonical or api.canonical(use.api) or ""
        return ApiFinding(
            path=path,
            span=use.span,
            api=use.api,
            status=m.status,
            mindspore_api=m.mindspore_api,
            confidence=use.confidence,
            note=m.note,
            usage=use.usage,
            namespace=namespace_of(use.api),
            function=use.function,
            diff_url=m.diff_url,
            mapping_version=m.source_version,
            unsupported_params=m.unsupported_params,
            target_exists=m.target_exists,
            canonical=canonical,
            mindspore_apis=m.mindspore_apis,
            param_changes=m.param_changes,
            backends=m.backends,
            backend_gap=m.backend_gap,
            history=m.history,
            args=use.args,
        )
