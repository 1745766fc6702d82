"""The Processing half: bind an implementation to every curated spec whose algorithm this QGIS has."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BindReport:
    """What `bind` did: tools bound (with the algorithm id used) and tools whose ids this QGIS lacks."""

    bound: dict[str, str] = field(default_factory=dict)
    missing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    reason: str = ""


def resolve_algorithm(ids) -> str | None:
    """The first of `ids` this QGIS has (ids moved between qgis: and native: across versions)."""
    from qgis.core import QgsApplication

    registry = QgsApplication.processingRegistry()
    return next((i for i in ids if registry.algorithmById(i) is not None), None)


def make_impl(spec, binding: dict, alg_id: str):
    """The implementation the registry calls: run_processing with this tool's spec, binding and algorithm."""

    def impl(ctx, **args):
        from .runner import run_processing

        return run_processing(spec, binding, alg_id, ctx, args)

    impl.__name__ = spec.name
    impl.algorithm_id = alg_id
    return impl


def bind(registry) -> BindReport:
    """Attach implementations to the registry's processing specs; starts QGIS headless when needed."""
    from ...function_lib.processing_specs import PROCESSING_BINDINGS
    from ..qgis_env import ensure_qgis

    report = BindReport()
    status = ensure_qgis()
    if not status:
        report.reason = status.reason
        return report
    for spec in registry.specs("processing"):
        alg_id = resolve_algorithm(spec.algorithm_ids)
        if alg_id is None or spec.name not in PROCESSING_BINDINGS:
            report.missing[spec.name] = spec.algorithm_ids
            continue
        registry.bind(spec.name, make_impl(spec, PROCESSING_BINDINGS[spec.name], alg_id))
        report.bound[spec.name] = alg_id
    return report
