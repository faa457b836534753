"""API uses become findings: mapping verdicts, memoised per (api, parameters passed)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apiscan.model import ApiFinding, ApiUse, namespace_of

if TYPE_CHECKING:
    from apiscan.mapping.match import Match
    from apiscan.mapping.store import MappingTable
    from apiscan.resolve.torch_api import TorchApi


#: Namespaces where torch exposes a function of ``torch.`` a second time, as its own object.
_FUNCTIONAL_TWINS = ("torch.nn.functional.", "torch.special.")


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

    def candidate(self, api: str, missing: Match) -> Match:
        """A missing API with a same-name MindSpore API becomes a (unverified) candidate."""
        from apiscan.mapping.candidates import load_candidates

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
        if why == "same-name":
            note = (
                f"not in the mapping table; MindSpore {index.mindspore_version} has {target} "
                "of the same name and kind (unverified: a same name does not prove the same "
                "behaviour)"
            )
        else:
            note = (
                f"not in the mapping table; namespace move: {why}, where MindSpore "
                f"{index.mindspore_version} has {target} (unverified)"
            )
        return replace(
            missing, status="candidate", mindspore_api=target, note=note, target_exists=True
        )

    def passed_params(self, use: ApiUse) -> tuple[str, ...]:
        names = list(use.keywords)
        if use.positional:
            params = self.api.params(use.api) or ()
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

    def finding(self, path: str, use: ApiUse) -> ApiFinding | None:
        api = self.api
        passed = self.passed_params(use)
        key = (use.api, passed, use.keywords, use.canonical)
        if key in self.memo:
            m = self.memo[key]
        else:
            m = None
            if api.is_public(use.api) or (
                # torchaudio/torchtext are not indexed: a table row is proof enough
                not use.api.startswith(("torch.", "torchvision."))
                and self.table.lookup(use.api) is not None
            ):
                m = self.match(use.api, passed, use.keywords, use.canonical)
            if m is not None and m.status == "missing":
                m = self.candidate(use.api, m)
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
