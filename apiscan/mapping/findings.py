"""API uses become findings: mapping verdicts, memoised per (api, parameters passed)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from apiscan.model import ApiFinding, ApiUse, namespace_of

if TYPE_CHECKING:
    from apiscan.mapping.match import Match
    from apiscan.mapping.store import MappingTable
    from apiscan.resolve.torch_api import TorchApi


class Matcher:
    """Mapping verdicts, memoised per (api, parameters passed)."""

    def __init__(self, table: MappingTable, api: TorchApi) -> None:
        self.table = table
        self.api = api
        self.memo: dict[tuple[str, tuple[str, ...]], Match | None] = {}

    def candidate(self, api: str, missing: Match) -> Match:
        """A missing API with a same-name MindSpore API becomes a (unverified) candidate."""
        from apiscan.mapping.candidates import load_candidates

        index = load_candidates()
        spellings = [api, *self.api.spellings(api)[1:]]
        target = next((t for t in map(index.candidate, spellings) if t), None) if index else None
        if target is None:
            return missing
        note = (
            f"not in the mapping table; MindSpore {index.mindspore_version} has {target} "
            "of the same name (unverified: a same name does not prove the same behaviour)"
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

    def finding(self, path: str, use: ApiUse) -> ApiFinding | None:
        from apiscan.mapping.match import match_api

        api = self.api
        passed = self.passed_params(use)
        key = (use.api, passed)
        if key in self.memo:
            m = self.memo[key]
        else:
            m = None
            if api.is_public(use.api):
                m = match_api(use.api, self.table, passed_params=passed)
                if m.status == "missing":
                    for spelling in api.spellings(use.api)[1:]:
                        alt = match_api(spelling, self.table, passed_params=passed)
                        if alt.status != "missing":
                            m = alt
                            break
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
                f"not a public API of torch {api.version} (private, removed or misspelt)",
                use.usage,
                namespace_of(use.api),
                use.function,
            )
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
        )
