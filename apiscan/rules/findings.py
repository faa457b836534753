"""Dynamic-shape hits become findings: the rule's words, severity by scope, backend support."""

from __future__ import annotations

from typing import TYPE_CHECKING

from apiscan.extract.records import ShapeHit
from apiscan.model import ShapeFinding

if TYPE_CHECKING:
    from apiscan.mapping.store import MappingTable
    from apiscan.resolve.torch_api import TorchApi


class ShapeFindings:
    """Dynamic-shape hits → findings: the rule's words, severity by scope, backend support."""

    def __init__(self, table: MappingTable, api: TorchApi) -> None:
        from apiscan.mapping.dynamic_shape import is_listed, supported_backends
        from apiscan.rules.registry import get_rule

        self.table, self.api = table, api
        self.get_rule, self.is_listed, self.backends = get_rule, is_listed, supported_backends

    def _target(self, torch_api: str, rule_targets: tuple[str, ...]) -> str | None:
        """The MindSpore counterpart: the mapping table's, else the rule's first listed one."""
        row = self.table.lookup(torch_api) if torch_api else None
        candidates = [*(row.ms_apis if row else ()), *rule_targets]
        for target in candidates:
            if self.is_listed(target):
                return target
        return candidates[0] if candidates else None

    def finding(self, path: str, hit: ShapeHit, scope: str) -> ShapeFinding:
        rule = self.get_rule(hit.rule)
        target = self._target(hit.api, tuple(rule.mindspore_apis))
        message = (
            rule.message.format(detail=hit.detail)
            if "{detail}" in rule.message
            else (f"{rule.message} ({hit.detail})" if hit.detail else rule.message)
        )
        return ShapeFinding(
            path=path,
            span=hit.span,
            rule=rule.id,
            name=rule.name,
            message=message,
            severity=rule.severity_by_scope[scope],
            scope=scope,
            function=hit.function,
            api=hit.api,
            suggestion=rule.suggestion,
            mindspore_api=target,
            backends=self.backends(target) if target else (),
            chain=hit.chain,
            inherited=hit.inherited,
            case=hit.case,
        )
